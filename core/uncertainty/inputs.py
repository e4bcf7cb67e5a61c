"""The uncertain inputs of a scenario and their ranges (DESIGN §7, §10).

Every figure of the model that can be off — a rate, a size, a time, a share, a ratio —
is an *input* with a spread. The spread comes from the scenario's `[uncertainty]` table
when it names the figure, else from the figure's provenance (`provenance`: exact ±0,
measured ±10 %, catalog and class defaults their lognormal prior from `priors`, an
estimate ±25 %). Every end of a range is held to the key's own bounds: a range the user
writes past them is refused, a default one is cut at them.

Keys are the format's dotted keys (`recovery.redo_apply_rate`, `path[2].rate`); a stage
may also be named (`path.LTO-4.rate`). Figures the catalog adds have keys of their own
(`path[0].load_time`, `backup.compress_rate`: `provenance.EXTRA_FIGURES`). Schedules
(`backup.level0_every`, …), counts, choices and targets are decisions, not measurements:
they have no range. This module is numpy-free; `apply_values` works on floats and arrays
alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..bounds import Bound
from ..catalog import Catalog, shipped_catalog
from ..scenario import FieldSpec, Scenario, spec_for_key
from ..scenario.addresses import (
    END_PARSERS,
    RANGED_KINDS,
    SECTIONS_WITH_INPUTS,
    STAGE_INDEX,
    STAGE_POLICY_FIELDS,
    KeyProblem,
    as_number,
    check_ends,
    check_provenance,
    check_uncertainty,
    clip_ends,
    describe_value,
    figure_attr,
    figure_fields,
    flatten_table,
    follow_stage_edits,
    is_ranged,
    key_bound,
    range_problem,
    resolve_key,
    spec_of,
    table_key_for,
    table_without,
)
from ..scenario.priors import Prior
from ..scenario.provenance import KIND_WORDS, Origin, origin_of, stated_by_key
from ..scenario.ranges import ZERO, RangeSpec, format_relative, parse_range
from .result import InputRow

PROVENANCE_WORDS = {**KIND_WORDS, "uncertainty": "[uncertainty] table"}
"""A row's `origin` in words: a provenance kind, or the scenario's `[uncertainty]`."""

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
    "recovery.failover": "failover time",
    "backup.job_overhead": "overhead per RMAN job",
    "backup.compress_rate": "compression per core",
    "backup.decompress_rate": "decompression per core",
    "backup.channel_rate": "RMAN channel ceiling (class default)",
    "recovery.incremental_apply_factor": "incremental apply pace (class default)",
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
    floor: float = 0.0
    """The key's bounds: no trial draws the figure below `floor` or above `ceiling`."""
    ceiling: float = math.inf

    @property
    def is_zero(self) -> bool:
        return self.low == self.value == self.high

    def describe(self, x: float) -> str:
        return describe_value(self.kind, x)


_STAGE_WORDS = {"rate": "rate", "max_rate": "rate ceiling"}
"""A stage's figure after its name ("LTO-4: rate"); other figures read as the field
table's label ("LTO-4: drive compression", never the key's "hw compression")."""


def label_for(key: str, scenario: Scenario) -> str:
    m = STAGE_INDEX.match(key)
    if m:
        spec = spec_for_key(key)
        words = _STAGE_WORDS.get(m.group(2)) or (
            spec.label[0].lower() + spec.label[1:] if spec else m.group(2).replace("_", " ")
        )
        return f"{scenario.path[int(m.group(1))].label}: {words}"
    spec = spec_for_key(key)
    return _LABELS.get(key) or (spec.phrase if spec else key.partition(".")[2].replace("_", " "))


# ------------------------------------------------------------------------ the inputs


def _candidates(scenario: Scenario) -> list[tuple[str, FieldSpec, Target, Any]]:
    """Every rangeable figure the scenario has: (key, spec, target, value or None)."""
    out: list[tuple[str, FieldSpec, Target, Any]] = []
    for section in SECTIONS_WITH_INPUTS:
        obj = getattr(scenario, section)
        for spec in figure_fields(section):
            dotted = f"{section}.{spec.key}"
            attr = figure_attr(obj, spec, section)
            if attr is None or not is_ranged(dotted, spec):
                continue
            out.append((dotted, spec, Target(section, None, attr), getattr(obj, attr)))
    for i, st in enumerate(scenario.path):
        for spec in figure_fields("path"):
            attr = figure_attr(st, spec, "path")
            if attr is None or spec.kind not in RANGED_KINDS or spec.key in STAGE_POLICY_FIELDS:
                continue
            if spec.key in ("hw_compression", "load_time", "locate_time") and (
                st.kind != "tape_drive"
            ):
                continue
            out.append((f"path[{i}].{spec.key}", spec, Target("path", i, attr), getattr(st, attr)))
    return out


def _canonical(scenario: Scenario):
    """Key → canonical key; a key that names no figure stays as written."""

    def resolve(key: str) -> str:
        try:
            return resolve_key(key, scenario)[0]
        except KeyProblem:
            return key

    return resolve


def parsed_table(scenario: Scenario) -> dict[str, tuple[str, RangeSpec]]:
    """The scenario's `[uncertainty]` by canonical key: (key as written, range).
    The loader validated it, so nothing here raises for a loaded scenario."""
    out: dict[str, tuple[str, RangeSpec]] = {}
    for tkey, text in (scenario.uncertainty or {}).items():
        key, spec = resolve_key(tkey, scenario)
        out[key] = (tkey, parse_range(text, END_PARSERS[spec.kind]))
    return out


def _spread_row(spread: RangeSpec | Prior, value: float, bound: Bound) -> dict[str, Any]:
    """The distribution fields of a row: triangular ends (a default range cut at the
    bounds), or a lognormal prior's P10 and P90."""
    if isinstance(spread, Prior):
        return {"distribution": "lognormal", "median_factor": spread.median,
                "sigma": spread.sigma, "low": value * spread.p10, "high": value * spread.p90,
                "prior_source": spread.source, "evidence": spread.evidence_words}  # fmt: skip
    low, high = spread.bounds(value)
    low, high = min(low, value), max(high, value)
    return {"distribution": "triangular", "median_factor": 1.0, "sigma": 0.0,
            "low": low, "high": high, "prior_source": "", "evidence": ""}  # fmt: skip


def _input(
    key: str, spec: FieldSpec, target: Target, value: float, origin: Origin,
    given: tuple[str, RangeSpec] | None, scenario: Scenario,
) -> UncertainInput:  # fmt: skip
    bound = key_bound(spec)
    row = _spread_row(given[1] if given else origin.spread, value, bound)
    if not given:
        row["low"], row["high"] = clip_ends(row["low"], row["high"], bound)
    prior = origin.spread if isinstance(origin.spread, Prior) else None
    if given and prior is not None:  # the range is the user's; the prior stays cited
        row["prior_source"], row["evidence"] = prior.source, prior.evidence_words
    return UncertainInput(
        key=key, label=label_for(key, scenario), kind=spec.kind, value=value,
        range_text=given[1].text if given else origin.text,
        origin="uncertainty" if given else origin.kind, default_origin=origin.kind,
        default_range=origin.text, source=origin.source,
        table_key=given[0] if given else table_key_for(key, scenario),
        stated=origin.stated, target=target, floor=bound.low or 0.0,
        ceiling=math.inf if bound.high is None else bound.high, **row,
    )  # fmt: skip


def uncertain_inputs(
    scenario: Scenario,
    catalog: Catalog | None = None,
    overrides: Mapping[str, str] | None = None,
) -> tuple[UncertainInput, ...]:
    """Every figure that is set (or has a range), with its spread and provenance.

    `overrides` maps canonical keys to range texts that win over the table (what the GUI
    shows while the user types, before the edit reaches the scenario).
    """
    catalog = shipped_catalog() if catalog is None else catalog
    table = parsed_table(scenario)
    for key, text in (overrides or {}).items():
        spec = spec_of(key, scenario)
        table[key] = (table.get(key, (table_key_for(key, scenario), ZERO))[0],
                      parse_range(text, END_PARSERS[spec.kind]))  # fmt: skip
    stated = stated_by_key(scenario, _canonical(scenario))
    out: list[UncertainInput] = []
    for key, spec, target, raw_value in _candidates(scenario):
        value = as_number(raw_value)
        given = table.get(key)
        if value is None or (value == 0 and given is None):
            continue
        if key == "backup.compression_ratio" and value == 1.0:
            continue  # RMAN compression off: nothing to vary
        origin = origin_of(key, scenario, catalog, stated)
        if origin is None:
            if given is None:
                continue  # nobody gave it: a format default (efficiency 1) is not a figure
            origin = Origin("estimate", "the format's default", ZERO)
        out.append(_input(key, spec, target, value, origin, given, scenario))
    return tuple(out)


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
    "PROVENANCE_WORDS",
    "KeyProblem",
    "Target",
    "UncertainInput",
    "apply_values",
    "check_ends",
    "check_provenance",
    "check_uncertainty",
    "describe_value",
    "flatten_table",
    "follow_stage_edits",
    "format_relative",
    "key_bound",
    "label_for",
    "origin_of",
    "range_problem",
    "resolve_key",
    "table_key_for",
    "table_without",
    "uncertain_inputs",
]
