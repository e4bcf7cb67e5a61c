"""When does the plan break as the database grows? (DESIGN §3.5, question 6)

The database size follows `database.growth` (compound `%/y` or linear `TB/y`). The
incremental backups and the redo generation grow with it (unless
`database.redo_growth = "constant"`: growth that is accumulated history, not more
transactions); the largest file is held constant.
The date found is the first on which the worst-case recovery misses the RTO or a level 0
or level 1 backup overruns its window; both only get worse with size, so a bisection to
the day is exact.
"""

from __future__ import annotations

from datetime import date, timedelta

from ..result import GrowthPoint, GrowthResult
from ..scenario import Scenario
from ..units import YEAR
from .backups import backup_jobs
from .path import PathModel
from .recovery import recovery_total_s, worst_failure_offset

HORIZON_YEARS = 10.0


def size_after(scenario: Scenario, years: float) -> float:
    g = scenario.database.growth
    size = scenario.database.size_bytes
    if g is None or years <= 0:
        return size
    if g.mode == "compound":
        return size * (1.0 + g.rate) ** years
    return size + g.rate * years


def _check(
    scenario: Scenario, restore: PathModel, backup: PathModel, years: float, on: date
) -> tuple[str | None, GrowthPoint]:
    """Why the plan fails after `years` of growth (None if it holds), and the figures."""
    size = size_after(scenario, years)
    jobs = backup_jobs(scenario, backup, size)
    l0 = next((j.duration_s for j in jobs if j.name == "level0"), 0.0)
    l1 = next((j.duration_s for j in jobs if j.name == "level1"), 0.0)
    total = recovery_total_s(
        scenario, restore, worst_failure_offset(scenario, l0), size, level0_s=l0, level1_s=l1
    )
    reason = None
    if total > scenario.targets.rto_s:
        reason = "worst-case recovery misses the RTO"
    else:
        for job in jobs:
            if job.name != "archivelog" and job.fits_window is False:
                reason = f"{job.title} backup overruns the backup window"
                break
    l0 = next(j.duration_s for j in jobs if j.name == "level0")
    return reason, GrowthPoint(on, size, total, l0)


def anniversary(d: date, years: int) -> date:
    """The same calendar day `years` later (29 February becomes 28 February)."""
    try:
        return d.replace(year=d.year + years)
    except ValueError:
        return d.replace(year=d.year + years, day=28)


def growth_outlook(
    scenario: Scenario,
    restore: PathModel,
    backup: PathModel,
    as_of: date,
    horizon_years: float = HORIZON_YEARS,
) -> GrowthResult | None:
    """The first date the plan breaks within the horizon, and yearly points for a chart."""
    if scenario.database.growth is None:
        return None

    def day(years: float) -> date:
        return as_of + timedelta(days=round(years * YEAR / 86400))

    def check(years: float) -> tuple[str | None, GrowthPoint]:
        return _check(scenario, restore, backup, years, day(years))

    def on(d: date) -> GrowthPoint:
        return _check(scenario, restore, backup, (d - as_of).days * 86400 / YEAR, d)[1]

    # Yearly points fall on the anniversary (1 March stays 1 March), not every 365.25 days.
    points = [on(anniversary(as_of, y)) for y in range(int(horizon_years) + 1)]
    reason0 = check(0.0)[0]
    if reason0:
        return GrowthResult(as_of, as_of, reason0, scenario.database.size_bytes,
                            horizon_years, tuple(points))  # fmt: skip
    if check(horizon_years)[0] is None:
        return GrowthResult(as_of, None, None, None, horizon_years, tuple(points))
    lo, hi = 0.0, horizon_years  # lo passes, hi fails
    one_day = 86400 / YEAR
    while hi - lo > one_day / 4:
        mid = (lo + hi) / 2
        if check(mid)[0] is None:
            lo = mid
        else:
            hi = mid
    # Report the first whole day that fails.
    days = int(hi * YEAR // 86400)
    while check(days * 86400 / YEAR)[0] is None:
        days += 1
    years = days * 86400 / YEAR
    reason, pt = check(years)
    return GrowthResult(
        as_of, as_of + timedelta(days=days), reason, pt.size_bytes, horizon_years, tuple(points)
    )
