"""Plan vs actual: the plan's own engine run for what the drill restored, phase by phase.

A drill restores one particular state (a level 0, the level 1 backups of that day, the
redo since), not the plan's worst case. So the plan is evaluated for the drill's state:
the same engine (`recovery_timeline`) on a `FailureState` whose incremental count and
volume and redo volume are the drill's where the evidence measured them (the level 0
volume too), and the plan's worst case where it did not (said in `notes`). Each phase
the drill timed is set against the plan's duration for it; the error is
(actual − plan) ÷ plan. The totals add only the phases both have, counting the overlapped
incremental restore and apply once (DESIGN §3.7).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engine.backups import backup_jobs
from ..engine.path import BACKUP, RESTORE, build_path_model
from ..engine.recovery import failure_state, recovery_timeline, worst_failure_offset
from ..jsonable import json_ready
from ..plan import job_durations
from ..result import JOB_TITLES, PHASE_TITLES, FailureState, RecoveryResult
from ..scenario import Scenario
from ..units import format_size
from .drill import Drill

OVERLAPPED = "restore_incremental"
"""Ends with apply_incremental (RMAN applies a backup set while it reads it)."""


@dataclass(frozen=True)
class PhaseComparison:
    name: str
    title: str
    plan_s: float
    actual_s: float | None
    how: str | None
    plan_bytes: float | None = None
    actual_bytes: float | None = None

    @property
    def error(self) -> float | None:
        """(actual − plan) ÷ plan; None when either is missing or the plan has no time."""
        if self.actual_s is None or self.plan_s <= 0:
            return None
        return (self.actual_s - self.plan_s) / self.plan_s

    @property
    def actual_rate_Bps(self) -> float | None:
        b = self.actual_bytes if self.actual_bytes is not None else self.plan_bytes
        if b and self.actual_s:
            return b / self.actual_s
        return None

    @property
    def plan_rate_Bps(self) -> float | None:
        return self.plan_bytes / self.plan_s if self.plan_bytes and self.plan_s > 0 else None


@dataclass(frozen=True)
class DrillComparison:
    rows: tuple[PhaseComparison, ...]
    plan_s: float
    """The plan over the phases the drill timed (overlap counted once)."""
    actual_s: float
    plan_total_s: float
    """The plan's whole timeline for the drill's state (detect to open)."""
    notes: tuple[str, ...]

    @property
    def error(self) -> float | None:
        return (self.actual_s - self.plan_s) / self.plan_s if self.plan_s > 0 else None

    @property
    def compared(self) -> tuple[PhaseComparison, ...]:
        return tuple(r for r in self.rows if r.actual_s is not None)

    def to_dict(self) -> dict[str, Any]:
        out = json_ready(self)
        for row, obj in zip(out["rows"], self.rows, strict=True):
            row["error"] = obj.error
            row["plan_rate_Bps"] = obj.plan_rate_Bps
            row["actual_rate_Bps"] = obj.actual_rate_Bps
        out["error"] = self.error
        return out


def drill_state(
    scenario: Scenario, drill: Drill, worst: FailureState
) -> tuple[FailureState, list[str]]:
    """The worst case's state with the drill's measured counts and volumes put in."""
    notes: list[str] = []
    count = worst.incremental_count if drill.incremental_count is None else drill.incremental_count
    inc = drill.incremental_bytes
    if inc is None:
        inc = worst.incremental_bytes if count else 0.0
        if count:
            notes.append(
                f"incremental volume not measured: the plan's own "
                f"({format_size(inc)}) for {count} backup(s)"
            )
    redo = drill.redo_bytes
    if redo is None:
        redo = worst.redo_bytes
        notes.append(f"redo volume not measured: the plan's worst case ({format_size(redo)})")
    piece = worst.largest_incremental_piece_bytes
    if piece is not None and worst.incremental_bytes > 0:
        piece = piece * inc / worst.incremental_bytes
    return replace(
        worst,
        incremental_count=count,
        incremental_bytes=inc,
        redo_bytes=redo,
        largest_incremental_piece_bytes=piece if count else None,
    ), notes


def plan_for_drill(
    scenario: Scenario, drill: Drill
) -> tuple[RecoveryResult, dict[str, float], list[str]]:
    """The recovery timeline for the drill's state, the backup jobs' durations by
    comparison name, and what was assumed."""
    restore = build_path_model(scenario, RESTORE)
    jobs = backup_jobs(scenario, build_path_model(scenario, BACKUP))
    level0_s, level1_s = job_durations(jobs)
    worst = failure_state(
        scenario, worst_failure_offset(scenario, level0_s), level0_s=level0_s, level1_s=level1_s
    )
    state, notes = drill_state(scenario, drill, worst)
    size = drill.level0_bytes or scenario.database.size_bytes
    if drill.level0_bytes is None:
        notes.append(f"level 0 volume not measured: the database size ({format_size(size)})")
    rec = recovery_timeline(scenario, restore, state, size_bytes=size)
    return rec, {f"backup.{j.name}": j.duration_s for j in jobs}, notes


def _rows(rec: RecoveryResult, jobs: dict[str, float], drill: Drill) -> list[PhaseComparison]:
    rows = []
    for p in rec.phases:
        m = drill.phase(p.name)
        rows.append(
            PhaseComparison(
                p.name,
                p.title,
                p.duration_s,
                m.duration_s if m else None,
                m.how if m else None,
                p.data_bytes or None,
                m.data_bytes if m else None,
            )
        )
    for name, plan_s in jobs.items():
        m = drill.phase(name)
        if m is not None:
            title = f"Backup: {JOB_TITLES[name.split('.')[1]]}"
            rows.append(PhaseComparison(name, title, plan_s, m.duration_s, m.how))
    return rows


def _total(rows: list[PhaseComparison], attr: str) -> float:
    names = {r.name for r in rows}
    return sum(
        getattr(r, attr)
        for r in rows
        if not (r.name == OVERLAPPED and "apply_incremental" in names)
        and not r.name.startswith("backup.")
    )


def compare_drill(scenario: Scenario, drill: Drill) -> DrillComparison:
    """Plan vs actual per phase for one drill (see the module docstring)."""
    rec, jobs, notes = plan_for_drill(scenario, drill)
    if drill.redo_bytes is None and drill.phase("redo_apply") is not None:
        notes.append("give V$RECOVERY_PROGRESS ('Redo Applied') for the drill's own redo volume")
    rows = _rows(rec, jobs, drill)
    both = [r for r in rows if r.actual_s is not None and r.plan_s > 0]
    notes += _plan_notes(scenario, rows)
    return DrillComparison(
        rows=tuple(rows),
        plan_s=_total(both, "plan_s"),
        actual_s=_total(both, "actual_s"),
        plan_total_s=rec.total_s,
        notes=tuple(notes),
    )


def _plan_notes(scenario: Scenario, rows: list[PhaseComparison]) -> list[str]:
    arch = next((r for r in rows if r.name == "restore_archivelogs"), None)
    if arch and arch.actual_s and arch.plan_s == 0 and scenario.recovery.archivelogs_on_disk:
        return [
            "the drill restored archived logs that the plan keeps on disk "
            "(recovery.archivelogs_on_disk = true): not compared"
        ]
    return []


__all__ = [
    "PHASE_TITLES",
    "DrillComparison",
    "PhaseComparison",
    "compare_drill",
    "drill_state",
    "plan_for_drill",
]
