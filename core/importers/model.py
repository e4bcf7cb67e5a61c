"""What a parsed report is: plain figures in bytes, seconds and per-second floats.

One `WorkloadReport` per measured interval. A compare-period report yields two (period 1
and 2); a global RAC report yields one for the whole database with the per-instance rates in
`instance_rates`. Field names carry their unit (`redo_bytes_per_s`, `elapsed_s`); block
counts are Oracle blocks per second as the Load Profile prints them. Datetimes are naive:
AWR prints the database host's local time without a zone.

The store keys reports on `content_hash`, so it must not depend on how the file travelled
(line endings, form feeds, trailing blanks), only on what the report says.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Literal

from ..jsonable import json_ready

Kind = Literal["awr", "statspack"]
Layout = Literal["instance", "global_rac", "compare", "pdb", "statspack"]
Format = Literal["text", "html"]


@dataclass(frozen=True)
class InstanceRates:
    """One instance's rates in a global RAC report (awrgrpt "System Statistics - Per Second")."""

    inst_num: int
    instance: str | None
    redo_bytes_per_s: float | None
    txn_per_s: float | None
    block_changes_per_s: float | None
    logical_reads_per_s: float | None
    physical_reads_per_s: float | None
    physical_writes_per_s: float | None
    executes_per_s: float | None
    user_calls_per_s: float | None

    def to_dict(self) -> dict[str, Any]:
        return json_ready(self)


@dataclass(frozen=True)
class LoadProfileRow:
    """A Load Profile row under its version-independent key (`redo_size`, `executes`, ...)."""

    key: str
    label: str
    per_s: float | None
    per_txn: float | None


@dataclass(frozen=True)
class WorkloadReport:
    """The workload figures of one AWR or Statspack interval."""

    file: str
    kind: Kind
    layout: Layout
    format: Format
    content_hash: str
    begin_snap: int
    end_snap: int
    elapsed_s: float
    redo_bytes_per_s: float
    period: int | None = None
    db_name: str | None = None
    dbid: int | None = None
    instance: str | None = None
    inst_num: int | None = None
    instances: tuple[str, ...] = ()
    version: str | None = None
    host: str | None = None
    rac: bool | None = None
    container: str | None = None
    begin: datetime | None = None
    end: datetime | None = None
    db_time_s: float | None = None
    redo_bytes_per_txn: float | None = None
    txn_per_s: float | None = None
    block_changes_per_s: float | None = None
    block_changes_per_txn: float | None = None
    logical_reads_per_s: float | None = None
    logical_reads_per_txn: float | None = None
    physical_reads_per_s: float | None = None
    physical_reads_per_txn: float | None = None
    physical_writes_per_s: float | None = None
    physical_writes_per_txn: float | None = None
    executes_per_s: float | None = None
    executes_per_txn: float | None = None
    user_calls_per_s: float | None = None
    redo_size_bytes: float | None = None
    redo_wastage_bytes: float | None = None
    redo_blocks_written: float | None = None
    redo_writes: float | None = None
    log_switches: float | None = None
    log_switches_per_hour: float | None = None
    io_redo_bytes_per_s: float | None = None
    io_redo_write_bytes_per_s: float | None = None
    instance_rates: tuple[InstanceRates, ...] = ()
    load_profile: tuple[LoadProfileRow, ...] = field(default=(), repr=False)
    warnings: tuple[str, ...] = ()

    @property
    def redo_bytes(self) -> float:
        """Redo generated over the interval: the exact total when printed, else rate × time."""
        if self.redo_size_bytes is not None:
            return self.redo_size_bytes
        return self.redo_bytes_per_s * self.elapsed_s

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: datetimes as ISO 8601 strings, tuples as lists."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, datetime):
                value = value.isoformat()
            elif f.name == "instance_rates":
                value = [r.to_dict() for r in value]
            elif f.name == "load_profile":
                value = {r.key: {"per_s": r.per_s, "per_txn": r.per_txn} for r in value}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def normalise_content(data: bytes) -> bytes:
    """The bytes a report is identified by: its content without any whitespace (and BOM).

    A report mailed as CRLF, opened and saved by an editor that drops form feeds or trailing
    blanks, or re-indented, is still the same report and must hash the same. Whitespace in
    AWR output is layout only, so dropping all of it loses nothing that tells two reports
    apart; `bytes.translate` does it at memory speed, which matters for 2 MB HTML files.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.translate(None, b" \t\r\n\f\v")


def content_hash(data: bytes, period: int | None = None) -> str:
    """sha256 of the normalised content; each period of a compare report gets its own hash."""
    h = hashlib.sha256(normalise_content(data))
    if period is not None:
        h.update(f"\x00period={period}".encode())
    return h.hexdigest()
