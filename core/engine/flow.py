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
    """Smallest T with ∫₀ᵀ R(k(t)) dt = V, k(t) = min(⌊t / init⌋, active channels).

    Closed form: the rate rises by one channel's c per start until channel k_f, from
    which it no longer grows (the path saturates, or every channel runs). Before
    channel k_f starts, c × init × k_f(k_f − 1)/2 bytes have moved; a volume that ends
    earlier ends while channel k runs, k = ⌊(1 + √(1 + 8V ÷ (c × init))) / 2⌋."""
    if volume_bytes <= 0:
        return 0.0
    m = model.active_channels
    final = model.rate(m)
    if channel_init_s <= 0:
        return volume_bytes / final
    c = model.per_channel_Bps
    if not math.isfinite(c) or c >= final:
        return channel_init_s + volume_bytes / final
    k_f = min(m, math.ceil(final / c - 1e-12))
    before = c * channel_init_s * k_f * (k_f - 1) / 2
    if volume_bytes >= before:
        return k_f * channel_init_s + (volume_bytes - before) / final
    k = math.floor((1 + math.sqrt(1 + 8 * volume_bytes / (c * channel_init_s))) / 2)
    k = max(1, min(k, k_f - 1))
    return k * channel_init_s + (volume_bytes - c * channel_init_s * k * (k - 1) / 2) / (k * c)


@dataclass(frozen=True)
class ChannelLoads:
    """RMAN's up-front assignment of a job to `channels` channels, largest first.

    The first channel (the first to start) holds `first` bytes — the largest file, or
    an even share when no file is larger than one; every other channel holds `rest`.
    Depends on sizes and the channel count only, never on rates, so the timing
    (`assigned_time`) is a closed form in the rates."""

    first: float
    rest: float
    channels: int


def channel_loads(
    volume_bytes: float, channels: int, largest_piece_bytes: float | None
) -> ChannelLoads:
    """Largest first: the largest piece (the largest file, or one section of it) goes to
    the first channel; the rest of the database is taken as many small files that fill
    the other channels evenly (they balance to within a file)."""
    m = max(1, channels)
    piece = min(largest_piece_bytes or 0.0, volume_bytes)
    if m == 1 or piece <= volume_bytes / m:
        return ChannelLoads(volume_bytes / m, volume_bytes / m, m)
    return ChannelLoads(piece, (volume_bytes - piece) / (m - 1), m)


def assigned_time(
    loads: ChannelLoads,
    channel_init_s: float,
    alone_Bps: float,
    cartridge_bytes: float = math.inf,
    cartridge_s: float = 0.0,
) -> tuple[float, float]:
    """When the first and the last channel finish if channel k (1-based) starts at
    k × init and moves its load at `alone_Bps`, paying load + locate for each tape
    cartridge it reads: (init + first ÷ c + ⌈first ÷ cart⌉ × h,
    m × init + rest ÷ c + ⌈rest ÷ cart⌉ × h). With even loads the last channel decides:
    it starts last and runs alone at the end (the ramp-down)."""
    first = channel_init_s + loads.first / alone_Bps
    last = loads.channels * channel_init_s + loads.rest / alone_Bps
    if cartridge_s > 0 and math.isfinite(cartridge_bytes):
        first += math.ceil(loads.first / cartridge_bytes) * cartridge_s
        last += math.ceil(loads.rest / cartridge_bytes) * cartridge_s
    return first, last


def move(
    volume_bytes: float,
    model: PathModel,
    channel_init_s: float,
    largest_piece_bytes: float | None = None,
    overhead_s: float = 0.0,
) -> Flow:
    """Move a volume: T = overhead + max(fluid ramp time, the assigned channels' finish).

    The fluid ramp (`ramp_time`) is the path's capacity bound; the assignment bound is
    RMAN handing each channel its files up front (`channel_loads`), each channel moving
    its load at what one channel achieves alone (`PathModel.channel_alone_Bps`). Without
    multisection the first channel holds the largest file: T ≥ init + largest ÷ c.
    `overhead_s` is the per-job fixed time (`backup.job_overhead`)."""
    if volume_bytes <= 0:
        return Flow(0.0, 0.0, model.rate_Bps, channel_init_s, largest_piece_bytes, False)
    t = ramp_time(volume_bytes, model, channel_init_s)
    loads = channel_loads(volume_bytes, model.active_channels, largest_piece_bytes)
    first, last = assigned_time(loads, channel_init_s, model.channel_alone_Bps,
                                model.cartridge_data_bytes, model.cartridge_s)  # fmt: skip
    bound = False
    if max(first, last) > t * (1 + 1e-12):
        # The largest file decides when its channel finishes last.
        bound = loads.first > loads.rest and first >= last
        t = max(first, last)
    if not math.isfinite(t):
        t = math.inf
    return Flow(
        volume_bytes, t + overhead_s, model.rate_Bps, channel_init_s, largest_piece_bytes, bound
    )


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
