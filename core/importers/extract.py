"""Layout-independent assembly: the text and HTML readers fill a `RawReport`, this module
normalises labels across versions, picks the best source for each figure and checks that the
figures a plan needs are there.

Keeping the checks here means a text report and its HTML twin fail (or pass) for the same
reasons with the same messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..units import MINUTE, MiB, format_duration
from .errors import TruncatedReportError
from .model import InstanceRates, LoadProfileRow, WorkloadReport, content_hash
from .numbers import parse_number, parse_oracle_datetime

# Load Profile labels changed in 11.2.0.4 ("Redo size:" → "Redo size (bytes):") and again
# in 12c/18c; RAC rows are "Global Cache blocks ..." in HTML and "RAC GC blocks ..." in
# some 19c text. The first matching pattern wins, so longer names come first.
_LOAD_PROFILE_KEYS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), k)
    for p, k in (
        (r"^redo size", "redo_size"),
        (r"^session logical read im", "session_logical_read_im"),
        (r"^logical reads?\b", "logical_reads"),
        (r"^block changes", "block_changes"),
        (r"^physical reads?\b", "physical_reads"),
        (r"^physical writes?\b", "physical_writes"),
        (r"^executes", "executes"),
        (r"^transactions", "transactions"),
        (r"^user calls", "user_calls"),
        (r"^db time", "db_time"),
        (r"^(?:db )?cpu time|^db cpu", "db_cpu"),
        (r"^background cpu", "background_cpu"),
        (r"^hard parses", "hard_parses"),
        (r"^parses", "parses"),
        (r"^user logons", "user_logons"),
        (r"^logons", "logons"),
        (r"^rollbacks", "rollbacks"),
        (r"^(?:rac gc|global cache) blocks received", "gc_blocks_received"),
        (r"^(?:rac gc|global cache) blocks served", "gc_blocks_served"),
        (r"^read io requests", "read_io_requests"),
        (r"^write io requests", "write_io_requests"),
        (r"^read io \(mb\)", "read_io_mb"),
        (r"^write io \(mb\)", "write_io_mb"),
        (r"^(?:w/a mb processed|sql work area)", "work_area_mb"),
        (r"^im scan rows", "im_scan_rows"),
        (r"^sorts", "sorts"),
    )
)


def load_profile_key(label: str) -> str:
    """A version-independent key for a Load Profile label (`Redo size (bytes):` → `redo_size`)."""
    text = " ".join(label.replace("\xa0", " ").split()).rstrip(":").strip()
    for pattern, key in _LOAD_PROFILE_KEYS:
        if pattern.search(text):
            return key
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "blank"


LONG_INTERVAL_S = 65 * MINUTE
"""Above this a report's average is flagged: peaks hide in long windows (research §3.9)."""

# Instance Activity Stats we keep, by exact statistic name.
ACTIVITY_STATS = ("redo size", "redo wastage", "redo blocks written", "redo writes")
LOG_SWITCHES = "log switches (derived)"


@dataclass
class RawReport:
    """What a reader found, before checks. Numbers as printed (minutes stay minutes here)."""

    source: str
    data: bytes
    kind: str
    layout: str
    format: str
    period: int | None = None
    db_name: str | None = None
    dbid: int | None = None
    instance: str | None = None
    inst_num: int | None = None
    instances: list[str] = field(default_factory=list)
    version: str | None = None
    host: str | None = None
    rac: bool | None = None
    container: str | None = None
    begin_snap: int | None = None
    end_snap: int | None = None
    begin: datetime | None = None
    end: datetime | None = None
    begin_text: str | None = None
    end_text: str | None = None
    elapsed_min: float | None = None
    db_time_min: float | None = None
    # (label, per second, per transaction) as printed
    load_profile: list[tuple[str, float | None, float | None]] = field(default_factory=list)
    load_profile_found: bool = False
    # statistic name → (total, per second)
    activity: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    log_switches: float | None = None
    log_switches_per_hour: float | None = None
    io_redo_mb_per_s: float | None = None
    io_redo_write_mb_per_s: float | None = None
    instance_rates: list[InstanceRates] = field(default_factory=list)
    global_redo_kib_per_s: float | None = None
    global_txn_per_s: float | None = None
    global_totals: dict[str, float | None] = field(default_factory=dict)
    has_end_marker: bool = False
    last_line: int | None = None
    warnings: list[str] = field(default_factory=list)

    def set_times(self, begin_text: str, end_text: str) -> None:
        """The snap times as printed, and read (None where not understood)."""
        self.begin_text, self.end_text = begin_text, end_text
        self.begin = parse_oracle_datetime(begin_text)
        self.end = parse_oracle_datetime(end_text)


def add_activity(raw: RawReport, name: str, values: list[str]) -> None:
    """Keep an Instance Activity Stats row (`Total | per Second | per Trans ...`) we use."""
    name = " ".join(name.split()).lower()
    if name in ACTIVITY_STATS and name not in raw.activity and values:
        raw.activity[name] = _total_and_rate(values)
    elif name == LOG_SWITCHES and raw.log_switches is None and values:
        raw.log_switches, raw.log_switches_per_hour = _total_and_rate(values)


def _total_and_rate(values: list[str]) -> tuple[float | None, float | None]:
    """The total and the rate (per second, or per hour for log switches) of a stats row."""
    return parse_number(values[0]), parse_number(values[1]) if len(values) > 1 else None


CUT_OFF_WARNING = "no 'End of Report' line: the file may be cut off after the summary"
"""The note of a report without its end marker; a complete report of the same snapshots
replaces one stored with it (store_import)."""


def _truncated(raw: RawReport, what: str) -> TruncatedReportError:
    kind = "Statspack" if raw.kind == "statspack" else "AWR"
    return TruncatedReportError(
        f"{kind} report without {what}{_where_it_stops(raw)}",
        source=raw.source,
        hint="the file looks cut off or damaged: export the report again, whole",
    )


def _where_it_stops(raw: RawReport) -> str:
    """ " (the file stops at line N)" for a report without its end marker, else ""."""
    if raw.last_line and not raw.has_end_marker:
        return f" (the file stops at line {raw.last_line})"
    return ""


def build(raw: RawReport) -> WorkloadReport:
    """Check what a reader found and turn it into a `WorkloadReport` in bytes and seconds."""
    if raw.begin_snap is None or raw.end_snap is None:
        raise _truncated(raw, "its Begin Snap / End Snap lines")
    elapsed_s = _elapsed_s(raw)
    warnings = list(raw.warnings) + _snap_time_warnings(raw)
    profile = _load_profile(raw)
    redo, txn = _redo_and_txn(raw, profile, elapsed_s, warnings)
    warnings += _interval_warnings(raw, elapsed_s)
    return WorkloadReport(
        file=raw.source,
        kind=raw.kind,  # type: ignore[arg-type]
        layout=raw.layout,  # type: ignore[arg-type]
        format=raw.format,  # type: ignore[arg-type]
        content_hash=content_hash(raw.data, raw.period),
        period=raw.period,
        begin_snap=raw.begin_snap,
        end_snap=raw.end_snap,
        elapsed_s=elapsed_s,
        redo_bytes_per_s=redo,
        txn_per_s=txn,
        **_identity(raw),
        **_profile_figures(raw, profile),
        **_redo_log_figures(raw),
        load_profile=tuple(profile.values()),
        warnings=tuple(warnings),
    )


def _elapsed_s(raw: RawReport) -> float:
    """The interval's length: the printed Elapsed time, else End minus Begin."""
    if raw.elapsed_min is not None and raw.elapsed_min > 0:
        return raw.elapsed_min * MINUTE
    if raw.begin and raw.end and raw.end > raw.begin:
        return (raw.end - raw.begin).total_seconds()
    raise _truncated(raw, "its Elapsed time")


def _snap_time_warnings(raw: RawReport) -> list[str]:
    """A note for each snap time printed but not understood."""
    return [
        f"{label} snap time {text.strip()!r} not understood (month name?)"
        for label, text, value in (
            ("Begin", raw.begin_text, raw.begin),
            ("End", raw.end_text, raw.end),
        )
        if text and value is None
    ]


def _load_profile(raw: RawReport) -> dict[str, LoadProfileRow]:
    """The Load Profile rows by version-independent key, the first of each key, in order."""
    rows: dict[str, LoadProfileRow] = {}
    for label, per_s, per_txn in raw.load_profile:
        row = LoadProfileRow(load_profile_key(label), label.strip().rstrip(":"), per_s, per_txn)
        rows.setdefault(row.key, row)
    return rows


def _per_s(profile: dict[str, LoadProfileRow], key: str) -> float | None:
    row = profile.get(key)
    return row.per_s if row else None


def _per_txn(profile: dict[str, LoadProfileRow], key: str) -> float | None:
    row = profile.get(key)
    return row.per_txn if row else None


def _redo_and_txn(
    raw: RawReport, profile: dict[str, LoadProfileRow], elapsed_s: float, warnings: list[str]
) -> tuple[float, float | None]:
    """The redo rate (bytes/s) from the best source there is, and the transaction rate;
    a note in `warnings` when the redo rate came from a fallback."""
    redo = _per_s(profile, "redo_size")
    txn = _per_s(profile, "transactions")
    if raw.layout == "global_rac":
        if raw.global_redo_kib_per_s is not None:
            redo = raw.global_redo_kib_per_s * 1024.0
        txn = raw.global_txn_per_s
    if redo is None:
        redo = _redo_from_activity(raw, elapsed_s, warnings)
    return redo, txn


def _redo_from_activity(raw: RawReport, elapsed_s: float, warnings: list[str]) -> float:
    """The redo rate from Instance Activity Stats when the Load Profile has none."""
    redo_total, redo_ias_per_s = raw.activity.get("redo size", (None, None))
    if redo_ias_per_s is not None:
        warnings.append("Load Profile redo size unreadable: used Instance Activity Stats")
        return redo_ias_per_s
    if redo_total is not None:
        warnings.append("redo rate computed from the Instance Activity 'redo size' total")
        return redo_total / elapsed_s
    raise _no_redo(raw)


def _no_redo(raw: RawReport) -> TruncatedReportError:
    """The error of a report without any redo rate, naming the table it lacks."""
    if raw.layout == "global_rac":
        return _truncated(raw, "its 'System Statistics - Per Second' table")
    if raw.load_profile_found:
        return _truncated(raw, "a readable 'Redo size' row in its Load Profile")
    return _truncated(raw, "its Load Profile")


def _interval_warnings(raw: RawReport, elapsed_s: float) -> list[str]:
    """Notes on what the report as a whole can't show: peaks, CDB-wide redo, a cut-off end."""
    warnings = []
    if elapsed_s > LONG_INTERVAL_S:
        warnings.append(
            f"the interval is {format_duration(elapsed_s)} long: its average hides peaks; "
            "reports of one hour or less show them"
        )
    if raw.layout == "pdb":
        warnings.append(
            "PDB-level report: redo is the PDB's share; redo is CDB-wide, so size RPO and "
            "archiving from a CDB root report"
        )
    if not raw.has_end_marker:
        warnings.append(CUT_OFF_WARNING)
    return warnings


def _identity(raw: RawReport) -> dict[str, Any]:
    """Which database, instance and interval the report is of."""
    return {
        "db_name": raw.db_name,
        "dbid": raw.dbid,
        "instance": raw.instance,
        "inst_num": raw.inst_num,
        "instances": tuple(raw.instances),
        "version": raw.version,
        "host": raw.host,
        "rac": raw.rac,
        "container": raw.container,
        "begin": raw.begin,
        "end": raw.end,
        "db_time_s": raw.db_time_min * MINUTE if raw.db_time_min is not None else None,
        "instance_rates": tuple(raw.instance_rates),
    }


def _profile_figures(raw: RawReport, profile: dict[str, LoadProfileRow]) -> dict[str, Any]:
    """The Load Profile's rates; a RAC report's global totals win over its rows."""
    gt = raw.global_totals
    figures: dict[str, Any] = {"redo_bytes_per_txn": _per_txn(profile, "redo_size")}
    for key in ("block_changes", "logical_reads", "physical_reads", "physical_writes", "executes"):
        figures[f"{key}_per_s"] = gt.get(f"{key}_per_s", _per_s(profile, key))
        figures[f"{key}_per_txn"] = _per_txn(profile, key)
    figures["user_calls_per_s"] = gt.get("user_calls_per_s", _per_s(profile, "user_calls"))
    return figures


def _redo_log_figures(raw: RawReport) -> dict[str, Any]:
    """Instance Activity and IO figures of the redo log, in bytes."""
    stat = raw.activity.get
    return {
        "redo_size_bytes": stat("redo size", (None, None))[0],
        "redo_wastage_bytes": stat("redo wastage", (None, None))[0],
        "redo_blocks_written": stat("redo blocks written", (None, None))[0],
        "redo_writes": stat("redo writes", (None, None))[0],
        "log_switches": raw.log_switches,
        "log_switches_per_hour": raw.log_switches_per_hour,
        "io_redo_bytes_per_s": _mib(raw.io_redo_mb_per_s),
        "io_redo_write_bytes_per_s": _mib(raw.io_redo_write_mb_per_s),
    }


def _mib(value: float | None) -> float | None:
    return value * MiB if value is not None else None
