"""The recovery total of many trials, or many failure times, in one call (DESIGN §7).

`recovery_totals` runs the steps of the plan's worst case (`plan.compute_core`): the
backups first (a backup is usable only when it has finished), then the failure state and
the recovery timeline — the same functions, on a scenario whose figures may be numpy
arrays of one value per trial. The Monte Carlo run and the cycle scan call it.
"""

from __future__ import annotations

import numpy as np

from ..scenario import Scenario
from .backups import backup_jobs
from .path import BACKUP, RESTORE, PathModel, build_path_model
from .recovery import recovery_total_s, worst_failure_offset
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
