"""The key tables of docs/scenario-format.md, generated from the field table.

    python3 dev.py docs                                        # rewrite the file
    .venv/bin/python -m rtoplanner.core.scenario.docs --check  # exit 1 when it is stale

The file's prose is kept; the text between `<!-- BEGIN GENERATED name -->` and
`<!-- END GENERATED name -->` is replaced: `keys` (every key, section by section) and
`ranges` (every key's bound with its reason).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

from ..bounds import (
    GROWTH_COMPOUND,
    GROWTH_LINEAR,
    RISK_MARGIN_DURATION,
    RISK_MARGIN_FRACTION,
    Bound,
    show_bound_value,
)
from ..units import format_duration, format_fraction, format_rate, format_size
from .fields import FIELDS, STAGE_KINDS, FieldSpec
from .model import Backup, Database, Recovery, Scenario, Stage, Targets

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md"
_MODEL = {"": Scenario, "database": Database, "backup": Backup, "path": Stage,
          "recovery": Recovery, "targets": Targets}  # fmt: skip
_HEADINGS = {"": "Top level", "path": "`[[path]]` (one table per stage)"}
_TWO_BOUNDS = {
    "margin": ((RISK_MARGIN_FRACTION, " of the RTO"), (RISK_MARGIN_DURATION, " as a duration")),
    "growth": ((GROWTH_COMPOUND, "/y"), (GROWTH_LINEAR, "/y")),
}
_BLOCK = re.compile(r"(<!-- BEGIN GENERATED (\w+) -->\n).*?(<!-- END GENERATED \2 -->)", re.S)


def model_default(spec: FieldSpec) -> object:
    """The model's default for the key's attribute (None when it has none)."""
    cls = _MODEL[spec.section]
    for f in dataclasses.fields(cls):
        if f.name == spec.attr and f.default is not dataclasses.MISSING:
            return f.default
    return None


def _quantity(kind: str, value: float) -> str:
    shown = {
        "size": format_size,
        "rate": format_rate,
        "duration": lambda v: format_duration(v) if v else "0 s",
        "fraction": format_fraction,
    }
    return shown[kind](value) if kind in shown else f"{value:g}"


def default_text(spec: FieldSpec) -> str:
    """The key's default in words: the entry's own, else the model's."""
    if spec.default or spec.required:
        return spec.default
    value = model_default(spec)
    return spec.unset if value is None else _value_words(spec, value)


def _value_words(spec: FieldSpec, value: Any) -> str:
    """A model default in words: a yes/no, a choice (`"empty"` when blank), a quantity."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"`{value}`" if value else "empty"
    return _quantity(spec.kind, value)


def _kind(spec: FieldSpec) -> str:
    if spec.kind != "choice":
        return spec.kind
    if spec.choices == STAGE_KINDS:
        return "choice (a stage kind, below)"
    return f"choice ({' / '.join(spec.choices)})"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def keys_tables() -> str:
    """Every key, one table per section, in the order a file writes them."""
    out = []
    for section in ("", "database", "backup", "path", "recovery", "targets"):
        heading = _HEADINGS.get(section, f"`[{section}]`")
        out += [f"### {heading}", "", "| key | in the app | kind | default | help |",
                "|---|---|---|---|---|"]  # fmt: skip
        for spec in (s for s in FIELDS if s.section == section):
            default = "**required**" if spec.required else _cell(default_text(spec))
            out.append(f"| `{spec.key}` | {spec.label} | {_kind(spec)} | {default} | "
                       f"{_cell(spec.help)} |")  # fmt: skip
        out.append("")
    out.append("Stage kinds: " + ", ".join(f"`{k}`" for k in STAGE_KINDS))
    return "\n".join(out) + "\n"


def _from_to(bound: Bound, suffix: str = "") -> tuple[str, str]:
    low = "" if bound.low is None else (
        f"{'>' if bound.low_open else '≥'} {show_bound_value(bound.low, bound.unit)}")  # fmt: skip
    high = "" if bound.high is None else f"≤ {show_bound_value(bound.high, bound.unit)}{suffix}"
    return low, high


def _range_row(spec: FieldSpec) -> str | None:
    if spec.kind in _TWO_BOUNDS:
        (b1, s1), (b2, s2) = _TWO_BOUNDS[spec.kind]
        low, high1 = _from_to(b1, s1)
        high = f"{high1}, or {_from_to(b2, s2)[1]}"
        why = f"{b1.why}; {b2.why}"
    elif spec.bound is not None:
        (low, high), why = _from_to(spec.bound), spec.bound.why
    else:
        return None
    return f"| `{spec.dotted}` | {low} | {high} | {why} |"


def ranges_table() -> str:
    rows = [row for row in map(_range_row, FIELDS) if row]
    return "\n".join(["| Key | From | To | Why |", "|---|---|---|---|", *rows]) + "\n"


GENERATORS = {"keys": keys_tables, "ranges": ranges_table}


def render(text: str) -> str:
    """The document with each generated block replaced by what the table says now."""

    def block(m: re.Match[str]) -> str:
        return m.group(1) + GENERATORS[m.group(2)]() + m.group(3)

    return _BLOCK.sub(block, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    parser.add_argument("path", nargs="?", type=Path, default=DOC)
    args = parser.parse_args(argv)
    text = args.path.read_text(encoding="utf-8")
    new = render(text)
    if args.check:
        if new != text:
            print(f"{args.path} is stale: run python3 dev.py docs", file=sys.stderr)
            return 1
        return 0
    if new != text:
        args.path.write_text(new, encoding="utf-8")
        print(f"{args.path}: key tables regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
