"""Write a frontier point as a new scenario file, with a comment on every change."""

from __future__ import annotations

from collections.abc import Mapping

from ..catalog import Catalog
from ..scenario import Scenario, dump_scenario, with_values
from ..scenario.lines import key_lines
from ..toml_edit import merge_edits
from .model import FixPoint


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
    """Append `# what it takes: …` to the line of each dotted key that has a comment (lines
    as TOML counts them, found by the scenario's key-line map: a key inside a multi-line
    string or a table header with its own comment is no obstacle)."""
    lines = text.split("\n")
    where = key_lines(text)
    for dotted, words in comments.items():
        no = where.get(dotted)
        if no is None:
            continue
        line = lines[no - 1]
        end = "\r" if line.endswith("\r") else ""
        lines[no - 1] = f"{line.removesuffix(end)}  # what it takes: {words}{end}"
    out = "\n".join(lines)
    return out if out.endswith("\n") else out + "\n"


def annotated_scenario_text(
    scenario: Scenario,
    point: FixPoint,
    currency: str,
    catalog: Catalog | None,
    original: str | None = None,
) -> str:
    """The point's scenario as a file: a header listing the changes, a comment on every
    line a change sets. With the source file's text (`original`), the file keeps every
    comment and its layout and only the changed values are edited (as the GUI's Save
    does: core/toml_edit.py); without it, the canonical form."""
    changed = changed_scenario(scenario, point, catalog)
    text = dump_scenario(changed)
    if original is not None:
        text = merge_edits(original, dump_scenario(scenario), text)
    head = [
        f"# What it takes: {len(point.changes)} change(s), {point.cost.text(currency)};",
        f"# worst-case recovery then {point.recovery_s / 3600:.2f} h, verdict {point.verdict}.",
    ]
    head += [f"#   - {c.words}" for c in point.changes]
    head += [f"#     ({note})" for c in point.changes for note in c.notes]
    return "\n".join(head) + "\n" + annotate(text, _comments(point))
