"""Plain result data of the engine: what the GUI, the CLI, the PDF and the store consume.

Units are in the field names (`_s` seconds, `_bytes` bytes, `_Bps` bytes per second).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

PHASE_NAMES = (
    "detect",
    "tape_recall",
    "restore_level0",
    "restore_incremental",
    "apply_incremental",
    "restore_archivelogs",
    "redo_apply",
    "open",
)
PHASE_TITLES = {
    "detect": "Declare / prepare",
    "tape_recall": "Tape recall",
    "restore_level0": "Restore level 0",
    "restore_incremental": "Restore incrementals",
    "apply_incremental": "Apply incrementals",
    "restore_archivelogs": "Restore archived redo",
    "redo_apply": "Redo apply",
    "open": "Open database",
    "failover": "Fail over to the standby",
    "held": "Held back by the runbook",
}
JOB_TITLES = {"level0": "Level 0", "level1": "Level 1", "archivelog": "Archived logs"}


@dataclass(frozen=True)
class Phase:
    name: str
    start_s: float
    duration_s: float
    data_bytes: float
    rate_Bps: float
    """Effective rate: data bytes ÷ duration (0 for fixed-time phases)."""
    bottleneck: str
    detail: str = ""
    count: int = 0
    """Backups applied (incremental phases)."""

    @property
    def end_s(self) -> float:
        return self.start_s + self.duration_s

    @property
    def title(self) -> str:
        return PHASE_TITLES[self.name]

    def shared_with(self, before: Phase | None) -> float:
        """Seconds of this phase that run while `before` (the phase drawn above it) still
        runs — applying incrementals as they are restored (DESIGN §3.7): time shared, not
        more time. 0 when it starts after `before` ends."""
        if before is None or self.start_s >= before.end_s:
            return 0.0
        return max(min(self.end_s, before.end_s) - self.start_s, 0.0)


@dataclass(frozen=True)
class FailureState:
    """What must be restored after a failure `since_level0_s` after the level 0 started."""

    since_level0_s: float
    incremental_count: int
    incremental_bytes: float
    largest_incremental_piece_bytes: float | None
    redo_since_s: float
    redo_bytes: float


@dataclass(frozen=True)
class RecoveryResult:
    phases: tuple[Phase, ...]
    total_s: float
    rto_s: float
    margin_s: float
    verdict: str
    risk_margin_s: float
    failure: FailureState

    def phase(self, name: str) -> Phase:
        for p in self.phases:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def longest_phase(self) -> Phase:
        return max(self.phases, key=lambda p: p.duration_s)


@dataclass(frozen=True)
class BackupJob:
    name: str
    duration_s: float
    data_bytes: float
    backup_bytes: float
    effective_rate_Bps: float
    """Vendors' effective rate: database size ÷ time for level 0 and level 1 jobs,
    volume ÷ time for archived logs."""
    steady_rate_Bps: float
    bottleneck: str
    window_s: float | None
    fits_window: bool | None
    init_s: float

    @property
    def title(self) -> str:
        return JOB_TITLES[self.name]


@dataclass(frozen=True)
class RpoResult:
    media_failure_s: float
    site_loss_s: float
    target_s: float | None
    verdict: str
    site_loss_parts: tuple[tuple[str, float], ...]
    """What the site-loss figure adds up from, for reports."""


@dataclass(frozen=True)
class CyclePoint:
    since_level0_s: float
    total_s: float


@dataclass(frozen=True)
class CycleResult:
    points: tuple[CyclePoint, ...]
    worst_s: float
    worst_at_s: float
    best_s: float
    rto_s: float
    hours_missing: int
    """Hours of the cycle in which a failure would miss the RTO."""


@dataclass(frozen=True)
class GrowthPoint:
    on: date
    size_bytes: float
    worst_recovery_s: float
    level0_backup_s: float


@dataclass(frozen=True)
class GrowthResult:
    as_of: date
    breaks_on: date | None
    reason: str | None
    size_at_break_bytes: float | None
    horizon_years: float
    points: tuple[GrowthPoint, ...]
