"""The uncertain inputs of a scenario and their ranges (DESIGN §7, "Inputs").

Every figure of the model that can be off — a rate, a size, a time, a share, a ratio —
is an *input* with a range. The range comes from the scenario's `[uncertainty]` table
when it names the figure, else from where the figure came from (its provenance):

| provenance                                   | default range |
|----------------------------------------------|---------------|
| measured (imported, or a `measured` stage)   | ±10 %         |
| catalog datasheet                            | −30 %..+0 %   |
| catalog figure marked unverified (⚠)         | −50 %..+10 %  |
| typed by the user, or a format default       | ±0            |

Datasheets are optimistic, so for a catalog *time* (a load or locate time, an overhead)
the pessimistic side is the long one and the ends swap: +0 %..+30 % (unverified
−10 %..+50 %).

Keys are the format's dotted keys (`recovery.redo_apply_rate`, `path[2].rate`); a stage
may also be named (`path.LTO-4.rate`). Schedules (`backup.level0_every`, …), counts,
choices and targets are decisions, not measurements: they have no range. This module is
numpy-free; `apply_values` works on floats and arrays alike.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..catalog import Catalog, shipped_catalog
from ..errors import ScenarioError, UnitError
from ..scenario import SECTIONS, STAGE_FIELDS, FieldSpec, Scenario
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
from .ranges import ZERO, RangeSpec, check_contains, format_relative, parse_range, relative_range
from .result import InputRow

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
_STAGE_INDEX = re.compile(r"^path\[(\d+)\]\.(\w+)$")
_SECTIONS_WITH_INPUTS = ("database", "backup", "recovery")

DEFAULT_RANGES: dict[str, RangeSpec] = {
    "measured": relative_range(-0.10, 0.10),
    "catalog": relative_range(-0.30, 0.0),
    "unverified": relative_range(-0.50, 0.10),
    "typed": ZERO,
    "default": ZERO,
}
_TIME_DEFAULT_RANGES: dict[str, RangeSpec] = {
    "catalog": relative_range(0.0, 0.30),
    "unverified": relative_range(-0.10, 0.50),
}
PROVENANCE_WORDS = {
    "measured": "measured",
    "catalog": "catalog figure",
    "unverified": "unverified catalog figure",
    "typed": "typed in the scenario",
    "default": "format default",
}

_LABELS = {
    "database.size": "database size",
    "database.largest_file": "largest datafile",
    "database.redo_rate": "redo generation rate",
    "database.daily_change": "daily change",
    "backup.compression_ratio": "RMAN compression ratio",
    "backup.channel_init": "channel start-up",
    "recovery.detect": "declare / prepare time",
    "recovery.tape_recall": "tape recall time",
    "recovery.incremental_apply_rate": "incremental apply rate",
    "recovery.incremental_overhead": "overhead per incremental",
    "recovery.redo_apply_rate": "redo apply rate",
    "recovery.open": "open time",
    "recovery.incremental_size": "incremental size (override)",
    "recovery.redo_volume": "redo volume (override)",
}


@dataclass(frozen=True)
class Target:
    """Where an input lives in the Scenario: `section` ("database", "path", …), the
    stage index for path inputs, and the dataclass attribute (`rate_Bps`)."""

    section: str
    index: int | None
    attr: str


@dataclass(frozen=True)
class UncertainInput(InputRow):
    """One input with its range, in model units (bytes, bytes/s, seconds, fractions):
    the row a run reports (`InputRow`: key, label, value, ends, where the range came
    from) and the `target` it sets in the Scenario."""

    target: Target

    @property
    def is_zero(self) -> bool:
        return self.low == self.value == self.high

    def describe(self, x: float) -> str:
        return describe_value(self.kind, x)


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


_END_PARSERS = {
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


def _attr(obj: Any, spec: FieldSpec) -> str | None:
    attr = spec.key + _SUFFIX.get(spec.kind, "")
    return attr if hasattr(obj, attr) else None


def _field_problem(where: str, name: str, table: tuple[FieldSpec, ...], ranged: list[str]) -> None:
    """Raise the KeyProblem for a field that is unknown or has no range; None if fine."""
    spec = _spec(table, name)
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
    m = _STAGE_INDEX.match(key)
    if m:
        index, name = int(m.group(1)), m.group(2)
        n = len(scenario.path)
        if index >= n:
            raise KeyProblem(
                f"the path has {n} stage(s); there is no path[{index}]",
                f"stages are numbered path[0] to path[{n - 1}] in restore order",
            )
        _field_problem(f"path[{index}]", name, STAGE_FIELDS, _stage_fields())
        _stage_field_problem(scenario, index, name)
        return f"path[{index}].{name}", _spec(STAGE_FIELDS, name)  # type: ignore[return-value]
    if key.startswith("path."):
        rest = key[len("path.") :]
        stage_name, dot, name = rest.rpartition(".")
        if not dot or not stage_name:
            raise KeyProblem(
                f"'{key}' names no stage figure",
                "write path.NAME.rate (a stage by its name) or path[2].rate (by position)",
            )
        index = _stage_by_name(stage_name, scenario)
        _field_problem(f"path.{stage_name}", name, STAGE_FIELDS, _stage_fields())
        _stage_field_problem(scenario, index, name)
        return f"path[{index}].{name}", _spec(STAGE_FIELDS, name)  # type: ignore[return-value]
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
    if section not in _SECTIONS_WITH_INPUTS:
        close = difflib.get_close_matches(section, [*_SECTIONS_WITH_INPUTS, "path"], n=1)
        hint = f"did you mean '{close[0]}.{name}'?" if close else (
            "sections with figures: database, backup, path, recovery")  # fmt: skip
        raise KeyProblem(f"unknown section '{section}' in '{key}'", hint)
    table = SECTIONS[section]
    ranged = [f"{section}.{s.key}" for s in table if _is_ranged(f"{section}.{s.key}", s)]
    _field_problem(section, name, table, ranged)
    return key, _spec(table, name)  # type: ignore[return-value]


def _stage_field_problem(scenario: Scenario, index: int, name: str) -> None:
    st = scenario.path[index]
    if name == "hw_compression" and st.kind != "tape_drive":
        raise KeyProblem(
            f"stage {index} ({st.label}) is a {st.kind}: only tape drives have hardware compression"
        )


def _is_ranged(dotted: str, spec: FieldSpec) -> bool:
    return spec.kind in RANGED_KINDS and dotted not in POLICY_KEYS


def _stage_fields() -> list[str]:
    return [
        s.key for s in STAGE_FIELDS if s.kind in RANGED_KINDS and s.key not in STAGE_POLICY_FIELDS
    ]


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
    m = _STAGE_INDEX.match(key)
    if not m:
        return key
    st = scenario.path[int(m.group(1))]
    if st.name and sum(1 for s in scenario.path if s.label == st.name) == 1:
        return f"path.{st.name}.{m.group(2)}"
    return key


def label_for(key: str, scenario: Scenario) -> str:
    m = _STAGE_INDEX.match(key)
    if m:
        return f"{scenario.path[int(m.group(1))].label}: {m.group(2).replace('_', ' ')}"
    return _LABELS.get(key, key.partition(".")[2].replace("_", " "))


# ------------------------------------------------------------------------ provenance


def _is_unverified(text: str) -> bool:
    return "⚠" in text or "unverified" in text.lower()


def _catalog_origin(source: str, catalog: Catalog | None, kind: str, name: str | None) -> str:
    item = catalog.find(kind, name) if catalog is not None and name else None
    notes = item.notes if item is not None else ""
    return "unverified" if _is_unverified(source) or _is_unverified(notes) else "catalog"


_CATALOG_STAGE_KEYS = ("rate", "efficiency", "hw_compression", "max_rate")


def provenance(key: str, scenario: Scenario, catalog: Catalog | None = None) -> tuple[str, str]:
    """(origin, where in words) of an input's value: "measured", "catalog",
    "unverified", "typed" or "default"."""
    if key in scenario.provenance:
        return "measured", f"imported: {scenario.provenance[key]}"
    raw = scenario.raw
    m = _STAGE_INDEX.match(key)
    if m:
        i, name = int(m.group(1)), m.group(2)
        st = scenario.path[i]
        raw_path = raw.get("path") or []
        given = raw_path[i].get(name) if i < len(raw_path) else None
        if st.kind == "measured" and name == "rate":
            return "measured", "a measured stage (one observed rate for the whole path)"
        if given is None and st.source.startswith("catalog:") and name in _CATALOG_STAGE_KEYS:
            source = st.source[len("catalog:") :].strip()
            if name != "rate":
                # The datasheet's uncertainty is carried once, by the rate's range.
                return "typed", f"catalog ({source}); the rate's range covers it"
            return _catalog_origin(source, catalog, st.kind, st.name), source
        return ("typed", "typed in the scenario") if given is not None else (
            "default", "the format's default")  # fmt: skip
    section, _, name = key.partition(".")
    given = (raw.get(section) or {}).get(name)
    if key == "recovery.redo_apply_rate" and given is None:
        source = scenario.recovery.redo_apply_source
        if source.startswith("catalog:"):
            source = source[len("catalog:") :].strip()
            return _catalog_origin(
                source, catalog, "redo_apply", scenario.database.workload
            ), source
    sources = getattr(getattr(scenario, section, None), "sources", None)
    if given is None and isinstance(sources, Mapping) and name in sources:
        # A figure the engine filled in from the catalog (e.g. a suggested overhead).
        source = str(sources[name]).removeprefix("catalog:").strip()
        return ("unverified" if _is_unverified(source) else "catalog"), source
    if given is not None:
        return "typed", "typed in the scenario"
    return "default", "the format's default"


def default_range(origin: str, kind: str) -> RangeSpec:
    if kind == "duration" and origin in _TIME_DEFAULT_RANGES:
        return _TIME_DEFAULT_RANGES[origin]
    return DEFAULT_RANGES[origin]


# ------------------------------------------------------------------------ the inputs


def _candidates(scenario: Scenario) -> list[tuple[str, FieldSpec, Target, Any]]:
    """Every rangeable figure the scenario has: (key, spec, target, value or None)."""
    out: list[tuple[str, FieldSpec, Target, Any]] = []
    for section in _SECTIONS_WITH_INPUTS:
        obj = getattr(scenario, section)
        for spec in SECTIONS[section]:
            dotted = f"{section}.{spec.key}"
            attr = _attr(obj, spec)
            if attr is None or not _is_ranged(dotted, spec):
                continue
            out.append((dotted, spec, Target(section, None, attr), getattr(obj, attr)))
    for i, st in enumerate(scenario.path):
        for spec in STAGE_FIELDS:
            attr = _attr(st, spec)
            if attr is None or spec.kind not in RANGED_KINDS or spec.key in STAGE_POLICY_FIELDS:
                continue
            if spec.key == "hw_compression" and st.kind != "tape_drive":
                continue
            out.append((f"path[{i}].{spec.key}", spec, Target("path", i, attr), getattr(st, attr)))
    return out


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def parsed_table(scenario: Scenario) -> dict[str, tuple[str, RangeSpec]]:
    """The scenario's `[uncertainty]` by canonical key: (key as written, range).
    The loader validated it, so nothing here raises for a loaded scenario."""
    out: dict[str, tuple[str, RangeSpec]] = {}
    for tkey, text in (scenario.uncertainty or {}).items():
        key, spec = resolve_key(tkey, scenario)
        out[key] = (tkey, parse_range(text, _END_PARSERS[spec.kind]))
    return out


def uncertain_inputs(
    scenario: Scenario,
    catalog: Catalog | None = None,
    overrides: Mapping[str, str] | None = None,
) -> tuple[UncertainInput, ...]:
    """Every figure that is set (or has a range), with its range and where it came from.

    `overrides` maps canonical keys to range texts that win over the table (what the GUI
    shows while the user types, before the edit reaches the scenario).
    """
    catalog = shipped_catalog() if catalog is None else catalog
    table = parsed_table(scenario)
    for key, text in (overrides or {}).items():
        spec = _spec_of(key, scenario)
        table[key] = (table.get(key, (table_key_for(key, scenario), ZERO))[0],
                      parse_range(text, _END_PARSERS[spec.kind]))  # fmt: skip
    out: list[UncertainInput] = []
    for key, spec, target, raw_value in _candidates(scenario):
        value = _number(raw_value)
        given = table.get(key)
        if value is None or (value == 0 and given is None):
            continue
        origin, source = provenance(key, scenario, catalog)
        if origin == "default" and given is None:
            continue  # nobody gave it: a format default (efficiency 1) is not a figure
        if key == "backup.compression_ratio" and value == 1.0:
            continue  # RMAN compression off: nothing to vary
        default = default_range(origin, spec.kind)
        rng = given[1] if given else default
        low, high = rng.bounds(value)
        out.append(
            UncertainInput(
                key=key,
                label=label_for(key, scenario),
                kind=spec.kind,
                value=value,
                low=min(low, value),
                high=max(high, value),
                range_text=rng.text,
                origin="uncertainty" if given else origin,
                default_origin=origin,
                default_range=default.text,
                source=source,
                table_key=given[0] if given else table_key_for(key, scenario),
                target=target,
            )
        )
    return tuple(out)


def _spec_of(key: str, scenario: Scenario) -> FieldSpec:
    return resolve_key(key, scenario)[1]


def range_problem(key: str, text: str, scenario: Scenario) -> str | None:
    """Why a range text is not valid for an input (None when it is): for the GUI,
    which marks the cell while the user types."""
    try:
        canonical, spec = resolve_key(key, scenario)
        rng = parse_range(text, _END_PARSERS[spec.kind])
        value = _value_at(canonical, scenario)
        if value is not None:
            check_contains(rng, value, lambda x: describe_value(spec.kind, x))
    except KeyProblem as exc:
        return exc.message + (f" ({exc.hint})" if exc.hint else "")
    except (UnitError, ValueError) as exc:
        return str(exc)
    return None


def _value_at(key: str, scenario: Scenario) -> float | None:
    m = _STAGE_INDEX.match(key)
    if m:
        st = scenario.path[int(m.group(1))]
        spec = _spec(STAGE_FIELDS, m.group(2))
        return _number(getattr(st, _attr(st, spec) or "", None)) if spec else None
    section, _, name = key.partition(".")
    obj = getattr(scenario, section)
    spec = _spec(SECTIONS[section], name)
    return _number(getattr(obj, _attr(obj, spec) or "", None)) if spec else None


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

    def error(tkey: str, message: str, hint: str | None = None) -> ScenarioError:
        dotted = f"uncertainty.{tkey}"
        line = lines.get(dotted) or lines.get("uncertainty")
        return ScenarioError(message, key=dotted, line=line, source=source, hint=hint)

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
        try:
            rng = parse_range(text, _END_PARSERS[spec.kind])
        except UnitError as exc:
            raise error(tkey, exc.message, exc.hint) from None
        value = _value_at(key, scenario)
        if key == "backup.compression_ratio" and value == 1.0:
            raise error(
                tkey,
                "RMAN compression is off (ratio 1): there is no ratio to vary",
                "give the tape drives' hw_compression a range instead",
            )
        if value is None:
            raise error(
                tkey,
                f"'{key}' is not set in the scenario, so there is no value to vary",
                "give the figure a value first, or remove the range",
            )
        try:
            check_contains(rng, value, lambda x, k=spec.kind: describe_value(k, x))
        except UnitError as exc:
            raise error(tkey, exc.message, exc.hint) from None
    return dict(table)


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
    before, after = _raw_labels(before_path), _raw_labels(after_path)
    moved = dict(moved) if moved is not None else {i: i for i in range(len(before))}

    def removed(index: int, j: int, name: str) -> bool:
        had = name in (before_path[index] or {})
        return had and name not in (after_path[j] or {})

    def new_key(index: int, name: str) -> str | None:
        j = moved.get(index)
        if j is None or j >= len(after) or removed(index, j, name):
            return None
        label = after[j]
        if label and after.count(label) == 1 and "[" not in label:
            return f"path.{label}.{name}"
        return f"path[{j}].{name}"

    out: dict[str, Any] = {}
    for key, value in table.items():
        m = _STAGE_INDEX.match(key)
        if m:
            index, name = int(m.group(1)), m.group(2)
            j = moved.get(index) if index < len(before) else index
            if (
                j is not None
                and j < len(after)
                and not (index < len(before) and removed(index, j, name))
            ):
                out[f"path[{j}].{name}"] = value  # by position it was given, by position it stays
            continue
        if key.startswith("path."):
            label, _, name = key[len("path.") :].rpartition(".")
            if before.count(label) == 1:
                target = new_key(before.index(label), name)
                if target is not None:
                    out[target] = value
                continue
        out[key] = value
    return out


# ------------------------------------------------------------------------ applying draws


def apply_values(scenario: Scenario, values: Mapping[Target, Any]) -> Scenario:
    """A copy of the scenario with inputs replaced by `values` (floats, or numpy arrays
    of one value per trial: the engine computes on both)."""
    by_section: dict[str, dict[str, Any]] = {}
    by_stage: dict[int, dict[str, Any]] = {}
    for target, value in values.items():
        if target.section == "path":
            by_stage.setdefault(target.index or 0, {})[target.attr] = value
        else:
            by_section.setdefault(target.section, {})[target.attr] = value
    changes: dict[str, Any] = {
        section: replace(getattr(scenario, section), **attrs)
        for section, attrs in by_section.items()
    }
    if by_stage:
        changes["path"] = tuple(
            replace(st, **by_stage[i]) if i in by_stage else st
            for i, st in enumerate(scenario.path)
        )
    return replace(scenario, **changes) if changes else scenario


__all__ = [
    "DEFAULT_RANGES",
    "PROVENANCE_WORDS",
    "KeyProblem",
    "Target",
    "UncertainInput",
    "apply_values",
    "check_uncertainty",
    "default_range",
    "describe_value",
    "flatten_table",
    "follow_stage_edits",
    "format_relative",
    "label_for",
    "provenance",
    "range_problem",
    "resolve_key",
    "table_key_for",
    "table_without",
    "uncertain_inputs",
]
