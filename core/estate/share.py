"""Sharing capacity between databases: strict priority across tiers, max-min fair within.

Each active transfer f asks for at most `cap[f]` data bytes/s (its own stages and its
streaming channels). Shared resource l can carry `capacity[l]` in its reference unit;
transfer f uses `use[f, l]` of it per data byte/s (0 when its path does not cross l;
compression makes the figure differ between databases).

Tier by tier (priority 1 first), the tier's transfers are filled progressively: all
rates rise together until a resource saturates (its transfers are frozen at the water
level) or a transfer reaches its own cap. What a tier leaves is all the next tier gets.
This is the classical max-min fair allocation (Bertsekas & Gallager, Data Networks,
§6.5.2), computed resource by resource with the water level found exactly (no
iteration to a tolerance), so the rates are piecewise constant between events.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NOT_FROZEN = -1
UNBOUNDED_Bps = 1e30
"""Stands for 'no limit of its own' (a path whose every stage is shared), so that sums
of rates stay finite."""


@dataclass
class Allocation:
    rate: np.ndarray
    """Data bytes/s of each transfer."""
    frozen_by: np.ndarray
    """The resource whose saturation holds each transfer below its cap, or NOT_FROZEN."""


def all_of(mask: np.ndarray) -> bool:
    """`mask.all()` (np.count_nonzero is a C function: a third of the time)."""
    return np.count_nonzero(mask) == len(mask)


def any_of(mask: np.ndarray) -> bool:
    """`mask.any()`, as `all_of`."""
    return np.count_nonzero(mask) > 0


_BELOW_EVERY_CAP = 1e-6
"""Relative margin by which room must fall short of Σ use × the lowest cap for
`_level_below_every_cap` (rounding in `_water_level` is below 1e-7 of it up to
`_BELOW_EVERY_CAP_N` transfers)."""
_BELOW_EVERY_CAP_N = 20_000


def _level_below_every_cap(caps: np.ndarray, use: np.ndarray, room: float) -> float | None:
    """`_water_level` without sorting, when every transfer uses the resource alike and
    the level is clearly below every cap (the usual case: a saturated media server);
    None otherwise. Exact: with equal uses, the sorted uses are the same array, so their
    sum is; `below[0]` is x − x = 0; every breakpoint g(cap) is, in exact arithmetic,
    at least Σ use × min(cap) ≥ room × (1 + 1e-6), and as computed within ~1.2 n² ×
    1.1e-16 < 1e-7 of that, so the binary search returns 0 and λ = (room − 0) /
    above[0], as computed here."""
    n = len(use)
    if n > _BELOW_EVERY_CAP_N:
        return None
    u = use[0]
    if np.count_nonzero(use != u):
        return None
    return level_below_caps(float(caps.min()), float(use.sum()), float(u), float(room))


def level_below_caps(least_cap: float, total: float, use: float, room: float) -> float | None:
    """The water level room ÷ Σ use when it is clearly below the least cap (by
    `_BELOW_EVERY_CAP`), for transfers that each use the resource alike (`use` each,
    `total` in all: `np.add.reduce` of their uses); else None. One formula for the
    sorting-free level (`_level_below_every_cap`) and the clock's (`one_level`,
    `clocks._single_level`), so that they give the same doubles."""
    if least_cap * total < room * (1.0 + _BELOW_EVERY_CAP):
        return None
    return (room - 0.0) / (total - use + use)  # (total − use + use: above[0], as sorted)


def _water_level(caps: np.ndarray, use: np.ndarray, room: float) -> float:
    """The level λ with Σ use·min(cap, λ) = room (the caller knows Σ use·cap > room)."""
    fast = _level_below_every_cap(caps, use, room)
    return _sorted_water_level(caps, use, room) if fast is None else fast


def _sorted_water_level(caps: np.ndarray, use: np.ndarray, room: float) -> float:
    """`_water_level` in general: g(λ) at each cap in increasing order, λ between two."""
    # (ndarray methods rather than np.* functions: a few µs less per call, same results)
    order = caps.argsort(kind="stable")
    c = caps[order]
    a = use[order]
    ac = a * c
    below = ac.cumsum() - ac  # Σ use·cap of the lower caps
    above = a.sum() - a.cumsum() + a  # Σ use of this cap and the higher ones
    at_cap = below + c * above  # g(λ) at each breakpoint
    i = int(at_cap.searchsorted(room, side="left"))
    return (room - below[i]) / above[i]


def one_level(
    caps: np.ndarray,
    use: np.ndarray,
    room: np.ndarray,
    resource: int,
    total: float | None = None,
) -> float | None:
    """`share_tier`'s level when it would freeze every transfer by `resource` at one
    level in its first round, found as it finds it (the same operations, so the same
    float) but in a few calls: exactly one resource is over its room, it is `resource`,
    it has room left, every transfer uses it alike and the level is clearly below every
    cap (`_level_below_every_cap`). None when `share_tier` would do anything else.
    `caps` must be at most UNBOUNDED_Bps, as `share_tier` makes them. `room` is not
    touched: `take_level` takes what the tier gets. `total`: the caller knows every
    transfer uses the resource alike, and the sum of their uses (`np.add.reduce` of
    that column, as computed here)."""
    n = len(caps)
    if not 0 < n <= _BELOW_EVERY_CAP_N:
        return None
    over = caps @ use > room
    free = float(room[resource])  # (Python floats from here: the same doubles, faster)
    if np.count_nonzero(over) != 1 or not over[resource] or not free > 0:
        return None
    col = use[:, resource]
    u = float(col[0])
    if total is None:
        if not u > 0 or np.count_nonzero(col != u):
            return None
        total = np.add.reduce(col)
    return level_below_caps(float(np.minimum.reduce(caps)), float(total), u, free)


def take_level(level: float, use: np.ndarray, room: np.ndarray, resource: int) -> None:
    """What a tier all at `level` (frozen by `resource`) takes from `room`, as
    `_fill_tier` takes it (every rate is `level`: the same dot product)."""
    room -= np.full(len(use), level) @ use
    np.maximum(room, 0.0, out=room)
    room[resource] = 0.0


def _fill_tier(
    caps: np.ndarray,
    use: np.ndarray,
    room: np.ndarray,
    rate: np.ndarray,
    frozen_by: np.ndarray,
    need: np.ndarray,
    over: np.ndarray,
) -> None:
    """Max-min fair rates for one tier's transfers, in place; `room` is reduced.
    `need` is Σ cap·use per resource, `over` where it exceeds `room`. The first round
    runs on the arrays as given (no copies): usually one resource freezes every
    transfer in it."""
    live: np.ndarray | None = None  # None: every transfer
    u, c = use, caps
    while True:
        level, by, by_users, by_all = np.inf, NOT_FROZEN, None, False
        for r in over.nonzero()[0]:
            users = u[:, r] > 0
            every = all_of(users)  # (then no copies: the same values in the same order)
            if every:
                lam = _water_level(c, u[:, r], room[r])
            else:
                lam = _water_level(c[users], u[users, r], room[r])
            if lam < level:
                level, by, by_users, by_all = lam, int(r), users, every
        if by == NOT_FROZEN:
            rate[slice(None) if live is None else live] = c
            room -= need
            return
        if live is None and by_all:  # one resource holds every transfer: done
            got = np.minimum(c, level, out=rate)
            frozen_by[c > level] = by
            room -= got @ u
            np.maximum(room, 0.0, out=room)
            room[by] = 0.0
            return
        done = by_users | (c <= level)
        c_done = c[done]
        got = np.minimum(c_done, level)
        placed = done.nonzero()[0] if live is None else live[done]
        rate[placed] = got
        frozen_by[placed[c_done > level]] = by
        room -= got @ u[done]
        np.maximum(room, 0.0, out=room)
        room[by] = 0.0
        live = (~done).nonzero()[0] if live is None else live[~done]
        if not len(live):
            return
        u = use[live]
        c = caps[live]
        need = c @ u
        over = need > room


def _used_up(
    caps: np.ndarray, use: np.ndarray, room: np.ndarray, rate: np.ndarray, frozen_by: np.ndarray
) -> bool:
    """When every resource the tier uses is used up: its transfers that share get
    nothing (frozen by a used-up resource), the others their caps."""
    users = use > 0
    if any_of(room[users.any(axis=0)] > 0):
        return False
    shares = users.any(axis=1)
    rate[~shares] = caps[~shares]
    frozen_by[shares] = np.argmax(users[shares] & (room <= 0), axis=1)
    return True


def share_tier(caps: np.ndarray, use: np.ndarray, room: np.ndarray) -> Allocation:
    """Max-min fair rates for one tier's transfers given what the higher tiers left
    (`room`, reduced in place by what this tier takes)."""
    n = len(caps)
    caps = np.minimum(caps, UNBOUNDED_Bps)
    rate = np.zeros(n)
    frozen_by = np.empty(n, dtype=np.int64)
    frozen_by.fill(NOT_FROZEN)  # (np.full is a Python function: a µs more)
    if n == 0:
        return Allocation(rate, frozen_by)
    need = caps @ use
    over = need > room
    if not any_of(over):  # nothing saturates: every transfer gets its cap
        rate[:] = caps
        room -= need
        return Allocation(rate, frozen_by)
    # A resource over its room is used by the tier: if it has room left, not everything
    # the tier uses is used up (one cheap test; the full one only when that fails)
    if not any_of(room[over] > 0) and _used_up(caps, use, room, rate, frozen_by):
        return Allocation(rate, frozen_by)
    _fill_tier(caps, use, room, rate, frozen_by, need, over)
    return Allocation(rate, frozen_by)


def allocate_tiers(
    tiers: list[np.ndarray], caps: np.ndarray, use: np.ndarray, capacity: np.ndarray
) -> Allocation:
    """Rates for the active transfers, given as index arrays per tier, highest first:
    `caps` (data bytes/s), `use` (transfers × resources), `capacity` (per resource)."""
    rate = np.zeros(len(caps))
    frozen_by = np.full(len(caps), NOT_FROZEN, dtype=np.int64)
    room = capacity.astype(float).copy()
    for members in tiers:
        got = share_tier(caps[members], use[members], room)
        rate[members] = got.rate
        frozen_by[members] = got.frozen_by
    return Allocation(rate, frozen_by)


def allocate(
    tier: np.ndarray, caps: np.ndarray, use: np.ndarray, capacity: np.ndarray
) -> Allocation:
    """`allocate_tiers` with each transfer's priority given (1 first)."""
    groups = [np.nonzero(tier == t)[0] for t in np.unique(tier)]
    return allocate_tiers(groups, caps, use, capacity)
