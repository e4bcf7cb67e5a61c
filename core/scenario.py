"""The scenario model: TOML format version 1 (DESIGN §4, a public contract).

A scenario is loaded from TOML text into frozen dataclasses whose quantities are already
normalised (bytes, bytes/s, seconds, fractions). Validation happens here, once, and every
error names the file, the line (when the text gives it), the dotted key and what is
expected; unknown keys get a "did you mean" for near misses.

The field tables below (`DATABASE_FIELDS`, …) are the single description of the format:
the loader, the saver, the GUI's editor and its tooltips all read them.
"""

from __future__ import annotations

import contextlib
import difflib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import toml_read
from .bounds import (
    ANY_DURATION,
    ARCHIVELOG_EVERY,
    BACKUP_WINDOW,
    CHANNELS,
    COUNT,
    DB_SIZE,
    EFFICIENCY,
    FILE_SIZE,
    LEVEL0_EVERY,
    LEVEL1_EVERY,
    MAX_NESTING,
    MAX_SCENARIO_BYTES,
    MAX_STAGES,
    NAME_CHARS,
    NOTES_CHARS,
    RATIO,
    REDO_RATE,
    RISK_MARGIN_DURATION,
    RISK_MARGIN_FRACTION,
    RPO,
    RTO,
    SHORT_DURATION,
    TEXT_CHARS,
    UNIT_RATE,
    VOLUME,
    WRITE_FACTOR,
    Bound,
)
from .catalog import Catalog, shipped_catalog
from .comments import file_comments
from .errors import ScenarioError, ScenarioVersionError, UnitError
from .inputfile import InputFileError, read_limited
from .units import (
    parse_duration,
    parse_fraction,
    parse_growth,
    parse_rate,
    parse_ratio,
    parse_size,
)

FORMAT_VERSION = 1

STAGE_KINDS = (
    "tape_drive",
    "disk",
    "nas_head",
    "media_server",
    "network",
    "channel",
    "cpu",
    "storage_write",
    "measured",
)
_CARRIES_BACKUP_BY_DEFAULT = {"tape_drive", "disk", "nas_head", "media_server", "network"}
WORKLOADS = ("oltp", "mixed", "batch")
LEVEL1_KINDS = ("cumulative", "differential", "none")
STANDBY_KINDS = ("none", "async", "sync")
COMPRESSION_LEVELS = ("none", "basic", "low", "medium", "high")
REDO_GROWTH_KINDS = ("with_size", "constant")
ARCHIVELOG_RESTORE_KINDS = ("serial", "parallel")


# ------------------------------------------------------------------------ the data model


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
    redo_apply_rate_Bps: float | None = None
    redo_apply_source: str = "scenario"
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


# ------------------------------------------------------------------------ field tables


@dataclass(frozen=True)
class FieldSpec:
    """One key of the format: how to parse it, its default, and a DBA-worded help text."""

    key: str
    kind: str  # size rate duration fraction ratio int float bool str choice growth margin
    required: bool = False
    choices: tuple[str, ...] = ()
    positive: bool = False
    help: str = ""
    bound: Bound | None = None
    """The physically sensible range of the parsed value (of its length for text);
    a value outside is refused with the bound's reason (core/bounds.py)."""


DATABASE_FIELDS = (
    FieldSpec("size", "size", True, positive=True,
              help="Datafile bytes a restore must write (allocated size, not used space).",
              bound=DB_SIZE),
    FieldSpec("largest_file", "size", positive=True,
              help="Largest datafile: without multisection one channel must move it alone.",
              bound=FILE_SIZE),
    FieldSpec("redo_rate", "rate",
              help="Average redo generation (AWR Load Profile 'Redo size' per second).",
              bound=REDO_RATE),
    FieldSpec("daily_change", "fraction",
              help="Distinct blocks changed per day, as a share of the database."),
    FieldSpec("growth", "growth", help="Growth per year, e.g. '25%/y' or '2 TB/y'."),
    FieldSpec("workload", "choice", choices=WORKLOADS,
              help="oltp, mixed or batch: picks the redo apply default from the catalog."),
    FieldSpec("cpu_cores", "int", positive=True,
              help="Cores RMAN may use on the database hosts: one channel compresses or "
                   "decompresses on one core."),
    FieldSpec("redo_growth", "choice", choices=REDO_GROWTH_KINDS,
              help="with_size: redo generation grows with the database (default); "
                   "constant: it stays as measured."),
)  # fmt: skip
BACKUP_FIELDS = (
    FieldSpec("compression_ratio", "ratio", positive=True,
              help="RMAN compression: data bytes per backup byte (1.0 = uncompressed).",
              bound=RATIO),
    FieldSpec("channels", "int", positive=True, help="RMAN channels allocated for restore.",
              bound=CHANNELS),
    FieldSpec("channel_init", "duration",
              help="Serial start-up per channel: media manager session, mount, position.",
              bound=SHORT_DURATION),
    FieldSpec("section_size", "size", positive=True,
              help="Multisection SECTION SIZE: the largest piece one channel moves.",
              bound=FILE_SIZE),
    FieldSpec("level0_every", "duration", positive=True, help="Interval between level 0 backups.",
              bound=LEVEL0_EVERY),
    FieldSpec("level1", "choice", choices=LEVEL1_KINDS,
              help="Level 1 incrementals: cumulative, differential or none."),
    FieldSpec("level1_every", "duration", positive=True, help="Interval between level 1 backups.",
              bound=LEVEL1_EVERY),
    FieldSpec("archivelog_every", "duration", positive=True,
              help="Interval between archived redo log backups.",
              bound=ARCHIVELOG_EVERY),
    FieldSpec("log_switch", "duration",
              help="Typical time between log switches (redo not yet archived).",
              bound=SHORT_DURATION),
    FieldSpec("offsite_delay", "duration",
              help="Time until a backup is off site (tape vaulting); 0 for replicated disk.",
              bound=ANY_DURATION),
    FieldSpec("standby", "choice", choices=STANDBY_KINDS,
              help="Data Guard standby: none, async or sync."),
    FieldSpec("transport_lag", "duration", help="Redo transport lag of an async standby.",
              bound=SHORT_DURATION),
    FieldSpec("compression", "choice", choices=COMPRESSION_LEVELS,
              help="RMAN compression level: none, basic, low, medium or high; the ratio and "
                   "the per-core CPU rates come from the catalog."),
    FieldSpec("job_overhead", "duration",
              help="Fixed time per RMAN job and restore phase: media-manager session, "
                   "catalog resync (a small tape job pays 2.5-3 min).",
              bound=SHORT_DURATION),
    FieldSpec("block_change_tracking", "bool",
              help="Block change tracking on: level 1 backups read only changed blocks. "
                   "Off (Oracle's default): they read the whole database."),
)  # fmt: skip
STAGE_FIELDS = (
    FieldSpec("kind", "choice", True, choices=STAGE_KINDS,
              help="What the stage is: tape_drive, disk, nas_head, media_server, network, "
                   "channel, cpu, storage_write or measured."),
    FieldSpec("name", "str",
              help="A label; a catalog item's name fills the rate when no rate is given.",
              bound=TEXT_CHARS),
    FieldSpec("count", "int", positive=True, help="How many units work in parallel.",
              bound=COUNT),
    FieldSpec("rate", "rate", positive=True,
              help="Rate of one unit (datasheet or measured), in what the stage carries.",
              bound=UNIT_RATE),
    FieldSpec("efficiency", "fraction", positive=True,
              help="Practical share of the datasheet rate (LTO streams at 85-90 %).",
              bound=EFFICIENCY),
    FieldSpec("carries", "choice", choices=("backup", "data"),
              help="backup: compressed backup bytes flow here; data: datafile bytes."),
    FieldSpec("binds_channel", "bool",
              help="Each unit serves one channel at a time (tape drives do)."),
    FieldSpec("hw_compression", "ratio", positive=True,
              help="Tape drive compression ratio on uncompressed data.",
              bound=RATIO),
    FieldSpec("max_rate", "rate", positive=True,
              help="Ceiling of one unit whatever the compression, e.g. a tape drive's host "
                   "interface (LTO-9 on 8 Gb FC: 750 MB/s).",
              bound=UNIT_RATE),
    FieldSpec("backup_rate", "rate", positive=True,
              help="Rate in the backup direction when it differs (compression on CPU).",
              bound=UNIT_RATE),
    FieldSpec("write_factor", "float", positive=True,
              help="Storage writes per data byte on restore: 2 for ASM normal, 3 for high "
                   "redundancy, about 1.33 for RAID 5. Backups read one copy.",
              bound=WRITE_FACTOR),
    FieldSpec("shared", "str",
              help="In an estate: the [[shared]] resource (tape library, media servers, "
                   "link) this stage uses with the other databases.",
              bound=TEXT_CHARS),
)  # fmt: skip
RECOVERY_FIELDS = (
    FieldSpec("detect", "duration", help="Time to declare the failure and prepare the restore.",
              bound=ANY_DURATION),
    FieldSpec("tape_recall", "duration", help="Time to bring tapes back on site (0 if on site).",
              bound=ANY_DURATION),
    FieldSpec("incremental_apply_rate", "rate", positive=True,
              help="Rate at which RMAN applies incremental backups to restored datafiles.",
              bound=UNIT_RATE),
    FieldSpec("incremental_overhead", "duration",
              help="Fixed time per incremental backup applied (catalog, open, close).",
              bound=SHORT_DURATION),
    FieldSpec("redo_apply_rate", "rate", positive=True,
              help="Media recovery rate (V$RECOVERY_PROGRESS 'Average Apply Rate').",
              bound=UNIT_RATE),
    FieldSpec("archivelogs_on_disk", "bool",
              help="Archived logs since the last incremental are still on disk."),
    FieldSpec("open", "duration", help="Time to open the database (RESETLOGS, checks).",
              bound=SHORT_DURATION),
    FieldSpec("incremental_size", "size",
              help="Override: size of the incremental backups to restore and apply.",
              bound=VOLUME),
    FieldSpec("redo_volume", "size", help="Override: redo to restore and apply.",
              bound=VOLUME),
    FieldSpec("archivelog_restore", "choice", choices=ARCHIVELOG_RESTORE_KINDS,
              help="serial: archived redo is restored after the incrementals; parallel: "
                   "beside the level 0, sharing the path."),
    FieldSpec("failover", "duration",
              help="Time to fail over to the standby after a site loss (with backup.standby).",
              bound=SHORT_DURATION),
)  # fmt: skip
TARGETS_FIELDS = (
    FieldSpec("rto", "duration", True, positive=True, help="Recovery time objective.",
              bound=RTO),
    FieldSpec("rpo", "duration", help="Recovery point objective: the data loss allowed.",
              bound=RPO),
    FieldSpec("backup_window", "duration", positive=True,
              help="Time a level 0 or level 1 backup may take.",
              bound=BACKUP_WINDOW),
    FieldSpec("risk_margin", "margin",
              help="Margin below which a plan that meets the RTO is 'at risk' "
                   "(share of the RTO, or a duration)."),
)  # fmt: skip
TOP_FIELDS = (
    FieldSpec("format", "int", help="Scenario format version."),
    FieldSpec("name", "str", True, help="Scenario name.", bound=NAME_CHARS),
    FieldSpec("customer", "str", help="Customer the plan is for.", bound=TEXT_CHARS),
    FieldSpec("author", "str", help="Who prepared the plan.", bound=TEXT_CHARS),
    FieldSpec("notes", "str", help="Free text printed in the report.", bound=NOTES_CHARS),
)
SECTIONS: dict[str, tuple[FieldSpec, ...]] = {
    "database": DATABASE_FIELDS,
    "backup": BACKUP_FIELDS,
    "recovery": RECOVERY_FIELDS,
    "targets": TARGETS_FIELDS,
}
_TABLE_KEYS = ("database", "backup", "path", "recovery", "targets", "provenance", "uncertainty")


def field_spec(section: str, key: str) -> FieldSpec:
    table = STAGE_FIELDS if section == "path" else SECTIONS.get(section, TOP_FIELDS)
    for spec in table:
        if spec.key == key:
            return spec
    raise KeyError(f"{section}.{key}")


# ------------------------------------------------------------------------ value parsing


def _parse_margin(value: Any) -> tuple[float | None, float | None]:
    """`10%` → (0.1, None); `30 min` → (None, 1800)."""
    if isinstance(value, str) and value.strip().endswith("%"):
        frac = parse_fraction(value)
        RISK_MARGIN_FRACTION.check(frac, value)
        return frac, None
    if isinstance(value, int | float) and not isinstance(value, bool) and value <= 1:
        RISK_MARGIN_FRACTION.check(float(value), value)
        return float(value), None
    secs = parse_duration(value)
    RISK_MARGIN_DURATION.check(secs, value)
    return None, secs


_EXAMPLES = {
    "size": "'20 TiB'", "rate": "'140 MB/s'", "duration": "'4 h'", "fraction": "'5%'",
    "ratio": "2.0", "growth": "'25%/y'", "margin": "'10%' or '30 min'",
}  # fmt: skip


def _short(value: Any) -> str:
    """`repr` of a value, cut to a readable length for a one-line message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "size": parse_size,
    "rate": parse_rate,
    "duration": parse_duration,
    "fraction": parse_fraction,
    "ratio": parse_ratio,
    "growth": parse_growth,
    "margin": _parse_margin,
}


_PARSED: dict[tuple[str, str], Any] = {}
"""Texts already parsed, by (kind, text): an estate's scenario files repeat their
values ('360 MB/s', '30 s') thousands of times. The parsers are pure; the spec's checks
(positive, finite, bound) still run on every value."""
_PARSED_MAX = 4096


def _parse_text(kind: str, value: Any) -> Any:
    if value.__class__ is not str:
        return _PARSERS[kind](value)
    key = (kind, value)
    parsed = _PARSED.get(key, _PARSED)
    if parsed is _PARSED:
        parsed = _PARSERS[kind](value)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = parsed
    return parsed


def parse_value(spec: FieldSpec, value: Any) -> Any:
    """Parse one raw value (from TOML or a form) per its spec; raises UnitError/ValueError."""
    if spec.kind in _PARSERS:
        if isinstance(value, bool):
            raise UnitError(f"{value!r} is not a number")
        if not isinstance(value, str | int | float):
            what = {list: "a list", dict: "a table"}.get(type(value), type(value).__name__)
            example = _EXAMPLES.get(spec.kind, "'10 GB'")
            raise UnitError(f"{_short(value)} is {what}, not a value such as {example}")
        parsed = _parse_text(spec.kind, value)
        if spec.positive and isinstance(parsed, float) and parsed <= 0:
            raise UnitError(f"{value!r}: must be greater than zero")
        if isinstance(parsed, float) and not math.isfinite(parsed):
            raise UnitError(f"{value!r} is not a finite number")
        if spec.bound is not None and isinstance(parsed, float):
            spec.bound.check(parsed, value)
        return parsed
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
                value = int(value)
            else:
                raise UnitError(f"{value!r} is not a whole number")
        if value < 0 or (spec.positive and value == 0):
            raise UnitError(f"{value!r}: must be {'at least 1' if spec.positive else '>= 0'}")
        if spec.bound is not None:
            spec.bound.check(value, value)
        return int(value)
    if spec.kind == "float":
        if isinstance(value, bool):
            raise UnitError(f"{value!r} is not a number")
        try:
            f = float(value)
        except (TypeError, ValueError):
            raise UnitError(f"{value!r} is not a number") from None
        if not math.isfinite(f) or f < 0 or (spec.positive and f == 0):
            raise UnitError(f"{value!r}: must be a number greater than zero")
        if spec.bound is not None:
            spec.bound.check(f, value)
        return f
    if spec.kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
            return value.strip().lower() in ("true", "yes")
        raise UnitError(f"{value!r} is not true or false")
    if spec.kind == "choice":
        if not isinstance(value, str) or value.strip().lower() not in spec.choices:
            raise UnitError(f"{value!r} is not one of: {', '.join(spec.choices)}")
        return value.strip().lower()
    if spec.kind == "str":
        if not isinstance(value, str):
            raise UnitError(f"{_short(value)} is not text; put it in quotes")
        if spec.required and not value.strip():
            raise UnitError("is empty: give it a name")
        if spec.bound is not None:
            spec.bound.check_length(value)
        return value
    raise AssertionError(spec.kind)


# ------------------------------------------------------------------------ line numbers


def _key_lines(text: str) -> dict[str, int]:
    """Map dotted keys (`backup.channels`, `path[1].rate`) to 1-based lines.

    tomllib does not report positions, so this light scan of the usual layout (tables,
    arrays of tables, `key = value` lines) finds them; keys it cannot place get no line.
    Linear in the text: string operations and regular expressions that cannot backtrack
    (a 60,000-space line used to take over a minute).
    """
    lines: dict[str, int] = {}
    table = ""
    counts: dict[str, int] = {}
    for no, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        name = _header_name(stripped)
        if name is not None:
            table_name, array = name
            if array:
                idx = counts.get(table_name, 0)
                counts[table_name] = idx + 1
                table = f"{table_name}[{idx}]"
            else:
                table = table_name
            lines.setdefault(table, no)
            continue
        m = _KEYLINE.match(stripped)
        if m:
            key = m.group(1).strip("\"'")
            lines.setdefault(f"{table}.{key}" if table else key, no)
    return lines


_KEYLINE = re.compile(r"(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_.-]+)[ \t]*=")
_HEADER_CHARS = re.compile(r"[A-Za-z0-9_.\"' -]+")


def _header_name(stripped: str) -> tuple[str, bool] | None:
    """`[name]` → ("name", False), `[[name]] # c` → ("name", True), else None."""
    if not stripped.startswith("["):
        return None
    array = stripped.startswith("[[")
    close = stripped.find("]]" if array else "]")
    if close < 0:
        return None
    inner = stripped[2 if array else 1 : close]
    rest = stripped[close + (2 if array else 1) :].lstrip()
    if rest and not rest.startswith("#"):
        return None
    if not _HEADER_CHARS.fullmatch(inner):
        return None
    name = inner.strip().strip("\"'")
    return (name, array) if name else None


# ------------------------------------------------------------------------ loading


class _Loader:
    """Validates one document; errors name the source, the key and its line (from the
    key → line map `lines`, or worked out from `text`).

    The map is built from the text only when an error needs it: a valid file (nearly
    every file of a 10,000-database estate) never pays for it."""

    def __init__(
        self, source: str, lines: dict[str, int] | None = None, *, text: str | None = None
    ) -> None:
        self.source = source
        self._text = text
        self._lines = lines

    @property
    def lines(self) -> dict[str, int]:
        if self._lines is None:
            self._lines = _key_lines(self._text) if self._text else {}
        return self._lines

    def error(self, key: str, message: str, hint: str | None = None) -> ScenarioError:
        line = self.lines.get(key)
        if line is None and "." in key:
            line = self.lines.get(key.rsplit(".", 1)[0])
        return ScenarioError(message, key=key, line=line, source=self.source, hint=hint)

    def check_keys(self, where: str, table: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                hint = f"did you mean '{close[0]}'?" if close else (
                    "known keys: " + ", ".join(allowed))  # fmt: skip
                dotted = f"{where}.{key}" if where else key
                raise self.error(dotted, f"unknown key '{key}'", hint)

    def section(
        self, where: str, table: Any, specs: tuple[FieldSpec, ...]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Validate one table: returns (parsed values, raw values) by key."""
        if not isinstance(table, dict):
            raise self.error(where, f"'{where}' must be a table ([{where}])")
        self.check_keys(where, table, _keys_of(specs))
        parsed: dict[str, Any] = {}
        raw: dict[str, Any] = {}
        for spec in specs:
            key = spec.key
            if key not in table:
                if spec.required:
                    dotted = f"{where}.{key}" if where else key
                    raise self.error(dotted, f"'{key}' is required", spec.help or None)
                continue
            value = table[key]
            try:
                parsed[key] = parse_value(spec, value)
            except (UnitError, ValueError) as exc:
                raise self.error(f"{where}.{key}" if where else key, str(exc)) from None
            raw[key] = value
        return parsed, raw


_KEYS_OF: dict[int, tuple[tuple[FieldSpec, ...], tuple[str, ...]]] = {}


def _keys_of(specs: tuple[FieldSpec, ...]) -> tuple[str, ...]:
    """The keys of a field table (the tables are constants: worked out once each)."""
    known = _KEYS_OF.get(id(specs))
    if known is None or known[0] is not specs:
        if len(_KEYS_OF) > 64:  # not one of the constant tables: do not keep them all
            _KEYS_OF.clear()
        known = _KEYS_OF[id(specs)] = (specs, tuple(s.key for s in specs))
    return known[1]


def _resolve_stage(loader: _Loader, idx: int, values: dict[str, Any], catalog: Catalog) -> Stage:
    where = f"path[{idx}]"
    kind = values["kind"]
    name = values.get("name")
    source = "scenario"
    rate = values.get("rate")
    efficiency = values.get("efficiency")
    hw = values.get("hw_compression")
    backup_rate = values.get("backup_rate")
    max_rate = values.get("max_rate")
    if rate is None:
        item = catalog.find(kind, name)
        if item is None or item.rate_Bps is None:
            hint = (
                f"no {kind} named '{name}' in the catalog; give a rate such as '140 MB/s'"
                if name
                else "give a rate such as '140 MB/s', or a catalog item's name"
            )
            raise loader.error(f"{where}.rate", "a stage needs a rate", hint)
        rate = item.rate_Bps
        source = f"catalog: {item.name} — {item.source}"
        if efficiency is None:
            efficiency = item.derate
        if hw is None and kind == "tape_drive" and item.hw_compression:
            hw = item.hw_compression
        if backup_rate is None and item.backup_rate_Bps is not None:
            backup_rate = item.backup_rate_Bps
        if max_rate is None and kind == "tape_drive" and item.compressed_rate_Bps:
            max_rate = item.compressed_rate_Bps
    if efficiency is not None and efficiency > 1:
        raise loader.error(f"{where}.efficiency", f"{efficiency:g} is above 100 %")
    if hw is not None and kind != "tape_drive":
        raise loader.error(f"{where}.hw_compression", "only tape drives have hardware compression")
    write_factor = values.get("write_factor", 1.0)
    if "write_factor" in values and kind != "storage_write":
        raise loader.error(f"{where}.write_factor", "only storage_write stages take a write_factor")
    if write_factor < 1.0:
        raise loader.error(
            f"{where}.write_factor",
            f"{write_factor:g} is below 1: each data byte is written at least once",
            "2 for ASM normal redundancy, 3 for high, about 1.33 for RAID 5",
        )
    carries = values.get("carries", "backup" if kind in _CARRIES_BACKUP_BY_DEFAULT else "data")
    mechanics = _tape_mechanics(catalog.find(kind, name) if kind == "tape_drive" else None)
    return Stage(
        kind=kind,
        name=name,
        count=values.get("count", 1),
        rate_Bps=rate,
        efficiency=1.0 if efficiency is None else efficiency,
        carries=carries,
        binds_channel=values.get("binds_channel", kind == "tape_drive"),
        hw_compression=1.0 if hw is None else hw,
        backup_rate_Bps=backup_rate,
        write_factor=write_factor,
        max_rate_Bps=max_rate,
        source=source,
        **mechanics,
        shared=values.get("shared"),
    )


def _tape_mechanics(item: Any) -> dict[str, Any]:
    """Load/locate time, capacity and minimum streaming rate of a catalog tape drive."""
    if item is None:
        return {}
    out: dict[str, Any] = {"load_s": item.load_s or 0.0, "locate_s": item.locate_s or 0.0}
    for key, parse, field_name in (
        ("capacity", parse_size, "capacity_bytes"),
        ("min_streaming_rate", parse_rate, "min_streaming_Bps"),
    ):
        text = item.extra.get(key)
        if text:
            with contextlib.suppress(UnitError):
                out[field_name] = parse(text)
    return out


def _resolve_compression(
    loader: _Loader, backup: Backup, values: dict[str, Any], db: Database, catalog: Catalog
) -> Backup:
    """A named level takes its ratio from the catalog unless a ratio is measured."""
    level = backup.compression
    if level is None:
        return backup
    if level == "none":
        if "compression_ratio" in values and backup.compression_ratio != 1.0:
            raise loader.error(
                "backup.compression_ratio",
                f"{backup.compression_ratio:g} contradicts backup.compression = 'none'",
                "remove one of the two",
            )
        return backup
    item = catalog.find("rman_compression", level)
    if item is None or (not item.ratio and "compression_ratio" not in values):
        raise loader.error(
            "backup.compression",
            f"the catalog has no ratio for RMAN {level.upper()} compression",
            "give backup.compression_ratio (V$RMAN_BACKUP_JOB_DETAILS: input ÷ output bytes)",
        )
    rates = {}
    for key in ("compress_rate", "decompress_rate"):
        text = item.extra.get(key)
        try:
            rates[key] = parse_rate(text) if text else None
        except UnitError:
            rates[key] = None
    ratio = backup.compression_ratio if "compression_ratio" in values else item.ratio
    return replace(
        backup,
        compression_ratio=ratio,
        compress_core_Bps=rates["compress_rate"],
        decompress_core_Bps=rates["decompress_rate"],
        compression_source=f"catalog: RMAN {level.upper()} — {item.source}",
    )


def _refuse_unused(
    loader: _Loader,
    db: Database,
    backup: Backup,
    bk_vals: dict[str, Any],
    rc_vals: dict[str, Any],
) -> None:
    """A given value either changes the plan or is refused with the reason (DESIGN §3.7)."""
    no_level1 = backup.level1 == "none"
    if no_level1 and "incremental_size" in rc_vals:
        raise loader.error(
            "recovery.incremental_size",
            "is given but there is no level 1 backup to restore (backup.level1 is 'none')",
            "set backup.level1 to 'cumulative' or 'differential', or remove the key",
        )
    if db.cpu_cores is not None and backup.compression in (None, "none"):
        raise loader.error(
            "database.cpu_cores",
            "is used only to model compression CPU, and backup.compression names no level",
            "name the RMAN level (backup.compression = 'basic', 'low', 'medium' or 'high')",
        )
    if "transport_lag" in bk_vals and backup.standby != "async":
        raise loader.error(
            "backup.transport_lag",
            f"only an async standby has a transport lag (backup.standby is '{backup.standby}')",
            "set backup.standby = 'async', or remove the key",
        )
    if "failover" in rc_vals and backup.standby == "none":
        raise loader.error(
            "recovery.failover",
            "there is no standby to fail over to (backup.standby is 'none')",
            "set backup.standby to 'sync' or 'async', or remove the key",
        )
    if "section_size" in bk_vals and db.largest_file_bytes is None:
        raise loader.error(
            "backup.section_size",
            "sections only matter for the largest file, and database.largest_file is not given",
            "give database.largest_file, or remove the key",
        )


def scenario_from_mapping(
    doc: Mapping[str, Any],
    *,
    source: str = "<scenario>",
    text: str | None = None,
    catalog: Catalog | None = None,
) -> Scenario:
    """Validate a parsed TOML document (or a form's dict of strings) into a Scenario."""
    catalog = shipped_catalog() if catalog is None else catalog
    loader = _Loader(source, text=text)
    if not isinstance(doc, Mapping):
        raise loader.error("", "a scenario must be a TOML table")
    fmt = doc.get("format", FORMAT_VERSION)
    if isinstance(fmt, bool) or not isinstance(fmt, int):
        raise loader.error("format", f"{fmt!r} is not a format version number")
    if fmt > FORMAT_VERSION:
        raise ScenarioVersionError(
            f"written in scenario format {fmt}; this version of RTO Planner reads format "
            f"{FORMAT_VERSION} and older",
            key="format",
            line=loader.lines.get("format"),
            source=source,
            hint="upgrade RTO Planner to open it",
        )
    if fmt < 1:
        raise loader.error("format", f"{fmt} is not a valid format version")
    top = {k: v for k, v in doc.items() if k not in _TABLE_KEYS}
    loader.check_keys("", top, tuple(s.key for s in TOP_FIELDS) + _TABLE_KEYS)
    top_vals, top_raw = loader.section("", top, TOP_FIELDS)
    top_raw.pop("format", None)
    raw: dict[str, Any] = {"format": FORMAT_VERSION, **top_raw}

    def required_table(name: str) -> Any:
        if name not in doc:
            raise loader.error(name, f"the [{name}] table is required")
        return doc[name]

    db_vals, raw["database"] = loader.section(
        "database", required_table("database"), DATABASE_FIELDS
    )
    bk_vals, raw["backup"] = loader.section("backup", doc.get("backup", {}), BACKUP_FIELDS)
    rc_vals, raw["recovery"] = loader.section("recovery", doc.get("recovery", {}), RECOVERY_FIELDS)
    tg_vals, raw["targets"] = loader.section("targets", required_table("targets"), TARGETS_FIELDS)

    path_doc = doc.get("path", [])
    if not isinstance(path_doc, list) or not path_doc:
        raise loader.error(
            "path",
            "the restore path needs at least one [[path]] stage",
            'add e.g. [[path]] kind = "tape_drive" count = 4 rate = "300 MB/s"',
        )
    if len(path_doc) > MAX_STAGES:
        raise loader.error(
            "path",
            f"the restore path has {len(path_doc):,} stages; at most {MAX_STAGES} are read "
            "(a real path has three to eight)",
        )
    stages = []
    raw_path = []
    for i, stage_doc in enumerate(path_doc):
        vals, stage_raw = loader.section(f"path[{i}]", stage_doc, STAGE_FIELDS)
        stages.append(_resolve_stage(loader, i, vals, catalog))
        raw_path.append(stage_raw)
    raw["path"] = raw_path

    prov_doc = doc.get("provenance", {})
    if not isinstance(prov_doc, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in prov_doc.items()
    ):
        raise loader.error("provenance", "provenance must be a table of text values")
    if prov_doc:
        raw["provenance"] = dict(prov_doc)

    growth = db_vals.get("growth")
    database = Database(
        size_bytes=db_vals["size"],
        largest_file_bytes=db_vals.get("largest_file"),
        redo_rate_Bps=db_vals.get("redo_rate", 0.0),
        daily_change=db_vals.get("daily_change", 0.0),
        growth=Growth(growth[0], growth[1], raw["database"]["growth"]) if growth else None,
        workload=db_vals.get("workload", "oltp"),
        cpu_cores=db_vals.get("cpu_cores"),
        redo_growth=db_vals.get("redo_growth", "with_size"),
    )
    if database.largest_file_bytes and database.largest_file_bytes > database.size_bytes:
        raise loader.error("database.largest_file", "is larger than the database size")

    backup = Backup(
        **{
            k2: bk_vals[k1]
            for k1, k2 in (
                ("compression_ratio", "compression_ratio"),
                ("channels", "channels"),
                ("channel_init", "channel_init_s"),
                ("section_size", "section_size_bytes"),
                ("level0_every", "level0_every_s"),
                ("level1", "level1"),
                ("level1_every", "level1_every_s"),
                ("archivelog_every", "archivelog_every_s"),
                ("log_switch", "log_switch_s"),
                ("offsite_delay", "offsite_delay_s"),
                ("standby", "standby"),
                ("transport_lag", "transport_lag_s"),
                ("compression", "compression"),
                ("job_overhead", "job_overhead_s"),
                ("block_change_tracking", "block_change_tracking"),
            )
            if k1 in bk_vals
        }
    )
    if "level1" not in bk_vals and "level1_every" in bk_vals:
        backup = replace(backup, level1="cumulative")
    if backup.level1 != "none" and backup.level1_every_s >= backup.level0_every_s:
        raise loader.error("backup.level1_every", "must be shorter than backup.level0_every")
    backup = _resolve_compression(loader, backup, bk_vals, database, catalog)
    _refuse_unused(loader, database, backup, bk_vals, rc_vals)

    redo_apply = rc_vals.get("redo_apply_rate")
    redo_source = "scenario"
    if redo_apply is None:
        item = catalog.find("redo_apply", database.workload)
        if item is not None and item.rate_Bps:
            redo_apply = item.rate_Bps * item.derate
            redo_source = f"catalog: {database.workload} workload class — {item.source}"
    recovery = Recovery(
        detect_s=rc_vals.get("detect", 0.0),
        tape_recall_s=rc_vals.get("tape_recall", 0.0),
        incremental_apply_rate_Bps=rc_vals.get("incremental_apply_rate"),
        incremental_overhead_s=rc_vals.get("incremental_overhead", 0.0),
        redo_apply_rate_Bps=redo_apply,
        redo_apply_source=redo_source,
        archivelogs_on_disk=rc_vals.get("archivelogs_on_disk", True),
        open_s=rc_vals.get("open", 0.0),
        incremental_size_bytes=rc_vals.get("incremental_size"),
        redo_volume_bytes=rc_vals.get("redo_volume"),
        archivelog_restore=rc_vals.get("archivelog_restore", "serial"),
        failover_s=rc_vals.get("failover"),
    )
    if backup.level1 != "none" and recovery.incremental_apply_rate_Bps is None:
        raise loader.error(
            "recovery.incremental_apply_rate",
            "is required when backup.level1 is not 'none'",
            "e.g. '18 TiB/h' (measure it from a test recovery, or use the storage write rate)",
        )
    frac, secs = tg_vals.get("risk_margin", (0.10, None))
    targets = Targets(
        rto_s=tg_vals["rto"],
        rpo_s=tg_vals.get("rpo"),
        backup_window_s=tg_vals.get("backup_window"),
        risk_margin_fraction=frac,
        risk_margin_s=secs,
    )
    uncertainty = _uncertainty_table(loader, doc.get("uncertainty", {}))
    if uncertainty:
        raw["uncertainty"] = uncertainty
    scenario = Scenario(
        name=top_vals["name"],
        database=database,
        backup=backup,
        path=tuple(stages),
        recovery=recovery,
        targets=targets,
        customer=top_vals.get("customer", ""),
        author=top_vals.get("author", ""),
        notes=top_vals.get("notes", ""),
        provenance=dict(prov_doc),
        uncertainty=uncertainty,
        raw=raw,
        comments=file_comments(text),
    )
    if uncertainty:
        from .uncertainty.inputs import check_uncertainty  # it needs the stages' names

        check_uncertainty(scenario, loader.source, loader.lines)
    if prov_doc:
        from .uncertainty.inputs import check_provenance

        check_provenance(scenario, loader.source, loader.lines, catalog)
    return scenario


def _uncertainty_table(loader: _Loader, table: Any) -> dict[str, Any]:
    """The `[uncertainty]` table flattened to dotted keys (quoted or nested in the file)."""
    if not isinstance(table, dict):
        raise loader.error(
            "uncertainty",
            "[uncertainty] must be a table of ranges",
            'e.g. "recovery.redo_apply_rate" = "-40%..+20%"',
        )
    from .uncertainty.inputs import flatten_table

    return flatten_table(table)


def load_scenario_text(
    text: str, source: str = "<text>", catalog: Catalog | None = None
) -> Scenario:
    """Parse and validate scenario TOML text; `source` names it in error messages."""
    if len(text) > MAX_SCENARIO_BYTES:
        raise ScenarioError(
            f"is {len(text):,} characters long; a scenario is at most "
            f"{MAX_SCENARIO_BYTES:,} (a few kilobytes is usual)",
            source=source,
        )
    try:
        doc = toml_read.loads(text)
        _check_nesting(doc, source)
        return scenario_from_mapping(doc, source=source, text=text, catalog=catalog)
    except toml_read.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(
            f"not valid TOML: {exc}",
            line=int(m.group(1)) if m else None,
            source=source,
        ) from None
    except RecursionError:
        raise _too_deep(source) from None


def _too_deep(source: str) -> ScenarioError:
    return ScenarioError(
        f"tables or arrays nested more than {MAX_NESTING} deep; the format uses two levels",
        source=source,
    )


def _check_nesting(doc: Any, source: str) -> None:
    """Refuse a document with any value deeper than MAX_NESTING (iteratively: no
    recursion). Only tables and arrays are visited: a value lies deeper than the limit
    exactly when a non-empty table or array lies at it."""
    if not isinstance(doc, dict | list):
        return
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        values = node.values() if isinstance(node, dict) else node
        if depth >= MAX_NESTING and len(values):
            raise _too_deep(source)
        for v in values:
            if isinstance(v, dict | list):
                stack.append((v, depth + 1))


def load_scenario(path: str | Path, catalog: Catalog | None = None) -> Scenario:
    """Load a scenario file; errors name the file, line and key."""
    p = Path(path)
    try:
        data = read_limited(p, MAX_SCENARIO_BYTES, "scenario file")
    except FileNotFoundError:
        raise ScenarioError("no such file", source=str(p)) from None
    except InputFileError as exc:
        raise ScenarioError(exc.reason, source=str(p)) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read the file ({exc.strerror})", source=str(p)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError(
            "is not UTF-8 text; save the scenario as UTF-8 TOML", source=str(p)
        ) from None
    return load_scenario_text(text, source=str(p), catalog=catalog)


# ------------------------------------------------------------------------ saving


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_escape_char(c) for c in value) + '"'
    raise TypeError(f"cannot write {value!r} to TOML")


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b",
            "\f": "\\f"}  # fmt: skip


def _escape_char(c: str) -> str:
    if c in _ESCAPES:
        return _ESCAPES[c]
    if ord(c) < 0x20 or ord(c) == 0x7F:
        return f"\\u{ord(c):04x}"
    return c


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def dump_scenario(scenario: Scenario) -> str:
    """Canonical TOML for a scenario; load → dump → load gives an identical Scenario.

    Values are written as the user wrote them (they were validated on load), so units
    and precision survive a save.
    """
    return dump_mapping(scenario.raw)


def _table_lines(header: str, specs: tuple[FieldSpec, ...], table: Mapping[str, Any]) -> list[str]:
    """A TOML table's lines, its keys in the format's order."""
    return [f"\n{header}"] + [
        f"{spec.key} = {_toml_value(table[spec.key])}" for spec in specs if spec.key in table
    ]


def dump_mapping(raw: Mapping[str, Any]) -> str:
    out: list[str] = [f"format = {FORMAT_VERSION}"]
    out += [f"{s.key} = {_toml_value(raw[s.key])}" for s in TOP_FIELDS[1:] if s.key in raw]
    for section in ("database", "backup"):
        if raw.get(section):
            out += _table_lines(f"[{section}]", SECTIONS[section], raw[section])
    for stage in raw.get("path", []):
        out += _table_lines("[[path]]", STAGE_FIELDS, stage)
    for section in ("recovery", "targets"):
        if raw.get(section):
            out += _table_lines(f"[{section}]", SECTIONS[section], raw[section])
    uncertainty = raw.get("uncertainty") or {}
    if uncertainty:
        out.append("\n[uncertainty]")
        out += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in uncertainty.items()]
    prov = raw.get("provenance") or {}
    if prov:
        out.append("\n[provenance]")
        for key, value in prov.items():
            out.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(out) + "\n"


def with_values(scenario: Scenario, changes: Mapping[str, Any], catalog: Catalog | None = None,
                provenance: Mapping[str, str] | None = None) -> Scenario:  # fmt: skip
    """A copy of the scenario with raw values changed by dotted key (`backup.channels`,
    `path[0].count`); validated like a file. `None` removes an optional key."""
    raw = _deep_copy(scenario.raw)
    for dotted, value in changes.items():
        set_dotted(raw, dotted, value)
    if provenance:
        prov = dict(raw.get("provenance") or {})
        prov.update(provenance)
        raw["provenance"] = prov
        if raw.get("uncertainty"):
            from .uncertainty.inputs import table_without

            # A measured figure replaces the estimate: it takes the measured range.
            raw["uncertainty"] = table_without(scenario, provenance)
    return scenario_from_mapping(raw, source=scenario.name, catalog=catalog)


def _deep_copy(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {k: _deep_copy(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_deep_copy(v) for v in obj]
    return obj


_DOTTED_STAGE = re.compile(r"path\[(\d+)\]\.(\w+)")


def spec_for_key(key: str) -> FieldSpec | None:
    """The field spec of a dotted key (`backup.channels`, `path[2].rate`, `name`)."""
    m = _DOTTED_STAGE.fullmatch(key)
    if m:
        table: tuple[FieldSpec, ...] = STAGE_FIELDS
        name = m.group(2)
    elif "." in key:
        section, name = key.split(".", 1)
        table = SECTIONS.get(section, ())
    else:
        table, name = TOP_FIELDS, key
    return next((s for s in table if s.key == name), None)


def get_dotted(raw: Mapping[str, Any], key: str) -> Any:
    """The raw value at a dotted key, or None when the key is not set."""
    m = _DOTTED_STAGE.fullmatch(key)
    if m:
        path = raw.get("path") or []
        idx = int(m.group(1))
        stage = path[idx] if idx < len(path) and isinstance(path[idx], Mapping) else {}
        return stage.get(m.group(2))
    if "." in key:
        section, name = key.split(".", 1)
        table = raw.get(section)
        return table.get(name) if isinstance(table, Mapping) else None
    return raw.get(key)


def set_dotted(raw: dict[str, Any], key: str, value: Any) -> None:
    """Set (or with None remove) a raw value by dotted key, in place."""
    m = _DOTTED_STAGE.fullmatch(key)
    if m:
        target = raw.setdefault("path", [])[int(m.group(1))]
        name = m.group(2)
    elif "." in key:
        section, name = key.split(".", 1)
        target = raw.setdefault(section, {})
    else:
        target, name = raw, key
    if value is None:
        target.pop(name, None)
    else:
        target[name] = value


__all__ = [
    "FORMAT_VERSION",
    "STAGE_KINDS",
    "Backup",
    "Database",
    "FieldSpec",
    "Growth",
    "Recovery",
    "Scenario",
    "Stage",
    "Targets",
    "dump_mapping",
    "dump_scenario",
    "field_spec",
    "get_dotted",
    "load_scenario",
    "load_scenario_text",
    "parse_value",
    "scenario_from_mapping",
    "set_dotted",
    "spec_for_key",
    "with_values",
]
