"""Moving a volume through a path with serially started channels (DESIGN §3.3).

Channel k (1-based) starts streaming at k × channel_init, so the aggregate rate is a step
function R(k(t)). The time to move V bytes is found exactly, interval by interval,
not by time-stepping: within [k·init, (k+1)·init) the rate is the constant R(k).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .path import PathModel

LARGEST_FILE_LABEL = "largest_file"
"""Pseudo-bottleneck: one channel alone must move the largest file (no multisection)."""


@dataclass(frozen=True)
class Flow:
    """Result of moving `volume_bytes` through a path.

    `steady_s` is the time the flow alone would take; `duration_s` includes the serial
    channel start-up and the single-channel bound on the largest piece.
    """

    volume_bytes: float
    duration_s: float
    steady_rate_Bps: float
    init_s: float
    largest_piece_bytes: float | None
    bound_by_largest_piece: bool

    @property
    def effective_rate_Bps(self) -> float:
        return self.volume_bytes / self.duration_s if self.duration_s > 0 else 0.0


def ramp_time(volume_bytes: float, model: PathModel, channel_init_s: float) -> float:
    """Smallest T with ∫₀ᵀ R(k(t)) dt = V, k(t) = min(⌊t / init⌋, active channels)."""
    if volume_bytes <= 0:
        return 0.0
    m = model.active_channels
    if channel_init_s <= 0:
        return volume_bytes / model.rate(m)
    done = 0.0
    k = 1
    saturated = model.rate(m)
    while k <= m:
        rate = model.rate(k)
        if k == m or rate >= saturated:
            # From here on the rate no longer changes: finish in one step.
            return k * channel_init_s + (volume_bytes - done) / rate
        chunk = rate * channel_init_s
        if done + chunk >= volume_bytes:
            return k * channel_init_s + (volume_bytes - done) / rate
        done += chunk
        k += 1
    raise AssertionError("unreachable")  # pragma: no cover


def move(
    volume_bytes: float,
    model: PathModel,
    channel_init_s: float,
    largest_piece_bytes: float | None = None,
) -> Flow:
    """Move a volume; without multisection no phase ends before its largest piece has
    passed through one channel: T ≥ init + largest / R(1)."""
    if volume_bytes <= 0:
        return Flow(0.0, 0.0, model.rate_Bps, channel_init_s, largest_piece_bytes, False)
    t = ramp_time(volume_bytes, model, channel_init_s)
    bound = False
    if largest_piece_bytes:
        piece = min(largest_piece_bytes, volume_bytes)
        t_piece = channel_init_s + piece / model.single_channel_Bps
        if t_piece > t * (1 + 1e-12):
            t, bound = t_piece, True
    if not math.isfinite(t):
        t = math.inf
    return Flow(volume_bytes, t, model.rate_Bps, channel_init_s, largest_piece_bytes, bound)


def ramp_curve(
    model: PathModel, channel_init_s: float, duration_s: float
) -> list[tuple[float, float]]:
    """The aggregate rate as a step curve [(t, rate_Bps), ...] over a job of `duration_s`,
    for plotting the channel start-up ramp: one step per channel start."""
    if duration_s <= 0:
        return [(0.0, 0.0)]
    pts: list[tuple[float, float]] = [(0.0, 0.0)]
    m = model.active_channels
    if channel_init_s <= 0:
        return [(0.0, model.rate(m)), (duration_s, model.rate(m))]
    saturated = model.rate(m)
    for k in range(1, m + 1):
        t = k * channel_init_s
        if t >= duration_s:
            break
        rate = model.rate(k)
        pts.append((t, rate))
        if rate >= saturated:
            break
    pts.append((duration_s, pts[-1][1]))
    return pts
