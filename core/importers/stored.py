"""What the store holds of imported workloads, read back per database.

`list_imports` lists what was imported (per file and database); `workload_summaries` and
`database_workload` rebuild, per database, the redo series (AWR / Statspack reports and
DBA_HIST_SYSSTAT intervals together, RAC instances added up), the average block changes,
the measured backup rates and compression per device type (RMAN job history) and the
measured redo apply rates (V$RECOVERY_PROGRESS). Nothing is cached: the figures are
computed from the stored rows each time, so they always agree with the store.

A database is identified by its DBID when a file gives one; rows that only carry a name
(RMAN and recovery exports attributed with `--database`) join the database of that name.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..jsonable import json_ready
from ..store import NotFoundError, Store
from ..store.workloads import import_groups, summary_rows, unassigned_counts
from .recovery_progress import RedoApplyRate
from .rman_csv import BackupRate, backup_rates
from .sanity import plausible_interval, plausible_job
from .series import (
    ALL_INSTANCES,
    RedoInterval,
    RedoSeries,
    counts_in_series,
    global_spans,
    series_by_database,
)
from .store_import import KIND_LABELS, job_from_dict

REDO_KINDS = ("awr", "statspack", "sysstat")
UNASSIGNED = "(no database)"
DATAFILE_INPUT_TYPES = ("DB FULL", "DB INCR", "DATAFILE FULL", "DATAFILE INCR")
"""RMAN input types that back up datafiles (their compression is what a restore sees)."""
FULL_INPUT_TYPES = ("DB FULL", "DATAFILE FULL")


class AmbiguousDatabaseError(NotFoundError):
    """A database name that several DBIDs carry (a clone, a recreated database)."""


@dataclass(frozen=True)
class StoredImport:
    """What one file brought into the store for one database (a line of `imports list`)."""

    file_name: str
    kind: str
    db_name: str | None
    dbid: int | None
    instances: tuple[str, ...]
    first: datetime | None
    last: datetime | None
    items: int
    imported_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return json_ready(self)


def list_imports(store: Store, database: str | None = None) -> list[StoredImport]:
    """Imports grouped by file, kind and database, oldest import first.

    `database` keeps those of one database (name, case-insensitive, or DBID).
    """
    rows = import_groups(store, database)
    return [
        StoredImport(
            file_name=f, kind=k, db_name=n, dbid=int(d) if d is not None else None,
            instances=tuple(i for i in insts if i), first=first, last=last, items=int(items),
            imported_at=at,
        )
        for f, k, n, d, insts, first, last, items, at in rows
    ]  # fmt: skip


# ----------------------------------------------------------------------------- per database


@dataclass(frozen=True)
class DeviceSummary:
    """Measured datafile backups of one device type, for `imports apply`."""

    device_type: str
    jobs: int
    input_bytes: float
    output_bytes: float
    compression_ratio: float | None
    full_Bps: float | None
    """Data bytes per second of full backups (DB FULL / DATAFILE FULL), else None."""
    full_jobs: int
    incr_Bps: float | None
    incr_jobs: int
    first: datetime | None
    last: datetime | None

    def to_dict(self) -> dict[str, Any]:
        return json_ready(self)


@dataclass(frozen=True)
class DatabaseWorkload:
    """Everything imported about one database, as figures."""

    key: str
    """The DBID as text, else `name:<NAME>`, else `UNASSIGNED`."""
    db_name: str | None
    dbid: int | None
    counts: dict[str, int]
    """Stored rows by kind (awr, statspack, sysstat, rman_job, recovery_progress)."""
    series: RedoSeries | None
    series_counts: dict[str, int]
    """The rows of each kind the redo series is built from."""
    block_changes_per_s: float | None
    """Average Load Profile block changes per second (RAC instances added up)."""
    block_change_reports: int
    backup_rates: tuple[BackupRate, ...]
    devices: tuple[DeviceSummary, ...]
    apply_rates: tuple[RedoApplyRate, ...]

    @property
    def label(self) -> str:
        """`PROD (dbid 1234)`, `PROD`, or `(no database)`."""
        name = self.db_name or (UNASSIGNED if self.dbid is None else "?")
        return f"{name} (dbid {self.dbid})" if self.dbid is not None else name

    def series_source(self) -> str:
        """`48 AWR reports and 120 DBA_HIST_SYSSTAT intervals of PROD (dbid 1234)`."""
        parts = [_count(n, k) for k, n in self.series_counts.items() if n]
        return f"{_join(parts)} of {self.label}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "db_name": self.db_name,
            "dbid": self.dbid,
            "counts": dict(self.counts),
            "redo": _series_json(self.series, self.series_counts),
            "block_changes_per_s": self.block_changes_per_s,
            "block_change_reports": self.block_change_reports,
            "backup_rates": [r.to_dict() for r in self.backup_rates],
            "devices": [d.to_dict() for d in self.devices],
            "apply_rates": [r.to_dict() for r in self.apply_rates],
        }


def _series_json(s: RedoSeries | None, counts: dict[str, int]) -> dict[str, Any] | None:
    if s is None:
        return None
    return {
        "sources": dict(counts),
        "first": s.first.isoformat(),
        "last": s.last.isoformat(),
        "covered_s": s.covered_s,
        "intervals": s.intervals,
        "instances": list(s.instances),
        "avg_Bps": s.avg_Bps,
        "p95_Bps": s.p95_Bps,
        "peak_Bps": s.peak_Bps,
        "per_day_bytes": s.per_day_bytes,
        "busiest_hour": s.busiest_hour.isoformat() if s.busiest_hour else None,
        "busiest_hour_of_day": s.busiest_hour_of_day,
        "hours": len(s.hours),
        "warnings": list(s.warnings),
    }


def _count(n: int, kind: str) -> str:
    label = KIND_LABELS.get(kind, kind)
    return f"{n} {label}{'s' if n != 1 else ''}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass
class _Row:
    id: int
    content_hash: str
    kind: str
    db_name: str | None
    dbid: int | None
    instance: str | None
    begin: datetime | None
    end: datetime | None
    redo_Bps: float | None
    layout: str | None
    inst_num: str | None
    block_changes: str | None
    redo_bytes: str | None
    file_name: str
    payload: str | None


def _group(rows: list[_Row]) -> dict[str, list[_Row]]:
    names_by_dbid: dict[int, set[str]] = defaultdict(set)
    for r in rows:
        if r.dbid is not None and r.db_name:
            names_by_dbid[r.dbid].add(r.db_name.upper())
    groups: dict[str, list[_Row]] = defaultdict(list)
    for r in rows:
        if r.dbid is not None:
            key = str(r.dbid)
        elif r.db_name:
            owners = [d for d, names in names_by_dbid.items() if r.db_name.upper() in names]
            key = str(owners[0]) if len(owners) == 1 else f"name:{r.db_name.upper()}"
        else:
            key = UNASSIGNED
        groups[key].append(r)
    return groups


def _intervals(key: str, rows: list[_Row], what: str) -> list[tuple[str, RedoInterval]]:
    """Redo (or block change) intervals, as `series.intervals_from_reports` builds them."""
    out = []
    seen: set[str] = set()
    for r in rows:
        if r.content_hash in seen or r.begin is None or r.end is None or r.end <= r.begin:
            continue
        seen.add(r.content_hash)
        seconds = (r.end - r.begin).total_seconds()
        if r.kind == "sysstat":
            if what != "redo":
                continue
            instance = r.instance or "?"
            amount = (
                float(r.redo_bytes) if r.redo_bytes is not None else (r.redo_Bps or 0) * seconds
            )
        else:
            if r.layout == "global_rac":
                instance = ALL_INSTANCES
            elif r.inst_num is not None:
                instance = str(int(float(r.inst_num)))
            else:
                instance = (r.instance or "?").lower()
            if what == "redo":
                amount = (r.redo_Bps or 0.0) * seconds
            else:
                if r.block_changes is None:
                    continue
                amount = float(r.block_changes) * seconds
        out.append((r.kind, RedoInterval(
            db=key, instance=instance, begin=r.begin, end=r.end, redo_bytes=amount,
            source=r.file_name, db_name=r.db_name, dbid=r.dbid,
        )))  # fmt: skip
    return out


def _devices(rates: list[BackupRate]) -> tuple[DeviceSummary, ...]:
    by_device: dict[str, list[BackupRate]] = defaultdict(list)
    for r in rates:
        if r.input_type in DATAFILE_INPUT_TYPES:
            by_device[r.device_type].append(r)
    out = []
    for device, group in sorted(by_device.items()):
        inp = sum(r.input_bytes for r in group)
        outp = sum(r.output_bytes for r in group)
        full = [r for r in group if r.input_type in FULL_INPUT_TYPES]
        incr = [r for r in group if r.input_type not in FULL_INPUT_TYPES]
        firsts = [r.first for r in group if r.first]
        lasts = [r.last for r in group if r.last]

        def rate(rs: list[BackupRate]) -> float | None:
            elapsed = sum(r.elapsed_s for r in rs)
            return sum(r.input_bytes for r in rs) / elapsed if elapsed > 0 else None

        out.append(
            DeviceSummary(
                device_type=device,
                jobs=sum(r.jobs for r in group),
                input_bytes=inp,
                output_bytes=outp,
                compression_ratio=inp / outp if outp > 0 else None,
                full_Bps=rate(full),
                full_jobs=sum(r.jobs for r in full),
                incr_Bps=rate(incr),
                incr_jobs=sum(r.jobs for r in incr),
                first=min(firsts) if firsts else None,
                last=max(lasts) if lasts else None,
            )
        )
    return tuple(out)


def _apply_rate(payload: str) -> RedoApplyRate:
    d = json.loads(payload)
    return RedoApplyRate(
        start=datetime.fromisoformat(d["start"]) if d.get("start") else None,
        recovery_type=d.get("recovery_type"),
        average_Bps=d.get("average_Bps"),
        active_Bps=d.get("active_Bps"),
        maximum_Bps=d.get("maximum_Bps"),
        redo_applied_bytes=d.get("redo_applied_bytes"),
        elapsed_s=d.get("elapsed_s"),
        active_s=d.get("active_s"),
        source=d.get("source") or "",
    )


def _summarise(key: str, rows: list[_Row]) -> DatabaseWorkload:
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[r.kind] += 1
    names = sorted({r.db_name for r in rows if r.db_name})
    dbids = sorted({r.dbid for r in rows if r.dbid is not None})
    redo_rows = [r for r in rows if r.kind in REDO_KINDS]
    series = None
    series_counts: dict[str, int] = {}
    # Rows stored by an older version may hold figures today's import refuses (sanity.py).
    intervals = [(k, iv) for k, iv in _intervals(key, redo_rows, "redo") if plausible_interval(iv)]
    if intervals:
        series = series_by_database(iv for _, iv in intervals)[0]
        spans = global_spans(iv for _, iv in intervals)
        by_kind: dict[str, int] = defaultdict(int)
        for kind, iv in intervals:
            if counts_in_series(iv, spans):
                by_kind[kind] += 1
        series_counts = {k: by_kind[k] for k in REDO_KINDS if by_kind.get(k)}
    blocks = [iv for _, iv in _intervals(key, redo_rows, "blocks") if plausible_interval(iv)]
    block_series = series_by_database(blocks) if blocks else []
    jobs = [
        job_from_dict(json.loads(r.payload)) for r in rows if r.kind == "rman_job" and r.payload
    ]
    jobs = [j for j in jobs if plausible_job(j)]
    rates = backup_rates(jobs) if jobs else []
    applies = [_apply_rate(r.payload) for r in rows if r.kind == "recovery_progress" and r.payload]
    return DatabaseWorkload(
        key=key,
        db_name=names[0] if names else None,
        dbid=dbids[0] if dbids else None,
        counts=dict(counts),
        series=series,
        series_counts=series_counts,
        block_changes_per_s=block_series[0].avg_Bps if block_series else None,
        block_change_reports=block_series[0].intervals if block_series else 0,
        backup_rates=tuple(rates),
        devices=_devices(rates),
        apply_rates=tuple(applies),
    )


def _rows(store: Store) -> list[_Row]:
    return [_Row(*r) for r in summary_rows(store)]


def workload_summaries(store: Store) -> list[DatabaseWorkload]:
    """One `DatabaseWorkload` per database in the store (by name, unattributed rows last)."""
    groups = _group(_rows(store))
    out = [_summarise(key, rows) for key, rows in groups.items()]
    return sorted(out, key=lambda w: (w.key == UNASSIGNED, (w.db_name or "").upper(), w.key))


def _matches(w: DatabaseWorkload, database: str) -> bool:
    d = database.strip()
    return (w.dbid is not None and str(w.dbid) == d) or (
        w.db_name is not None and w.db_name.upper() == d.upper()
    )


def find_database(summaries: list[DatabaseWorkload], database: str) -> DatabaseWorkload:
    """The one database `database` names (name, case-insensitive, or DBID)."""
    found = [w for w in summaries if w.key != UNASSIGNED and _matches(w, database)]
    if not found:
        known = ", ".join(w.label for w in summaries if w.key != UNASSIGNED) or "none"
        raise NotFoundError(
            f"nothing imported for database '{database}' (imported: {known})",
            hint="'rto-planner import FILE...' stores reports; 'rto-planner imports summary' "
            "lists the databases",
        )
    if len(found) > 1:
        raise AmbiguousDatabaseError(
            f"'{database}' names {len(found)} databases: " + ", ".join(w.label for w in found),
            hint="give the DBID instead of the name",
        )
    return found[0]


def database_workload(store: Store, database: str) -> DatabaseWorkload:
    """Everything imported about one database; `NotFoundError` if none or ambiguous."""
    return find_database(workload_summaries(store), database)


__all__ = [
    "DATAFILE_INPUT_TYPES",
    "UNASSIGNED",
    "AmbiguousDatabaseError",
    "DatabaseWorkload",
    "DeviceSummary",
    "StoredImport",
    "database_workload",
    "find_database",
    "list_imports",
    "unassigned_counts",
    "workload_summaries",
]
