"""Recovery time across the level 0 cycle (DESIGN §3.5, question 3)."""

from __future__ import annotations

import math

import numpy as np

from ..result import CyclePoint, CycleResult
from ..scenario import Scenario
from ..units import HOUR
from .path import PathModel
from .recovery import recovery_total_s, worst_failure_offset


def cycle_scan(
    scenario: Scenario,
    restore: PathModel,
    step_s: float = HOUR,
    *,
    level0_s: float = 0.0,
    level1_s: float = 0.0,
) -> CycleResult:
    """Evaluate a failure at every hour of the cycle, plus the worst instant: just before
    the next level 0 finishes (incrementals largest, a full interval of redo plus the
    level 0's duration). `level0_s`/`level1_s`: the backups' durations — a failure while
    a backup runs recovers from the previous one (DESIGN §3.7)."""
    period = scenario.backup.level0_every_s
    n = max(1, math.ceil(period / step_s - 1e-9))
    # One batch over the failure times (totals only): the level 0 restore, the same
    # for every hour, is computed once.
    times = np.append(np.arange(n) * step_s, worst_failure_offset(scenario, level0_s))
    totals = np.broadcast_to(
        recovery_total_s(scenario, restore, times, level0_s=level0_s, level1_s=level1_s),
        times.shape,
    )
    rto = scenario.targets.rto_s
    missing = int(np.count_nonzero(totals[:-1] > rto))  # hours, not the extra instant
    points = [CyclePoint(float(t), float(v)) for t, v in zip(times, totals, strict=True)]
    # In time order: the worst instant (just before the level 0 finishes) falls inside the
    # cycle, so a chart drawn through the points does not jump back from its end.
    points.sort(key=lambda p: p.since_level0_s)
    worst = max(points, key=lambda p: p.total_s)
    best = min(p.total_s for p in points)
    return CycleResult(
        points=tuple(points),
        worst_s=worst.total_s,
        worst_at_s=worst.since_level0_s,
        best_s=best,
        rto_s=rto,
        hours_missing=missing,
    )
