"""The scenario's model: frozen dataclasses whose quantities are already normalised
(bytes, bytes/s, seconds, fractions). The loader (`load.py`) fills them from the field
table (`fields.py`): each key sets the attribute its entry names (`size` → `size_bytes`);
the defaults here are the format's defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Growth:
    """`compound`: `rate` is a fraction per year; `linear`: `rate` is bytes per year."""

    mode: str
    rate: float
    text: str


@dataclass(frozen=True)
class Database:
    size_bytes: float
    largest_file_bytes: float | None = None
    redo_rate_Bps: float = 0.0
    daily_change: float = 0.0
    growth: Growth | None = None
    workload: str = "oltp"
    cpu_cores: int | None = None
    """Cores RMAN may use on the database hosts (compression CPU, DESIGN §3.7)."""
    redo_growth: str = "with_size"
    """`with_size`: redo generation grows with the database; `constant`: it does not."""
    log_size_bytes: float | None = None
    """Size of one archived redo log (None: redo rate × log switch interval)."""


@dataclass(frozen=True)
class Backup:
    compression_ratio: float = 1.0
    channels: int = 1
    channel_init_s: float = 0.0
    section_size_bytes: float | None = None
    level0_every_s: float = 7 * 86400.0
    level1: str = "none"
    level1_every_s: float = 86400.0
    archivelog_every_s: float = 3600.0
    log_switch_s: float = 0.0
    offsite_delay_s: float = 0.0
    standby: str = "none"
    transport_lag_s: float = 0.0
    compression: str | None = None
    """RMAN compression level (none|basic|low|medium|high); None when not named."""
    job_overhead_s: float = 0.0
    """Fixed time per RMAN job or restore phase: media-manager session, catalog resync."""
    block_change_tracking: bool = False
    """Level 1 backups read only changed blocks (Oracle's default is off)."""
    compress_core_Bps: float | None = None
    """Data bytes/s one core compresses at the named level (catalog)."""
    decompress_core_Bps: float | None = None
    """Data bytes/s one core decompresses at the named level (catalog)."""
    compression_source: str = ""
    """Where the ratio and CPU rates of the named level come from."""
    channel_rate_Bps: float | None = None
    """Data bytes/s one RMAN channel moves at most on a disk or NFS path that has no stage
    limiting one channel: a class default (`core/scenario/channel_rate.py`); None: none."""
    channel_rate_source: str = ""
    """Where that default comes from."""


@dataclass(frozen=True)
class Stage:
    """One stage of the path from backup media to datafiles (DESIGN §3.1–3.2).

    `rate_Bps` is the rate of one unit in the unit the stage `carries`; `source` says
    where the rate came from ("scenario", or "catalog: <source>").
    """

    kind: str
    name: str | None = None
    count: int = 1
    rate_Bps: float = 0.0
    efficiency: float = 1.0
    carries: str = "backup"
    binds_channel: bool = False
    hw_compression: float = 1.0
    backup_rate_Bps: float | None = None
    restore_rate_Bps: float | None = None
    """Rate in the restore direction when it differs from `rate_Bps` (model v3)."""
    write_factor: float = 1.0
    max_rate_Bps: float | None = None
    source: str = "scenario"
    load_s: float = 0.0
    """Tape mechanics from the catalog item the stage names: load time per cartridge,"""
    locate_s: float = 0.0
    """average locate time,"""
    capacity_bytes: float | None = None
    """native cartridge capacity,"""
    min_streaming_Bps: float | None = None
    """and the slowest native rate the drive streams at without shoe-shining."""
    shared: str | None = None
    """Name of an estate's `[[shared]]` resource this stage stands for (DESIGN §9);
    a plan of the scenario alone uses the stage as written."""

    @property
    def label(self) -> str:
        """What reports call the stage: its name, else its kind (DESIGN §5)."""
        return self.name or self.kind


@dataclass(frozen=True)
class Recovery:
    detect_s: float = 0.0
    tape_recall_s: float = 0.0
    incremental_apply_rate_Bps: float | None = None
    incremental_overhead_s: float = 0.0
    incremental_apply_factor: float | None = None
    """With level 1 backups and no `incremental_apply_rate`: the apply's rate as a share of
    the incremental restore's own (the class default, 1: it keeps pace); None otherwise."""
    redo_apply_rate_Bps: float | None = None
    redo_apply_source: str = "scenario"
    redo_log_cost_s: float | None = None
    """Fixed apply time per archived log (model v3); None: not counted."""
    redo_log_cost_source: str = "scenario"
    archivelogs_on_disk: bool = True
    open_s: float = 0.0
    incremental_size_bytes: float | None = None
    redo_volume_bytes: float | None = None
    archivelog_restore: str = "serial"
    """`parallel`: archived redo is restored beside the level 0, sharing the path."""
    failover_s: float | None = None
    """Time to fail over to the standby (a route of its own, DESIGN §3.7)."""


@dataclass(frozen=True)
class Targets:
    rto_s: float
    rpo_s: float | None = None
    backup_window_s: float | None = None
    risk_margin_fraction: float | None = 0.10
    risk_margin_s: float | None = None
    confidence: float = 0.90
    """The share of trials that must meet every target (`targets.confidence`)."""

    @property
    def risk_margin_abs_s(self) -> float:
        if self.risk_margin_s is not None:
            return self.risk_margin_s
        return (self.risk_margin_fraction or 0.0) * self.rto_s


@dataclass(frozen=True)
class Scenario:
    name: str
    database: Database
    backup: Backup
    path: tuple[Stage, ...]
    recovery: Recovery
    targets: Targets
    customer: str = ""
    author: str = ""
    notes: str = ""
    provenance: Mapping[str, str] = field(default_factory=dict)
    """Where imported figures came from, by dotted key (e.g. `database.redo_rate`)."""
    uncertainty: Mapping[str, str] = field(default_factory=dict)
    """The `[uncertainty]` table (DESIGN §7): range texts by key as written, flattened;
    validated by `core.uncertainty`."""
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The validated document as strings with units: what `dump_scenario` writes."""
    comments: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    """The file's comments by dotted key (`core.comments`): where the figures come from."""
