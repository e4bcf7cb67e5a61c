"""The figures of a scenario by address, and the `[uncertainty]` / `[provenance]` tables
that name them (DESIGN §10, §13).

A figure's address is its dotted key (`recovery.redo_apply_rate`, `path[2].rate`); a stage
may also be named (`path.LTO-4.rate`). Figures the catalog adds have keys of their own
(`path[0].load_time`, `backup.compress_rate`: `provenance.EXTRA_FIGURES`). Schedules,
counts, choices and targets are decisions, not measurements: they have no range.

This is part of the scenario format: the loader checks both tables with it (every error
names the file, the line and the key), the editor keeps their keys on the stages they
name when the path is edited, and the risk model (`core/uncertainty/inputs.py`) reads
the ranges through it. It imports nothing of the risk model.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..bounds import Bound
from ..catalog import Catalog
from ..errors import ScenarioError, UnitError
from ..units import (
    format_duration,
    format_fraction,
    format_rate,
    format_size,
    parse_duration,
    parse_fraction,
    parse_rate,
    parse_ratio,
    parse_size,
)
from .fields import SECTIONS, STAGE_FIELDS, FieldSpec
from .model import Scenario
from .provenance import (
    EXTRA_FIGURES,
    KIND_WORDS,
    Provenance,
    extra_figure,
    parse_provenance,
    prior_of,
)
from .ranges import check_contains, parse_range

RANGED_KINDS = ("size", "rate", "duration", "fraction", "ratio", "float")
"""Field kinds that are quantities a range can apply to."""

POLICY_KEYS = frozenset(
    {
        "backup.level0_every",
        "backup.level1_every",
        "backup.archivelog_every",
        "backup.log_switch",
        "backup.offsite_delay",
        "backup.transport_lag",
        "backup.section_size",
    }
)
"""Schedule and configuration figures the customer sets: no range."""

STAGE_POLICY_FIELDS = frozenset({"backup_rate", "restore_rate", "write_factor"})
"""Stage keys without a range: the backup direction only, or a configuration."""

_KIND_WORDS = {"int": "a count", "bool": "a yes/no setting", "choice": "a choice",
               "str": "text", "growth": "a growth rate", "margin": "a margin"}  # fmt: skip
_SUFFIX = {"size": "_bytes", "rate": "_Bps", "duration": "_s"}
STAGE_INDEX = re.compile(r"^path\[(\d+)\]\.(\w+)$")
SECTIONS_WITH_INPUTS = ("database", "backup", "recovery")


def describe_value(kind: str, x: float, binary: bool = False) -> str:
    """A value of a field kind in words (`140 MB/s`, `4 h 10 min`, `5 %`)."""
    if kind == "size":
        return format_size(x, binary=binary)
    if kind == "rate":
        return format_rate(x, binary=binary)
    if kind == "duration":
        return format_duration(x)
    if kind == "fraction":
        return format_fraction(x)
    return f"{x:.4g}"


END_PARSERS = {
    "size": parse_size,
    "rate": parse_rate,
    "duration": parse_duration,
    "fraction": parse_fraction,
    "ratio": parse_ratio,
    "float": float,
}


# ------------------------------------------------------------------------ keys


class KeyProblem(Exception):
    """A key of `[uncertainty]` that names no input: message and hint."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def _spec(table: tuple[FieldSpec, ...], name: str) -> FieldSpec | None:
    return next((s for s in table if s.key == name), None)


def figure_fields(section: str) -> tuple[FieldSpec, ...]:
    """The keys of a section that can hold a figure: the format's, then the figures only
    the catalog gives (`provenance.EXTRA_FIGURES`)."""
    base = STAGE_FIELDS if section == "path" else SECTIONS[section]
    return base + tuple(f.spec for f in EXTRA_FIGURES.get(section, ()))


def figure_attr(obj: Any, spec: FieldSpec, section: str) -> str | None:
    extra = extra_figure(section, spec.key)
    attr = extra.attr if extra is not None else spec.key + _SUFFIX.get(spec.kind, "")
    return attr if hasattr(obj, attr) else None


def _field_problem(where: str, name: str, table: tuple[FieldSpec, ...], ranged: list[str]) -> None:
    """Raise the KeyProblem for a field that is unknown or has no range; None if fine."""
    spec = _spec(table, name)
    dotted = f"{where}.{name}"
    if spec is None:
        close = _close_matches(name, [s.key for s in table], n=1, cutoff=0.6)
        hint = f"did you mean '{where}.{close[0]}'?" if close else (
            "figures with a range here: " + ", ".join(ranged) if ranged else None)  # fmt: skip
        raise KeyProblem(f"unknown key '{dotted}'", hint)
    if spec.kind not in RANGED_KINDS:
        what = _KIND_WORDS.get(spec.kind, "setting")
        raise KeyProblem(
            f"'{dotted}' is {what}, not a figure that can be off by a range",
            "ranges apply to rates, sizes, times, shares and ratios",
        )
    if dotted in POLICY_KEYS or (where.startswith("path") and name in STAGE_POLICY_FIELDS):
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
        return _indexed_stage_key(int(m.group(1)), m.group(2), scenario)
    if key.startswith("path."):
        return _named_stage_key(key, scenario)
    return _section_key(key)


def _indexed_stage_key(index: int, name: str, scenario: Scenario) -> tuple[str, FieldSpec]:
    """`path[i].field`: the stage must exist."""
    n = len(scenario.path)
    if index >= n:
        raise KeyProblem(
            f"the path has {n} stage(s); there is no path[{index}]",
            f"stages are numbered path[0] to path[{n - 1}] in restore order",
        )
    return _stage_figure(f"path[{index}]", index, name, scenario)


def _named_stage_key(key: str, scenario: Scenario) -> tuple[str, FieldSpec]:
    """`path.NAME.field` (NAME may hold dots: the field is after the last one)."""
    stage_name, dot, name = key[len("path.") :].rpartition(".")
    if not dot or not stage_name:
        raise KeyProblem(
            f"'{key}' names no stage figure",
            "write path.NAME.rate (a stage by its name) or path[2].rate (by position)",
        )
    index = _stage_by_name(stage_name, scenario)
    return _stage_figure(f"path.{stage_name}", index, name, scenario)


def _stage_figure(where: str, index: int, name: str, scenario: Scenario) -> tuple[str, FieldSpec]:
    """The canonical key and spec of a stage's figure, once the stage is found."""
    _field_problem(where, name, figure_fields("path"), _stage_fields())
    _stage_field_problem(scenario, index, name)
    return f"path[{index}].{name}", _spec(figure_fields("path"), name)  # type: ignore[return-value]


def _section_key(key: str) -> tuple[str, FieldSpec]:
    """`section.field` of a section with figures (not a target)."""
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
        raise _unknown_section(section, name, key)
    table = figure_fields(section)
    ranged = [f"{section}.{s.key}" for s in table if is_ranged(f"{section}.{s.key}", s)]
    _field_problem(section, name, table, ranged)
    return key, _spec(table, name)  # type: ignore[return-value]


def _unknown_section(section: str, name: str, key: str) -> KeyProblem:
    close = _close_matches(section, [*SECTIONS_WITH_INPUTS, "path"], n=1)
    hint = f"did you mean '{close[0]}.{name}'?" if close else (
        "sections with figures: database, backup, path, recovery")  # fmt: skip
    return KeyProblem(f"unknown section '{section}' in '{key}'", hint)


_TAPE_ONLY = {
    "hw_compression": "have hardware compression",
    "load_time": "load and locate",
    "locate_time": "load and locate",
}
"""Stage fields only a tape drive has, and what only tape drives do."""


def _stage_field_problem(scenario: Scenario, index: int, name: str) -> None:
    st = scenario.path[index]
    if name in _TAPE_ONLY and st.kind != "tape_drive":
        raise KeyProblem(
            f"stage {index} ({st.label}) is a {st.kind}: only tape drives {_TAPE_ONLY[name]}"
        )


def is_ranged(dotted: str, spec: FieldSpec) -> bool:
    return spec.kind in RANGED_KINDS and dotted not in POLICY_KEYS


def _stage_fields() -> list[str]:
    return [
        s.key for s in figure_fields("path")
        if s.kind in RANGED_KINDS and s.key not in STAGE_POLICY_FIELDS
    ]  # fmt: skip


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
    close = _close_matches(name, labels, n=1, cutoff=0.5)
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


# ------------------------------------------------------------------------ bounds


_SHARE = Bound(0, 1, "a share lies between 0 and 100 %", unit="%")


def key_bound(spec: FieldSpec) -> Bound:
    """The bounds every end of a range and every draw of the figure is held to: the
    key's own (`FieldSpec.bound`), above zero for a figure that must be positive, and
    0..100 % for a share."""
    if spec.kind == "fraction" and (spec.bound is None or spec.bound.high is None):
        low_open = spec.positive or bool(spec.bound and spec.bound.low_open)
        return Bound(0, 1, _SHARE.why, low_open, "%")
    bound = spec.bound or Bound(0, None, "")
    if spec.positive and not bound.low_open and (bound.low or 0) <= 0:
        why = bound.why or "it must be greater than zero"
        return Bound(0, bound.high, why, True, bound.unit)
    return bound


def clip_ends(low: float, high: float, bound: Bound) -> tuple[float, float]:
    """A default range's ends cut at the key's bounds (an estimate's +25 % on an
    efficiency of 90 % stops at 100 %)."""
    top = math.inf if bound.high is None else bound.high
    bottom = bound.low or 0.0
    return min(max(low, bottom), top), min(max(high, bottom), top)


def check_ends(low: float, high: float, spec: FieldSpec) -> None:
    """UnitError when an end of a written range lies outside the key's bounds."""
    bound = key_bound(spec)
    for which, end in (("low", low), ("high", high)):
        try:
            bound.check(end, describe_value(spec.kind, end))
        except UnitError as exc:
            raise UnitError(
                f"the {which} end {describe_value(spec.kind, end)} is out of range: "
                f"{bound.describe()}" + (f" ({bound.why})" if bound.why else ""),
                hint="keep both ends inside the figure's own bounds",
            ) from exc


def as_number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def spec_of(key: str, scenario: Scenario) -> FieldSpec:
    return resolve_key(key, scenario)[1]


def range_problem(key: str, text: str, scenario: Scenario) -> str | None:
    """Why a range text is not valid for an input (None when it is): for the GUI,
    which marks the cell while the user types."""
    try:
        canonical, spec = resolve_key(key, scenario)
        rng = parse_range(text, END_PARSERS[spec.kind])
        value = _value_at(canonical, scenario)
        if value is not None:
            check_contains(rng, value, lambda x: describe_value(spec.kind, x))
            check_ends(*rng.bounds(value), spec)
    except KeyProblem as exc:
        return exc.message + (f" ({exc.hint})" if exc.hint else "")
    except (UnitError, ValueError) as exc:
        return str(exc)
    return None


def _value_at(key: str, scenario: Scenario) -> float | None:
    m = STAGE_INDEX.match(key)
    if m:
        return _figure_value(scenario.path[int(m.group(1))], "path", m.group(2))
    section, _, name = key.partition(".")
    return _figure_value(getattr(scenario, section), section, name)


def _figure_value(obj: Any, section: str, name: str) -> float | None:
    """The figure `name` of a section (or stage) object as a number; None: not a figure."""
    spec = _spec(figure_fields(section), name)
    return as_number(getattr(obj, figure_attr(obj, spec, section) or "", None)) if spec else None


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


class _Refusal:
    """Builds the loader's one-line errors for a table (`uncertainty`, `provenance`)."""

    def __init__(self, table: str, source: str, lines: Mapping[str, int]) -> None:
        self.table, self.source, self.lines = table, source, lines

    def __call__(self, tkey: str, message: str, hint: str | None = None) -> ScenarioError:
        dotted = f"{self.table}.{tkey}"
        line = self.lines.get(dotted) or self.lines.get(self.table)
        return ScenarioError(message, key=dotted, line=line, source=self.source, hint=hint)


def _check_range(
    tkey: str, key: str, spec: FieldSpec, text: Any, scenario: Scenario, error: _Refusal
) -> None:
    """One `[uncertainty]` entry: a range, around a value that is set, inside bounds."""
    try:
        rng = parse_range(text, END_PARSERS[spec.kind])
    except UnitError as exc:
        raise error(tkey, exc.message, exc.hint) from None
    value = _value_at(key, scenario)
    if key == "backup.compression_ratio" and value == 1.0:
        raise error(tkey, "RMAN compression is off (ratio 1): there is no ratio to vary",
                    "give the tape drives' hw_compression a range instead")  # fmt: skip
    if value is None:
        raise error(tkey, f"'{key}' is not set in the scenario, so there is no value to vary",
                    "give the figure a value first, or remove the range")  # fmt: skip
    try:
        check_contains(rng, value, lambda x, k=spec.kind: describe_value(k, x))
        check_ends(*rng.bounds(value), spec)
    except UnitError as exc:
        raise error(tkey, exc.message, exc.hint) from None


def check_uncertainty(scenario: Scenario, source: str, lines: Mapping[str, int]) -> dict[str, str]:
    """Validate the scenario's `[uncertainty]` table; returns it flat (key → text).

    Every error names the file, the line and the key, with a "did you mean" for a
    misspelt key or stage name; an end outside the key's bounds is refused with them.
    """
    table = scenario.uncertainty or {}
    error = _Refusal("uncertainty", source, lines)
    seen: dict[str, str] = {}
    for tkey, text in table.items():
        try:
            key, spec = resolve_key(tkey, scenario)
        except KeyProblem as exc:
            raise error(tkey, exc.message, exc.hint) from None
        if key in seen:
            raise error(tkey, f"gives a range for the same figure as '{seen[key]}'",
                        "keep one of the two")  # fmt: skip
        seen[key] = tkey
        _check_range(tkey, key, spec, text, scenario, error)
    return dict(table)


def _check_stated(tkey: str, p: Provenance, scenario: Scenario, catalog: Catalog | None,
                  error: _Refusal) -> None:  # fmt: skip
    """One `[provenance]` entry that states a kind: it names a figure that is set, and a
    catalog or class default has a prior for it."""
    try:
        key = resolve_key(tkey, scenario)[0]
    except KeyProblem as exc:
        raise error(tkey, exc.message, exc.hint) from None
    if _value_at(key, scenario) is None:
        raise error(tkey, f"'{key}' is not set in the scenario, so it has no provenance",
                    "give the figure a value first, or remove the entry")  # fmt: skip
    if p.kind in ("catalog", "default") and prior_of(key, scenario, catalog) is None:
        raise error(
            tkey,
            f"the catalog has no {KIND_WORDS[p.kind]} prior for '{key}'",
            'mark it measured, estimate or exact (e.g. "estimate", "measured: drill 3")',
        )


def check_provenance(
    scenario: Scenario, source: str, lines: Mapping[str, int], catalog: Catalog | None = None
) -> None:
    """Validate the `[provenance]` entries that state a kind (`"exact: …"`, `"measured
    ±15%: …"`, `"estimate"`); other texts keep their old meaning (imported) unchecked."""
    error = _Refusal("provenance", source, lines)
    for tkey, text in (scenario.provenance or {}).items():
        try:
            p = parse_provenance(text)
        except UnitError as exc:
            raise error(tkey, exc.message, exc.hint) from None
        if not p.legacy:
            _check_stated(tkey, p, scenario, catalog, error)


# ------------------------------------------------------------------------ editing


def table_without(scenario: Scenario, keys: Iterable[str]) -> dict[str, Any]:
    """The scenario's `[uncertainty]` without the ranges of `keys` (canonical or as
    written): what stays when imported measurements replace those figures."""
    drop = set(keys)
    table = scenario.uncertainty or {}
    return {t: text for t, text in table.items() if not {t, _canonical(t, scenario)} & drop}


def _canonical(tkey: str, scenario: Scenario) -> str:
    """A key of `[uncertainty]` as the scenario's inputs name it (itself when none)."""
    try:
        return resolve_key(tkey, scenario)[0]
    except KeyProblem:
        return tkey


def _raw_labels(raw_path: Any) -> list[str]:
    return [str(st.get("name") or st.get("kind") or "") for st in (raw_path or [])]


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
    edit = _PathEdit(before_path, after_path, moved)
    out: dict[str, Any] = {}
    for key, value in table.items():
        target = edit.follow(key)
        if target is not None:
            out[target] = value
    return out


class _PathEdit:
    """An edit of the path: the stages' raw tables before and after, and where each went."""

    def __init__(
        self, before_path: Any, after_path: Any, moved: Mapping[int, int | None] | None
    ) -> None:
        self.before_path, self.after_path = before_path, after_path
        self.before, self.after = _raw_labels(before_path), _raw_labels(after_path)
        self.moved = dict(moved) if moved is not None else {i: i for i in range(len(self.before))}

    def follow(self, key: str) -> str | None:
        """The key that names the same stage figure after the edit (None: it goes)."""
        m = STAGE_INDEX.match(key)
        if m:
            return self.by_position(int(m.group(1)), m.group(2))
        if key.startswith("path."):
            label, _, name = key[len("path.") :].rpartition(".")
            if self.before.count(label) == 1:
                return self.by_name(self.before.index(label), name)
        return key

    def by_position(self, index: int, name: str) -> str | None:
        """By position it was given, by position it stays (at the stage's new place)."""
        j = self.moved.get(index) if index < len(self.before) else index
        if j is None or j >= len(self.after):
            return None
        if index < len(self.before) and self.removed(index, j, name):
            return None
        return f"path[{j}].{name}"

    def by_name(self, index: int, name: str) -> str | None:
        """A key naming stage `index` by its name follows the stage (None: it went)."""
        j = self.moved.get(index)
        if j is None or j >= len(self.after) or self.removed(index, j, name):
            return None
        return self.stage_key(j, name)

    def stage_key(self, j: int, name: str) -> str:
        """Stage j's key after the edit: by its name when unique, else by position."""
        label = self.after[j]
        if label and self.after.count(label) == 1 and "[" not in label:
            return f"path.{label}.{name}"
        return f"path[{j}].{name}"

    def removed(self, index: int, j: int, name: str) -> bool:
        """Whether the edit removed figure `name` from the stage (old index, new j)."""
        had = name in (self.before_path[index] or {})
        return had and name not in (self.after_path[j] or {})


def _close_matches(
    word: str, possibilities: list[str], n: int = 3, cutoff: float = 0.6
) -> list[str]:
    """`difflib.get_close_matches`, imported when a name is not found (a few ms of every
    command's start-up otherwise)."""
    import difflib

    return difflib.get_close_matches(word, possibilities, n=n, cutoff=cutoff)
