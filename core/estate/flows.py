"""Every database's transfer state as arrays indexed by database (the simulation's
`_Flows`: see `simulate`'s docstring for the rate rule it applies)."""

from __future__ import annotations

import heapq
import math

import numpy as np

from .jobs import Job
from .share import (
    _BELOW_EVERY_CAP,
    _BELOW_EVERY_CAP_N,
    NOT_FROZEN,
    Allocation,
    UNBOUNDED_Bps,
    all_of,
    any_of,
    one_level,
    share_tier,
    take_level,
)

LOSS_EPS = 1e-12
"""A share below what a transfer would move alone by less than this is no loss."""

CLOCKS = True
"""Whether a tier one resource holds at one level runs on a `Clock` (tests turn it off to
compare with the general sharing)."""


class Clock:
    """A tier whose every transfer a saturated resource holds at one water level: each
    moves its parts at that level (or not at all), so its progress is the level's
    integral since it was last settled (`level`), kept once for the tier instead of per
    transfer. A new level (`rebase`) costs nothing per transfer; a transfer is brought
    up to date only when an event touches it (`_Flows.settle_one`)."""

    __slots__ = ("level", "marks", "rate", "resource", "single", "t", "totals", "use")

    def __init__(self, now: float, rate: float, resource: int, use: float) -> None:
        self.t = now
        self.level = 0.0
        """∫ rate dt from the clock's start to `t`."""
        self.rate = rate
        self.resource = resource
        """The resource that holds every transfer of the tier (their time lost is its)."""
        self.use = use
        """What each of its transfers uses of the resource per data byte/s (all alike)."""
        self.totals: dict[int, float] = {}
        """The sum of `use` over n transfers, as `np.add.reduce` gives it, by n."""
        self.single = False
        """Whether each of its transfers uses no other shared resource (`_Flows.only`)."""
        self.marks: list[tuple[float, int, int]] = []
        """A heap of (mark, version, transfer): each transfer's first finish as a level
        (`_Flows.mark_done`); an entry whose version is not the transfer's is stale."""

    def at(self, now: float) -> float:
        return self.level + self.rate * (now - self.t)

    def rebase(self, now: float, rate: float) -> None:
        self.level = self.at(now)
        self.t = now
        self.rate = rate

    def done_at(self, mark: float | np.ndarray) -> float | np.ndarray:
        """When the level reaches `mark` (the one formula `through` and the tier's first
        finish both use, so that the transfer that sets the tier's next event is through
        at it)."""
        return self.t + (mark - self.level) / self.rate


class _Flows:
    """Every database's transfer state as arrays indexed by database.

    A transfer has three parts, each with what is left to move (`rest`, `last`, `piece`)
    and its rate: the shared fluid, the last channel's load (carved out of the fluid) and
    the largest piece's clock (its bytes are in the fluid)."""

    def __init__(self, jobs: list[Job], n_resources: int, use: np.ndarray | None = None) -> None:
        n = len(jobs)
        self.use = np.zeros((n, n_resources)) if use is None else use
        """What each transfer uses of each shared resource per data byte/s (`_Resources`)."""
        only = np.full(n, NOT_FROZEN, dtype=np.int64)
        single = np.count_nonzero(self.use, axis=1) == 1
        if n_resources:
            only[single] = np.argmax(self.use[single], axis=1)
        self.only = only
        """The one shared resource each transfer's path uses, else NOT_FROZEN."""
        self.volume = np.zeros(n)
        # The three parts side by side (rows of one array, each row a view by its name),
        # so that a tier's settle and split gather and scatter them in one call each
        self.left = np.zeros((3, n))
        self.rest, self.last, self.piece = self.left
        self.part_rate = np.zeros((3, n))
        self.rest_rate, self.last_rate, self.piece_rate = self.part_rate
        self.rows = np.arange(3).reshape(3, 1) * n
        """Added to transfers' indices: their places in the rows of `left`, `part_rate`."""
        self.started = np.zeros((2, n), dtype=bool)
        self.last_on, self.piece_on = self.started
        """Whether the last channel moves its load, the first one the piece (the rows of
        `started`; their flat indices are those of `left`'s first two rows)."""
        self.rate = np.zeros(n)
        """What each transfer gets from the sharing (data bytes/s of the resources)."""
        self.loss = np.zeros(n)
        self.blame = np.full(n, NOT_FROZEN, dtype=np.int64)
        self.frozen_by = np.full(n, NOT_FROZEN, dtype=np.int64)
        self.phase_wait = np.zeros(n)
        self.k = [0] * n
        """Channels streaming (a list: only ever read one at a time)."""
        self.kcap = np.zeros(n)
        """What each transfer's streaming channels and own stages let through:
        min(private, k × c_channel), kept with `k` (`set_k`)."""
        self.wait_pool = np.full(n, -1, dtype=np.int64)
        """The pool each transfer waits for a drive of, else -1."""
        self.per_channel = np.array([j.per_channel_Bps for j in jobs])
        self.private = np.array([j.private_Bps for j in jobs])
        channels = np.array([j.channels for j in jobs], dtype=np.int64)
        alone_fluid = np.array([min((t for _, t in j.fluid), default=np.inf) for j in jobs])
        # What each would move alone with all its channels (fluid left), or through its
        # first and last channels only (the path to itself, at most c each)
        self.alone_path = np.minimum(self.private, alone_fluid)
        self.alone_all = np.minimum(self.alone_path, channels * self.per_channel)
        self.c = np.array([j.channel_alone_Bps for j in jobs])
        self.two = channels > 1
        """Whether the piece's channel is another than the last (one channel: the same)."""
        # The same constants as Python floats, for the one-transfer paths (a list item is
        # read faster than an array's, and its arithmetic is a float's: the same doubles)
        self.private_of = self.private.tolist()
        self.per_channel_of = self.per_channel.tolist()
        self.c_of = self.c.tolist()
        self.only_of = self.only.tolist()
        self.two_of = self.two.tolist()
        self.alone_path_of = self.alone_path.tolist()
        self.alone_all_of = self.alone_all.tolist()
        self.waits = np.zeros((n, n_resources))
        self.n_resources = n_resources
        self.t_last = np.zeros(n)
        self.t_done = np.full(n, np.inf)
        """When each transfer's fluid, last channel's load or piece is next through at its
        current rates (not kept for a clocked transfer: see `mark_done`)."""
        # Tiers on a clock (`Clock`): their transfers' state is as of `mark`
        self.tier = [j.priority for j in jobs]
        self.clocks: dict[int, Clock] = {}
        self.clocked = np.zeros(n, dtype=bool)
        self.mark = np.zeros(n)
        """A clocked transfer's clock level when it was last settled."""
        self.moving = np.zeros((3, n), dtype=bool)
        """Which parts of a clocked transfer move (each at the clock's rate)."""
        self.mark_done = np.full(n, np.inf)
        self.mark_version = [0] * n
        """Bumped at each new `mark_done`: older entries of a clock's heap are stale."""
        """The clock level at which a clocked transfer's first moving part is through."""
        self.alone_now = np.zeros(n)
        """What a clocked transfer would move alone (its time lost is measured against it)."""
        self.cap_now = np.zeros(n)
        """A clocked transfer's cap (`cap_of`, at most UNBOUNDED_Bps, as shared)."""
        self.ceiling = np.zeros(n)
        """The highest level a clocked transfer stays on its clock at: at most c (each part
        moves at the level or not at all), below what it moves alone (it loses time)."""
        self.clock_shares = 0
        """Re-shares done by a clock (`reshare_clocked`), of `self.shares` in all."""
        self.shares = 0
        self.touched: list[int] = []
        """Clocked transfers settled since their parts were last looked at: an event may
        have started or ended a part (`remask`)."""

    def start(self, i: int, volume: float, piece: float, last: float) -> None:
        self.volume[i] = volume
        self.rest[i], self.last[i], self.piece[i] = volume - last, last, piece
        self.last_on[i] = self.piece_on[i] = False
        self.rest_rate[i] = self.last_rate[i] = self.piece_rate[i] = 0.0
        self.rate[i] = self.loss[i] = self.phase_wait[i] = 0.0
        self.blame[i] = self.frozen_by[i] = NOT_FROZEN
        self.set_k(i, 0)
        self.stop(i)

    def stop(self, i: int) -> None:
        """A transfer off its clock (started or ended) and with no finish to come."""
        self.t_done[i] = np.inf
        self.clocked[i] = False
        self.set_mark(i, np.inf, None)

    def set_mark(self, i: int, mark: float, clock: Clock | None) -> None:
        """A clocked transfer's first finish as its clock's level, in its clock's heap."""
        self.mark_done[i] = mark
        version = self.mark_version[i] + 1
        self.mark_version[i] = version
        if clock is not None and mark < np.inf:
            heapq.heappush(clock.marks, (mark, version, i))

    def first_mark(self, clock: Clock) -> float:
        """The least first finish of a clock's transfers (stale entries dropped)."""
        marks, versions = clock.marks, self.mark_version
        while marks:
            mark, version, i = marks[0]
            if versions[i] == version:
                return mark
            heapq.heappop(marks)
        return np.inf

    def through_on(self, clock: Clock, now: float) -> list[int]:
        """A clock's transfers through at `now` by its own formula (the one that set the
        tier's first finish), taken off its heap, in index order."""
        found = []
        while True:
            mark = self.first_mark(clock)
            if mark == np.inf or clock.done_at(mark) > now:
                return sorted(found)
            found.append(heapq.heappop(clock.marks)[2])

    def set_k(self, i: int, k: int) -> None:
        """Channels streaming, and the cap they give while the fluid has bytes."""
        self.k[i] = k
        cap = min(self.private_of[i], k * self.per_channel_of[i]) if k else 0.0
        self.kcap[i] = cap
        if self.clocked[i] and self.rest[i] > 0:
            self.cap_now[i] = min(cap, UNBOUNDED_Bps)

    def at_cap(self, i: int) -> bool:
        """Whether the last sharing gave the transfer its cap (no resource held it)."""
        return bool(self.frozen_by[i] == NOT_FROZEN)

    def settle(self, ids: np.ndarray, now: float) -> tuple[np.ndarray, np.ndarray]:
        """Move transfers forward to `now` at their (constant) rates. Returns where their
        parts are in `left` and `part_rate` (`rows` + ids), and what is left of them: the
        rows fluid, last channel's load, piece (each element as `settle_one` computes it)."""
        dt = now - self.t_last[ids]
        self.t_last[ids] = now
        at = ids + self.rows
        left = self.left.take(at) - self.part_rate.take(at) * dt
        np.maximum(left, 0.0, out=left)
        self.left.put(at, left)
        blamed = self.blame[ids]
        hit = blamed != NOT_FROZEN
        if all_of(hit):
            self.charge(ids, blamed, self.loss[ids] * dt)
        elif any_of(hit):
            lost_ids = ids[hit]
            self.charge(lost_ids, blamed[hit], self.loss[lost_ids] * dt[hit])
        return at, left

    def charge(self, ids: np.ndarray, blamed: np.ndarray, lost: np.ndarray) -> None:
        """Time lost by transfers (one element each), to their phase and to the resource
        that held them (`waits` as one row: 1-D indexing is cheaper, the sums the same;
        (transfer, resource) pairs are unique, so a plain fancy add is exact)."""
        self.phase_wait[ids] += lost
        self.waits.reshape(-1)[ids * self.n_resources + blamed] += lost

    def reshare(
        self, ids: np.ndarray, use: np.ndarray | None, room: np.ndarray, now: float, tier: int
    ) -> float:
        """Settle a tier's transfers at `now` and share `room` (reduced) between them;
        when the first of their parts is through.
        Each asks for what its streaming channels take while the fluid has bytes, else
        for c per channel still moving (the module docstring's rate rule).
        When one resource holds them all at one level, the tier goes on (or stays on) a
        `Clock` and nothing is written per transfer but the rate.
        (One gather of each array per call: at ~100 transfers numpy's per-call cost is
        most of the time.)"""
        self.shares += 1
        clock = self.clocks.get(tier)
        if clock is not None:
            first = self.reshare_clocked(ids, use, room, now, clock)
            if first is not None:
                self.clock_shares += 1
                return first
        if use is None:
            use = self.use.take(ids, axis=0)
        clocked = self.clocked.take(ids)
        on_clock = np.count_nonzero(clocked)
        if on_clock:
            # Those not on the clock started streaming since: settled one by one (a
            # few), and the clocked ones' parts are as of their marks — which parts
            # have bytes left is as now (a part through is an event, handled before)
            for i in ids[~clocked].tolist():
                self.settle_one(i, now)
            at = ids + self.rows
            left = self.left.take(at)
        else:
            at, left = self.settle(ids, now)
        rest_left = left[0] > 0
        all_fluid = all_of(rest_left)
        # Channel clocks moving (None: none in this tier, the usual case: fewer calls)
        last_live = piece_live = None
        on = self.started.take(at[:2])  # (rows last, piece)
        if any_of(on.reshape(-1)):
            last_live, piece_live = on & (left[1:] > 0)
        c = self.c[ids]
        cap, alone = self.kcap[ids], self.alone_all[ids]
        if not all_fluid:
            # (c per clock still moving: the count as integers, as True + True is True)
            clocks = 0.0
            if last_live is not None:
                clocks = (last_live.astype(np.int64) + (piece_live & self.two[ids])) * c
            cap = np.where(rest_left, cap, np.minimum(self.private[ids], clocks))
            alone = np.where(rest_left, alone, np.minimum(self.alone_path[ids], cap))
        got = share_tier(cap, use, room)
        held = _one_level(got, c, alone) if CLOCKS else None
        if held is not None:
            parts = (rest_left, last_live, piece_live)
            return self.clock_on(ids, at, left, parts, (cap, alone), held, clocked, now, tier, use)
        if on_clock:
            self.unclock(ids[clocked], now)
            left = self.left.take(at)
        self.clocks.pop(tier, None)
        first = self.split(ids, at, got.rate, c, left, rest_left, last_live, piece_live, now)
        self.losses(ids, got, alone)
        return first

    def reshare_clocked(
        self, ids: np.ndarray, use: np.ndarray, room: np.ndarray, now: float, clock: Clock
    ) -> float | None:
        """`reshare` for a tier on a clock, in a few calls: when its resource still holds
        every transfer at one level (`one_level`, with the caps the clocked transfers
        keep), the clock is rebased and transfers new to it join; None (nothing shared,
        `room` as it was) when the general sharing must decide."""
        if math.isnan(clock.use):  # (its transfers use the resource unalike)
            return None
        clocked = self.clocked.take(ids)
        new = [] if all_of(clocked) else ids[~clocked].tolist()
        by = clock.resource
        for i in new:
            if self.use[i, by] != clock.use:
                return None  # (a transfer new to it uses the resource otherwise)
        single = clock.single and all(self.only_of[i] == by for i in new)
        if use is None and not single:
            use = self.use.take(ids, axis=0)
        for i in new:  # (started streaming since: not on the clock yet, a few)
            self.settle_one(i, now)
            cap, alone = self.cap_of(i)
            self.cap_now[i] = min(cap, UNBOUNDED_Bps)
            self.alone_now[i] = alone
            self.ceiling[i] = min(self.c_of[i], alone * _BELOW_ALONE)
        n = len(ids)
        total = clock.totals.get(n)
        if total is None:
            if use is None:
                use = self.use.take(ids, axis=0)
            total = clock.totals[n] = np.add.reduce(use[:, by])
        caps = self.cap_now.take(ids)
        if single:
            # Each uses this resource alone: the others are not over their room (what
            # the tier asks of them is 0), so `one_level` needs only this one's sum
            level = _single_level(caps, float(room[by]), total, clock.use)
        else:
            assert use is not None
            level = one_level(caps, use, room, by, total)
        if level is None or level > np.minimum.reduce(self.ceiling.take(ids)):
            return None
        if single:
            room[by] = 0.0  # (`take_level`: the others less 0, none below 0)
        else:
            assert use is not None
            take_level(level, use, room, by)
        clock.single = single
        clock.rebase(now, level)
        for i in new:
            self.clocked[i] = True
            self.mark[i] = clock.level
            self.frozen_by[i] = by
            self.blame[i] = NOT_FROZEN
            self.remask(i)
        self.rate.put(ids, level)
        return float(clock.done_at(self.first_mark(clock)))

    def clock_on(self, ids: np.ndarray, at: np.ndarray, left: np.ndarray,
                 parts: tuple[np.ndarray, np.ndarray | None, np.ndarray | None],
                 asks: tuple[np.ndarray, np.ndarray], held: tuple[float, int], clocked: np.ndarray,
                 now: float, tier: int, use: np.ndarray) -> float:  # fmt: skip
        """The tier's transfers all at `held`'s level, frozen by its resource: start its
        clock, or rebase it; transfers new to it join as of now. When the first part is
        through."""
        level, by = held
        clock = self.clocks.get(tier)
        if clock is not None and clock.resource != by:
            self.unclock(ids[clocked], now)
            left = self.left.take(at)
            clock = None
        col = use[:, by]
        alike = float(col[0]) if not np.count_nonzero(col != col[0]) else np.nan
        if clock is None:
            clock = self.clocks[tier] = Clock(now, level, by, alike)
            join = None
        else:
            clock.rebase(now, level)
            join = ~clocked
            if alike != clock.use:  # (the fast re-share holds only transfers alike)
                clock.use, clock.totals = alike, {}
        clock.single = alike == alike and not np.count_nonzero(self.only.take(ids) != by)
        if join is None or any_of(join):
            self.join(ids, at, left, parts, asks, join, clock)
        self.rate[ids] = level
        return float(clock.done_at(self.first_mark(clock)))

    def join(self, ids: np.ndarray, at: np.ndarray, left: np.ndarray,
             parts: tuple[np.ndarray, np.ndarray | None, np.ndarray | None],
             asks: tuple[np.ndarray, np.ndarray], join: np.ndarray | None,
             clock: Clock) -> None:  # fmt: skip
        """Transfers settled at the clock's time join it (`join`: which of `ids`; None:
        all). Each part moves at the level, the fluid unless the last channel moves (it
        takes the whole level: the level is at most c), as `split` would split it."""
        rest_left, last_live, piece_live = parts
        cap, alone = asks
        if last_live is None:
            moving = np.zeros(left.shape, dtype=bool)
            moving[0] = rest_left
        else:
            moving = np.stack((rest_left & ~last_live, last_live, piece_live))
        if join is not None:
            ids, at, left, moving = ids[join], at[:, join], left[:, join], moving[:, join]
            cap, alone = cap[join], alone[join]
        self.moving.put(at, moving)
        first = np.where(moving, left, np.inf).min(axis=0)
        self.mark[ids] = clock.level
        marks = first + clock.level
        self.mark_done[ids] = marks
        versions = self.mark_version
        for i, mark in zip(ids.tolist(), marks.tolist(), strict=True):
            versions[i] += 1
            if mark < np.inf:
                clock.marks.append((mark, versions[i], i))
        heapq.heapify(clock.marks)
        self.alone_now[ids] = alone
        self.cap_now[ids] = np.minimum(cap, UNBOUNDED_Bps)
        self.ceiling[ids] = _ceiling(self.c[ids], alone)
        self.clocked[ids] = True
        self.frozen_by[ids] = clock.resource
        self.blame[ids] = NOT_FROZEN
        self.t_last[ids] = clock.t

    def unclock(self, ids: np.ndarray, now: float) -> None:
        """Bring clocked transfers (of one tier) up to date at `now` and take them off
        their clock, as `settle` would have settled them interval by interval."""
        if not len(ids):
            return
        clock = self.clocks[self.tier[int(ids[0])]]
        level = clock.at(now)
        moved = level - self.mark[ids]
        at = ids + self.rows
        left = self.left.take(at) - self.moving.take(at) * moved
        np.maximum(left, 0.0, out=left)
        self.left.put(at, left)
        # Time lost: ∫ (1 − rate ÷ alone) dt, the rate's integral being the level's
        alone = self.alone_now[ids]  # (0 only for one touched at `now`: nothing to charge)
        lost = (now - self.t_last[ids]) - np.divide(
            moved, alone, out=np.zeros(len(ids)), where=alone > 0
        )
        self.charge(ids, np.full(len(ids), clock.resource), lost)
        self.t_last[ids] = now
        self.clocked[ids] = False
        self.mark_done[ids] = np.inf
        for i in ids.tolist():
            self.mark_version[i] += 1

    def losses(self, ids: np.ndarray, got: Allocation, alone: np.ndarray) -> None:
        """Time lost from now on: the share below what each would move alone (`alone`),
        charged to the resource that holds it, else to the pool it waits for a drive of."""
        rate, frozen_by = got.rate, got.frozen_by
        self.frozen_by[ids] = frozen_by
        if all_of(alone > 0):
            loss = 1.0 - rate / alone
        else:
            loss = 1.0 - np.divide(rate, alone, out=np.ones(len(ids)), where=alone > 0)
        blame = np.where(frozen_by != NOT_FROZEN, frozen_by, self.wait_pool[ids])
        self.loss[ids] = loss  # (read only where blamed)
        self.blame[ids] = np.where(loss > LOSS_EPS, blame, NOT_FROZEN)

    def split(self, ids: np.ndarray, at: np.ndarray, rate: np.ndarray, c: np.ndarray,
              left: np.ndarray, rest_left: np.ndarray, last_live: np.ndarray | None,
              piece_live: np.ndarray | None, now: float) -> float:  # fmt: skip
        """Split settled transfers' rates (`left`, at `at`: see `settle`): the last
        channel's load and the piece's clock at min(c, rate), the fluid the rate the last
        channel leaves; when each part is next through (`*_live` None: no channel clock
        moves), and the first of them."""
        self.rate[ids] = rate
        rates = np.zeros(left.shape)  # the rows fluid, last channel's load, piece
        rest_rate, last_rate, piece_rate = rates
        if last_live is None:
            np.multiply(rate, rest_left, out=rest_rate)
        else:  # (one × False is 0.0 exactly: one ≤ rate is finite)
            one = np.minimum(rate, c)
            np.multiply(one, last_live, out=last_rate)
            np.multiply(one, piece_live, out=piece_rate)
            np.subtract(rate, last_rate, out=rest_rate)
            rest_rate *= rest_left
        self.part_rate.put(at, rates)
        through = np.empty(left.shape)
        through.fill(np.inf)
        np.divide(left, rates, out=through, where=rates > 0)
        t = through.min(axis=0)
        t += now
        self.t_done[ids] = t
        return float(t.min())

    def settle_one(self, i: int, now: float) -> None:
        """`settle` for one transfer, in scalars (a few µs instead of a dozen numpy calls)."""
        if self.clocked[i]:
            self.settle_clocked(i, now)
            return
        dt = now - self.t_last[i]
        if dt == 0:
            return
        self.t_last[i] = now
        self.rest[i] = max(self.rest[i] - self.rest_rate[i] * dt, 0.0)
        self.last[i] = max(self.last[i] - self.last_rate[i] * dt, 0.0)
        self.piece[i] = max(self.piece[i] - self.piece_rate[i] * dt, 0.0)
        blamed = self.blame[i]
        if blamed != NOT_FROZEN:
            lost = self.loss[i] * dt
            self.phase_wait[i] += lost
            self.waits[i, blamed] += lost

    def settle_clocked(self, i: int, now: float) -> None:
        """`settle_one` for a clocked transfer: its moving parts by the level's rise since
        its mark. It is `touched`: the caller may start or end a part."""
        self.touched.append(i)
        dt = now - self.t_last[i]
        if dt == 0:
            return
        clock = self.clocks[self.tier[i]]
        level = clock.at(now)
        moved = level - self.mark[i]
        for k in range(3):
            if self.moving[k, i]:
                self.left[k, i] = max(self.left[k, i] - moved, 0.0)
        lost = dt - moved / self.alone_now[i]
        self.phase_wait[i] += lost
        self.waits[i, clock.resource] += lost
        self.mark[i] = level
        self.t_last[i] = now

    def remask(self, i: int) -> bool:
        """A touched clocked transfer's moving parts and first finish, from its parts
        left (settled at its mark); whether the clock still holds it: its cap is not
        below the level and it moves less than alone (else its tier is shared again).
        (`cap_of` and the split's rule, written out in scalars: it runs at most events.)"""
        left = self.left
        rest, last, piece = float(left[0, i]), float(left[1, i]), float(left[2, i])
        last_mv = last > 0 and bool(self.last_on[i])
        piece_mv = piece > 0 and bool(self.piece_on[i])
        rest_mv = rest > 0 and not last_mv
        moving = self.moving
        moving[0, i], moving[1, i], moving[2, i] = rest_mv, last_mv, piece_mv
        first = rest if rest_mv else np.inf
        if last_mv and last < first:
            first = last
        if piece_mv and piece < first:
            first = piece
        clock = self.clocks[self.tier[i]]
        self.set_mark(i, self.mark[i] + first, clock)
        if rest > 0:
            cap, alone = float(self.kcap[i]), self.alone_all_of[i]
        else:
            clocks = last_mv + (piece_mv and self.two_of[i])
            cap = min(self.private_of[i], clocks * self.c_of[i])
            alone = min(self.alone_path_of[i], cap)
        self.alone_now[i] = alone
        self.cap_now[i] = min(cap, UNBOUNDED_Bps)
        self.ceiling[i] = min(self.c_of[i], alone * _BELOW_ALONE)
        level = clock.rate
        return cap >= level and alone > 0 and 1.0 - level / alone > LOSS_EPS

    def rates_of(self, i: int) -> list[float]:
        """A transfer's part rates (fluid, last channel's load, piece)."""
        if self.clocked[i]:
            level = self.clocks[self.tier[i]].rate
            return [level if m else 0.0 for m in self.moving[:, i].tolist()]
        return self.part_rate[:, i].tolist()

    def resplit(self, i: int, now: float) -> None:
        """Re-split one transfer's unchanged rate (a clock started or ended, or its cap
        changed without changing its share), as `split` does, in scalars."""
        self.settle_one(i, now)
        if self.clocked[i]:
            return  # (`remask` re-splits it)
        rest, last, piece = float(self.rest[i]), float(self.last[i]), float(self.piece[i])
        rate = float(self.rate[i])
        one = min(rate, float(self.c[i]))
        last_rate = one if self.last_on[i] and last > 0 else 0.0
        rest_rate = rate - last_rate if rest > 0 else 0.0
        piece_rate = one if self.piece_on[i] and piece > 0 else 0.0
        self.rest_rate[i], self.last_rate[i], self.piece_rate[i] = rest_rate, last_rate, piece_rate
        parts = ((rest, rest_rate), (last, last_rate), (piece, piece_rate))
        t = min((b / r for b, r in parts if r > 0), default=np.inf)
        self.t_done[i] = now + t

    def moved(self, i: int) -> float:
        """Bytes a transfer has moved: its volume less what is left of its fluid and its
        last channel's load (the piece's bytes are the fluid's)."""
        return float(self.volume[i] - self.rest[i] - self.last[i])

    def cap_of(self, i: int) -> tuple[float, float]:
        """One transfer's cap as `reshare` computes it, and what it would move alone."""
        if self.rest[i] > 0:
            return float(self.kcap[i]), self.alone_all_of[i]
        last = bool(self.last_on[i] and self.last[i] > 0)
        piece = bool(self.piece_on[i] and self.piece[i] > 0 and self.two_of[i])
        cap = min(self.private_of[i], (last + piece) * self.c_of[i])
        return cap, min(self.alone_path_of[i], cap)

    def recharge(self, i: int, alone: float) -> None:
        """Time lost by one transfer whose rate is unchanged but whose rate alone changed."""
        if self.clocked[i]:
            return  # (`remask` measures it)
        loss = 1.0 - self.rate[i] / alone if alone > 0 else 0.0
        charged = loss > LOSS_EPS and self.frozen_by[i] != NOT_FROZEN
        self.loss[i] = loss if charged else 0.0
        self.blame[i] = self.frozen_by[i] if charged else NOT_FROZEN

    def all_through(self, i: int) -> bool:
        """Fluid, piece and the last channel's load (once that channel started) are through."""
        return bool(
            self.rest[i] <= 0 and self.piece[i] <= 0 and self.last_on[i] and self.last[i] <= 0
        )


def _one_level(got: Allocation, c: np.ndarray, alone: np.ndarray) -> tuple[float, int] | None:
    """The level and the resource when one resource holds every transfer of a tier at
    one level (`share_tier` froze them all by it: in its first round, so all at that
    level), the level is at most every transfer's c (so each part moves at it or not at
    all) and every transfer loses time at it; else None."""
    by = int(got.frozen_by[0])
    if by == NOT_FROZEN or np.count_nonzero(got.frozen_by != by):
        return None
    level = float(got.rate[0])
    least = float(alone.min())
    if not (level > 0 and level <= c.min() and least > 0 and 1.0 - level / least > LOSS_EPS):
        return None
    return level, by


_BELOW_ALONE = 1.0 - 1e-9


def _ceiling(c: np.ndarray, alone: np.ndarray) -> np.ndarray:
    """The highest level at which clocked transfers stay on their clock without the
    general sharing looking at them: at most their c, and clearly below what each moves
    alone (then it loses more than LOSS_EPS: it is charged). (Scalars: `min` alike.)"""
    return np.minimum(c, alone * _BELOW_ALONE)


def _single_level(caps: np.ndarray, free: float, total: float, use: float) -> float | None:
    """`one_level` for transfers that use no other shared resource than the one that
    holds them, all alike (`use` each, `total` in all): the resource is over its room
    `free` when the level is clearly below every cap, which is then the only test."""
    if not (free > 0 and len(caps) <= _BELOW_EVERY_CAP_N):
        return None
    if float(np.minimum.reduce(caps)) * total < free * (1.0 + _BELOW_EVERY_CAP):
        return None
    return (free - 0.0) / (total - use + use)
