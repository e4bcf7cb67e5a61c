"""Write a frontier point as a new scenario file, with a comment on every change."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..catalog import Catalog
from ..scenario import Scenario, dump_scenario, with_values
from .model import FixPoint

_HEADER = re.compile(r"^\[(\w+)\]$")
_STAGE = re.compile(r"^\[\[path\]\]$")
_KEY = re.compile(r"^([A-Za-z0-9_-]+)\s*=")


def changed_scenario(scenario: Scenario, point: FixPoint, catalog: Catalog | None) -> Scenario:
    """The scenario with every change of the point made (validated as a file is)."""
    return with_values(scenario, point.edits, catalog=catalog)


def _comments(point: FixPoint) -> dict[str, str]:
    """Dotted key → the change that sets it."""
    out: dict[str, str] = {}
    for c in point.changes:
        for key, value in c.edits.items():
            if value is not None:
                out.setdefault(key, c.words)
    return out


def annotate(text: str, comments: Mapping[str, str]) -> str:
    """Append `# what it takes: …` to each line whose dotted key has a comment."""
    section, stage = "", -1
    out = []
    for line in text.splitlines():
        if _STAGE.match(line):
            section, stage = "path", stage + 1
        elif m := _HEADER.match(line):
            section = m.group(1)
        elif m := _KEY.match(line):
            key = m.group(1)
            dotted = f"path[{stage}].{key}" if section == "path" else (
                f"{section}.{key}" if section else key)  # fmt: skip
            if dotted in comments:
                line = f"{line}  # what it takes: {comments[dotted]}"
        out.append(line)
    return "\n".join(out) + "\n"


def annotated_scenario_text(
    scenario: Scenario, point: FixPoint, currency: str, catalog: Catalog | None
) -> str:
    changed = changed_scenario(scenario, point, catalog)
    head = [
        f"# What it takes: {len(point.changes)} change(s), {point.cost.text(currency)};",
        f"# worst-case recovery then {point.recovery_s / 3600:.2f} h, verdict {point.verdict}.",
    ]
    head += [f"#   - {c.words}" for c in point.changes]
    head += [f"#     ({note})" for c in point.changes for note in c.notes]
    return "\n".join(head) + "\n" + annotate(dump_scenario(changed), _comments(point))
