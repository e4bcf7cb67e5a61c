"""Where a recovery in progress stands, snapshot by snapshot, from Oracle's own views.

Each V$SESSION_LONGOPS snapshot says how far RMAN's running restore is: the `RMAN:
aggregate input` rows of one command (one per channel, the same START_TIME) add up to the
blocks done and to do; the per-backup-set rows say whether the command restores datafiles
(`full datafile restore`: the level 0) or incrementals. Longops keeps finished rows, so a
snapshot may show the restore done and the recovery's incrementals running: the latest
command is the one that counts. Each V$RECOVERY_PROGRESS snapshot says how much redo the
media recovery has applied; how much it must apply is not in the view (its TOTAL is 0):
it comes from RESTORE PREVIEW (the archived logs' volume) or the plan.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from ..importers.longops import LongOp, LongopsSnapshot
from ..importers.recovery_snapshots import RecoverySnapshot


@dataclass(frozen=True)
class Progress:
    """The running (or just finished) phase at one snapshot."""

    at: datetime
    phase: str
    """restore_level0 | restore_incremental | redo_apply"""
    done_bytes: float
    total_bytes: float | None
    """None when the evidence does not say (redo without PREVIEW)."""
    started: datetime | None
    source: str

    @property
    def finished(self) -> bool:
        return self.total_bytes is not None and self.done_bytes >= self.total_bytes > 0

    @property
    def fraction(self) -> float | None:
        if not self.total_bytes:
            return None
        return min(self.done_bytes / self.total_bytes, 1.0)


_ORDER = ("restore_level0", "restore_incremental", "redo_apply")


def _commands(snap: LongopsSnapshot) -> list[tuple[datetime | None, list[LongOp]]]:
    """The aggregate rows grouped by command (their START_TIME), oldest first."""
    groups: dict[datetime | None, list[LongOp]] = defaultdict(list)
    for r in snap.of("aggregate_input"):
        groups[r.start].append(r)
    return sorted(groups.items(), key=lambda g: g[0] or datetime.min)


def _kind(snap: LongopsSnapshot, start: datetime | None, index: int) -> str:
    """What the command restores: its per-backup-set rows say; else the first command of
    the recovery is the level 0 and a later one the incrementals."""
    sets = [r for r in snap.rows if _restores_since(r, start)]
    if sets:
        latest = max(sets, key=lambda r: r.start or datetime.min)
        return "restore_incremental" if latest.kind == "incremental" else "restore_level0"
    return "restore_level0" if index == 0 else "restore_incremental"


def _restores_since(r: LongOp, start: datetime | None) -> bool:
    """Whether the row is a backup set restore of the command started at `start`."""
    in_command = start is None or r.start is None or r.start >= start
    return r.kind in ("level0", "incremental") and in_command


def longops_progress(snap: LongopsSnapshot) -> Progress | None:
    commands = _commands(snap)
    if not commands:
        return None
    start, rows = commands[-1]
    return Progress(
        at=snap.at,
        phase=_kind(snap, start, len(commands) - 1),
        done_bytes=sum(r.done_bytes for r in rows),
        total_bytes=sum(r.total_bytes for r in rows),
        started=start,
        source=snap.source,
    )


def recovery_progress(snap: RecoverySnapshot, redo_total: float | None) -> Progress | None:
    if snap.redo_applied_bytes is None:
        return None
    return Progress(
        at=snap.at,
        phase="redo_apply",
        done_bytes=snap.redo_applied_bytes,
        total_bytes=redo_total,
        started=snap.start,
        source=snap.source,
    )


def progress_points(
    longops: list[LongopsSnapshot], recovery: list[RecoverySnapshot], redo_total: float | None
) -> list[Progress]:
    """Every snapshot's progress, in time order (a later phase wins a tie)."""
    points = [p for s in longops if (p := longops_progress(s))]
    points += [p for s in recovery if (p := recovery_progress(s, redo_total))]
    return sorted(points, key=lambda p: (p.at, _ORDER.index(p.phase)))


def measured_rates(points: list[Progress], k: int) -> list[float]:
    """The rates (bytes/s) between consecutive snapshots of point k's phase run, up to k;
    with one snapshot, its progress since the phase started."""
    cur = points[k]
    same = [p for p in points[: k + 1] if p.phase == cur.phase and p.started == cur.started]
    rates = _rates_between(same) or _since_start(cur)
    return [r for r in rates if r > 0]


def _rates_between(same: list[Progress]) -> list[float]:
    """The rate between each two consecutive snapshots of one run (none after it finished)."""
    rates = []
    for a, b in pairwise(same):
        dt = (b.at - a.at).total_seconds()
        if dt > 0 and b.done_bytes >= a.done_bytes and not a.finished:
            rates.append((b.done_bytes - a.done_bytes) / dt)
    return rates


def _since_start(cur: Progress) -> list[float]:
    """A lone snapshot's progress since its phase started, as a rate (none when unknown)."""
    if cur.started and cur.at > cur.started and cur.done_bytes > 0:
        return [cur.done_bytes / (cur.at - cur.started).total_seconds()]
    return []


__all__ = ["Progress", "longops_progress", "measured_rates", "progress_points", "recovery_progress"]
