"""The one door from "What it takes" to the plan's engine.

Every variant the optimiser considers is judged here by the plan's own formulas
(`plan.compute_core`), never by a copy of them. Variants are built by swapping whole
parsed parts of a validated scenario (`dataclasses.replace`); each part came from
`scenario.with_values`, i.e. from the same validation a file goes through, so a variant
is what loading the edited file would give — only faster. The final answer is checked
again through `with_values` on the full edits (`outcome_of_edits`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from datetime import date
from typing import Any

from ..catalog import Catalog
from ..engine.path import BACKUP, RESTORE, build_path_model
from ..engine.path import stage_capacity as path_stage_capacity
from ..plan import Plan, compute_core
from ..scenario import Scenario, Stage, with_values
from .model import Outcome

_AS_OF = date(2000, 1, 1)
"""A plan's date only matters to growth, which the optimiser does not compute."""

Deltas = dict[str, dict[str, Any]]
"""Parsed field changes by part of the scenario: {"backup": {"channels": 8}}."""


def _parts(scenario: Scenario) -> list[str]:
    """The scenario's parsed parts that are dataclasses (database, backup, recovery, …)."""
    return [
        f.name
        for f in dataclasses.fields(scenario)
        if dataclasses.is_dataclass(getattr(scenario, f.name))
    ]


def deltas_between(base: Scenario, changed: Scenario) -> Deltas:
    """The parsed fields `changed` differs from `base` in, part by part (not the path)."""
    out: Deltas = {}
    for part in _parts(base):
        old, new = getattr(base, part), getattr(changed, part)
        diff = {
            f.name: getattr(new, f.name)
            for f in dataclasses.fields(old)
            if getattr(old, f.name) != getattr(new, f.name)
        }
        if diff:
            out[part] = diff
    return out


def variant(base: Scenario, stages: Mapping[int, Stage], deltas: list[Deltas]) -> Scenario:
    """`base` with some path stages replaced and some parsed fields changed."""
    merged: dict[str, dict[str, Any]] = {}
    for d in deltas:
        for part, fields in d.items():
            merged.setdefault(part, {}).update(fields)  # a later delta wins, as in a file
    parts = {part: dataclasses.replace(getattr(base, part), **f) for part, f in merged.items()}
    path = tuple(stages.get(i, st) for i, st in enumerate(base.path)) if stages else base.path
    return dataclasses.replace(base, path=path, **parts)


def stage_capacity(
    scenario: Scenario, index: int, stage: Stage | None = None
) -> tuple[float, float]:
    """(restore, backup) data bytes/s that stage `index` (or `stage` in its place) lets
    through with all its units: its capacity in the path model, which depends on the
    stage and the scenario's compression only."""
    st = scenario.path[index] if stage is None else stage
    ratio = scenario.backup.compression_ratio
    out = []
    for direction in (RESTORE, BACKUP):
        # (a per-channel kind's total is one unit's: `path.stage_capacity`)
        out.append(path_stage_capacity(st, index, ratio, direction).total_Bps)
    return out[0], out[1]


def path_signature(scenario: Scenario) -> tuple[float, ...]:
    """What the path model says about moving data, restore then backup: its numeric
    parameters (the shared capacity, the per-channel ceiling, the channels that can run,
    tape cartridge mechanics, …) and what a lone channel moves. Stage names are left out,
    so two hardware sets that move data alike share a signature."""
    out: list[float] = []
    for direction in (RESTORE, BACKUP):
        model = build_path_model(scenario, direction)
        for name in _signature_fields(type(model)):
            value = getattr(model, name)
            if isinstance(value, (str, tuple)):
                continue
            out.append(-1.0 if value is None else round(float(value), 3))
        alone = getattr(model, "channel_alone_Bps", None)
        out.append(-1.0 if alone is None else round(float(alone), 3))
    return tuple(out)


@functools.cache
def _signature_fields(cls: type) -> tuple[str, ...]:
    """The path model's fields a signature reads (not the stage indices)."""
    return tuple(f.name for f in dataclasses.fields(cls) if not f.name.endswith("_index"))


def outcome(scenario: Scenario) -> Outcome:
    """The engine's verdicts on one scenario (the worst case of the cycle): the plan's own
    headline verdict (`Plan.verdict`, `Plan.decided_by`), without the cycle scan and the
    growth outlook it does not need."""
    restore, backup, recovery, jobs, rpo = compute_core(scenario)
    deciding = Plan(scenario, restore, backup, recovery, jobs, rpo, None, None, _AS_OF).deciding
    return Outcome(
        recovery_s=recovery.total_s,
        recovery_verdict=recovery.verdict,
        rpo_s=max(rpo.site_loss_s, rpo.media_failure_s),
        rpo_verdict=rpo.verdict,
        windows_ok=all(j.fits_window is not False for j in jobs),
        verdict=deciding.verdict,  # Plan.verdict
        decided_by=deciding.name,  # Plan.decided_by
    )


def worst_redo_bytes(scenario: Scenario) -> float:
    """The redo the worst-case recovery applies (what archived logs on disk must hold)."""
    return float(compute_core(scenario)[2].failure.redo_bytes)


def apply_edits(scenario: Scenario, edits: Mapping[str, Any], catalog: Catalog) -> Scenario:
    """The scenario a user gets by making the changes in the file (fully validated)."""
    return with_values(scenario, edits, catalog=catalog)


def outcome_of_edits(scenario: Scenario, edits: Mapping[str, Any], catalog: Catalog) -> Outcome:
    return outcome(apply_edits(scenario, edits, catalog))
