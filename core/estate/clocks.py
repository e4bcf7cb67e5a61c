"""The clock a tier runs on while one saturated resource holds every transfer of it at
one water level (`simulate`'s docstring): what each transfer moved since it was last
settled is the level's integral since then, kept once for the tier (`Clock`), so a
re-share that keeps that shape rebases the clock and writes one rate per transfer, and a
transfer is brought up to date only when an event touches it (`ClockedFlows`)."""

from __future__ import annotations

import heapq
import math

import numpy as np

from .flows import LOSS_EPS, Asks, Flows
from .jobs import Job
from .share import (
    _BELOW_EVERY_CAP_N,
    NOT_FROZEN,
    Allocation,
    UNBOUNDED_Bps,
    any_of,
    level_below_caps,
    one_level,
    share_tier,
    take_level,
)

# (The hottest of the general methods, called as functions rather than through super())
_settle_one = Flows.settle_one
_set_k = Flows.set_k

CLOCKS = True
"""Whether a tier one resource holds at one level runs on a `Clock` (tests turn it off to
compare with the general sharing)."""


class Clock:
    """A tier whose every transfer a saturated resource holds at one water level: each
    moves its parts at that level (or not at all), so its progress is the level's
    integral since it was last settled (`level`), kept once for the tier instead of per
    transfer. A new level (`rebase`) costs nothing per transfer; a transfer is brought
    up to date only when an event touches it (`_Flows.settle_one`)."""

    __slots__ = ("joining", "level", "marks", "rate", "resource", "single", "t", "totals", "use")

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
        self.joining: list[int] = []
        """Transfers that began streaming in its tier since it last shared it (the only
        ones of the tier not on it: `ClockedFlows.streams`)."""
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


class ClockedFlows(Flows):
    """`Flows` whose tiers run on a `Clock` while one resource holds them at one level.
    A clocked transfer's parts are as of its `mark` (the clock's level when it was last
    settled); which of them move is `moving`; its first finish is a level, `mark_done`."""

    def __init__(self, jobs: list[Job], n_resources: int, use: np.ndarray | None = None) -> None:
        super().__init__(jobs, n_resources, use)
        n = len(jobs)
        only = np.full(n, NOT_FROZEN, dtype=np.int64)
        single = np.count_nonzero(self.use, axis=1) == 1
        if n_resources:
            only[single] = np.argmax(self.use[single], axis=1)
        self.only = only
        """The one shared resource each transfer's path uses, else NOT_FROZEN."""
        self.only_of = only.tolist()
        self.clocks: dict[int, Clock] = {}
        """By tier, the clock it runs on."""
        self.clocked = np.zeros(n, dtype=bool)
        self.mark = np.zeros(n)
        """A clocked transfer's clock level when it was last settled."""
        self.moving = np.zeros((3, n), dtype=bool)
        """Which parts of a clocked transfer move (each at the clock's rate)."""
        self.mark_done = np.full(n, np.inf)
        """The clock level at which a clocked transfer's first moving part is through."""
        self.mark_version = [0] * n
        """Bumped at each new `mark_done`: older entries of a clock's heap are stale."""
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

    def stop(self, i: int) -> None:
        """A transfer off its clock (started or ended) and with no finish to come."""
        super().stop(i)
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

    def through_on(self, clock: Clock, now: float, snap: float) -> list[int]:
        """A clock's transfers through at `now` by its own formula (the one that set the
        tier's first finish), or with less than `snap` of their volume left of a part
        (`simulate._through_by`), taken off its heap, in index order."""
        found = []
        reach = clock.at(now)
        while True:
            mark = self.first_mark(clock)
            if mark == np.inf:
                return sorted(found)
            i = clock.marks[0][2]
            if clock.done_at(mark) > now and mark - reach > snap * max(self.volume[i], 1.0):
                return sorted(found)
            found.append(heapq.heappop(clock.marks)[2])

    def tier_use(self, ids: np.ndarray, tier: int) -> np.ndarray:
        """`Flows.tier_use`; on a clock whose transfers use its resource alone, alike: the
        level times the sum of their uses (that resource's room as the tier found it),
        without gathering their rows (the usage sample of every event, `--json`'s peaks)."""
        clock = self.clocks.get(tier)
        if clock is not None and clock.single:
            total = clock.totals.get(len(ids))
            if total is not None:
                use = np.zeros(self.n_resources)
                use[clock.resource] = clock.rate * total
                return use
        return super().tier_use(ids, tier)

    def streams(self, i: int, tier: int) -> None:
        """A transfer's first channel streams: it is in its tier's sharing from now on."""
        clock = self.clocks.get(tier)
        if clock is not None:
            clock.joining.append(i)

    def set_k(self, i: int, k: int) -> None:
        _set_k(self, i, k)
        if self.clocked[i] and self.rest[i] > 0:
            self.cap_now[i] = min(float(self.kcap[i]), UNBOUNDED_Bps)

    def reshare(
        self, ids: np.ndarray, use: np.ndarray | None, room: np.ndarray, now: float, tier: int
    ) -> float:
        """`Flows.reshare`; when one resource holds the tier's transfers at one level,
        the tier goes on (or stays on) its `Clock` and nothing is written per transfer
        but the rate."""
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
        asks = self.asks(ids, at, left)
        got = share_tier(asks.cap, use, room)
        held = _one_level(got, asks.c, asks.alone) if CLOCKS else None
        if held is not None:
            return self.clock_on(ids, at, left, asks, held, clocked, now, tier, use)
        if on_clock:
            self.unclock(ids[clocked], now)
            left = self.left.take(at)
        self.clocks.pop(tier, None)
        return self.share(ids, at, left, asks, got, now)

    def reshare_clocked(
        self, ids: np.ndarray, use: np.ndarray, room: np.ndarray, now: float, clock: Clock
    ) -> float | None:
        """`reshare` for a tier on a clock, in a few calls: when its resource still holds
        every transfer at one level (`one_level`, with the caps the clocked transfers
        keep), the clock is rebased and transfers new to it join; None (nothing shared,
        `room` as it was) when the general sharing must decide."""
        joining, clock.joining = clock.joining, []
        if math.isnan(clock.use):  # (its transfers use the resource unalike)
            return None
        k, clocked = self.k, self.clocked
        new = [i for i in dict.fromkeys(joining) if k[i] and not clocked[i]]
        by = clock.resource
        for i in new:
            if self.use[i, by] != clock.use:
                return None  # (a transfer new to it uses the resource otherwise)
        single = clock.single and all(self.only_of[i] == by for i in new)
        if use is None and not single:
            use = self.use.take(ids, axis=0)
        for i in new:  # (started streaming since: not on the clock yet, a few)
            self.settle_one(i, now)
            self.note_asks(i)
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

    def clock_on(self, ids: np.ndarray, at: np.ndarray, left: np.ndarray, asks: Asks,
                 held: tuple[float, int], clocked: np.ndarray, now: float, tier: int,
                 use: np.ndarray) -> float:  # fmt: skip
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
            clock.joining.clear()
            join = ~clocked
            if alike != clock.use:  # (the fast re-share holds only transfers alike)
                clock.use, clock.totals = alike, {}
        clock.single = alike == alike and not np.count_nonzero(self.only.take(ids) != by)
        if join is None or any_of(join):
            self.join(ids, at, left, asks, join, clock)
        self.rate[ids] = level
        return float(clock.done_at(self.first_mark(clock)))

    def join(self, ids: np.ndarray, at: np.ndarray, left: np.ndarray, asks: Asks,
             join: np.ndarray | None, clock: Clock) -> None:  # fmt: skip
        """Transfers settled at the clock's time join it (`join`: which of `ids`; None:
        all). Each part moves at the level, the fluid unless the last channel moves (it
        takes the whole level: the level is at most c), as `split` would split it."""
        rest_left, last_live, piece_live = asks.rest_left, asks.last_live, asks.piece_live
        cap, alone = asks.cap, asks.alone
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
        for i in ids.tolist():
            self.set_mark(i, np.inf, None)

    def settle_one(self, i: int, now: float) -> None:
        if self.clocked[i]:
            self.settle_clocked(i, now)
        else:
            _settle_one(self, i, now)

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
        (The split's rule, written out in scalars: it runs at most events.)"""
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
        cap, alone = self.note_asks(i)
        level = clock.rate
        return cap >= level and alone > 0 and 1.0 - level / alone > LOSS_EPS

    def note_asks(self, i: int) -> tuple[float, float]:
        """A transfer's cap and what it would move alone (`cap_of`), kept for its clock,
        with the ceiling they give (`_ceiling`)."""
        cap, alone = self.cap_of(i)
        self.alone_now[i] = alone
        self.cap_now[i] = min(cap, UNBOUNDED_Bps)
        self.ceiling[i] = min(self.c_of[i], alone * _BELOW_ALONE)
        return cap, alone

    def rates_of(self, i: int) -> list[float]:
        """A transfer's part rates (fluid, last channel's load, piece)."""
        if self.clocked[i]:
            level = self.clocks[self.tier[i]].rate
            return [level if m else 0.0 for m in self.moving[:, i].tolist()]
        return super().rates_of(i)

    def resplit(self, i: int, now: float) -> None:
        if self.clocked[i]:
            self.settle_clocked(i, now)  # (`remask` re-splits it)
        else:
            super().resplit(i, now)

    def recharge(self, i: int, alone: float) -> None:
        if not self.clocked[i]:  # (else `remask` measures it)
            super().recharge(i, alone)


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
    return level_below_caps(float(np.minimum.reduce(caps)), float(total), use, free)
