"""The recovery total of many trials, or many failure times, in one call (DESIGN §7).

`recovery_totals` runs the steps of the plan's worst case (`plan.compute_core`): the
backups first (a backup is usable only when it has finished), then the failure state and
the recovery timeline — the same functions, on a scenario whose figures may be numpy
arrays of one value per trial. The Monte Carlo run and the cycle scan call it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..scenario import Scenario
from .backups import backup_jobs
from .path import BACKUP, RESTORE, PathModel, build_path_model
from .recovery import recovery_total_s, worst_failure_offset
from .routes import failover_total_s, has_failover
from .rpo import site_loss_parts
from .shapes import Number


def backup_durations(scenario: Scenario, backup: PathModel) -> tuple[Number, Number]:
    """(level 0, level 1) durations: how long each backup is not yet usable."""
    jobs = {j.name: j.duration_s for j in backup_jobs(scenario, backup)}
    return jobs.get("level0", 0.0), jobs.get("level1", 0.0)


def recovery_totals(scenario: Scenario, since_level0_s: Number | None = None) -> Number:
    """Recovery total (s) for a failure `since_level0_s` after the level 0 started
    (None: the worst instant, just before the next level 0 finishes). Any figure of the
    scenario, and the failure time, may be an array: the result is then an array."""
    restore = build_path_model(scenario, RESTORE)
    level0_s, level1_s = backup_durations(scenario, build_path_model(scenario, BACKUP))
    t = worst_failure_offset(scenario, level0_s) if since_level0_s is None else since_level0_s
    return recovery_total_s(scenario, restore, t, level0_s=level0_s, level1_s=level1_s)


def worst_and_at(scenario: Scenario, since_level0_s: np.ndarray) -> tuple[Number, Number]:
    """(totals at the worst instant, totals at `since_level0_s`) in one pass: the two
    failure times are one more axis of the same arrays, so the backups and the level 0
    restore, which do not depend on the failure time, are computed once."""
    restore = build_path_model(scenario, RESTORE)
    level0_s, level1_s = backup_durations(scenario, build_path_model(scenario, BACKUP))
    worst = worst_failure_offset(scenario, level0_s)
    both = np.stack(np.broadcast_arrays(worst, since_level0_s))
    totals = recovery_total_s(scenario, restore, both, level0_s=level0_s, level1_s=level1_s)
    totals = np.broadcast_to(totals, both.shape)
    return totals[0], totals[1]


@dataclass(frozen=True)
class PlanTrials:
    """Every figure a plan holds against a target, per trial (DESIGN §10: risk covers the
    whole plan): the recovery at the worst instant and at the given failure times, each
    backup job's duration, the site-loss data loss, and the failover (None without one)."""

    worst_s: Number
    at_s: Number
    jobs_s: dict[str, Number]
    windows_s: dict[str, float]
    """Each job's window, for the jobs that have one."""
    site_loss_s: Number
    failover_s: Number | None


def plan_trials(scenario: Scenario, since_level0_s: np.ndarray) -> PlanTrials:
    """`worst_and_at`, and the backups and the data loss of the same trials: the backup
    jobs are computed once and serve the recovery, the windows and the RPO."""
    restore = build_path_model(scenario, RESTORE)
    jobs = backup_jobs(scenario, build_path_model(scenario, BACKUP))
    durations = {j.name: j.duration_s for j in jobs}
    windows = {j.name: j.window_s for j in jobs if j.window_s is not None}
    level0_s, level1_s = durations.get("level0", 0.0), durations.get("level1", 0.0)
    worst = worst_failure_offset(scenario, level0_s)
    both = np.stack(np.broadcast_arrays(worst, since_level0_s))
    totals = recovery_total_s(scenario, restore, both, level0_s=level0_s, level1_s=level1_s)
    totals = np.broadcast_to(totals, both.shape)
    site = sum(v for _, v in site_loss_parts(scenario, jobs))
    failover = failover_total_s(scenario) if has_failover(scenario) else None
    return PlanTrials(totals[0], totals[1], durations, windows, site, failover)
