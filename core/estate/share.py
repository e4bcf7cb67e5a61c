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


def _water_level(caps: np.ndarray, use: np.ndarray, room: float) -> float:
    """The level λ with Σ use·min(cap, λ) = room (the caller knows Σ use·cap > room)."""
    order = np.argsort(caps, kind="stable")
    c = caps[order]
    a = use[order]
    below = np.concatenate(([0.0], np.cumsum(a * c)[:-1]))  # Σ use·cap of lower caps
    above = np.cumsum(a[::-1])[::-1]  # Σ use of this cap and higher
    at_cap = below + c * above  # g(λ) at each breakpoint
    i = int(np.searchsorted(at_cap, room, side="left"))
    return (room - below[i]) / above[i]


def _fill_tier(
    caps: np.ndarray,
    use: np.ndarray,
    room: np.ndarray,
    rate: np.ndarray,
    frozen_by: np.ndarray,
) -> None:
    """Max-min fair rates for one tier's transfers, in place; `room` is reduced."""
    live = np.arange(len(caps))
    while len(live):
        u = use[live]
        c = caps[live]
        need = c @ u
        level, by = np.inf, NOT_FROZEN
        for r in np.nonzero(need > room)[0]:
            users = u[:, r] > 0
            lam = _water_level(c[users], u[users, r], room[r])
            if lam < level:
                level, by = lam, int(r)
        if by == NOT_FROZEN:
            rate[live] = c
            room -= need
            return
        done = (u[:, by] > 0) | (c <= level)
        got = np.minimum(c[done], level)
        rate[live[done]] = got
        frozen_by[live[done & (c > level)]] = by
        room -= got @ u[done]
        np.maximum(room, 0.0, out=room)
        room[by] = 0.0
        live = live[~done]


def allocate(
    tier: np.ndarray, caps: np.ndarray, use: np.ndarray, capacity: np.ndarray
) -> Allocation:
    """Rates for every active transfer: `tier` (priority), `cap` (data bytes/s), `use`
    (transfers × resources), `capacity` (per resource)."""
    n = len(caps)
    rate = np.zeros(n)
    frozen_by = np.full(n, NOT_FROZEN, dtype=np.int64)
    if n == 0:
        return Allocation(rate, frozen_by)
    caps = np.minimum(caps, UNBOUNDED_Bps)
    room = capacity.astype(float).copy()
    if use.shape[1] == 0 or np.all(caps @ use <= room):
        rate[:] = caps
        return Allocation(rate, frozen_by)
    for t in np.unique(tier):
        members = np.nonzero(tier == t)[0]
        sub_rate = np.zeros(len(members))
        sub_by = np.full(len(members), NOT_FROZEN, dtype=np.int64)
        _fill_tier(caps[members], use[members], room, sub_rate, sub_by)
        rate[members] = sub_rate
        frozen_by[members] = sub_by
    return Allocation(rate, frozen_by)
