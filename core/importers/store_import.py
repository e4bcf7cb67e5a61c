"""`rto-planner import`: reports and CSV exports into the store's `workload` table.

One file is one transaction on the store's write lane: its rows are all stored or none is
(a file that fails half-way leaves nothing behind), and a batch carries on past a bad file,
reporting each file on its own.

What is stored, one row per measured item, each keyed by a content hash so that importing
the same thing twice stores it once (checked inside the write transaction; the lane
serialises writes, so two imports cannot both miss each other's row):

* `awr`, `statspack`: one row per report (per period of a compare report), keyed by
  `WorkloadReport.content_hash`; payload `to_dict()` plus `snap_key` and `file_hash`.
* `sysstat`: one row per interval between two snapshots of one instance (DBA_HIST_SYSSTAT
  export), keyed by database, instance, times and bytes; payload `redo_bytes`, `source`.
* `rman_job`: one row per V$RMAN_BACKUP_JOB_DETAILS row, keyed by its fields.
* `recovery_progress`: one row per V$RECOVERY_PROGRESS measurement, keyed by its figures.

A report exported twice in two formats (the text and the HTML of the same snapshots) says
the same thing: a report whose database, instance, layout and snapshot range are already
stored is a duplicate too (`snap_key`), so a series never counts an hour twice.

CSV exports of RMAN history and recovery progress carry no database name unless the query
adds a `DB_NAME` column (docs/importing.md does); `database=` names the database for rows
that lack one, and fills it in on rows already stored without one.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import duckdb

from ..store import Changes, Store, StoreError, StoreReadOnlyError
from ..store.workloads import (
    WorkloadRow,
    assign_database,
    delete_row,
    insert_row,
    insert_rows,
    insert_select,
    stored_among,
    stored_keys,
)
from . import sanity
from .duck_batch import STORED_COLUMNS, Reads, SysstatBatch
from .errors import CsvImportError, NotAReportError, ReportError
from .exports import Export, read_export_bytes
from .extract import CUT_OFF_WARNING
from .model import WorkloadReport, normalise_content
from .reader import iter_report_files, parse_bytes
from .readfile import read_input
from .rman_csv import BackupJob
from .series import RedoInterval
from .sysstat_sql import sysstat_batch

Status = Literal["imported", "duplicate", "error"]

FileProgress = Callable[[float, str], None]
"""`progress(fraction, phase)` within one file: reading, reading rows, storing n of m rows.
It may raise (the GUI's Stop, a closed dialog, Ctrl-C): the file's transaction is then
rolled back, nothing of it is kept, and the exception goes on to the caller."""

CHUNK_ROWS = 20_000
"""Rows inserted per statement, progress reported between them (all in one transaction)."""


class ImportStopped(Exception):
    """Raised by a caller's `progress` to stop the file being imported (nothing is kept)."""


def _quiet(_fraction: float, _phase: str) -> None:
    pass


KIND_LABELS = {
    "awr": "AWR report",
    "statspack": "Statspack report",
    "sysstat": "DBA_HIST_SYSSTAT interval",
    "rman_job": "RMAN backup job",
    "recovery_progress": "V$RECOVERY_PROGRESS measurement",
}


@dataclass(frozen=True)
class ImportOutcome:
    """What happened to one file.

    `status`: `imported` (at least one new row), `duplicate` (everything in it was already
    stored) or `error` (nothing stored; `error` says why). `imported` and `duplicates` count
    rows (reports, intervals, jobs, measurements); `kind` is the row kind; `message` is
    the one line the command line prints after the file name.
    """

    path: Path
    status: Status
    kind: str | None = None
    imported: int = 0
    duplicates: int = 0
    db_names: tuple[str, ...] = ()
    message: str = ""
    error: ReportError | None = None
    duplicate_of: tuple[str, ...] = field(default=(), repr=False)
    span: tuple[datetime, datetime] | None = field(default=None, repr=False)
    """First and last time of the file's rows (the dialog's Period of a CSV export)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "status": self.status,
            "kind": self.kind,
            "imported": self.imported,
            "duplicates": self.duplicates,
            "db_names": list(self.db_names),
            "message": self.message,
        }


# ----------------------------------------------------------------------------- rows


def _hash(kind: str, *parts: Any) -> str:
    text = json.dumps([kind, *parts], default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_encode_str = json.encoder.encode_basestring_ascii


def _interval_hash(iv: RedoInterval) -> str:
    """`_hash("sysstat", db, instance, begin, end, redo_bytes)` built without
    `json.dumps(default=str)`, which took most of a large export's import: the same text,
    so a file imported before is still found a duplicate (tested)."""
    if type(iv.redo_bytes) is not float or not (
        isinstance(iv.begin, datetime) and isinstance(iv.end, datetime)
    ):
        return _hash("sysstat", iv.db, iv.instance, iv.begin, iv.end, iv.redo_bytes)
    text = (
        f'["sysstat",{_encode_str(iv.db)},{_encode_str(iv.instance)},'
        f'"{iv.begin}","{iv.end}",{float.__repr__(iv.redo_bytes)}]'
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _snap_key(r: WorkloadReport) -> str:
    who = str(r.dbid) if r.dbid is not None else (r.db_name or "?").upper()
    inst = r.inst_num if r.inst_num is not None else (r.instance or "").lower()
    return _hash(
        "snaps", r.kind, r.layout, who, inst, r.container, r.begin_snap, r.end_snap, r.begin, r.end
    )


def rows_from_reports(reports: Sequence[WorkloadReport], file_hash: str) -> list[WorkloadRow]:
    rows = []
    for r in reports:
        payload = r.to_dict()
        key = _snap_key(r)
        payload["snap_key"] = key
        payload["file_hash"] = file_hash
        rows.append(
            WorkloadRow(
                content_hash=r.content_hash,
                kind=r.kind,
                db_name=r.db_name,
                dbid=r.dbid,
                instance=r.instance or (",".join(r.instances) if r.instances else None),
                begin=r.begin,
                end=r.end,
                elapsed_s=r.elapsed_s,
                redo_bytes_per_s=r.redo_bytes_per_s,
                payload=payload,
                snap_key=key,
            )
        )
    return rows


def _extra_columns(export: Export, data: bytes) -> list[dict[str, str]]:
    """The CSV rows of an RMAN export (for DB_NAME / DBID, which `BackupJob` leaves out);
    a DBID that is not a database id is refused here, naming its line."""
    from .csv_common import read_csv_bytes

    try:
        table = read_csv_bytes(data, export.source)
    except CsvImportError:
        return []
    for line, row in table.rows:
        table.dbid(line, row)
    return [row for _line, row in table.rows]


def _int_or_none(text: str | None) -> int | None:
    """A DBID already checked by `CsvTable.dbid`."""
    text = (text or "").strip()
    return int(text[:-2] if text.endswith(".0") else text) if text else None


def rows_from_export(export: Export, data: bytes, file_hash: str) -> list[WorkloadRow]:
    rows: list[WorkloadRow] = []
    if export.kind == "sysstat":
        for iv in export.redo_intervals:
            rows.append(
                WorkloadRow(
                    content_hash=_interval_hash(iv),
                    kind="sysstat",
                    db_name=iv.db_name,
                    dbid=iv.dbid,
                    instance=iv.instance,
                    begin=iv.begin,
                    end=iv.end,
                    elapsed_s=iv.seconds,
                    redo_bytes_per_s=iv.redo_bytes_per_s,
                    payload={
                        "redo_bytes": iv.redo_bytes,
                        "db": iv.db,
                        "source": iv.source,
                        "file_hash": file_hash,
                    },
                )
            )
    elif export.kind == "rman_jobs":
        extra = _extra_columns(export, data)
        if len(extra) != len(export.backup_jobs):
            extra = [{} for _ in export.backup_jobs]
        for job, cells in zip(export.backup_jobs, extra, strict=True):
            db_name = cells.get("DB_NAME") or None
            dbid = _int_or_none(cells.get("DBID"))
            payload = job_to_dict(job)
            payload["file_hash"] = file_hash
            rows.append(
                WorkloadRow(
                    content_hash=_hash("rman_job", dbid, db_name, *payload_key(payload)),
                    kind="rman_job",
                    db_name=db_name,
                    dbid=dbid,
                    instance=None,
                    begin=job.start,
                    end=job.end,
                    elapsed_s=job.elapsed_s,
                    redo_bytes_per_s=None,
                    payload=payload,
                )
            )
    elif export.kind == "recovery_progress":
        for rate in export.apply_rates:
            payload = rate.to_dict()
            figures = {k: v for k, v in payload.items() if k != "source"}
            payload["file_hash"] = file_hash
            rows.append(
                WorkloadRow(
                    content_hash=_hash("recovery_progress", figures),
                    kind="recovery_progress",
                    db_name=None,
                    dbid=None,
                    instance=None,
                    begin=rate.start,
                    end=None,
                    elapsed_s=rate.elapsed_s,
                    redo_bytes_per_s=None,
                    payload=payload,
                )
            )
    return rows


_JOB_FIELDS = (
    "session_key", "input_type", "status", "device_type", "start", "end", "elapsed_s",
    "input_bytes", "output_bytes",
)  # fmt: skip


def job_to_dict(job: BackupJob) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _JOB_FIELDS:
        value = getattr(job, name)
        out[name] = value.isoformat() if isinstance(value, datetime) else value
    return out


def payload_key(payload: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(payload.get(n) for n in _JOB_FIELDS)


def job_from_dict(d: dict[str, Any]) -> BackupJob:
    def when(v: Any) -> datetime | None:
        return datetime.fromisoformat(v) if v else None

    return BackupJob(
        session_key=d.get("session_key"),
        input_type=d["input_type"],
        status=d["status"],
        device_type=d["device_type"],
        start=when(d.get("start")),
        end=when(d.get("end")),
        elapsed_s=float(d["elapsed_s"]),
        input_bytes=float(d["input_bytes"]),
        output_bytes=float(d["output_bytes"]),
    )


# ----------------------------------------------------------------------------- reading

_NOT_CSV = ("not an export we read", "binary file", "empty file", "not a readable CSV")


def _read(path: Path) -> bytes:
    return read_input(path)


Parsed = list[WorkloadRow] | SysstatBatch
"""A file's rows: objects, or for a DBA_HIST_SYSSTAT export the columns DuckDB computed."""


def rows_from_bytes(data: bytes, source: str) -> tuple[str, list[WorkloadRow]]:
    """Parse a report or an export into rows; (kind, rows). Raises `ReportError`."""
    return _parse(data, source, columns=False)  # type: ignore[return-value]


def parse_for_store(
    data: bytes, source: str, progress: FileProgress | None = None, store: Reads | None = None
) -> tuple[str, Parsed]:
    """`rows_from_bytes`, except that a plain DBA_HIST_SYSSTAT export is read by DuckDB
    (the same rows, many times faster: `sysstat_sql`), in `store`'s DuckDB instance when
    given, where `_write_batch` takes them without a copy; what DuckDB cannot vouch for
    goes the Python way, which names a bad cell. `progress(fraction, phase)` names each
    way tried (fractions of the reading, 0 to 1). Close a `SysstatBatch` once stored."""
    return _parse(data, source, columns=True, progress=_rising(progress or _quiet), store=store)


def _rising(progress: FileProgress) -> FileProgress:
    """`progress` never told a lower fraction than before (the row-by-row reader starts
    again at 10 % when DuckDB gave up on a file half-way)."""
    reached = [0.0]

    def tell(fraction: float, phase: str) -> None:
        reached[0] = max(reached[0], fraction)
        progress(reached[0], phase)

    return tell


def _parse(
    data: bytes,
    source: str,
    *,
    columns: bool,
    progress: FileProgress = _quiet,
    store: Reads | None = None,
) -> tuple[str, Parsed]:
    file_hash = hashlib.sha256(normalise_content(data)).hexdigest()
    try:
        reports = parse_bytes(data, source)
    except NotAReportError as not_report:
        reason = not_report.reason
    else:
        progress(0.9, f"checking {len(reports)} report(s)")
        sanity.check_reports(reports)
        rows = rows_from_reports(reports, file_hash)
        return rows[0].kind, rows
    batch = None
    if columns:
        progress(0.05, "reading it as a DBA_HIST_SYSSTAT export")

        def duck(fraction: float, phase: str) -> None:
            progress(0.05 + 0.75 * fraction, phase)

        batch = sysstat_batch(data, source, file_hash, store, duck)
    if batch is not None:
        return batch.kind, batch
    progress(0.1, "reading its rows one by one")

    def rows_read(done: int, total: int) -> None:
        progress(0.1 + 0.5 * done / max(total, 1), f"reading row {done:,} of {total:,}")

    try:
        export = read_export_bytes(data, source, rows_read)
    except CsvImportError as exc:
        if not exc.reason.startswith(_NOT_CSV):
            raise  # a CSV export we recognised, with a bad column or value
        raise NotAReportError(
            "neither an AWR / Statspack report nor a CSV export RTO Planner reads "
            f"({reason}; as CSV: {exc.reason})",
            source=source,
            hint="docs/importing.md lists what is read",
        ) from None
    progress(0.8, "checking the rows read")
    sanity.check_export(export)
    rows = rows_from_export(export, data, file_hash)
    if not rows:
        raise CsvImportError(f"no rows in this {export.kind} export", source=source)
    return {"rman_jobs": "rman_job"}.get(export.kind, export.kind), rows


# ----------------------------------------------------------------------------- writing


@dataclass(frozen=True)
class _WriteResult:
    imported: int
    duplicates: int
    duplicate_of: tuple[str, ...]
    assigned: int
    replaced: int = 0


def _stored_in_chunks(
    n: int, insert: Callable[[int, int], None], progress: Callable[[float, str], None]
) -> None:
    """`insert(start, stop)` for every CHUNK_ROWS rows, progress before each and after."""
    for start in range(0, n, CHUNK_ROWS):
        progress(start / n, f"storing {start:,} of {n:,} rows")
        insert(start, min(n, start + CHUNK_ROWS))
    progress(1.0, f"stored {n:,} rows, committing")


def _write_rows(
    rows: list[WorkloadRow],
    file_name: str,
    database: str | None,
    progress: Callable[[float, str], None] = _quiet,
) -> Callable[[duckdb.DuckDBPyConnection], _WriteResult]:
    def write(con: duckdb.DuckDBPyConnection) -> _WriteResult:
        hashes = [r.content_hash for r in rows]
        seen = dict(stored_keys(con, "content_hash", hashes))
        keys = [r.snap_key for r in rows if r.snap_key]
        cut_off: dict[str, int] = {}  # snap_key -> id of a stored report cut off early
        for key, f, rid, warnings in stored_keys(
            con, "snap_key", keys, "id, json_extract(payload, '$.warnings')"
        ):
            seen[key] = f
            if _is_cut_off(warnings):
                cut_off[key] = rid
        now = datetime.now(UTC).replace(tzinfo=None)
        imported = replaced = 0
        dup_files: list[str] = []
        new_in_file: set[str] = set()
        new_rows: list[WorkloadRow] = []
        for row in rows:
            if _replaces_cut_off(row, cut_off, seen):
                delete_row(con, cut_off.pop(row.snap_key))
                replaced += 1
            earlier = seen.get(row.content_hash) or (
                seen.get(row.snap_key) if row.snap_key else None
            )
            if earlier is not None or row.content_hash in new_in_file:
                if earlier and earlier not in dup_files:
                    dup_files.append(earlier)
                continue
            if row.db_name is None and database:
                row = _named(row, database)
            new_rows.append(row)
            new_in_file.add(row.content_hash)
            imported += 1
        _stored_in_chunks(
            len(new_rows),
            lambda a, b: insert_rows(con, new_rows[a:b], file_name, now),
            progress,
        )
        assigned = 0
        if database and len(new_in_file) < len(rows):
            assigned = assign_database(con, database, hashes)
        return _WriteResult(imported, len(rows) - imported, tuple(dup_files), assigned, replaced)

    return write


def _write_batch(
    batch: SysstatBatch,
    file_name: str,
    database: str | None,
    progress: Callable[[float, str], None] = _quiet,
) -> Callable[[duckdb.DuckDBPyConnection], _WriteResult]:
    """`_write_rows` for rows DuckDB computed (a DBA_HIST_SYSSTAT export: no snapshot
    keys, no cut-off reports): the stored and repeated hashes left out, the rest read
    from the batch's table straight into `workload`, chunk by chunk (`duck_batch`)."""

    def write(con: duckdb.DuckDBPyConnection) -> _WriteResult:
        with batch.table_in(con) as rows:
            stored = dict(stored_among(con, rows.hashes_sql()))
            kept, dup_files = rows.pick_new(stored)
            now = datetime.now(UTC).replace(tzinfo=None)
            kind = {"kind": batch.kind}
            _stored_in_chunks(
                kept,
                lambda a, b: insert_select(
                    con, *rows.chunk(a, b, database), STORED_COLUMNS, file_name, now, kind
                ),
                progress,
            )
            assigned = 0
            if database and kept < len(batch):
                assigned = assign_database(con, database, rows.hashes())
        return _WriteResult(kept, len(batch) - kept, tuple(dup_files), assigned)

    return write


def _is_cut_off(warnings_json: str | None) -> bool:
    try:
        return CUT_OFF_WARNING in (json.loads(warnings_json) if warnings_json else ())
    except (TypeError, ValueError):
        return False


def _replaces_cut_off(row: WorkloadRow, cut_off: dict[str, int], seen: dict[str, str]) -> bool:
    """A complete report of snapshots stored from a cut-off file takes that row's place
    (and not the other way round: a cut-off copy of a complete report is a duplicate)."""
    if not row.snap_key or row.snap_key not in cut_off or row.content_hash in seen:
        return False
    if CUT_OFF_WARNING in row.payload.get("warnings", ()):
        return False
    del seen[row.snap_key]
    return True


def _named(row: WorkloadRow, database: str) -> WorkloadRow:
    from dataclasses import replace

    return replace(row, db_name=database)


def _db_names(rows: Parsed) -> set[str]:
    if isinstance(rows, SysstatBatch):
        return rows.db_names()
    return {r.db_name for r in rows if r.db_name}


def _span(rows: Parsed) -> tuple[datetime, datetime] | None:
    if isinstance(rows, SysstatBatch):
        return rows.times()
    times = sorted(t for r in rows for t in (r.begin, r.end) if t is not None)
    return (times[0], times[-1]) if times else None


def _describe(kind: str, rows: Parsed, n: int) -> str:
    label = KIND_LABELS.get(kind, kind)
    what = f"{n} {label}{'s' if n != 1 else ''}"
    names = sorted(_db_names(rows))
    if names:
        what += " of " + ", ".join(names)
    span = _span(rows)
    if span:
        what += f", {span[0]:%Y-%m-%d %H:%M} → {span[1]:%Y-%m-%d %H:%M}"
    return what


def import_file(
    store: Store,
    path: str | os.PathLike[str],
    *,
    database: str | None = None,
    progress: FileProgress | None = None,
) -> ImportOutcome:
    """Parse one file and store its rows in one transaction; never raises a `ReportError`.

    `database` names the database for rows whose file does not (RMAN / recovery progress
    exports without a DB_NAME column). A write that fails is rolled back and reported as
    this file's error, so a batch goes on. `progress(fraction, phase)` is told how far
    this file is (the file 0–2 %, its rows 2–80 % by the way read, storing them 80–100 %
    by rows stored); whatever it raises stops the file with nothing of it kept and is raised on.
    """
    p = Path(path)
    tell = progress or _quiet
    try:
        tell(0.0, "reading the file")
        data = _read(p)
        size = f"{len(data) / 1e6:,.1f} MB"
        tell(0.02, f"reading its rows ({size})")

        def reading(fraction: float, phase: str) -> None:
            tell(0.02 + 0.78 * fraction, f"{phase} ({size})")

        kind, rows = parse_for_store(data, str(p), reading, store)
    except ReportError as exc:
        return ImportOutcome(p, "error", message=" ".join(str(exc).split()), error=exc)
    del data

    def storing(fraction: float, phase: str) -> None:
        tell(0.8 + 0.2 * fraction, phase)

    write = (
        _write_batch(rows, str(p), database, storing)
        if isinstance(rows, SysstatBatch)
        else _write_rows(rows, str(p), database, storing)
    )
    try:
        result = store.write(write, Changes(workloads=True))
    except StoreReadOnlyError:
        raise  # the whole batch cannot be stored
    except StoreError as exc:  # rolled back: nothing of this file is stored
        err = ReportError(f"not stored, nothing of it was kept: {exc}", source=str(p))
        return ImportOutcome(p, "error", kind, message=" ".join(str(err).split()), error=err)
    finally:
        if isinstance(rows, SysstatBatch):
            rows.close()  # its DuckDB database: the rows are in the store (or not)
    names = tuple(sorted(_db_names(rows) or ({database} if database else set())))
    if result.imported:
        msg = _describe(kind, rows, result.imported)
        if result.duplicates:
            msg += f" ({result.duplicates} already stored)"
        if result.replaced:
            msg += f"; replaced {result.replaced} stored from a cut-off copy of this report"
        if kind in ("rman_job", "recovery_progress") and not names:
            msg += "; no database name: pass --database NAME to attribute them"
        return ImportOutcome(
            p, "imported", kind, result.imported, result.duplicates, names, msg,
            duplicate_of=result.duplicate_of, span=_span(rows),
        )  # fmt: skip
    msg = "already imported"
    if result.duplicate_of:
        others = [f for f in result.duplicate_of if f != str(p)]
        if others:
            msg += " (same report as " + ", ".join(others[:3]) + ")"
    if result.assigned:
        msg += f"; {result.assigned} row(s) now attributed to {database}"
    return ImportOutcome(
        p, "duplicate", kind, 0, result.duplicates, names, msg,
        duplicate_of=result.duplicate_of, span=_span(rows),
    )  # fmt: skip


def import_paths(
    store: Store, paths: Iterable[str | os.PathLike[str]], *, database: str | None = None
) -> Iterator[ImportOutcome]:
    """Import every file under `paths` (directories walked), one outcome per file.

    A generator, so a caller (the GUI's worker) can show progress and stop between files.
    A directory without files is an error outcome of its own.
    """
    for path in paths:
        p = Path(path)
        if p.is_dir() and not any(iter_report_files([p])):
            yield ImportOutcome(
                p,
                "error",
                message=f"{p}: directory without files",
                error=ReportError("directory without files", source=str(p)),
            )
            continue
        for f in iter_report_files([p]):
            yield import_file(store, f, database=database)


__all__ = [
    "KIND_LABELS",
    "ImportOutcome",
    "ImportStopped",
    "WorkloadRow",
    "import_file",
    "import_paths",
    "insert_row",
    "insert_rows",
    "job_from_dict",
    "parse_for_store",
    "rows_from_bytes",
]
