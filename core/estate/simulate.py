"""The estate after a site loss, simulated event by event (DESIGN §9).

Every database starts its recovery at time 0 and runs its own plan's phases. Fixed
phases keep their planned duration. A transfer (restore of level 0, incrementals,
archived redo) moves its volume through the database's path while other databases use
the shared resources too:

- **Channels start one after another** (DESIGN §3.3): a database initialises one
  channel at a time, each taking `channel_init`; on a shared tape library a channel
  first needs a free drive, and holds it until the transfer ends (RMAN does not hand a
  drive back mid-job; but see the last channel below). Free drives go to waiting
  channels by strict priority, then to the database of that tier holding the fewest
  drives (max-min fair in drives), then first come first served.
- **Bandwidth** of shared media servers, links and heads is shared by strict priority
  across tiers and max-min fairly within a tier (`share.allocate`).
- **RMAN's channel assignment** (DESIGN §3.7, the plan's `channel_loads`: largest
  first, handed out up front) is followed for the first and the last channel. The
  *last channel to start* moves its own load (`Step.last_bytes`) from the moment it
  has finished its start-up (after it got a drive, on a shared library) and loaded and
  located its cartridges; the *first channel* moves the largest piece from its start-up
  plus its cartridges. Each moves at most `c`, what one channel achieves alone
  (`PathModel.channel_alone_Bps`), and at most what the database gets from the sharing
  at that moment. The rest of the volume is the shared *fluid*, moved by whichever
  channels stream. A transfer ends when the fluid, the last channel's load and the piece
  are all through; then the plan's per-job overhead (`Step.tail_s`) follows, with the
  drives kept.

The rate rule, and why alone it is the plan's T = max(ramp, first, last) (`move`). The
database gets `rate` from the sharing, capped by its own stages and by k × c_channel
while the fluid has bytes (k channels streaming: the plan's R(k)), else by c per channel
still moving. The last channel's load is carved out of the fluid: it gets min(c, rate),
the fluid the rest, so together they move the volume at R(k) — no idle capacity while
the fluid has bytes, and the last channel always at c alone, since c ≤ R(1) ≤ R(k) —
and end at max(ramp(V), m × init + cartridges + rest ÷ c); once the fluid is through,
the last channel keeps moving at min(c, its share), holding its drive and its share of
the media servers and links. The largest piece is a *clock* beside the bytes (its bytes
are in the fluid): it advances at min(c, rate) and ends at init + cartridges + piece ÷ c
alone. It cannot be carved out too: when one channel nearly fills the path (R(m) < 2c)
the plan lets the first and the last channel each run at c at once, which two real
channels sharing that path could not, and a database alone must get exactly its plan.
So bytes moved = the volume and no resource is ever above its capacity; the price is in
the case where the largest file decides: once the bytes are through, its channel still
runs (at most c, holding its drive and its share of bandwidth) although its bytes were
counted by the fluid — the shared resources then carry up to the rest of the piece a
second time, which is conservative for the other databases.

When the fluid is through before the last channel has started (its database got fewer
drives than channels), the channels between, whose files the streaming channels moved,
do not start; the last channel takes one of its database's own drives (their channels
are done; the database keeps them all until the job ends, as RMAN does) instead of
asking the pool, and streams once it is allocated — no sooner than the plan's m × init
after the first channel began — and has loaded its cartridges. So it never waits for
another database's drive then, and two databases holding drives for their last channels
cannot block each other.

Not modelled: the channels between the first and the last one by one (a middle channel
that waits for a drive does not delay its own files: the fluid moves them); the
database's real file list (the loads are the plan's: the largest piece, the rest even);
drives handed back by channels that finished early; preemption; failover.

Between two events every rate is constant, so the simulation is exact and event-driven:
the next event is a fixed phase ending, a channel's start-up ending, the first or the
last channel starting after its cartridges, or a transfer's fluid, last channel's load or
piece reaching zero at its current rate. A database alone on its hardware gets exactly its own
plan (a test checks it).

For speed the transfers' state lives in numpy arrays indexed by database, and rates are
re-shared only where the sharing can change: a transfer starts or ends, its cap falls,
or the cap rises of a transfer that was at its cap (one held below its cap by a
saturated resource keeps its max-min fair rate when it gains a channel); and only from
the tier of the change down, stopping at the first tier whose transfers and leftover
capacity are as they were (strict priority: a lower tier never changes a higher one).
A tier that one saturated resource holds at one level, below every transfer's
channel rate (most re-shares of a large estate: each transfer moves its parts at the
level or not at all), runs on a *clock* (`clocks.Clock`): what its transfers moved is the
level's integral since each was last settled, kept once for the tier, so a re-share that
keeps that shape rebases the clock and writes one rate per transfer instead of settling,
re-splitting and charging each; a transfer is brought up to date when an event touches
it. Summing the level once rather than each rate changes the last bits (phases agree to
1e-9 with the clock off, `clocks.CLOCKS`; tests/estate/test_estate_fast_paths.py).
A change inside one database that leaves its rate as it was only re-splits that
database's rate: the last channel or the piece starting or ending while the fluid has
bytes (the cap is k × c_channel either way), or a cap that changes while a saturated
resource holds the database below both the old and the new cap (max-min fairness gives
it, and everyone else, the same rates).
"""

from __future__ import annotations

import heapq
import itertools
import operator
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import CoreError
from .clocks import ClockedFlows as _Flows
from .jobs import Job, Step
from .share import all_of, any_of

SNAP = 1e-9
"""A part with less than this share of its transfer's volume left is through."""
_PHASE_END, _INIT_END, _TAIL_END, _PIECE_ON, _LAST_ON, _HOLD_END = 0, 1, 2, 3, 4, 5


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


PEAK = "peak"
"""`simulate(trace=PEAK)`: keep only each resource's largest use, not every sample."""


@dataclass
class SimResult:
    runs: list[DatabaseRun]
    trace: list[UsageSample] = field(default_factory=list)
    peak: tuple[list[float], list[int]] | None = None
    """Each resource's largest share of its rate in use and most units held, as the
    largest of the trace's samples would give (`trace=PEAK` or True; None untraced or
    without a sample)."""

    def peaks(self) -> tuple[list[float], list[int]] | None:
        """The largest use of each resource: from the trace when kept, else `peak`."""
        if not self.trace:
            return self.peak
        n = len(self.trace[0].fluid)
        fluid = [max(s.fluid[r] for s in self.trace) for r in range(n)]
        return fluid, [max(s.units_held[r] for s in self.trace) for r in range(n)]


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
    """A database's progress through its phases (the transfer's bytes are in _Flows)."""

    __slots__ = (
        "first_init_s", "held", "held_back", "initing", "job", "last_transfer", "own_drives",
        "phase_start", "phases", "serial", "step", "wait_since", "waiting",
    )  # fmt: skip

    def __init__(self, job: Job) -> None:
        self.job = job
        self.step = -1
        self.phase_start = 0.0
        self.phases: list[PhaseRun] = []
        self.serial = 0  # counts transfers, so stale events and requests are ignored
        self.held = 0
        self.initing = False
        self.waiting = False
        self.wait_since = 0.0
        self.own_drives = False
        self.held_back = False
        """Whether the runbook's start for its tier has held its first restore back."""
        self.last_transfer = max((k for k, s in enumerate(job.steps) if s.transfer), default=-1)
        """The transfer's fluid is through: its last channel starts on its own drive."""
        self.first_init_s = 0.0
        """When the transfer's first channel began its start-up."""

    @property
    def current(self) -> Step:
        return self.job.steps[self.step]


def _through_by(done: np.ndarray, rate: np.ndarray, volume: np.ndarray, now: float) -> np.ndarray:
    """Which transfers have a part through at `now`: due by then, or due so soon after
    that what is left of the part at `now` is under the tolerance a part through is
    snapped to (at most its rate × the time to go: 1e-9 of its volume). Two transfers
    due at one instant can be computed an ulp apart; left for the next event, the later
    one would keep a few bytes, and a higher tier taking its resource at this instant
    would hold it at rate 0 until that tier is done."""
    with np.errstate(invalid="ignore"):  # (inf × 0: a transfer that moves nothing)
        soon = (done - now) * rate <= SNAP * np.maximum(volume, 1.0)
    return (done <= now) | soon


def _same(before: tuple[np.ndarray, np.ndarray], ids: np.ndarray, room: np.ndarray) -> bool:
    """Whether a tier has the transfers and the leftover capacity it was shared with."""
    was_ids, was_room = before
    if was_ids is not ids and (len(was_ids) != len(ids) or not all_of(was_ids == ids)):
        return False
    return all_of(was_room == room)


class _Tier:
    """A tier's transfers with a channel streaming, as a sorted array of their indices.
    Kept up to date as transfers come and go (a slice copy, rather than sorting the
    tier at every re-share); a change makes a new array, so an array a sharing was
    made with stays as it was."""

    __slots__ = ("ids",)

    def __init__(self) -> None:
        self.ids = np.zeros(0, dtype=np.int64)

    def add(self, i: int) -> None:
        ids = self.ids
        at = int(ids.searchsorted(i))
        if at < len(ids) and ids[at] == i:
            return
        new = np.empty(len(ids) + 1, dtype=np.int64)
        new[:at] = ids[:at]
        new[at] = i
        new[at + 1 :] = ids[at:]
        self.ids = new

    def discard(self, i: int) -> None:
        ids = self.ids
        at = int(ids.searchsorted(i))
        if at < len(ids) and ids[at] == i:
            self.ids = np.concatenate((ids[:at], ids[at + 1 :]))


class _Simulation:
    def __init__(self, jobs: list[Job], resource_names: list[str], units: list[int],
                 trace: bool | str, reserve: list[int] | None = None) -> None:  # fmt: skip
        self.jobs = jobs
        self.res = _Resources(resource_names, jobs, units)
        self.reserve = list(reserve or [0] * len(units))
        """Units of each pool kept for tier 1 until tier 1's restores are through."""
        self.lower_held = [0] * len(units)
        """Units of each pool held by the lower tiers (tiers 2 and on)."""
        self.tier1_left = [0] * len(units)
        """Tier-1 databases with restores still to come through each pool."""
        for job in jobs:
            if job.tier == 1 and job.pool is not None and any(s.transfer for s in job.steps):
                self.tier1_left[job.pool] += 1
        self.flows = _Flows(jobs, len(resource_names), self.res.use)
        self.dbs = [_Db(j) for j in jobs]
        self.events: list[tuple[float, int, int, int, int]] = []
        self.seq = itertools.count()
        self.queues: dict[int, list[tuple[int, int, float, int, int]]] = {}
        """Drive requests by pool: (tier, drives held, when asked, database, transfer); the
        estate file's order decides between requests of one instant."""
        self.to_grant: set[int] = set()
        """Pools with a drive freed or a request made at this instant (`instant`)."""
        # Drives still to come to the transfers of each tier, by pool: a lower tier
        # gets a drive only when what is free exceeds what the higher tiers still want.
        self.owed: dict[int, dict[int, int]] = {}
        self.tiers = sorted({j.priority for j in jobs})
        self.active = {tier: _Tier() for tier in self.tiers}
        """Transfers with a channel streaming, by tier."""
        self.shared: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        """By tier, as last shared: its transfers and the capacity the higher tiers left."""
        self.tier_done: dict[int, float] = {}
        """By tier, as last shared: when its first transfer's rest or piece is through."""
        self.next_flow_t = np.inf
        self.dirty: set[int] = set()
        """Tiers whose sharing may have changed."""
        self.cap_changes = 0
        self.trace_on = bool(trace)
        self.keep_samples = trace is True
        """Whether every sample is kept (else, `trace=PEAK`, only the largest use)."""
        self.peak: tuple[list[float], list[int]] | None = None
        self.tier_use: dict[int, np.ndarray] = {}
        """By sharing tier, what its transfers use of each resource (traced runs only)."""
        cap = self.res.capacity
        self.inverse_capacity = np.divide(1.0, cap, out=np.zeros_like(cap), where=cap > 0)
        self.trace: list[UsageSample] = []

    # ---------------------------------------------------------------- the loop

    def push(self, t: float, kind: int, i: int, token: int = 0) -> None:
        heapq.heappush(self.events, (t, next(self.seq), kind, i, token))

    def run(self, should_cancel: Callable[[], bool] | None) -> None:
        for db in self.dbs:
            self.next_step(db, 0.0)
        self.grant_pending(0.0)
        steps, limit = 0, self.step_limit()
        while self.events or self.next_flow_t < np.inf:
            t_event = self.events[0][0] if self.events else np.inf
            now = min(t_event, self.next_flow_t)
            if self.next_flow_t <= now:
                self.finish_parts(now)
            events = self.events  # (`instant` inlined for the usual instant: no grant)
            while events and events[0][0] <= now:
                _, _, kind, i, token = heapq.heappop(events)
                self.handle(kind, self.dbs[i], now, token)
            if self.to_grant:
                self.instant(now)
            if self.flows.touched:
                self.look_at_touched()
            if self.dirty:
                self.reallocate(now)
            steps += 1
            if steps > limit:
                raise CoreError(
                    f"the estate simulation did not finish within {limit:,} steps",
                    hint="report this with the estate file (rto-planner.log has the details)",
                )
            if should_cancel is not None and steps % 512 == 0 and should_cancel():
                raise CoreError("estate simulation cancelled")

    def step_limit(self) -> int:
        """At most this many steps (each handles an event or a part through): a
        transfer has a handful of events per channel, so a run needing far more than
        that is a defect, said in one line rather than a hang (issue 25)."""
        per_job = (
            sum(16 + 4 * j.channels if s.transfer else 4 for s in j.steps) for j in self.jobs
        )
        return 64 * sum(per_job) + 10_000

    def instant(self, now: float) -> None:
        """Every event at `now`, then the drives freed at `now` granted by priority to
        every request made at `now` or before (DESIGN §12: a drive goes by priority
        whenever it is free, whatever order the same instant's events come in), then
        the events those grants made at `now` (a start-up of 0 s), and so on."""
        while True:
            while self.events and self.events[0][0] <= now:
                _, _, kind, i, token = heapq.heappop(self.events)
                self.handle(kind, self.dbs[i], now, token)
            if not self.to_grant:
                return
            self.grant_pending(now)

    def grant_pending(self, now: float) -> None:
        pools = self.to_grant
        self.to_grant = set()
        for pool in sorted(pools) if len(pools) > 1 else pools:
            self.grant(pool, now)

    def handle(self, kind: int, db: _Db, now: float, token: int) -> None:
        if kind == _PHASE_END:
            step = db.current
            db.phases.append(PhaseRun(step.name, db.phase_start, step.duration_s, 0.0, 0.0, 0.0))
            self.next_step(db, now)
        elif kind == _TAIL_END:  # a transfer's fixed tail is over: its drives go back
            self.release(db, now)
        elif kind == _HOLD_END:  # the runbook's start for its tier
            db.phase_start = now
            self.begin_transfer(db, now)
        elif token != db.serial:  # an event of a transfer that has ended
            return
        elif kind == _INIT_END:
            self.channel_streams(db, now)
        else:
            self.clock_on(db, kind == _PIECE_ON, now)

    def channel_streams(self, db: _Db, now: float) -> None:
        f, i, step = self.flows, db.job.index, db.current
        db.initing = False
        f.set_k(i, f.k[i] + 1)
        if f.k[i] == 1:
            self.active[db.job.priority].add(i)
            f.streams(i, db.job.priority)
            f.t_last[i] = now
            self.dirty.add(db.job.priority)
            if step.piece_bytes > 0:  # the first channel moves the largest piece
                self.clock_after(db, _PIECE_ON, step.piece_cart_s, now)
        elif f.rest[i] > 0 and f.at_cap(i):
            self.dirty.add(db.job.priority)  # its cap held it: one more channel counts
        if f.k[i] == db.job.channels:  # the last channel to start moves its own load
            serial = db.serial
            self.clock_after(db, _LAST_ON, step.last_cart_s, now)
            if db.serial != serial:  # its load was empty and everything else through
                return
        self.want_channel(db, now)

    def clock_after(self, db: _Db, kind: int, cartridges_s: float, now: float) -> None:
        """A channel clock starts once its channel has loaded and located its cartridges
        (holding its drive meanwhile)."""
        if cartridges_s > 0:
            self.push(now + cartridges_s, kind, db.job.index, db.serial)
        else:
            self.clock_on(db, kind == _PIECE_ON, now)

    def clock_on(self, db: _Db, piece: bool, now: float) -> None:
        """The first channel starts on the largest piece, or the last one on its load."""
        f, i = self.flows, db.job.index
        f.settle_one(i, now)
        (f.piece_on if piece else f.last_on)[i] = True
        if f.all_through(i):  # nothing left for the last channel (its load was empty)
            self.end_transfer(db, now)
        elif f.rest[i] > 0:  # the fluid's cap is unchanged: only this database re-splits
            f.resplit(i, now)
            self.refresh_done(db.job.priority)
        else:  # the database now asks for one more channel's rate
            self.cap_changed(db, now)

    def cap_changed(self, db: _Db, now: float) -> None:
        """A transfer's cap changed: re-share its tier, unless a saturated resource holds
        it below the new cap as below the old one — then its max-min fair rate, and every
        other rate, stay as they are, and only its split changes."""
        f, i, tier = self.flows, db.job.index, db.job.priority
        self.cap_changes += 1
        if tier not in self.dirty and not f.at_cap(i):
            cap, alone = f.cap_of(i)
            if cap >= f.rate[i]:
                f.resplit(i, now)
                f.recharge(i, alone)
                self.refresh_done(tier)
                return
        self.dirty.add(tier)

    def refresh_done(self, tier: int) -> None:
        """A tier's first finish after one of its transfers re-split its rate (on a
        clock: once its touched transfers are looked at, `look_at_touched`)."""
        if tier in self.shared and tier not in self.flows.clocks:
            self.tier_done[tier] = float(self.flows.t_done[self.shared[tier][0]].min())
            self.next_flow_t = min(self.tier_done.values())

    def finish_parts(self, now: float) -> None:
        """A fluid, piece or last channel's load is through: snap round-off (a part whose
        time to finish is below the clock's resolution at `now` is through: a part of
        610 bytes at 120 MB/s after 10¹⁰ s would never move, issue 25), end finished
        transfers, and re-share their tiers where a cap changed (the fluid is through, or
        a clock is through after it), else re-split the one transfer."""
        f = self.flows
        ids = self.through(now)
        if len(ids) == 1 or any_of(f.clocked[ids]):  # the usual case, in scalars
            for i in ids.tolist():
                self.snap(i, now)
        else:
            f.settle(ids, now)
            tol = SNAP * np.maximum(f.volume[ids], 1.0)
            for part, rate in zip(f.left, f.part_rate, strict=True):
                left = part[ids]
                with np.errstate(divide="ignore", invalid="ignore"):
                    absorbed = now + left / rate[ids] <= now
                part[ids] = np.where((left <= tol) | absorbed, 0.0, left)
        f.t_done[ids] = np.inf
        resplit: set[int] = set()
        for i in ids.tolist():
            db = self.dbs[i]
            if f.all_through(i):
                self.end_transfer(db, now)
                continue
            if f.rest[i] > 0:
                f.resplit(i, now)
                resplit.add(db.job.priority)
                continue
            serial, changes = db.serial, self.cap_changes
            if not db.own_drives:
                self.fluid_through(db, now)  # (may start the last channel: its cap changes)
            if db.serial == serial:
                self.return_spare(db)
                if self.cap_changes == changes:
                    self.cap_changed(db, now)
        self.next_flow_t = np.inf
        for tier in resplit - self.dirty:
            self.refresh_done(tier)
        if not self.dirty:
            self.next_flow_t = min(self.tier_done.values(), default=np.inf)

    def snap(self, i: int, now: float) -> None:
        """`finish_parts` for one transfer, in scalars: settle it, and a part is through
        when what is left is below the tolerance, or would be through at `now` (on a
        clock: by the clock's own formula, so that a transfer `through` found is)."""
        f = self.flows
        f.settle_one(i, now)
        tol = SNAP * max(float(f.volume[i]), 1.0)
        # (Python floats: the same doubles as numpy's scalars, fewer calls)
        rates = f.rates_of(i)
        clock = f.clocks.get(f.tier[i]) if f.clocked[i] else None
        mark = float(f.mark[i])
        for k, left in enumerate(f.left[:, i].tolist()):
            if (
                left <= tol
                or (rates[k] > 0 and now + left / rates[k] <= now)
                or (clock is not None and rates[k] > 0 and clock.done_at(mark + left) <= now)
            ):
                f.left[k, i] = 0.0

    def look_at_touched(self) -> None:
        """Clocked transfers an event touched: their moving parts and first finish anew
        (`remask`), their tiers' first finish; a tier whose clock no longer holds one of
        them is shared again."""
        f = self.flows
        tiers = set()
        for i in dict.fromkeys(f.touched):  # (each once: an event may settle it twice)
            if f.clocked[i]:
                if not f.remask(i):
                    self.dirty.add(f.tier[i])
                tiers.add(f.tier[i])
        f.touched.clear()
        for tier in tiers - self.dirty:
            clock = f.clocks[tier]
            self.tier_done[tier] = float(clock.done_at(f.first_mark(clock)))
        if tiers:
            self.next_flow_t = min(self.tier_done.values(), default=np.inf)

    def fluid_through(self, db: _Db, now: float) -> None:
        """The shared bytes are through; the last channel's load (or the largest piece)
        is not. The channels other than the last and the piece's have finished their
        files, so a last channel that has not started asks the pool for no drive: it
        takes one of its database's (which keeps them all until the job ends, as RMAN
        does), and a request it had queued is withdrawn."""
        db.own_drives = True
        job = db.job
        if job.pool is None:
            return
        self.owed[job.pool][job.priority] -= job.channels - db.held
        if db.waiting:
            self.set_waiting(db, False)
            self.want_channel(db, now)

    def through(self, now: float) -> np.ndarray:
        """The transfers whose rest or piece is through at `now`, in index order (only
        the tiers that have one are looked at, not the whole estate)."""
        f = self.flows
        tiers = [t for t, done in self.tier_done.items() if done <= now]
        if not tiers:
            return np.zeros(0, dtype=np.int64)
        found = []
        for tier in tiers:
            cand = self.shared[tier][0]
            clock = f.clocks.get(tier)
            if clock is None:
                found.append(cand[_through_by(f.t_done[cand], f.rate[cand], f.volume[cand], now)])
                continue
            found.append(np.array(f.through_on(clock, now, SNAP), dtype=np.int64))
        return found[0] if len(found) == 1 else np.sort(np.concatenate(found))

    # ---------------------------------------------------------------- phases

    def next_step(self, db: _Db, now: float) -> None:
        db.step += 1
        if db.step >= len(db.job.steps):
            return
        db.phase_start = now
        step = db.current
        if step.overlaps is not None:
            # Runs beside an earlier phase: starts when it started, ends no sooner than now.
            run = next(r for r in db.phases if r.name == step.overlaps)
            start = run.start_s
            end = max(now, start + step.duration_s)
            # Applying ends when the restore it overlaps has ended too; archived redo
            # restored beside the level 0 is that same job (its bytes are in the level 0).
            length = end - start if step.name == "apply_incremental" else run.duration_s
            if step.name != "apply_incremental":
                end = now
            db.phases.append(PhaseRun(step.name, start, length, 0.0, 0.0, 0.0))
            self.push(end, _TAIL_END, db.job.index)
            return
        if not step.transfer:
            self.push(now + step.duration_s, _PHASE_END, db.job.index)
            return
        if db.job.start_s > now and not db.held_back:
            # The runbook starts its tier's restores later: it waits, as a phase of its own.
            db.held_back = True
            db.phases.append(PhaseRun("held", now, db.job.start_s - now, 0.0, 0.0, 0.0))
            self.push(db.job.start_s, _HOLD_END, db.job.index)
            return
        self.begin_transfer(db, now)

    def begin_transfer(self, db: _Db, now: float) -> None:
        step = db.current
        db.serial += 1
        db.held = 0
        db.initing = db.waiting = db.own_drives = False
        self.flows.start(db.job.index, step.volume_bytes, step.piece_bytes, step.last_bytes)
        if db.job.pool is not None:
            owed = self.owed.setdefault(db.job.pool, {})
            owed[db.job.priority] = owed.get(db.job.priority, 0) + db.job.channels
        self.want_channel(db, now)

    def end_transfer(self, db: _Db, now: float) -> None:
        job, f, i = db.job, self.flows, db.job.index
        step = db.current
        db.phases.append(
            PhaseRun(
                step.name,
                db.phase_start,
                now - db.phase_start + step.tail_s,
                step.volume_bytes,
                float(f.moved(i)),
                float(f.phase_wait[i]),
            )
        )
        self.active[job.priority].discard(i)
        self.dirty.add(job.priority)
        f.rate[i] = f.rest_rate[i] = f.last_rate[i] = f.piece_rate[i] = f.loss[i] = 0.0
        f.stop(i)
        f.set_k(i, 0)
        db.serial += 1  # its pending init, clocks and drive request are void now
        if job.pool is not None:
            if not db.own_drives:
                self.owed[job.pool][job.priority] -= job.channels - db.held
            self.set_waiting(db, False)
        if step.tail_s > 0:
            # The per-job overhead: the plan's fixed time after the channels are through,
            # during which the job's channels keep their drives.
            self.push(now + step.tail_s, _TAIL_END, i)
        else:
            self.release(db, now)

    def release(self, db: _Db, now: float) -> None:
        """The job's drives go back to the pool, and its next phase starts: its next
        transfer asks for drives at this very instant, so they go by priority between
        the database and every other request (`instant`), never first to a lower tier
        that was waiting (issue 22.1)."""
        job = db.job
        if job.pool is not None:
            self.give_back(db, db.held)
            if job.tier == 1 and db.step == db.last_transfer:
                self.tier1_left[job.pool] -= 1  # at 0, what it kept is free for every tier
        self.next_step(db, now)

    def give_back(self, db: _Db, units: int) -> None:
        pool = db.job.pool
        assert pool is not None
        db.held -= units
        self.res.free[pool] += units
        if db.job.tier > 1:
            self.lower_held[pool] -= units
        self.to_grant.add(pool)

    def return_spare(self, db: _Db) -> None:
        """Drives of channels that have finished their backup pieces go back to the pool
        (DESIGN §12: a media manager restores one piece per request and queues the
        requests by priority; RMAN's default is one backup set, one piece, per channel:
        FILESPERSET is the files ÷ the channels up to 64, MAXPIECESIZE unlimited). Once
        the shared bytes are through only the last channel's load and the largest
        piece still need a drive."""
        job, f, i = db.job, self.flows, db.job.index
        if job.pool is None or f.rest[i] > 0:
            return
        last = not f.last_on[i] or f.last[i] > 0
        piece = f.piece[i] > 0
        needed = (bool(last) + bool(piece)) if f.two_of[i] else int(last or piece)
        spare = db.held - max(needed, int(db.initing))
        if spare > 0:
            self.give_back(db, spare)

    # ---------------------------------------------------------------- channels

    def set_waiting(self, db: _Db, waiting: bool) -> None:
        db.waiting = waiting
        self.flows.wait_pool[db.job.index] = db.job.pool if waiting else -1

    def want_channel(self, db: _Db, now: float) -> None:
        """Start the next channel's initialisation (after a drive, if it needs one)."""
        job = db.job
        if db.initing or db.waiting or self.flows.k[job.index] >= job.channels:
            return
        if db.own_drives:
            self.start_last(db, now)
            return
        if job.pool is None:
            self.start_init(db, now)
            return
        self.set_waiting(db, True)
        db.wait_since = now
        queue = self.queues.setdefault(job.pool, [])
        heapq.heappush(queue, (job.priority, db.held, now, job.index, db.serial))
        if self.flows.k[job.index] and self.flows.at_cap(job.index):
            self.dirty.add(job.priority)  # short of a channel for want of a drive
        if self.res.free[job.pool] > 0:  # (else only a drive given back can serve it,
            self.to_grant.add(job.pool)  # and `give_back` marks the pool then)

    def owed_above(self, pool: int, tier: int) -> int:
        return sum(n for t, n in self.owed.get(pool, {}).items() if t < tier)

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
            if db.job.tier > 1 and self.kept_for_tier1(pool):
                return  # (the queue's rest is of lower tiers too)
            heapq.heappop(queue)
            self.set_waiting(db, False)
            if self.flows.k[i] == 0 and now > db.wait_since:  # nothing streamed meanwhile
                lost = now - db.wait_since
                self.flows.waits[i, pool] += lost
                self.flows.phase_wait[i] += lost
            db.held += 1
            self.owed[pool][tier] -= 1
            self.res.free[pool] -= 1
            if db.job.tier > 1:
                self.lower_held[pool] += 1
            self.start_init(db, now)

    def kept_for_tier1(self, pool: int) -> bool:
        """Whether the lower tiers hold every unit the runbook leaves them while tier 1
        has restores to come (`policy.reserve`)."""
        if not self.reserve[pool] or not self.tier1_left[pool]:
            return False
        return self.lower_held[pool] >= self.res.units[pool] - self.reserve[pool]

    def start_init(self, db: _Db, now: float) -> None:
        if not self.flows.k[db.job.index]:  # the first channel
            db.first_init_s = now
        db.initing = True
        self.push(now + db.job.channel_init_s, _INIT_END, db.job.index, db.serial)

    def start_last(self, db: _Db, now: float) -> None:
        """The fluid is through before the last channel started: the channels between,
        whose files the streaming channels moved, do not start; the last one takes the
        database's own drive now (a channel that finished its files hands it over), and
        streams once it is allocated — the plan's m × init after the first channel began,
        channels being allocated one after another — and has loaded its cartridges."""
        job = db.job
        self.flows.set_k(job.index, job.channels - 1)
        ready = db.first_init_s + job.channels * job.channel_init_s
        if ready > now:
            db.initing = True
            self.push(ready, _INIT_END, job.index, db.serial)
        else:
            self.channel_streams(db, now)

    # ---------------------------------------------------------------- sharing

    def reallocate(self, now: float) -> None:
        """Re-share from the highest changed tier down (see the module docstring)."""
        f = self.flows
        dirty = self.dirty
        self.dirty = set()
        first = min(dirty)
        room = self.res.capacity.copy()
        for tier in self.tiers:
            if tier < first:
                if tier in self.shared:
                    room = self.shared[tier][1].copy()
                    self.take(room, self.shared[tier][0])
                continue
            before = self.shared.get(tier)
            ids = self.active[tier].ids
            if tier not in dirty and before is not None and _same(before, ids, room):
                if not any(t > tier for t in dirty):
                    break  # this tier, and every lower one, shares as before
                room = before[1].copy()
                self.take(room, before[0])
                continue
            if not len(ids):
                f.clocks.pop(tier, None)
                self.shared.pop(tier, None)
                self.tier_done.pop(tier, None)
                self.tier_use.pop(tier, None)
                continue
            self.shared[tier] = (ids, room.copy())
            self.tier_done[tier] = f.reshare(ids, None, room, now, tier)
            if self.trace_on:
                self.tier_use[tier] = f.tier_use(ids, tier)
        self.next_flow_t = min(self.tier_done.values(), default=np.inf)
        if self.trace_on:
            self.sample(now)

    def take(self, room: np.ndarray, ids: np.ndarray) -> None:
        """What a tier's transfers use, taken from `room`."""
        room -= self.flows.rate[ids] @ self.res.use.take(ids, axis=0)
        np.maximum(room, 0.0, out=room)

    def sample(self, now: float) -> None:
        """The use of every resource now: what the sharing tiers' transfers use (a
        transfer not in a sharing tier moves nothing), without scanning every database.
        A tier's use is kept from its last sharing (`tier_use`): its rates change only
        when it is shared again (a transfer that starts or ends makes its tier shared
        again before the next sample)."""
        use = np.zeros(len(self.res.names))
        for tier in self.shared:
            use += self.tier_use[tier]
        share = (use * self.inverse_capacity).tolist()
        held = list(map(operator.sub, self.res.units, self.res.free))
        if self.keep_samples:
            self.trace.append(UsageSample(now, tuple(share), tuple(held)))
        elif self.peak is None:
            self.peak = (share, held)
        else:  # (max keeps the earlier of two equal values, as max over the samples does)
            fluid, units = self.peak
            self.peak = (list(map(max, fluid, share)), list(map(max, units, held)))

    def results(self) -> list[DatabaseRun]:
        names = self.res.names
        waits = self.flows.waits
        return [
            DatabaseRun(
                d.job.index,
                d.job.name,
                tuple(d.phases),
                {names[r]: float(s) for r, s in enumerate(waits[d.job.index]) if s > 0},
            )
            for d in self.dbs
        ]


def simulate(
    jobs: list[Job],
    resource_names: list[str],
    units: list[int],
    *,
    trace: bool | str = False,
    should_cancel: Callable[[], bool] | None = None,
    reserve: list[int] | None = None,
) -> SimResult:
    """Run every database's recovery from time 0; `units` is each shared resource's
    unit count (used for resources that bind channels), `reserve` the units of each kept
    for tier 1 until its restores are through (the runbook's). `trace`: keep the usage
    samples (True), only each resource's largest use (PEAK: what `--json` prints, without
    a sample per event), or neither (False)."""
    sim = _Simulation(jobs, resource_names, units, trace, reserve)
    sim.run(should_cancel)
    return SimResult(sim.results(), sim.trace, sim.peak)
