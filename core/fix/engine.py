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
from collections.abc import Mapping
from typing import Any

from ..catalog import Catalog
from ..engine.path import BACKUP, RESTORE, build_path_model
from ..engine.verdict import deciding_check, plan_checks
from ..plan import compute_core
from ..scenario import Scenario, Stage, with_values
from .model import Outcome

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
    parts: dict[str, Any] = {}
    for d in deltas:
        for part, fields in d.items():
            current = parts.get(part, getattr(base, part))
            parts[part] = dataclasses.replace(current, **fields)
    path = tuple(stages.get(i, st) for i, st in enumerate(base.path))
    return dataclasses.replace(base, path=path, **parts)


def stage_capacity(scenario: Scenario, index: int) -> tuple[float, float]:
    """(restore, backup) data bytes/s that stage `index` lets through with all its units."""
    out = []
    for direction in (RESTORE, BACKUP):
        st = build_path_model(scenario, direction).stages[index]
        out.append(st.total_Bps if not st.per_channel_only else st.unit_Bps)
    return out[0], out[1]


def path_signature(scenario: Scenario) -> tuple[float, ...]:
    """R(k) for k = 1…n channels, restore then backup: how the hardware moves data."""
    out: list[float] = []
    for direction in (RESTORE, BACKUP):
        model = build_path_model(scenario, direction)
        out += [round(model.rate(k), 3) for k in range(1, scenario.backup.channels + 1)]
    return tuple(out)


def outcome(scenario: Scenario) -> Outcome:
    """The engine's verdicts on one scenario (the worst case of the cycle)."""
    _, _, recovery, jobs, rpo = compute_core(scenario)
    windows_ok = all(j.fits_window is not False for j in jobs)
    deciding = deciding_check(plan_checks(recovery, rpo, jobs))
    return Outcome(
        recovery_s=recovery.total_s,
        recovery_verdict=recovery.verdict,
        rpo_s=max(rpo.site_loss_s, rpo.media_failure_s),
        rpo_verdict=rpo.verdict,
        windows_ok=windows_ok,
        verdict=deciding.verdict,
        decided_by=deciding.name,
    )


def apply_edits(scenario: Scenario, edits: Mapping[str, Any], catalog: Catalog) -> Scenario:
    """The scenario a user gets by making the changes in the file (fully validated)."""
    return with_values(scenario, edits, catalog=catalog)


def outcome_of_edits(scenario: Scenario, edits: Mapping[str, Any], catalog: Catalog) -> Outcome:
    return outcome(apply_edits(scenario, edits, catalog))
