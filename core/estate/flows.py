"""Every database's transfer state as arrays indexed by database (`Flows`: see
`simulate`'s docstring for the rate rule it applies), shared and split by the general
re-share. `clocks.ClockedFlows` adds the clock a tier held at one level runs on."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jobs import Job
from .share import (
    NOT_FROZEN,
    Allocation,
    all_of,
    any_of,
    share_tier,
)

LOSS_EPS = 1e-12
"""A share below what a transfer would move alone by less than this is no loss."""


class Asks(NamedTuple):
    """What a tier's transfers ask of the sharing (`Flows.asks`), one element each."""

    rest_left: np.ndarray
    """Whether the fluid has bytes left."""
    last_live: np.ndarray | None
    """Whether the last channel moves its load (None: no channel clock in the tier)."""
    piece_live: np.ndarray | None
    c: np.ndarray
    cap: np.ndarray
    alone: np.ndarray


class Flows:
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
        self.tier = [j.priority for j in jobs]

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
        """A transfer with no finish to come (started or ended)."""
        self.t_done[i] = np.inf

    def tier_use(self, ids: np.ndarray, tier: int) -> np.ndarray:
        """What a tier's transfers (`ids`) use of each shared resource, as last shared."""
        return self.rate[ids] @ self.use.take(ids, axis=0)

    def streams(self, i: int, tier: int) -> None:
        """A transfer's first channel streams: it joins its tier's sharing (nothing to
        note here; `ClockedFlows` tells the tier's clock)."""

    def set_k(self, i: int, k: int) -> None:
        """Channels streaming, and the cap they give while the fluid has bytes."""
        self.k[i] = k
        cap = min(self.private_of[i], k * self.per_channel_of[i]) if k else 0.0
        self.kcap[i] = cap

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
        """Settle a tier's transfers at `now` and share `room` (reduced) between them
        (`use`: their rows of `self.use`, None to gather them); when the first of their
        parts is through. (One gather of each array per call: at ~100 transfers numpy's
        per-call cost is most of the time.)"""
        if use is None:
            use = self.use.take(ids, axis=0)
        at, left = self.settle(ids, now)
        asks = self.asks(ids, at, left)
        return self.share(ids, at, left, asks, share_tier(asks.cap, use, room), now)

    def asks(self, ids: np.ndarray, at: np.ndarray, left: np.ndarray) -> Asks:
        """What each settled transfer asks of the sharing: what its streaming channels
        take while the fluid has bytes, else c per channel still moving (the module
        docstring's rate rule), and what it would move alone."""
        rest_left = left[0] > 0
        # Channel clocks moving (None: none in this tier, the usual case: fewer calls)
        last_live = piece_live = None
        on = self.started.take(at[:2])  # (rows last, piece)
        if any_of(on.reshape(-1)):
            last_live, piece_live = on & (left[1:] > 0)
        c = self.c[ids]
        cap, alone = self.kcap[ids], self.alone_all[ids]
        if not all_of(rest_left):
            # (c per clock still moving: the count as integers, as True + True is True)
            clocks = 0.0
            if last_live is not None:
                clocks = (last_live.astype(np.int64) + (piece_live & self.two[ids])) * c
            cap = np.where(rest_left, cap, np.minimum(self.private[ids], clocks))
            alone = np.where(rest_left, alone, np.minimum(self.alone_path[ids], cap))
        return Asks(rest_left, last_live, piece_live, c, cap, alone)

    def share(self, ids: np.ndarray, at: np.ndarray, left: np.ndarray, asks: Asks,
              got: Allocation, now: float) -> float:  # fmt: skip
        """Settled transfers' shares split between their parts, and their time lost from
        now on; when the first part is through."""
        first = self.split(ids, at, got.rate, asks.c, left, asks.rest_left, asks.last_live,
                           asks.piece_live, now)  # fmt: skip
        self.losses(ids, got, asks.alone)
        return first

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

    def rates_of(self, i: int) -> list[float]:
        """A transfer's part rates (fluid, last channel's load, piece)."""
        return self.part_rate[:, i].tolist()

    def resplit(self, i: int, now: float) -> None:
        """Re-split one transfer's unchanged rate (a clock started or ended, or its cap
        changed without changing its share), as `split` does, in scalars."""
        self.settle_one(i, now)
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
        loss = 1.0 - self.rate[i] / alone if alone > 0 else 0.0
        charged = loss > LOSS_EPS and self.frozen_by[i] != NOT_FROZEN
        self.loss[i] = loss if charged else 0.0
        self.blame[i] = self.frozen_by[i] if charged else NOT_FROZEN

    def all_through(self, i: int) -> bool:
        """Fluid, piece and the last channel's load (once that channel started) are through."""
        return bool(
            self.rest[i] <= 0 and self.piece[i] <= 0 and self.last_on[i] and self.last[i] <= 0
        )
