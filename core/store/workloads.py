"""Imported workloads in the store (the `workload` table: AWR/Statspack reports,
DBA_HIST_SYSSTAT intervals, RMAN jobs, recovery progress), as rows.

What a row means and which file gives which rows is the importers' (core/importers/);
this module is every statement about the table: inserting rows, the duplicate lookups in
the indexes of schema 3, attributing rows to a database, and the queries the summaries
are computed from. Functions over a connection inside a write, or a `StoreFile`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb
import numpy as np

from .storefile import StoreFile


@dataclass(frozen=True)
class WorkloadRow:
    """One row to store (the columns of `workload`, payload as a dict)."""

    content_hash: str
    kind: str
    db_name: str | None
    dbid: int | None
    instance: str | None
    begin: datetime | None
    end: datetime | None
    elapsed_s: float | None
    redo_bytes_per_s: float | None
    payload: dict[str, Any]
    snap_key: str | None = None


_INSERT = (
    "INSERT INTO workload (content_hash, snap_key, file_name, kind, db_name, dbid, instance, "
    "begin_time, end_time, elapsed_s, redo_bytes_per_s, payload, imported_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def insert_row(con: duckdb.DuckDBPyConnection, row: WorkloadRow, file_name: str, now: datetime):
    """Insert one row (module level so a test can make the n-th insert fail)."""
    con.execute(
        _INSERT,
        [
            row.content_hash, row.snap_key, file_name, row.kind, row.db_name, row.dbid,
            row.instance, row.begin, row.end, row.elapsed_s, row.redo_bytes_per_s,
            json.dumps(row.payload, allow_nan=False, default=str), now,
        ],
    )  # fmt: skip


_COLUMNS = ("content_hash", "snap_key", "file_name", "kind", "db_name", "dbid", "instance",
            "begin_time", "end_time", "elapsed_s", "redo_bytes_per_s", "payload",
            "imported_at")  # fmt: skip
_CASTS = {"dbid": "BIGINT", "begin_time": "TIMESTAMP", "end_time": "TIMESTAMP",
          "imported_at": "TIMESTAMP", "elapsed_s": "DOUBLE", "redo_bytes_per_s": "DOUBLE",
          "payload": "JSON"}  # fmt: skip
_BATCH_VIEW = "_rto_new_workload"


def insert_rows(
    con: duckdb.DuckDBPyConnection, rows: list[WorkloadRow], file_name: str, now: datetime
) -> None:
    """Insert many rows in one statement (a year of hourly DBA_HIST_SYSSTAT snapshots of
    a RAC database is tens of thousands of rows: one INSERT each took ~4 ms)."""
    if not rows:
        return
    values = {
        "content_hash": [r.content_hash for r in rows],
        "snap_key": [r.snap_key for r in rows],
        "kind": [r.kind for r in rows],
        "db_name": [r.db_name for r in rows],
        "dbid": [r.dbid for r in rows],
        "instance": [r.instance for r in rows],
        "begin_time": [r.begin for r in rows],
        "end_time": [r.end for r in rows],
        "elapsed_s": [r.elapsed_s for r in rows],
        "redo_bytes_per_s": [r.redo_bytes_per_s for r in rows],
        "payload": [json.dumps(r.payload, allow_nan=False, default=str) for r in rows],
    }
    insert_columns(con, {k: np.array(v, dtype=object) for k, v in values.items()}, file_name, now)


def insert_columns(
    con: duckdb.DuckDBPyConnection,
    columns: dict[str, np.ndarray],
    file_name: str,
    now: datetime,
    constants: dict[str, object] | None = None,
) -> None:
    """Insert rows given as NumPy columns (None for NULL, `payload` as JSON text),
    registered for the statement only: no Python object per row. `constants`: columns
    with one value for every row (`kind`); a column given neither way is NULL."""
    if not len(columns["content_hash"]):
        return
    con.register(_BATCH_VIEW, columns)
    try:
        insert_select(con, f"SELECT * FROM {_BATCH_VIEW}", {}, tuple(columns), file_name, now,
                      constants)  # fmt: skip
    finally:
        con.unregister(_BATCH_VIEW)


def insert_select(
    con: duckdb.DuckDBPyConnection,
    select: str,
    params: dict[str, object],
    names: tuple[str, ...],
    file_name: str,
    now: datetime,
    constants: dict[str, object] | None = None,
) -> None:
    """Insert the rows of `select` (named `$parameters` in `params`), whose columns are
    `names`, in its order, in one statement: rows another table of the same DuckDB
    instance holds go in without a copy through Python. `constants` as `insert_columns`."""
    fixed: dict[str, object] = {**(constants or {}), "file_name": file_name, "imported_at": now}
    bound = dict(params)

    def value(c: str) -> str:
        cast = _CASTS.get(c, "VARCHAR")
        if c in names:
            return f"CAST({c} AS {cast})"
        if c in fixed:
            bound[f"_rto_{c}"] = fixed[c]
            return f"CAST(${'_rto_' + c} AS {cast})"
        return f"CAST(NULL AS {cast})"

    columns = ", ".join(value(c) for c in _COLUMNS)
    con.execute(
        f"INSERT INTO workload ({', '.join(_COLUMNS)}) SELECT {columns} FROM ({select})", bound
    )


def delete_row(con: duckdb.DuckDBPyConnection, row_id: int) -> None:
    con.execute("DELETE FROM workload WHERE id = ?", [row_id])


def stored_keys(
    con: duckdb.DuckDBPyConnection, column: str, keys: list[str], extra: str = ""
) -> list[tuple]:
    """(key, file name, *extra) of the stored rows whose `column` is one of `keys`, looked
    up in the column's index (migration 0003), so the cost does not grow with the store
    (`extra`: more columns, computed only for the rows found)."""
    if not keys:
        return []
    unique = sorted(set(keys))
    select = f"SELECT {column}, file_name{', ' + extra if extra else ''} FROM workload"
    if len(unique) <= 64:  # a constant IN list: point lookups in the index
        where = f"{column} IN ({', '.join('?' * len(unique))})"
        return con.execute(f"{select} WHERE {where}", unique).fetchall()
    return con.execute(f"{select} WHERE {column} IN (SELECT unnest(?))", [unique]).fetchall()


def stored_among(con: duckdb.DuckDBPyConnection, hashes: str) -> list[tuple[str, str]]:
    """(content hash, file name) of the stored rows whose hash the query `hashes` gives
    (a table of the same DuckDB instance: no key goes through Python)."""
    return con.execute(
        f"SELECT content_hash, file_name FROM workload WHERE content_hash IN ({hashes})"
    ).fetchall()


def assign_database(con: duckdb.DuckDBPyConnection, database: str, hashes: list[str]) -> int:
    """Name the database of stored rows among `hashes` that have none; how many."""
    return len(
        con.execute(
            "UPDATE workload SET db_name = ? WHERE db_name IS NULL "
            "AND list_contains(?, content_hash) RETURNING id",
            [database, hashes],
        ).fetchall()
    )


# ----------------------------------------------------------------------------- reading

_SUMMARY_SQL = (
    "SELECT id, content_hash, kind, db_name, dbid, instance, begin_time, end_time, "
    "redo_bytes_per_s, "
    "json_extract_string(payload, '$.layout'), json_extract_string(payload, '$.inst_num'), "
    "json_extract_string(payload, '$.block_changes_per_s'), "
    "json_extract_string(payload, '$.redo_bytes'), file_name, "
    "CASE WHEN kind IN ('rman_job', 'recovery_progress') THEN payload END "
    "FROM workload ORDER BY id"
)


def summary_rows(store: StoreFile) -> list[tuple]:
    """Every row, in import order, with the columns and payload fields the per-database
    summaries are computed from (the payload whole only for RMAN and recovery rows)."""
    return store.read(lambda cur: cur.execute(_SUMMARY_SQL).fetchall())


def import_groups(store: StoreFile, database: str | None = None) -> list[tuple]:
    """(file, kind, db name, dbid, instances, first, last, rows, imported at) per imported
    file and database, oldest import first; `database`: one name (any case) or DBID."""
    sql = (
        "SELECT file_name, kind, db_name, dbid, list(DISTINCT instance ORDER BY instance), "
        "min(coalesce(begin_time, end_time)), max(coalesce(end_time, begin_time)), count(*), "
        "min(imported_at) FROM workload "
    )
    params: list[Any] = []
    if database:
        sql += "WHERE upper(db_name) = upper(?) OR CAST(dbid AS VARCHAR) = ? "
        params = [database, database]
    sql += "GROUP BY file_name, kind, db_name, dbid ORDER BY min(id)"
    return store.read(lambda cur: cur.execute(sql, params).fetchall())


def unassigned_counts(store: StoreFile) -> dict[str, int]:
    """Rows no database is known for (RMAN / recovery exports imported without a name)."""
    rows = store.read(
        lambda cur: cur.execute(
            "SELECT kind, count(*) FROM workload WHERE db_name IS NULL AND dbid IS NULL "
            "GROUP BY kind"
        ).fetchall()
    )
    return {k: int(n) for k, n in rows}
