"""Moving a volume through a path with serially started channels (DESIGN §3.3).

Channel k (1-based) starts streaming at k × channel_init, so the aggregate rate is a step
function R(k(t)). The time to move V bytes is found exactly, interval by interval,
not by time-stepping: within [k·init, (k+1)·init) the rate is the constant R(k).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .path import PathModel
from .shapes import (
    Number,
    all_true,
    any_true,
    both,
    ceil,
    divide,
    either,
    fceil,
    fdivide,
    ffloor,
    floor,
    fsqrt,
    is_batch,
    isfinite,
    maximum,
    minimum,
    negate,
    no_arrays,
    sqrt,
    where,
)

LARGEST_FILE_LABEL = "largest_file"
"""Pseudo-bottleneck: one channel alone must move the largest file (no multisection)."""


@dataclass(frozen=True)
class Flow:
    """Result of moving `volume_bytes` through a path.

    `steady_s` is the time the flow alone would take; `duration_s` includes the serial
    channel start-up and the single-channel bound on the largest piece.
    """

    volume_bytes: Number
    duration_s: Number
    steady_rate_Bps: Number
    init_s: Number
    largest_piece_bytes: Number | None
    bound_by_largest_piece: bool
    limiter: str | None = None
    """For a plan (floats): the fixed time that sets most of a short job — the job
    overhead, the serial channel start-up or the ramp-down — else None (the path's rate
    does). More channels do not shorten such a job (DESIGN §10)."""

    @property
    def effective_rate_Bps(self) -> Number:
        return where(self.duration_s > 0, divide(self.volume_bytes, self.duration_s), 0.0)


def ramp_time(volume_bytes: Number, model: PathModel, channel_init_s: Number) -> Number:
    """Smallest T with ∫₀ᵀ R(k(t)) dt = V, k(t) = min(⌊t / init⌋, active channels).

    Closed form: the rate rises by one channel's c per start until channel k_f, from
    which it no longer grows (the path saturates, or every channel runs). Before
    channel k_f starts, c × init × k_f(k_f − 1)/2 bytes have moved; a volume that ends
    earlier ends while channel k runs, k = ⌊(1 + √(1 + 8V ÷ (c × init))) / 2⌋.
    Floats or arrays (one value per trial): every case is computed and picked per element.
    On floats its twin `_ramp_time_floats` does the same operations (issue 22.3)."""
    if no_arrays(volume_bytes, channel_init_s, model.per_channel_Bps, model.shared_Bps):
        return _ramp_time_floats(volume_bytes, model, channel_init_s)
    return _ramp_time_any(volume_bytes, model, channel_init_s)


def _ramp_time_any(volume_bytes: Number, model: PathModel, channel_init_s: Number) -> Number:
    """`ramp_time` through the shapes' primitives: floats or arrays."""
    m = model.active_channels
    final = model.rate(m)
    c = model.per_channel_Bps
    v, init = volume_bytes, channel_init_s
    no_init = init <= 0
    one_step = either(negate(isfinite(c)), c >= final)
    t = divide(v, final) + where(no_init, 0.0, where(one_step, init, 0.0))
    ramp = negate(either(no_init, one_step))
    if any_true(ramp):
        k_f = minimum(m, ceil(divide(final, c) - 1e-12))
        before = c * init * k_f * (k_f - 1) / 2
        t = where(ramp, k_f * init + divide(v - before, final), t)
        short = both(ramp, v < before)
        if any_true(short):  # the volume is moved before the path saturates
            k = floor((1 + sqrt(1 + 8 * divide(v, c * init))) / 2)
            k = maximum(1, minimum(k, k_f - 1))
            during = k * init + divide(v - c * init * k * (k - 1) / 2, k * c)
            t = where(short, during, t)
    return where(v <= 0, 0.0, t)


def _ramp_time_floats(v: float, model: PathModel, init: float) -> float:
    """`_ramp_time_any` on floats, written out: each `where` is the branch it picks on
    floats, each primitive its float path, in the same order (a test holds the two to
    the same bits on random paths)."""
    if v <= 0:
        return 0.0
    m = model.active_channels
    final = model.rate(m)
    c = model.per_channel_Bps
    no_init = init <= 0
    one_step = not math.isfinite(c) or c >= final
    t = (v / final if final else fdivide(v, final)) + (
        0.0 if no_init else init if one_step else 0.0)  # fmt: skip
    if no_init or one_step:
        return t
    ceiling = fceil(fdivide(final, c) - 1e-12)
    k_f = ceiling if ceiling < m else m
    before = c * init * k_f * (k_f - 1) / 2
    t = k_f * init + fdivide(v - before, final)
    if v < before:  # the volume is moved before the path saturates
        k = ffloor((1 + fsqrt(1 + 8 * fdivide(v, c * init))) / 2)
        k = k_f - 1 if k_f - 1 < k else k
        k = k if k > 1 else 1
        t = k * init + fdivide(v - c * init * k * (k - 1) / 2, k * c)
    return t


@dataclass(frozen=True)
class ChannelLoads:
    """RMAN's up-front assignment of a job to `channels` channels, largest first.

    The first channel (the first to start) holds `first` bytes — the largest file, or
    an even share when no file is larger than one; every other channel holds `rest`.
    Depends on sizes and the channel count only, never on rates, so the timing
    (`assigned_time`) is a closed form in the rates."""

    first: Number
    rest: Number
    channels: int


def channel_loads(
    volume_bytes: Number, channels: int, largest_piece_bytes: Number | None
) -> ChannelLoads:
    """Largest first: the largest piece (the largest file, or one section of it) goes to
    the first channel; the rest of the database is taken as many small files that fill
    the other channels evenly (they balance to within a file)."""
    m = max(1, channels)
    piece = minimum(0.0 if largest_piece_bytes is None else largest_piece_bytes, volume_bytes)
    even = volume_bytes / m
    if m == 1:
        return ChannelLoads(even, even, m)
    uneven = piece > even
    return ChannelLoads(
        where(uneven, piece, even), where(uneven, (volume_bytes - piece) / (m - 1), even), m
    )


def assigned_time(
    loads: ChannelLoads,
    channel_init_s: Number,
    alone_Bps: Number,
    cartridge_bytes: Number = math.inf,
    cartridge_s: float = 0.0,
) -> tuple[Number, Number]:
    """When the first and the last channel finish if channel k (1-based) starts at
    k × init and moves its load at `alone_Bps`, paying load + locate for each tape
    cartridge it reads: (init + first ÷ c + ⌈first ÷ cart⌉ × h,
    m × init + rest ÷ c + ⌈rest ÷ cart⌉ × h). With even loads the last channel decides:
    it starts last and runs alone at the end (the ramp-down)."""
    first = channel_init_s + divide(loads.first, alone_Bps)
    last = loads.channels * channel_init_s + divide(loads.rest, alone_Bps)
    if any_true(cartridge_s > 0) and all_true(isfinite(cartridge_bytes)):
        first = first + cartridge_time(loads.first, cartridge_bytes, cartridge_s)
        last = last + cartridge_time(loads.rest, cartridge_bytes, cartridge_s)
    return first, last


def cartridge_time(load_bytes: Number, cartridge_bytes: Number, cartridge_s: float) -> Number:
    """Load + locate a channel pays for the tape cartridges its load spans:
    ⌈load ÷ cartridge⌉ × h (0 without cartridges). Floats or arrays."""
    if not any_true(cartridge_s > 0) or not all_true(isfinite(cartridge_bytes)):
        return 0.0 * load_bytes
    return ceil(divide(load_bytes, cartridge_bytes)) * cartridge_s


def move(
    volume_bytes: Number,
    model: PathModel,
    channel_init_s: Number,
    largest_piece_bytes: Number | None = None,
    overhead_s: Number = 0.0,
) -> Flow:
    """Move a volume: T = overhead + max(fluid ramp time, the assigned channels' finish).

    The fluid ramp (`ramp_time`) is the path's capacity bound; the assignment bound is
    RMAN handing each channel its files up front (`channel_loads`), each channel moving
    its load at what one channel achieves alone (`PathModel.channel_alone_Bps`). Without
    multisection the first channel holds the largest file: T ≥ init + largest ÷ c.
    `overhead_s` is the per-job fixed time (`backup.job_overhead`). Nothing to move
    takes no time (no job runs). Floats or arrays of one value per trial; on floats its
    twin `_move_floats` does the same operations (issue 22.3)."""
    if no_arrays(volume_bytes, channel_init_s, largest_piece_bytes, overhead_s,
                 model.per_channel_Bps, model.shared_Bps, model.cartridge_data_bytes,
                 model.cartridge_s):  # fmt: skip
        return _move_floats(volume_bytes, model, channel_init_s, largest_piece_bytes,
                            overhead_s)  # fmt: skip
    return _move_any(volume_bytes, model, channel_init_s, largest_piece_bytes, overhead_s)


def _move_any(
    volume_bytes: Number,
    model: PathModel,
    channel_init_s: Number,
    largest_piece_bytes: Number | None,
    overhead_s: Number,
) -> Flow:
    """`move` through the shapes' primitives: floats or arrays."""
    t = _ramp_time_any(volume_bytes, model, channel_init_s)
    loads = channel_loads(volume_bytes, model.active_channels, largest_piece_bytes)
    first, last = assigned_time(loads, channel_init_s, model.channel_alone_Bps,
                                model.cartridge_data_bytes, model.cartridge_s)  # fmt: skip
    assigned = maximum(first, last)
    bound = False
    if not is_batch(t, assigned) and volume_bytes > 0 and assigned > t * (1 + 1e-12):
        # The largest file decides when its channel finishes last (a label: plans only).
        bound = bool(loads.first > loads.rest and first >= last)
    limiter = None
    if not is_batch(t, assigned, overhead_s) and volume_bytes > 0 and not bound:
        limiter = short_job_limiter(
            volume_bytes / model.rate_Bps,
            max(t, assigned),
            loads.channels * channel_init_s,
            overhead_s,
        )
    t = maximum(t, assigned)
    t = where(isfinite(t), t, math.inf)
    duration = where(volume_bytes > 0, t + overhead_s, 0.0)
    return Flow(volume_bytes, duration, model.rate_Bps, channel_init_s, largest_piece_bytes,
                bound, limiter)  # fmt: skip


def _move_floats(volume: float, model: PathModel, init: float, largest: float | None,
                 overhead: float) -> Flow:  # fmt: skip
    """`move` on floats, written out as `_ramp_time_floats` is: the channel loads
    (`channel_loads`), the first and last channel's finish (`assigned_time`, with
    `cartridge_time`) and the labels, each primitive its float path, in the same order."""
    t = _ramp_time_floats(volume, model, init)
    m = model.active_channels
    piece = 0.0 if largest is None else largest
    piece = volume if volume < piece else piece
    n = 1 if m < 1 else m
    even = volume / n
    first_load = rest = even
    if n > 1 and piece > even:
        first_load, rest = piece, (volume - piece) / (n - 1)
    alone = model.channel_alone_Bps
    first = init + (first_load / alone if alone else fdivide(first_load, alone))
    last = n * init + (rest / alone if alone else fdivide(rest, alone))
    cart_bytes, cart_s = model.cartridge_data_bytes, model.cartridge_s
    if cart_s > 0 and math.isfinite(cart_bytes):
        first = first + fceil(fdivide(first_load, cart_bytes)) * cart_s
        last = last + fceil(fdivide(rest, cart_bytes)) * cart_s
    assigned = last if last > first else first
    bound = False
    if volume > 0 and assigned > t * (1 + 1e-12):
        # The largest file decides when its channel finishes last (a label).
        bound = bool(first_load > rest and first >= last)
    limiter = None
    if volume > 0 and not bound:
        limiter = short_job_limiter(volume / model.rate_Bps, max(t, assigned), n * init,
                                    overhead)  # fmt: skip
    t = assigned if assigned > t else t
    if not math.isfinite(t):
        t = math.inf
    duration = t + overhead if volume > 0 else 0.0
    return Flow(volume, duration, model.rate_Bps, init, largest, bound, limiter)


JOB_OVERHEAD_LABEL = "job_overhead"
STARTUP_LABEL = "channel_startup"
RAMP_DOWN_LABEL = "ramp_down"
LIMITER_WORDS = {
    JOB_OVERHEAD_LABEL: "most of it is the fixed time per RMAN job (backup.job_overhead): "
    "more channels do not shorten it",
    STARTUP_LABEL: "most of it is the serial channel start-up (backup.channel_init): more "
    "channels make it longer",
    RAMP_DOWN_LABEL: "most of it is the ramp-down, the last channels running alone: fewer, "
    "larger pieces or SECTION SIZE balance it, more channels do not",
}
"""What a short job's limiter means, in the plan's detail line."""


def short_job_limiter(streaming_s: float, moving_s: float, startup_s: float,
                      overhead_s: float) -> str | None:  # fmt: skip
    """What sets a job's time when streaming at the path's full rate is less than half
    of it: the largest of the job overhead, the start-up (until the last channel starts,
    within the time the job is moving) and the ramp-down (the rest: channels running
    alone at the end); None when streaming is at least half of the job. `moving_s` is the
    job's time without its overhead."""
    if not (math.isfinite(moving_s) and math.isfinite(streaming_s)):
        return None
    startup = max(min(startup_s, moving_s - streaming_s), 0.0)
    parts = {
        JOB_OVERHEAD_LABEL: overhead_s,
        STARTUP_LABEL: startup,
        RAMP_DOWN_LABEL: max(moving_s - streaming_s - startup, 0.0),
    }
    if streaming_s >= (moving_s + overhead_s) / 2:
        return None
    return max(parts, key=lambda k: parts[k])


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
