"""Stage capacities, channel binding and the bottleneck (DESIGN §3.1–3.2).

Every capacity here is in **data bytes per second**, whatever the stage carries: a stage
that moves backup pieces compressed `r`:1 by RMAN delivers `r` data bytes per byte it
moves. That is what lets a tape drive, a network link and a storage array be compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import ModelError
from ..scenario import PER_CHANNEL_KINDS, Scenario, Stage
from ..scenario.channel_rate import default_channel_rate
from ..units import format_rate
from ..wording import plural
from .shapes import all_true, first, is_batch, isfinite, minimum, where

RESTORE = "restore"
BACKUP = "backup"
CHANNELS_LABEL = "channels"
"""Pseudo-stage reported when the RMAN channel count itself limits the rate."""


@dataclass(frozen=True)
class StageCapacity:
    """One stage's capacity in data bytes/s.

    `unit_Bps` is one unit's capacity (the per-channel ceiling for a stage that binds
    channels); `total_Bps` is what all units deliver together.
    """

    index: int
    label: str
    kind: str
    carries: str
    count: int
    unit_Bps: float
    total_Bps: float
    binds_channel: bool
    per_channel_only: bool
    source: str
    per_core: bool = False
    """The compression CPU: one channel on one core, so min(channels, cores) units work."""


@dataclass(frozen=True)
class PathModel:
    """The aggregate rate R(k) of a path with k active channels, and what limits it.

    R(k) = min(C_shared, min(k, N_bind) × c_channel) where C_shared is the smallest
    capacity of the shared stages, c_channel the smallest per-channel ceiling, and N_bind
    the number of units of the channel-binding stage with the fewest units.
    """

    direction: str
    stages: tuple[StageCapacity, ...]
    channels: int
    shared_Bps: float
    shared_index: int | None
    per_channel_Bps: float
    per_channel_index: int | None
    bind_limit: int
    bind_index: int | None
    cartridge_data_bytes: float = math.inf
    """Data bytes one tape cartridge holds (restore from tape; DESIGN §3.7)."""
    cartridge_s: float = 0.0
    """Load + locate time a channel pays per cartridge it reads."""
    per_channel_default: bool = False
    """The per-channel ceiling is the class default of a disk or NFS path (no stage of
    the path limits one channel: `core/scenario/channel_rate.py`)."""

    def __post_init__(self) -> None:
        # The two rates every move asks for (several times), worked out once: the model
        # is frozen (issue 22.3).
        object.__setattr__(self, "_rate_Bps", self.rate(self.channels))
        alone = self.rate(1) if self.channel_ceiling_given else (
            self.shared_Bps / max(1, self.active_channels))  # fmt: skip
        object.__setattr__(self, "_channel_alone_Bps", alone)

    @property
    def active_channels(self) -> int:
        """Channels that can stream at once (each binding unit serves one)."""
        return self.channels if self.channels < self.bind_limit else self.bind_limit

    def rate(self, k: int) -> float:
        """Aggregate data bytes/s with `k` channels started."""
        if k <= 0:
            return 0.0
        per = min(k, self.bind_limit) * self.per_channel_Bps
        return minimum(self.shared_Bps, per)

    @property
    def rate_Bps(self) -> float:
        """Steady-state rate with all channels running: R(n)."""
        return self._rate_Bps  # type: ignore[attr-defined]  # set by __post_init__

    @property
    def single_channel_Bps(self) -> float:
        """What one channel moves on its own: R(1)."""
        return self.rate(1)

    @property
    def channel_ceiling_given(self) -> bool:
        """A `channel` stage or a stage that binds channels limits one channel."""
        return all_true(isfinite(self.per_channel_Bps))

    @property
    def channel_alone_Bps(self) -> float:
        """What one channel moves when it runs alone (the ramp-down, the largest file).

        R(1) when a stage limits one channel; without one a channel is taken to get its
        fair share of the path, C_shared ÷ active channels — one RMAN channel never
        takes a whole array or network (say so, and add a `channel` stage)."""
        return self._channel_alone_Bps  # type: ignore[attr-defined]  # by __post_init__

    def capacity_at_Bps(self, index: int) -> float:
        """What stage `index` can let through with the path's channels running.

        A shared stage offers its total; a channel ceiling, or a stage that binds
        channels, offers its per-channel capacity times the active channels (idle drives
        do not help); the compression CPU min(active channels, cores) × the per-core rate
        (the formula the PDF's appendix gives). This is the stage's term in R(n), the
        figure to draw next to the others and to divide the path rate by for the stage's
        load.
        """
        st = self.stages[index]
        if st.per_core:
            return st.unit_Bps * min(self.active_channels, st.count)
        if st.per_channel_only or st.binds_channel:
            return st.unit_Bps * self.active_channels
        return st.total_Bps

    def load(self, index: int) -> float:
        """Share of stage `index`'s capacity the path rate uses (1.0 = saturated)."""
        cap = self.capacity_at_Bps(index)
        return self.rate_Bps / cap if cap > 0 and math.isfinite(cap) else 0.0

    @property
    def bottleneck_index(self) -> int | None:
        """Index of the stage that sets R(n); None when the channel count does."""
        per = self.active_channels * self.per_channel_Bps
        if self.shared_Bps <= per:
            return self.shared_index
        if self.channels < self.bind_limit:
            return None
        # All binding units are busy: the per-channel ceiling times the unit count.
        return self.per_channel_index

    @property
    def bottleneck(self) -> str:
        """The bottleneck's label: the stage's name, else its kind (or 'channels')."""
        idx = self.bottleneck_index
        return CHANNELS_LABEL if idx is None else self.stages[idx].label

    def explain(self) -> str:
        """One sentence on what limits the path, in a DBA's words."""
        idx = self.bottleneck_index
        if idx is None:
            each = "each (the class default for one channel on a disk or NFS path)" if (
                self.per_channel_default) else "each"  # fmt: skip
            return (
                f"only {plural(self.channels, 'RMAN channel')} run, at "
                f"{format_rate(self.per_channel_Bps)} {each}; more channels would help"
            )
        st = self.stages[idx]
        if idx == self.shared_index and st.total_Bps == self.shared_Bps:
            return f"{st.label} ({st.count} × {format_rate(st.unit_Bps)} of data) is saturated"
        return (
            f"{plural(self.active_channels, 'active channel')}, each limited to "
            f"{format_rate(self.per_channel_Bps)} by {st.label}"
        )


def stage_unit_capacity(stage: Stage, ratio: float, direction: str) -> float:
    """One unit's capacity in data bytes/s (DESIGN §3.1).

    capacity = min(rate × efficiency × (hw_compression if a tape drive and r == 1),
                   max_rate) × (r if it carries backup bytes) ÷ write_factor

    `max_rate` (optional) is a unit's ceiling whatever its compression, such as a tape
    drive's host interface; it extends DESIGN §3.1 compatibly.
    """
    rate = stage.rate_Bps
    if direction == BACKUP and stage.backup_rate_Bps is not None:
        rate = stage.backup_rate_Bps
    elif direction == RESTORE and stage.restore_rate_Bps is not None:
        rate = stage.restore_rate_Bps
    cap = rate * stage.efficiency
    if stage.kind == "tape_drive":
        if is_batch(ratio):
            cap = where(ratio == 1.0, cap * stage.hw_compression, cap)
        elif ratio == 1.0:
            cap = cap * stage.hw_compression
    if stage.max_rate_Bps is not None:
        # An interface ceiling applies to the bytes the unit actually moves.
        cap = minimum(cap, stage.max_rate_Bps)
    if stage.carries == "backup":
        cap = cap * ratio
    # ASM mirroring multiplies writes: a restore writes every copy, a backup reads one.
    return cap / stage.write_factor if direction == RESTORE else cap


def stage_capacity(stage: Stage, index: int, ratio: float, direction: str) -> StageCapacity:
    """Path stage `index`'s capacity: one unit's and all its units' together (a
    per-channel kind, such as a `channel` stage, is a ceiling per channel, not a count
    of units)."""
    unit = stage_unit_capacity(stage, ratio, direction)
    per_only = stage.kind in PER_CHANNEL_KINDS
    return StageCapacity(
        index=index,
        label=stage.label,
        kind=stage.kind,
        carries=stage.carries,
        count=stage.count,
        unit_Bps=unit,
        total_Bps=unit if per_only else unit * stage.count,
        binds_channel=stage.binds_channel,
        per_channel_only=per_only,
        source=stage.source,
    )


CPU_LABEL = "RMAN {level} {what} CPU"


def compression_cpu_stage(scenario: Scenario, direction: str, index: int) -> StageCapacity | None:
    """The compression CPU ceiling (DESIGN §3.7): one channel compresses (backup) or
    decompresses (restore) on one core, so one channel moves at most the per-core rate
    and all together min(channels, cores) × per-core rate. None without `cpu_cores` or
    a named compression level."""
    b, cores = scenario.backup, scenario.database.cpu_cores
    per_core = b.compress_core_Bps if direction == BACKUP else b.decompress_core_Bps
    if not cores or per_core is None or not first(per_core) or b.compression in (None, "none"):
        return None
    what = "compression" if direction == BACKUP else "decompression"
    return StageCapacity(
        index=index,
        label=CPU_LABEL.format(level=b.compression.upper(), what=what),
        kind="cpu",
        carries="data",
        count=cores,
        unit_Bps=per_core,
        total_Bps=per_core * cores,
        binds_channel=False,
        per_channel_only=False,
        source=b.compression_source,
        per_core=True,
    )


def build_path_model(scenario: Scenario, direction: str = RESTORE) -> PathModel:
    """Capacities of every stage and the parameters of R(k) for one direction."""
    if not scenario.path:
        raise ModelError("the restore path has no stages")
    ratio = scenario.backup.compression_ratio
    caps: list[StageCapacity] = []
    shared, shared_i = math.inf, None
    per, per_i = math.inf, None
    bind, bind_i = 1 << 30, None
    for i, st in enumerate(scenario.path):
        cap = stage_capacity(st, i, ratio, direction)
        caps.append(cap)
        unit, total, per_only = cap.unit_Bps, cap.total_Bps, cap.per_channel_only
        # Capacities may be arrays (one per trial): the minimum is taken per element;
        # the index (a label) follows the first trial.
        if st.binds_channel or per_only:
            if first(unit) < first(per):
                per_i = i
            per = minimum(per, unit)
            if st.binds_channel and st.count < bind:
                bind, bind_i = st.count, i
        else:
            if first(total) < first(shared):
                shared_i = i
            shared = minimum(shared, total)
    cpu = compression_cpu_stage(scenario, direction, len(caps))
    if cpu is not None:
        # A per-channel ceiling and a shared one: min(k, cores) × per-core rate.
        caps.append(cpu)
        if first(cpu.unit_Bps) < first(per):
            per_i = cpu.index
        per = minimum(per, cpu.unit_Bps)
        if first(cpu.total_Bps) < first(shared):
            shared_i = cpu.index
        shared = minimum(shared, cpu.total_Bps)
    default = channel_default(scenario)
    per_default = False
    if default is not None:
        # The class default ceiling of one channel (a disk or NFS path with no stage
        # that limits one channel); a compression CPU ceiling, if any, still applies.
        if first(default) < first(per):
            per_i, per_default = None, True
        per = minimum(per, default)
    cart_bytes, cart_s = _cartridges(scenario, direction)
    return PathModel(
        direction=direction,
        stages=tuple(caps),
        channels=scenario.backup.channels,
        shared_Bps=shared,
        shared_index=shared_i,
        per_channel_Bps=per,
        per_channel_index=per_i,
        bind_limit=bind,
        bind_index=bind_i,
        cartridge_data_bytes=cart_bytes,
        cartridge_s=cart_s,
        per_channel_default=per_default,
    )


def channel_default(scenario: Scenario) -> float | None:
    """The class default ceiling of one RMAN channel (data bytes/s; an array in a Monte
    Carlo run) while the path is still one it applies to; None otherwise."""
    rate = scenario.backup.channel_rate_Bps
    if rate is None or default_channel_rate(scenario.path) is None:
        return None
    return rate


def _cartridges(scenario: Scenario, direction: str) -> tuple[float, float]:
    """(data bytes per cartridge, load + locate s) of the tape drives a restore reads
    from, when the catalog gives their mechanics; (inf, 0) otherwise. A cartridge holds
    its native capacity × the RMAN ratio (or the drive's own compression when RMAN does
    not compress)."""
    if direction != RESTORE:
        return math.inf, 0.0
    ratio = scenario.backup.compression_ratio
    for st in scenario.path:
        # Whether the drive has mechanics is the scenario's shape; their times may be
        # draws (arrays of one value per trial) in a Monte Carlo run.
        mechanics = first(st.load_s) or first(st.locate_s)
        if st.kind == "tape_drive" and st.capacity_bytes and mechanics:
            per = st.capacity_bytes * where(ratio != 1.0, ratio, st.hw_compression)
            return per, st.load_s + st.locate_s
    return math.inf, 0.0
