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

Which figures are inputs is the field table's `uncertain` column (core/scenario/fields.py):
schedules (`backup.level0_every`, …), counts, choices and targets are decisions, not
measurements, and have no range. The keys of `[uncertainty]` and the loader's checks of
them (`resolve_key`, `check_uncertainty`, …) are the scenario format's own:
core/scenario/addresses.py, re-exported here. This module is numpy-free; `apply_values`
works on floats and arrays alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..catalog import Catalog, shipped_catalog
from ..errors import UnitError
from ..scenario import SECTIONS, STAGE_FIELDS, FieldSpec, Scenario
from ..scenario.addresses import (
    END_PARSERS,
    SECTIONS_WITH_INPUTS,
    STAGE_INDEX,
    KeyProblem,
    check_uncertainty,
    flatten_table,
    follow_stage_edits,
    label_for,
    number,
    resolve_key,
    table_key_for,
    table_without,
    value_at,
)
from ..scenario.ranges import (
    ZERO,
    RangeSpec,
    check_contains,
    format_relative,
    parse_range,
    relative_range,
)
from ..scenario.values import describe_value
from .result import InputRow

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
    m = STAGE_INDEX.match(key)
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
    """(canonical key, spec, target, model value) of every figure that can take a range:
    the field table's uncertain keys, per section and per stage."""
    out: list[tuple[str, FieldSpec, Target, Any]] = []
    for section in SECTIONS_WITH_INPUTS:
        obj = getattr(scenario, section)
        for spec in SECTIONS[section]:
            if spec.uncertain and spec.attr:
                target = Target(section, None, spec.attr)
                out.append((spec.dotted, spec, target, getattr(obj, spec.attr)))
    for i, st in enumerate(scenario.path):
        for spec in STAGE_FIELDS:
            if not spec.uncertain or not spec.attr:
                continue
            if spec.key == "hw_compression" and st.kind != "tape_drive":
                continue
            target = Target("path", i, spec.attr)
            out.append((f"path[{i}].{spec.key}", spec, target, getattr(st, spec.attr)))
    return out


def parsed_table(scenario: Scenario) -> dict[str, tuple[str, RangeSpec]]:
    """The scenario's `[uncertainty]` by canonical key: (key as written, range).
    The loader validated it, so nothing here raises for a loaded scenario."""
    out: dict[str, tuple[str, RangeSpec]] = {}
    for tkey, text in (scenario.uncertainty or {}).items():
        key, spec = resolve_key(tkey, scenario)
        out[key] = (tkey, parse_range(text, END_PARSERS[spec.kind]))
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
                      parse_range(text, END_PARSERS[spec.kind]))  # fmt: skip
    out: list[UncertainInput] = []
    for key, spec, target, raw_value in _candidates(scenario):
        value = number(raw_value)
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
        rng = parse_range(text, END_PARSERS[spec.kind])
        value = value_at(canonical, scenario)
        if value is not None:
            check_contains(rng, value, lambda x: describe_value(spec.kind, x))
    except KeyProblem as exc:
        return exc.message + (f" ({exc.hint})" if exc.hint else "")
    except (UnitError, ValueError) as exc:
        return str(exc)
    return None


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
