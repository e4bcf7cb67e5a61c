"""A cheap proof that priority 1 cannot meet, without simulating (issue 22.3).

Priority 1 meets when every priority-1 database opens by its RTO. Whatever the sharing,
a database's restores move their bytes after its first restore can start and before
its RTO less what must follow them; and a shared resource carries no more than its
capacity at any moment. So, for every interval [s, t] and every shared resource, the
work of the priority-1 databases whose whole window lies inside it must fit in it:

    Σ work ≤ capacity × (t − s)

This is necessary, not sufficient: when it fails for some interval, priority 1 misses
in the estate simulation too (`run_estate`), and the least-hardware search need not
simulate that candidate; when it holds, only the simulation can tell. The work, in
seconds of the whole resource:

- a media server, link or head (bandwidth shared): each transfer's volume ÷ what the
  resource carries in that database's data bytes/s (`Job.fluid`) — the simulation
  shares the resources so that Σ rate ÷ that capacity ≤ 1 (`share.share_tier`);
- a tape library (units held by channels): a unit moves at most what one channel moves
  while the shared bytes flow (`Job.per_channel_Bps`) or alone (`Job.channel_alone_Bps`),
  and each transfer after the first holds one for a channel's start-up before it moves
  anything; in unit-seconds, against the library's units.

A database's window: from the sum of its fixed phases before its first restore (or its
tier's runbook start, if later) plus one channel start-up, to its RTO less the per-job
overhead of its last restore and the fixed phases after it. Phases that run beside an
earlier one take no time here (they only ever end later). A database whose last phase
runs beside an earlier one is left out (its open time is that phase's, see
`simulate.next_step`), as is one that fails over (it moves nothing). Leaving a database
out only weakens the condition, so the proof stays sound.

Round-off: the simulation counts a part through when less than 10⁻⁹ of its volume is
left, so the condition is relaxed by a relative 10⁻⁶ and 1 ms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .jobs import Job

RELATIVE_SLACK = 1e-6
ABSOLUTE_SLACK_S = 1e-3


def _window(job: Job) -> tuple[float, float] | None:
    """(earliest a byte can move, latest all its bytes must be through), or None."""
    steps = job.steps
    if not any(s.transfer for s in steps) or steps[-1].overlaps is not None:
        return None
    before = 0.0
    for s in steps:
        if s.transfer:
            break
        if s.overlaps is None:
            before += s.duration_s
    after = 0.0
    for s in reversed(steps):
        if s.transfer:
            after += s.tail_s
            break
        if s.overlaps is None:
            after += s.duration_s
    return max(before, job.start_s) + job.channel_init_s, job.rto_s - after


def urgency(jobs: Sequence[Job]) -> dict[str, float]:
    """By priority-1 database: its bytes ÷ the time its window leaves them (`_window`),
    0 when the bound leaves it out. The databases that press hardest on the shared
    resources first: the parts of priority 1 most likely to be proven short."""
    out = {}
    for job in jobs:
        if job.tier == 1:
            w = _window(job)
            volume = sum(s.volume_bytes for s in job.steps if s.transfer)
            out[job.name] = 0.0 if w is None else volume / max(w[1] - w[0], 1.0)
    return out


def _fits(release: np.ndarray, deadline: np.ndarray, work: np.ndarray, capacity: float) -> bool:
    """Whether, for every window start s among the releases and every deadline t, the work
    of the databases inside [s, t] fits in capacity × (t − s) (with the slack)."""
    for s in np.unique(release):
        inside = release >= s
        order = np.argsort(deadline[inside], kind="stable")
        t = deadline[inside][order]
        need = np.cumsum(work[inside][order])
        room = capacity * (t - s)
        if np.any(need > room * (1.0 + RELATIVE_SLACK) + capacity * ABSOLUTE_SLACK_S):
            return False
    return True


def tier1_cannot_meet(jobs: Sequence[Job], units: Sequence[int]) -> bool:
    """True when some priority-1 database is proven to miss its RTO (see the module
    docstring); False when the simulation is needed to tell. `units` is each shared
    resource's unit count, as `simulate` takes it."""
    windows: list[tuple[Job, float, float]] = []
    for job in jobs:
        if job.tier != 1:
            continue
        w = _window(job)
        if w is not None:
            windows.append((job, *w))
    if not windows:
        return False
    release = np.array([a for _, a, _ in windows])
    deadline = np.array([b for _, _, b in windows])
    for r, count in enumerate(units):
        work = np.array([_work(job, r) for job, _, _ in windows])
        if not np.any(work > 0):
            continue
        pool = any(job.pool == r for job, _, _ in windows)
        if not _fits(release, deadline, work, float(count) if pool else 1.0):
            return True
    return False


def _work(job: Job, r: int) -> float:
    """Seconds of resource `r` the job's transfers need at least (unit-seconds for a pool)."""
    transfers = [s for s in job.steps if s.transfer]
    if job.pool == r:
        per_unit = max(job.per_channel_Bps, job.channel_alone_Bps)
        moving = 0.0 if math.isinf(per_unit) else sum(s.volume_bytes for s in transfers) / per_unit
        # (the first start-up may come before the window opens: only the others count)
        return moving + job.channel_init_s * (len(transfers) - 1)
    total = next((t for k, t in job.fluid if k == r), None)
    if total is None or total <= 0 or math.isinf(total):
        return 0.0
    return sum(s.volume_bytes for s in transfers) / total
