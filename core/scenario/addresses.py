"""The addresses of `[uncertainty]`: which scenario figure a key names, and the checks
the loader runs on the table (DESIGN §7, "Inputs").

Keys are the format's dotted keys (`recovery.redo_apply_rate`, `path[2].rate`); a stage
may also be named (`path.LTO-4.rate`). Which figures can take a range is the field
table's `uncertain` column (`fields.py`): rates, sizes, times, shares and ratios that can
turn out differently; schedules, counts, choices and targets are decisions, not
measurements. Ranges themselves are parsed by `ranges.py`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import ScenarioError, UnitError
from ..units import parse_duration, parse_fraction, parse_rate, parse_ratio, parse_size
from .fields import RANGED_KINDS, SECTIONS, STAGE_FIELDS, FieldSpec
from .model import Scenario
from .ranges import check_contains, parse_range
from .values import describe_value

STAGE_INDEX = re.compile(r"^path\[(\d+)\]\.(\w+)$")
SECTIONS_WITH_INPUTS = ("database", "backup", "recovery")
_KIND_WORDS = {"int": "a count", "bool": "a yes/no setting", "choice": "a choice",
               "str": "text", "growth": "a growth rate", "margin": "a margin"}  # fmt: skip
END_PARSERS = {
    "size": parse_size,
    "rate": parse_rate,
    "duration": parse_duration,
    "fraction": parse_fraction,
    "ratio": parse_ratio,
    "float": float,
}
"""How the ends of a range are read, by the figure's kind."""


class KeyProblem(Exception):
    """A key of `[uncertainty]` that names no input: message and hint."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def spec_in(table: tuple[FieldSpec, ...], name: str) -> FieldSpec | None:
    return next((s for s in table if s.key == name), None)


def _field_problem(where: str, name: str, table: tuple[FieldSpec, ...], ranged: list[str]) -> None:
    """Raise the KeyProblem for a field that is unknown or has no range; None if fine."""
    spec = spec_in(table, name)
    dotted = f"{where}.{name}"
    if spec is None:
        close = difflib.get_close_matches(name, [s.key for s in table], n=1, cutoff=0.6)
        hint = f"did you mean '{where}.{close[0]}'?" if close else (
            "figures with a range here: " + ", ".join(ranged) if ranged else None)  # fmt: skip
        raise KeyProblem(f"unknown key '{dotted}'", hint)
    if spec.kind not in RANGED_KINDS:
        what = _KIND_WORDS.get(spec.kind, "setting")
        raise KeyProblem(
            f"'{dotted}' is {what}, not a figure that can be off by a range",
            "ranges apply to rates, sizes, times, shares and ratios",
        )
    if spec.policy:
        raise KeyProblem(
            f"'{dotted}' is a setting the customer chooses, not an uncertain figure",
            "give ranges to rates, sizes and times that can turn out differently",
        )


def resolve_key(key: str, scenario: Scenario) -> tuple[str, FieldSpec]:
    """The canonical key (`path[2].rate`) and field spec an `[uncertainty]` key names.

    Accepts `section.field`, `path[i].field` and `path.NAME.field` (NAME is a stage's
    name; it may contain dots). Raises KeyProblem with a "did you mean" where it can.
    """
    key = key.strip()
    m = STAGE_INDEX.match(key)
    if m:
        return _stage_key(f"path[{m.group(1)}]", _stage_at(int(m.group(1)), scenario),
                          m.group(2), scenario)  # fmt: skip
    if key.startswith("path."):
        stage_name, dot, name = key[len("path.") :].rpartition(".")
        if not dot or not stage_name:
            raise KeyProblem(
                f"'{key}' names no stage figure",
                "write path.NAME.rate (a stage by its name) or path[2].rate (by position)",
            )
        index = _stage_by_name(stage_name, scenario)
        return _stage_key(f"path.{stage_name}", index, name, scenario)
    return _section_key(key)


def _stage_at(index: int, scenario: Scenario) -> int:
    n = len(scenario.path)
    if index >= n:
        raise KeyProblem(
            f"the path has {n} stage(s); there is no path[{index}]",
            f"stages are numbered path[0] to path[{n - 1}] in restore order",
        )
    return index


def _stage_key(where: str, index: int, name: str, scenario: Scenario) -> tuple[str, FieldSpec]:
    _field_problem(where, name, STAGE_FIELDS, [s.key for s in STAGE_FIELDS if s.uncertain])
    st = scenario.path[index]
    if name == "hw_compression" and st.kind != "tape_drive":
        raise KeyProblem(
            f"stage {index} ({st.label}) is a {st.kind}: only tape drives have hardware compression"
        )
    return f"path[{index}].{name}", spec_in(STAGE_FIELDS, name)  # type: ignore[return-value]


def _section_key(key: str) -> tuple[str, FieldSpec]:
    section, dot, name = key.partition(".")
    if not dot:
        raise KeyProblem(
            f"'{key}' is not a scenario key",
            "write the dotted key, e.g. recovery.redo_apply_rate or path.LTO-8.rate",
        )
    if section == "targets":
        raise KeyProblem(
            f"'{key}' is a target the plan is measured against, not an uncertain figure"
        )
    if section not in SECTIONS_WITH_INPUTS:
        close = difflib.get_close_matches(section, [*SECTIONS_WITH_INPUTS, "path"], n=1)
        hint = f"did you mean '{close[0]}.{name}'?" if close else (
            "sections with figures: database, backup, path, recovery")  # fmt: skip
        raise KeyProblem(f"unknown section '{section}' in '{key}'", hint)
    table = SECTIONS[section]
    _field_problem(section, name, table, [s.dotted for s in table if s.uncertain])
    return key, spec_in(table, name)  # type: ignore[return-value]


def _stage_by_name(name: str, scenario: Scenario) -> int:
    exact = [i for i, st in enumerate(scenario.path) if st.label == name]
    if not exact:
        folded = name.casefold()
        exact = [i for i, st in enumerate(scenario.path) if st.label.casefold() == folded]
    if len(exact) == 1:
        return exact[0]
    labels = [st.label for st in scenario.path]
    if len(exact) > 1:
        raise KeyProblem(
            f"{len(exact)} stages are named '{name}'",
            "name the stage by its position instead: " + " or ".join(f"path[{i}]" for i in exact),
        )
    close = difflib.get_close_matches(name, labels, n=1, cutoff=0.5)
    hint = f"did you mean '{close[0]}'?" if close else "stages: " + ", ".join(labels)
    raise KeyProblem(f"no stage named '{name}' in the path", hint)


def table_key_for(key: str, scenario: Scenario) -> str:
    """How to write an input's key in `[uncertainty]`: a stage by its name when the name
    is unique (it survives reordering), else by position."""
    m = STAGE_INDEX.match(key)
    if not m:
        return key
    st = scenario.path[int(m.group(1))]
    if st.name and sum(1 for s in scenario.path if s.label == st.name) == 1:
        return f"path.{st.name}.{m.group(2)}"
    return key


def label_for(key: str, scenario: Scenario) -> str:
    """An input's name inside a sentence: the field table's `phrase`, a stage's prefixed
    by its label (`LTO-8: rate`)."""
    m = STAGE_INDEX.match(key)
    if m:
        spec = spec_in(STAGE_FIELDS, m.group(2))
        phrase = spec.phrase if spec else m.group(2).replace("_", " ")
        return f"{scenario.path[int(m.group(1))].label}: {phrase}"
    section, _, name = key.partition(".")
    spec = spec_in(SECTIONS.get(section, ()), name)
    return spec.phrase if spec else name.replace("_", " ")


def number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def value_at(key: str, scenario: Scenario) -> float | None:
    """The model value of a canonical key (`path[2].rate`), or None when it has none."""
    m = STAGE_INDEX.match(key)
    if m:
        obj: Any = scenario.path[int(m.group(1))]
        spec = spec_in(STAGE_FIELDS, m.group(2))
    else:
        section, _, name = key.partition(".")
        obj, spec = getattr(scenario, section), spec_in(SECTIONS[section], name)
    if spec is None or not spec.attr:
        return None
    return number(getattr(obj, spec.attr, None))


# ------------------------------------------------------------------------ loader hook


def flatten_table(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """`[uncertainty]` with quoted keys (`"path.LTO-4.rate" = …`) or nested tables
    (`recovery.redo_apply_rate = …` unquoted) as one flat dict of dotted keys."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping):
            out.update(flatten_table(value, dotted))
        else:
            out[dotted] = value
    return out


def check_uncertainty(scenario: Scenario, source: str, lines: Mapping[str, int]) -> dict[str, str]:
    """Validate the scenario's `[uncertainty]` table; returns it flat (key → text).

    Every error names the file, the line and the key, with a "did you mean" for a
    misspelt key or stage name.
    """
    table = scenario.uncertainty or {}
    seen: dict[str, str] = {}
    for tkey, text in table.items():
        try:
            key = _check_range(tkey, text, scenario, seen)
        except (KeyProblem, UnitError) as exc:
            dotted = f"uncertainty.{tkey}"
            line = lines.get(dotted) or lines.get("uncertainty")
            raise ScenarioError(exc.message, key=dotted, line=line, source=source,
                                hint=exc.hint) from None  # fmt: skip
        seen[key] = tkey
    return dict(table)


def _check_range(tkey: str, text: Any, scenario: Scenario, seen: Mapping[str, str]) -> str:
    """The canonical key of one `[uncertainty]` entry; KeyProblem or UnitError if bad."""
    key, spec = resolve_key(tkey, scenario)
    if key in seen:
        raise KeyProblem(
            f"gives a range for the same figure as '{seen[key]}'", "keep one of the two"
        )
    rng = parse_range(text, END_PARSERS[spec.kind])
    value = value_at(key, scenario)
    if key == "backup.compression_ratio" and value == 1.0:
        raise KeyProblem(
            "RMAN compression is off (ratio 1): there is no ratio to vary",
            "give the tape drives' hw_compression a range instead",
        )
    if value is None:
        raise KeyProblem(
            f"'{key}' is not set in the scenario, so there is no value to vary",
            "give the figure a value first, or remove the range",
        )
    check_contains(rng, value, lambda x, k=spec.kind: describe_value(k, x))
    return key


# ------------------------------------------------------------------------ editing


def table_without(scenario: Scenario, keys: Iterable[str]) -> dict[str, Any]:
    """The scenario's `[uncertainty]` without the ranges of `keys` (canonical or as
    written): what stays when imported measurements replace those figures."""
    drop = set(keys)
    out: dict[str, Any] = {}
    for tkey, text in (scenario.uncertainty or {}).items():
        try:
            canonical = resolve_key(tkey, scenario)[0]
        except KeyProblem:
            canonical = tkey
        if tkey not in drop and canonical not in drop:
            out[tkey] = text
    return out


def _raw_labels(raw_path: Any) -> list[str]:
    return [str(st.get("name") or st.get("kind") or "") for st in (raw_path or [])]


class _StageEdit:
    """A path before and after an edit, and where each old stage went (`moved`)."""

    def __init__(self, before_path: Any, after_path: Any, moved: Mapping[int, int | None]):
        self.before_path, self.after_path = before_path, after_path
        self.before, self.after = _raw_labels(before_path), _raw_labels(after_path)
        self.moved = dict(moved)

    def removed(self, index: int, j: int, name: str) -> bool:
        """The edit took the figure `name` off the stage (a catalog pick drops its rate)."""
        had = name in (self.before_path[index] or {})
        return had and name not in (self.after_path[j] or {})

    def by_position(self, index: int, name: str) -> str | None:
        """A key given by position follows its stage's position."""
        known = index < len(self.before)
        j = self.moved.get(index) if known else index
        if j is None or j >= len(self.after) or (known and self.removed(index, j, name)):
            return None
        return f"path[{j}].{name}"

    def by_name(self, label: str, name: str) -> str | None:
        """A key given by name follows the stage to its new name (or its position when
        the name is not unique)."""
        index = self.before.index(label)
        j = self.moved.get(index)
        if j is None or j >= len(self.after) or self.removed(index, j, name):
            return None
        new = self.after[j]
        if new and self.after.count(new) == 1 and "[" not in new:
            return f"path.{new}.{name}"
        return f"path[{j}].{name}"

    def follow(self, key: str) -> str | None:
        """The key after the edit; None when its stage or figure is gone. A key naming
        no single stage of the old path (another section, an unknown name) stays."""
        m = STAGE_INDEX.match(key)
        if m:
            return self.by_position(int(m.group(1)), m.group(2))
        if key.startswith("path."):
            label, _, name = key[len("path.") :].rpartition(".")
            if self.before.count(label) == 1:
                return self.by_name(label, name)
        return key


def follow_stage_edits(
    table: Mapping[str, Any],
    before_path: Any,
    after_path: Any,
    moved: Mapping[int, int | None] | None = None,
) -> dict[str, Any]:
    """`[uncertainty]` keys that still name the same stages after an edit of the path.

    `moved` maps each old stage index to its new one (None: removed); by default every
    stage keeps its place (a rename, a catalog pick). A key naming a stage by its old
    name follows the stage to its new name (or its position when the name is not unique);
    a key by position follows the stage; the keys of a removed stage go with it, and so
    does the range of a figure the edit removed (a catalog pick drops the stage's rate:
    its range was about the old figure).
    """
    if moved is None:
        moved = {i: i for i in range(len(_raw_labels(before_path)))}
    edit = _StageEdit(before_path, after_path, moved)
    out: dict[str, Any] = {}
    for key, value in table.items():
        target = edit.follow(key)
        if target is not None:
            out[target] = value
    return out
