"""The estate after a site loss, simulated event by event (DESIGN §9).

Every database starts its recovery at time 0 and runs its own plan's phases. Fixed
phases keep their planned duration. A transfer (restore of level 0, incrementals,
archived redo) moves its volume through the database's path while other databases use
the shared resources too:

- **Channels start one after another** (DESIGN §3.3): a database initialises one
  channel at a time, each taking `channel_init`; on a shared tape library a channel
  first needs a free drive, and holds it until the transfer ends (RMAN does not hand a
  drive back mid-job). Free drives go to waiting channels by strict priority, then to
  the database of that tier holding the fewest drives (max-min fair in drives), then
  first come first served.
- **Bandwidth** of shared media servers, links and heads is shared by strict priority
  across tiers and max-min fairly within a tier (`share.allocate`).
- **The largest piece** (no multisection) moves through one channel: at most the
  per-channel ceiling, at most what the database gets; the rest of the volume uses the
  rest of the rate. Alone, this is exactly the plan's bound T ≥ init + piece / R(1).

Between two events every rate is constant, so the simulation is exact and event-driven:
the next event is a fixed phase ending, a channel's start-up ending, or a transfer's
remaining bytes reaching zero at its current rate. A database alone on its hardware gets
exactly its own plan (a test checks it).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import CoreError
from .jobs import Job, Step
from .share import NOT_FROZEN, allocate

_PHASE_END, _INIT_END, _FLOW = 0, 1, 2
_REST, _PIECE = 0, 1


@dataclass(frozen=True)
class PhaseRun:
    """One phase of one database as it ran in the estate."""

    name: str
    start_s: float
    duration_s: float
    data_bytes: float
    moved_bytes: float
    waited_s: float
    """Transfer time lost to shared resources (equivalent seconds at the rate the
    database would have had alone)."""

    @property
    def end_s(self) -> float:
        return self.start_s + self.duration_s


@dataclass(frozen=True)
class DatabaseRun:
    index: int
    name: str
    phases: tuple[PhaseRun, ...]
    waits_s: dict[str, float]
    """Seconds lost, by shared resource name."""

    @property
    def open_s(self) -> float:
        return self.phases[-1].end_s if self.phases else 0.0


@dataclass(frozen=True)
class UsageSample:
    """From `time_s` on (until the next sample): use of each shared resource."""

    time_s: float
    fluid: tuple[float, ...]
    """Share of each non-binding resource's capacity in use (1.0 = saturated)."""
    units_held: tuple[int, ...]
    """Units of each channel-binding resource held."""


@dataclass
class SimResult:
    runs: list[DatabaseRun]
    trace: list[UsageSample] = field(default_factory=list)


class _Resources:
    """Capacities of the shared resources in a reference unit per resource (the data
    bytes/s of the first database that uses it, so a database alone is exact)."""

    def __init__(self, names: list[str], jobs: list[Job], units: list[int]) -> None:
        self.names = names
        self.capacity = np.zeros(len(names))
        self.units = list(units)
        self.free = list(units)
        ref: dict[int, float] = {}
        for job in jobs:
            for r, total in job.fluid:
                ref.setdefault(r, total)
        for r, total in ref.items():
            self.capacity[r] = total
        self.use = np.zeros((len(jobs), len(names)))
        for job in jobs:
            for r, total in job.fluid:
                self.use[job.index, r] = ref[r] / total


class _Db:
    """A database's state while it recovers."""

    __slots__ = (
        "blame", "held", "initing", "job", "k", "loss", "moved", "phase_start", "phase_wait",
        "phases", "piece", "piece_rate", "rate", "rest", "rest_rate", "serial", "shape",
        "step", "t_last", "version", "wait_since", "waiting", "waits",
    )  # fmt: skip

    def __init__(self, job: Job) -> None:
        self.job = job
        self.step = -1
        self.phase_start = 0.0
        self.phases: list[PhaseRun] = []
        self.waits: dict[int, float] = {}
        self.serial = 0  # counts transfers, so stale events and requests are ignored
        self._reset_transfer(0.0, 0.0)

    def _reset_transfer(self, volume: float, piece: float) -> None:
        self.rest = volume - piece
        self.piece = piece
        self.k = 0
        self.held = 0
        self.initing = False
        self.waiting = False
        self.rate = self.rest_rate = self.piece_rate = 0.0
        self.blame = NOT_FROZEN
        self.loss = 0.0
        self.t_last = 0.0
        self.version = 0
        self.moved = 0.0
        self.phase_wait = 0.0
        self.wait_since = 0.0
        self.shape: tuple[float, bool, bool] | None = None

    @property
    def current(self) -> Step:
        return self.job.steps[self.step]

    def cap(self) -> float:
        """Data bytes/s the database can take with its streaming channels."""
        job = self.job
        if self.k == 0:
            return 0.0
        channels = self.k if self.rest > 0 else 1
        return min(job.private_Bps, channels * job.per_channel_Bps)

    def settle(self, now: float) -> None:
        dt = now - self.t_last
        if dt > 0:
            self.rest = max(0.0, self.rest - self.rest_rate * dt)
            self.piece = max(0.0, self.piece - self.piece_rate * dt)
            self.moved += self.rate * dt
            if self.loss > 0 and self.blame != NOT_FROZEN:
                lost = dt * self.loss
                self.waits[self.blame] = self.waits.get(self.blame, 0.0) + lost
                self.phase_wait += lost
        self.t_last = now

    def set_rate(self, rate: float) -> None:
        self.rate = rate
        if self.piece > 0:
            self.piece_rate = rate if self.rest <= 0 else min(rate, self.job.per_channel_Bps)
        else:
            self.piece_rate = 0.0
        self.rest_rate = rate - self.piece_rate if self.rest > 0 else 0.0

    def next_done(self) -> tuple[float, int] | None:
        """Seconds until the rest or the piece is through at the current rates."""
        best = None
        if self.rest > 0 and self.rest_rate > 0:
            best = (self.rest / self.rest_rate, _REST)
        if self.piece > 0 and self.piece_rate > 0:
            dt = self.piece / self.piece_rate
            if best is None or dt < best[0]:
                best = (dt, _PIECE)
        return best


class _Simulation:
    def __init__(self, jobs: list[Job], resource_names: list[str], units: list[int],
                 trace: bool) -> None:  # fmt: skip
        self.jobs = jobs
        self.res = _Resources(resource_names, jobs, units)
        self.dbs = [_Db(j) for j in jobs]
        self.events: list[tuple[float, int, int, int, int, int]] = []
        self.seq = itertools.count()
        self.queues: dict[int, list[tuple[int, int, int, int, int]]] = {}
        # Drives still to come to the transfers of each tier, by pool: a lower tier
        # gets a drive only when what is free exceeds what the higher tiers still want.
        self.owed: dict[int, dict[int, int]] = {}
        self.active: set[int] = set()
        self.dirty = False
        self.trace_on = trace
        self.trace: list[UsageSample] = []
        self.alone_fluid = np.zeros((len(jobs), len(resource_names)))
        for job in jobs:
            for r, total in job.fluid:
                self.alone_fluid[job.index, r] = total

    # ---------------------------------------------------------------- events

    def push(self, t: float, kind: int, i: int, token: int = 0, part: int = 0) -> None:
        heapq.heappush(self.events, (t, next(self.seq), kind, i, token, part))

    def run(self, should_cancel: Callable[[], bool] | None) -> None:
        for db in self.dbs:
            self.next_step(db, 0.0)
        steps = 0
        while self.events:
            now = self.events[0][0]
            while self.events and self.events[0][0] <= now:
                _, _, kind, i, token, part = heapq.heappop(self.events)
                self.handle(kind, self.dbs[i], now, token, part)
            if self.dirty:
                self.reallocate(now)
            steps += 1
            if should_cancel is not None and steps % 512 == 0 and should_cancel():
                raise CoreError("estate simulation cancelled")

    def handle(self, kind: int, db: _Db, now: float, token: int, part: int) -> None:
        if kind == _PHASE_END:
            step = db.current
            db.phases.append(PhaseRun(step.name, db.phase_start, step.duration_s, 0.0, 0.0, 0.0))
            self.next_step(db, now)
        elif kind == _INIT_END:
            if token != db.serial:
                return
            db.settle(now)
            db.initing = False
            db.k += 1
            self.active.add(db.job.index)
            self.dirty = True
            self.want_channel(db, now)
        elif kind == _FLOW:
            if token != db.serial or part != db.version:
                return
            db.settle(now)
            self.finish_part(db, now)

    def finish_part(self, db: _Db, now: float) -> None:
        """Called when a part of a transfer may be through: snap round-off, and end the
        transfer or re-share (the database's cap or split changed)."""
        tol = 1e-9 * max(db.current.volume_bytes, 1.0)
        if db.rest <= tol:
            db.rest = 0.0
        if db.piece <= tol:
            db.piece = 0.0
        if db.rest <= 0 and db.piece <= 0:
            self.end_transfer(db, now)
        else:
            self.dirty = True

    # ---------------------------------------------------------------- phases

    def next_step(self, db: _Db, now: float) -> None:
        db.step += 1
        if db.step >= len(db.job.steps):
            return
        db.phase_start = now
        step = db.current
        if not step.transfer:
            self.push(now + step.duration_s, _PHASE_END, db.job.index)
            return
        db.serial += 1
        db._reset_transfer(step.volume_bytes, step.piece_bytes)
        db.t_last = now
        if db.job.pool is not None:
            owed = self.owed.setdefault(db.job.pool, {})
            owed[db.job.priority] = owed.get(db.job.priority, 0) + db.job.channels
        self.want_channel(db, now)

    def end_transfer(self, db: _Db, now: float) -> None:
        job = db.job
        step = db.current
        db.phases.append(
            PhaseRun(
                step.name,
                db.phase_start,
                now - db.phase_start,
                step.volume_bytes,
                db.moved,
                db.phase_wait,
            )
        )
        self.active.discard(job.index)
        db.serial += 1  # its pending init and drive request are void now
        if job.pool is not None:
            self.owed[job.pool][job.priority] -= job.channels - db.held
            self.res.free[job.pool] += db.held
            db.held = 0
            self.grant(job.pool, now)
        db.k = 0
        db.rate = db.rest_rate = db.piece_rate = 0.0
        self.dirty = True
        self.next_step(db, now)

    # ---------------------------------------------------------------- channels

    def want_channel(self, db: _Db, now: float) -> None:
        """Start the next channel's initialisation (after a drive, if it needs one)."""
        job = db.job
        if db.initing or db.waiting or db.k >= job.channels:
            return
        if job.pool is None:
            self.start_init(db, now)
            return
        db.waiting = True
        db.wait_since = now
        queue = self.queues.setdefault(job.pool, [])
        heapq.heappush(queue, (job.priority, db.held, next(self.seq), job.index, db.serial))
        if db.k:
            self.dirty = True  # its rate now falls short for want of a drive
        self.grant(job.pool, now)

    def grant(self, pool: int, now: float) -> None:
        queue = self.queues.get(pool, [])
        while self.res.free[pool] > 0 and queue:
            tier, _, _, i, serial = queue[0]
            db = self.dbs[i]
            if serial != db.serial or not db.waiting:
                heapq.heappop(queue)
                continue
            if self.res.free[pool] <= self.owed_above(pool, tier):
                return  # what is free is kept for higher tiers' channels still to start
            heapq.heappop(queue)
            db.settle(now)
            db.waiting = False
            if db.k == 0 and now > db.wait_since:  # nothing streamed while it waited
                lost = now - db.wait_since
                db.waits[pool] = db.waits.get(pool, 0.0) + lost
                db.phase_wait += lost
            db.held += 1
            self.owed[pool][tier] -= 1
            self.res.free[pool] -= 1
            self.start_init(db, now)
            self.dirty = True

    def owed_above(self, pool: int, tier: int) -> int:
        return sum(n for t, n in self.owed.get(pool, {}).items() if t < tier)

    def start_init(self, db: _Db, now: float) -> None:
        db.initing = True
        self.push(now + db.job.channel_init_s, _INIT_END, db.job.index, db.serial)

    # ---------------------------------------------------------------- sharing

    def reallocate(self, now: float) -> None:
        self.dirty = False
        ids = np.fromiter(sorted(self.active), dtype=np.int64)
        dbs = [self.dbs[i] for i in ids]
        caps = np.array([d.cap() for d in dbs])
        tier = np.array([d.job.priority for d in dbs])
        use = self.res.use[ids]
        got = allocate(tier, caps, use, self.res.capacity)
        for d, rate, by in zip(dbs, got.rate.tolist(), got.frozen_by.tolist(), strict=True):
            self.update(d, now, rate, by)
        if self.trace_on:
            self.sample(now, ids, got.rate)

    def update(self, db: _Db, now: float, rate: float, frozen_by: int) -> None:
        db.settle(now)
        job = db.job
        alone = self.alone_rate(db)
        loss = 1.0 - rate / alone if alone > 0 else 0.0
        blame = NOT_FROZEN
        if loss > 1e-12:
            if frozen_by != NOT_FROZEN:
                blame = frozen_by
            elif db.waiting and job.pool is not None:
                blame = job.pool
        db.loss, db.blame = (loss, blame) if blame != NOT_FROZEN else (0.0, NOT_FROZEN)
        shape = (rate, db.rest > 0, db.piece > 0)
        if shape == db.shape:
            return  # same rates: its pending event stands
        db.shape = shape
        db.set_rate(rate)
        db.version += 1
        nxt = db.next_done()
        if nxt is not None and math.isfinite(nxt[0]):
            self.push(now + nxt[0], _FLOW, job.index, db.serial, db.version)

    def alone_rate(self, db: _Db) -> float:
        """What the database would move now with all its channels and nothing else."""
        job = db.job
        channels = job.channels if db.rest > 0 else 1
        rate = min(job.private_Bps, channels * job.per_channel_Bps)
        for _r, total in job.fluid:
            rate = min(rate, total)
        return rate

    def sample(self, now: float, ids: np.ndarray, rate: np.ndarray) -> None:
        use = rate @ self.res.use[ids] if len(ids) else np.zeros(len(self.res.names))
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(self.res.capacity > 0, use / self.res.capacity, 0.0)
        held = tuple(u - f for u, f in zip(self.res.units, self.res.free, strict=True))
        self.trace.append(UsageSample(now, tuple(share.tolist()), held))

    def results(self) -> list[DatabaseRun]:
        names = self.res.names
        return [
            DatabaseRun(
                d.job.index,
                d.job.name,
                tuple(d.phases),
                {names[r]: s for r, s in d.waits.items()},
            )
            for d in self.dbs
        ]


def simulate(
    jobs: list[Job],
    resource_names: list[str],
    units: list[int],
    *,
    trace: bool = False,
    should_cancel: Callable[[], bool] | None = None,
) -> SimResult:
    """Run every database's recovery from time 0; `units` is each shared resource's
    unit count (used for resources that bind channels)."""
    sim = _Simulation(jobs, resource_names, units, trace)
    sim.run(should_cancel)
    return SimResult(sim.results(), sim.trace)
