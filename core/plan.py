"""A whole-model run: one call from a Scenario to everything a plan shows.

`compute_plan` is what the CLI, the GUI, the PDF builder and the store call; each
analysis below it is a pure function that can be called on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from . import ENGINE_VERSION
from .clock import today
from .engine.backups import backup_jobs
from .engine.cycle import cycle_scan
from .engine.growth import growth_outlook
from .engine.notes import model_notes, unused_inputs
from .engine.path import BACKUP, RESTORE, PathModel, build_path_model
from .engine.recovery import failure_state, recovery_timeline, worst_failure_offset
from .engine.routes import Route, recovery_routes
from .engine.rpo import rpo
from .engine.verdict import Check, deciding_check, plan_checks
from .result import BackupJob, CycleResult, GrowthResult, RecoveryResult, RpoResult
from .scenario import Scenario


@dataclass(frozen=True)
class Plan:
    """Everything computed for one scenario. `recovery` is the worst case of the cycle
    (a failure just before the next level 0 finishes), which is what a plan must prove."""

    scenario: Scenario
    restore_path: PathModel
    backup_path: PathModel
    recovery: RecoveryResult
    jobs: tuple[BackupJob, ...]
    rpo: RpoResult
    cycle: CycleResult | None
    growth: GrowthResult | None
    as_of: date

    def job(self, name: str) -> BackupJob | None:
        return next((j for j in self.jobs if j.name == name), None)

    @property
    def routes(self) -> tuple[Route, ...]:
        """Restore from backup, and failover to a standby when one is given."""
        return recovery_routes(self.scenario, self.recovery)

    @property
    def notes(self) -> tuple[str, ...]:
        """What the plan says about its inputs and model: inputs without effect here and
        why, assumptions to check (compression CPU, per-channel ceiling, shoe-shine)."""
        return tuple(
            unused_inputs(self.scenario)
            + model_notes(self.scenario, self.restore_path, self.backup_path)
        )

    @property
    def checks(self) -> tuple[Check, ...]:
        """Every target the plan is held against: recovery (and failover), RPO, each
        backup window."""
        fo = next((r for r in self.routes if r.name == "failover"), None)
        return plan_checks(
            self.recovery, self.rpo, self.jobs, (fo.verdict, fo.total_s) if fo else None
        )

    @property
    def deciding(self) -> Check:
        """The check that sets the headline verdict (DESIGN §3.7)."""
        return deciding_check(self.checks)

    @property
    def verdict(self) -> str:
        """The headline verdict: the worst of recovery vs RTO, RPO vs its target and each
        backup vs its window (`meets`, `at_risk` or `misses`)."""
        return self.deciding.verdict

    @property
    def decided_by(self) -> str:
        """Which check sets `verdict`: `recovery`, `failover`, `rpo` or `backup.<job>`."""
        return self.deciding.name


def compute_core(scenario: Scenario) -> tuple[PathModel, PathModel, RecoveryResult,
                                              tuple[BackupJob, ...], RpoResult]:  # fmt: skip
    """The fast part (no cycle scan, no growth): what the GUI recomputes per keystroke.

    The backups come first: a backup is usable only when it has finished, so the worst
    case is a failure just before the next level 0 finishes (DESIGN §3.7)."""
    restore = build_path_model(scenario, RESTORE)
    backup = build_path_model(scenario, BACKUP)
    jobs = backup_jobs(scenario, backup)
    recovery = _worst_recovery(scenario, restore, jobs)
    return restore, backup, recovery, jobs, rpo(scenario, jobs)


def compute_recovery(scenario: Scenario) -> tuple[PathModel, RecoveryResult]:
    """`compute_core`'s restore path and worst-case recovery, without what only the plan
    reads (the archived-log backup, the RPO): what an estate plans each database with
    (issue 22.3). The same figures as `compute_core`'s."""
    restore = build_path_model(scenario, RESTORE)
    jobs = backup_jobs(scenario, build_path_model(scenario, BACKUP), archivelog=False)
    return restore, _worst_recovery(scenario, restore, jobs)


def _worst_recovery(scenario: Scenario, restore: PathModel,
                    jobs: tuple[BackupJob, ...]) -> RecoveryResult:  # fmt: skip
    """The recovery from a failure at the worst instant of the backup cycle."""
    level0_s, level1_s = job_durations(jobs)
    state = failure_state(
        scenario, worst_failure_offset(scenario, level0_s), level0_s=level0_s, level1_s=level1_s
    )
    return recovery_timeline(scenario, restore, state)


def job_durations(jobs: tuple[BackupJob, ...]) -> tuple[float, float]:
    """(level 0, level 1) durations: how long each backup is not yet usable."""
    level0 = next((j.duration_s for j in jobs if j.name == "level0"), 0.0)
    level1 = next((j.duration_s for j in jobs if j.name == "level1"), 0.0)
    return level0, level1


def compute_plan(
    scenario: Scenario,
    *,
    as_of: date | None = None,
    include_cycle: bool = True,
    include_growth: bool = True,
) -> Plan:
    """Run every analysis of DESIGN §3 on a validated scenario."""
    restore, backup, recovery, jobs, rpo_result = compute_core(scenario)
    as_of = as_of or today()
    level0_s, level1_s = job_durations(jobs)
    cycle = (
        cycle_scan(scenario, restore, level0_s=level0_s, level1_s=level1_s)
        if include_cycle
        else None
    )
    growth = growth_outlook(scenario, restore, backup, as_of) if include_growth else None
    return Plan(scenario, restore, backup, recovery, jobs, rpo_result, cycle, growth, as_of)


def _num(x: float | None) -> float | None:
    if x is None:
        return None
    return x if x == x and x not in (float("inf"), float("-inf")) else None


def plan_to_json(plan: Plan, headline: Any = None) -> dict[str, Any]:
    """The JSON of `rto-planner plan --json` (DESIGN §5; more keys than required).

    With `headline` (a `core.headline.Headline`), `verdict` is the headline verdict — the worse of
    the plan at its figures (`planned_verdict`) and its probability (`confidence`)."""
    out: dict[str, Any] = {
        "scenario": plan.scenario.name,
        "engine_version": ENGINE_VERSION,
        "verdict": plan.verdict if headline is None else headline.verdict,
        "planned_verdict": plan.verdict,
        "decided_by": plan.decided_by,
        "checks": [
            {"name": c.name, "verdict": c.verdict, "value_s": c.value_s, "target_s": c.target_s}
            for c in plan.checks
        ],
        "notes": list(plan.notes),
        "routes": [
            {"name": r.name, "total_s": r.total_s, "verdict": r.verdict} for r in plan.routes
        ],
        "as_of": plan.as_of.isoformat(),
        "units": dict(_JSON_UNITS),
        "recovery": _recovery_json(plan.recovery),
        "backup": {
            "jobs": [_job_json(j) for j in plan.jobs],
            "window_s": plan.scenario.targets.backup_window_s,
        },
        "rpo": {
            "media_failure_s": plan.rpo.media_failure_s,
            "site_loss_s": plan.rpo.site_loss_s,
            "target_s": plan.rpo.target_s,
            "verdict": plan.rpo.verdict,
        },
        "path": {
            direction: _path_json(model)
            for direction, model in (("restore", plan.restore_path), ("backup", plan.backup_path))
        },
    }
    if headline is not None and headline.p_meets is not None:
        out["confidence"] = {
            "p_meets": headline.p_meets,
            "required": headline.confidence,
            "verdict": headline.by_probability,
            "decides": headline.probability_decides,
            "least_likely": headline.weakest,
            "least_likely_p": headline.weakest_p,
            "trials": headline.trials,
            "seed": headline.seed,
        }
    if plan.cycle:
        out["cycle"] = _cycle_json(plan.cycle)
    if plan.growth:
        out["growth"] = _growth_json(plan.growth)
    return out


_JSON_UNITS = {
    "time": "s",
    "size": "bytes",
    "rate": "bytes/s",
    "note": "sizes and rates count data bytes (datafile bytes) unless named backup_",
}


def _recovery_json(rec: Any) -> dict[str, Any]:
    phases = [
        {"name": p.name, "start_s": p.start_s, "duration_s": p.duration_s,
         "data_bytes": p.data_bytes, "rate_Bps": p.rate_Bps, "bottleneck": p.bottleneck,
         "detail": p.detail}
        for p in rec.phases
    ]  # fmt: skip
    return {
        "phases": phases,
        "total_s": rec.total_s,
        "rto_s": rec.rto_s,
        "margin_s": rec.margin_s,
        "risk_margin_s": rec.risk_margin_s,
        "verdict": rec.verdict,
        "failure_since_level0_s": rec.failure.since_level0_s,
        "incremental_count": rec.failure.incremental_count,
    }


def _job_json(j: Any) -> dict[str, Any]:
    return {
        "name": j.name,
        "duration_s": j.duration_s,
        "data_bytes": j.data_bytes,
        "backup_bytes": j.backup_bytes,
        "effective_rate_Bps": j.effective_rate_Bps,
        "steady_rate_Bps": j.steady_rate_Bps,
        "bottleneck": j.bottleneck,
        "fits_window": j.fits_window,
        "window_s": j.window_s,
    }


def _path_json(model: Any) -> dict[str, Any]:
    stages = [
        {"label": st.label, "kind": st.kind, "count": st.count, "unit_Bps": _num(st.unit_Bps),
         "total_Bps": _num(st.total_Bps), "binds_channel": st.binds_channel,
         "source": st.source}
        for st in model.stages
    ]  # fmt: skip
    return {
        "rate_Bps": _num(model.rate_Bps),
        "bottleneck": model.bottleneck,
        "active_channels": model.active_channels,
        "stages": stages,
    }


def _cycle_json(c: Any) -> dict[str, Any]:
    return {
        "worst_s": c.worst_s,
        "worst_at_s": c.worst_at_s,
        "best_s": c.best_s,
        "hours_missing_rto": c.hours_missing,
        "points": [[p.since_level0_s, p.total_s] for p in c.points],
    }


def _growth_json(g: Any) -> dict[str, Any]:
    return {
        "as_of": g.as_of.isoformat(),
        "breaks_on": g.breaks_on.isoformat() if g.breaks_on else None,
        "reason": g.reason,
        "size_at_break_bytes": g.size_at_break_bytes,
        "horizon_years": g.horizon_years,
    }
