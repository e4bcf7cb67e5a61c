"""DBA_HIST_SYSSTAT exports read and turned into stored rows by DuckDB (issue 25: a year of
hourly snapshots of a RAC database is tens of thousands of rows, and the row-by-row
Python reader took ~40 µs a row).

`sysstat_batch` reads the CSV with DuckDB's `read_csv` (every cell as text), checks every
cell with one query, and computes the intervals (the previous snapshot of the same
instance by a window), their content hashes, payloads and rates in SQL: the same rows,
byte for byte, as `sysstat_csv.intervals_from_sysstat` and `store_import.rows_from_export`
give (tested on the fixtures and on generated exports).

It answers only for the plain files it can vouch for — ASCII, one record per line, no
blank line inside, plain integers and `YYYY-MM-DD HH:MM:SS` times, no interval the sanity
bounds refuse — and returns None for anything else: the Python reader then reads the
file, which accepts more spellings and names the first bad cell, file and line, in one
line. So every error message stays the Python reader's.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import duckdb
import numpy as np

from .csv_common import _delimiter
from .sanity import MAX_REDO_Bps

KIND = "sysstat"

_PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\t\r\n"
"""What the fast reader takes: printable ASCII, tab and line ends. Other control
characters split lines in Python but not in DuckDB; the Python reader takes those files."""

MAX_DELTA = 1e15
"""Redo between two snapshots above 1 PB: left to Python (its float repr is 1e+15 style)."""

_COLUMNS = ("content_hash", "db_name", "dbid", "instance", "begin_time", "end_time",
            "elapsed_s", "redo_bytes_per_s", "payload")  # fmt: skip

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class SysstatBatch:
    """The rows of one export as columns (NumPy arrays, None for NULL), in the order the
    Python reader gives them, ready for `core.store.workloads.insert_columns`."""

    source: str
    columns: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.columns["content_hash"])

    @property
    def kind(self) -> str:
        return KIND

    def hashes(self) -> np.ndarray:
        return self.columns["content_hash"]

    def db_names(self) -> set[str]:
        return {n for n in set(self.columns["db_name"].tolist()) if n}

    def times(self) -> tuple[datetime, datetime]:
        begin, end = self.columns["begin_time"], self.columns["end_time"]
        return _py_time(begin.min()), _py_time(end.max())

    def take(self, index: list[int], database: str | None) -> dict[str, np.ndarray]:
        """The columns of rows `index`; `database` names rows whose export names none."""
        rows = np.asarray(index, dtype=np.int64)
        out = {name: col[rows] for name, col in self.columns.items()}
        if database:
            names = out["db_name"]
            names[np.equal(names, None)] = database
        return out


def _py_time(value: np.datetime64) -> datetime:
    return value.astype("datetime64[us]").item()


def _header(data: bytes) -> tuple[int, list[str], str] | None:
    """(index of the header line, column names as the Python reader makes them, delimiter)."""
    start = index = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end]
        if line.strip():
            break
        start, index = end + 1, index + 1
    else:
        return None
    text = line.rstrip(b"\r").decode("ascii")
    delim = _delimiter(text)
    try:
        header = next(csv.reader([text], delimiter=delim))
    except (csv.Error, StopIteration):
        return None
    return index, [c.strip().strip('"').upper() for c in header], delim


def _plain(data: bytes) -> bytes | None:
    """The bytes without a UTF-8 BOM, when the fast reader can vouch for them."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.translate(None, _PLAIN_BYTES):
        return None
    if b' "' in data or b'\t"' in data:  # Python's csv keeps a quote after a blank
        return None
    if data.count(b"\r") != data.count(b"\r\n"):  # a lone carriage return ends a line
        return None
    body = data.rstrip(b"\r\n")
    if b"\n\n" in body or b"\n\r\n" in body:  # a blank line shifts DuckDB's row numbers
        return None
    return data


def sysstat_batch(data: bytes, source: str, file_hash: str) -> SysstatBatch | None:
    """The export's rows, computed by DuckDB; None when the Python reader must read it."""
    plain = _plain(data)
    head = _header(plain) if plain is not None else None
    if plain is None or head is None:
        return None
    first, names, delim = head
    where = {n: f"c{i}" for i, n in enumerate(names)}  # a repeated name: the last wins
    value_col = "VALUE" if "REDO_SIZE" not in where and "VALUE" in where else "REDO_SIZE"
    if not {"DBID", "INSTANCE_NUMBER", "SNAP_ID", "END_INTERVAL_TIME", value_col} <= set(where):
        return None
    lines = plain.rstrip(b"\r\n").count(b"\n") - first
    try:
        with tempfile.TemporaryDirectory(prefix="rto-sysstat-") as tmp:
            path = os.path.join(tmp, "export.csv")
            with open(path, "wb") as f:
                f.write(plain)
            return _query(path, len(names), first, lines, delim, where, value_col,
                          source, file_hash, _padded(plain, delim))  # fmt: skip
    except (OSError, duckdb.Error):
        return None  # the Python reader reads it and names what is wrong


def _padded(data: bytes, delim: str) -> bool:
    """Whether a cell may start or end with a blank (the Python reader strips it: so does
    the query then, at a sixth of its time): a blank beside a delimiter, a quote or a line
    end. NumPy looks at the blanks only (12 substring searches took 0.1 s on 9 MB)."""
    if delim == "\t":
        return True
    a = np.frombuffer(data, np.uint8)
    blanks = np.flatnonzero((a == 0x20) | (a == 0x09))
    if not len(blanks):
        return False
    if blanks[0] == 0 or blanks[-1] == len(a) - 1:
        return True
    edge = np.array([ord(delim), 0x0A, 0x0D, 0x22], dtype=np.uint8)
    return bool(np.isin(a[blanks - 1], edge).any() or np.isin(a[blanks + 1], edge).any())


def _cell(where: dict[str, str], name: str, padded: bool) -> str:
    col = where.get(name)
    if not col:
        return "''"
    return f"coalesce(trim({col}, ' ' || chr(9)), '')" if padded else f"coalesce({col}, '')"


def _query(
    path: str,
    n_columns: int,
    first: int,
    lines: int,
    delim: str,
    where: dict[str, str],
    value_col: str,
    source: str,
    file_hash: str,
    padded: bool,
) -> SysstatBatch | None:
    con = duckdb.connect(":memory:", config={"threads": 1})
    try:
        types = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(n_columns))
        con.execute(
            f"CREATE TEMP TABLE raw AS SELECT * FROM read_csv(?, delim = ?, quote = '\"', "
            f"escape = '\"', header = false, skip = {first + 1}, auto_detect = false, "
            f"null_padding = true, parallel = false, columns = {{{types}}})",
            [path, delim],
        )
        if con.execute("SELECT count(*) FROM raw").fetchone()[0] != lines:
            return None  # a record over two lines: the line numbers would not be the file's
        prefix = json.dumps(f"{source}:")[:-1]  # the payload's "source", JSON-escaped as Python
        # a cell the Python reader would read another way or refuse raises: it then reads
        sql = _intervals_sql(where, value_col, first, n_columns, padded)
        con.execute(sql, [prefix, file_hash, MAX_DELTA])
        if con.execute(_BAD_INTERVALS, [MAX_DELTA, MAX_REDO_Bps]).fetchone()[0]:
            return None
        fetched = con.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM iv ORDER BY dbid_t, instance, snap, line"
        ).fetchnumpy()
    finally:
        con.close()
    if not len(fetched["content_hash"]):
        return None  # no interval: the Python reader says so
    return SysstatBatch(source, {k: _plain_array(fetched[k]) for k in _COLUMNS})


def _plain_array(col: np.ndarray) -> np.ndarray:
    """A fetched column without a mask: None where DuckDB had NULL."""
    if isinstance(col, np.ma.MaskedArray):
        out = col.data.astype(object)
        out[np.ma.getmaskarray(col)] = None
        return out
    return col


def _intervals_sql(
    where: dict[str, str], value_col: str, first: int, n_columns: int, padded: bool
) -> str:
    lengths = ", ".join(f"coalesce(strlen(c{i}), 0)" for i in range(n_columns))
    names = {"dbid_t": "DBID", "inst": "INSTANCE_NUMBER", "snap_t": "SNAP_ID",
             "end_t": "END_INTERVAL_TIME", "value_t": value_col, "startup": "STARTUP_TIME",
             "db_name": "DB_NAME"}  # fmt: skip
    chosen = ", ".join(f"{_cell(where, col, padded)} AS {as_}" for as_, col in names.items())
    cells = (
        f"SELECT rowid + {first + 2} AS line, greatest(0, {lengths}) AS longest, {chosen} FROM raw"
    )
    return _INTERVALS.replace("<cells>", cells).replace("<valid>", _VALID)


_VALID = r"""
    (dbid_t = '' OR regexp_full_match(dbid_t, '[0-9]{1,10}(\.0)?'))
    AND regexp_full_match(snap_t, '[0-9]{1,15}')
    AND regexp_full_match(value_t, '[0-9]{1,30}')
    AND regexp_full_match(end_t, '[1-9][0-9]{3}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}')
    AND try_strptime(end_t, '%Y-%m-%d %H:%M:%S') IS NOT NULL
    AND regexp_full_match(inst, '[A-Za-z0-9_.+-]*')
    AND longest < 100000
"""
"""A row the fast reader reads as the Python reader does (a cell over 128 KiB is an error
of Python's csv)."""

_INTERVALS = r"""
CREATE TEMP TABLE iv AS
WITH cells AS (<cells>), typed AS (
    SELECT line, dbid_t, inst, startup, db_name,
           CASE WHEN dbid_t = '' THEN NULL
                ELSE CAST(regexp_replace(dbid_t, '\.0$', '') AS BIGINT) END AS dbid,
           CASE WHEN <valid> THEN CAST(snap_t AS DOUBLE) ELSE error('not plain') END AS snap,
           strptime(end_t, '%Y-%m-%d %H:%M:%S') AS end_ts,
           CAST(value_t AS DOUBLE) AS value
    FROM cells
), paired AS (
    SELECT *,
           lag(end_ts) OVER w AS begin_ts, lag(value) OVER w AS prev_value,
           lag(startup) OVER w AS prev_startup, lag(line) OVER w AS prev_line
    FROM typed
    WINDOW w AS (PARTITION BY dbid_t, inst ORDER BY snap, line)
), kept AS (
    SELECT *, value - prev_value AS delta,
           CAST(CASE WHEN value - prev_value < $3 THEN CAST(value - prev_value AS BIGINT) END
                AS VARCHAR) || '.0' AS delta_text,
           coalesce(CAST(dbid AS VARCHAR), dbid_t) AS db
    FROM paired
    WHERE prev_line IS NOT NULL AND startup = prev_startup
      AND value - prev_value >= 0 AND end_ts > begin_ts
)
SELECT dbid_t, snap, line, delta,
       sha256('["sysstat","' || db || '","' || inst || '","' || CAST(begin_ts AS VARCHAR)
              || '","' || CAST(end_ts AS VARCHAR) || '",' || delta_text || ']') AS content_hash,
       nullif(db_name, '') AS db_name, dbid, inst AS instance,
       begin_ts AS begin_time, end_ts AS end_time,
       epoch(end_ts - begin_ts) AS elapsed_s,
       delta / epoch(end_ts - begin_ts) AS redo_bytes_per_s,
       '{"redo_bytes": ' || delta_text || ', "db": "' || db
              || '", "source": ' || $1 || CAST(line AS VARCHAR) || '", "file_hash": "'
              || $2 || '"}' AS payload
FROM kept
"""
"""One row per pair of consecutive snapshots of one instance (see `intervals_from_sysstat`):
the hash text and payload are the ones `store_import` builds, `1234.0` as Python prints
a whole float."""

_BAD_INTERVALS = (
    "SELECT count(*) FROM iv WHERE delta >= $1 OR content_hash IS NULL OR redo_bytes_per_s > $2"
)
"""Intervals the sanity bounds refuse (the Python reader names the row) or whose float
Python would print in exponent form."""
