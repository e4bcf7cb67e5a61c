"""DBA_HIST_SYSSTAT exports read and turned into stored rows by DuckDB (issue 25: a year of
hourly snapshots of a RAC database is tens of thousands of rows, and the row-by-row
Python reader took ~40 µs a row).

`sysstat_batch` reads the CSV with DuckDB's `read_csv` (every cell as text), checks every
cell with one query, and computes the intervals (the previous snapshot of the same
instance by a window), their content hashes, payloads and rates in SQL: the same rows,
byte for byte, as `sysstat_csv.intervals_from_sysstat` and `store_import.rows_from_export`
give (tested on the fixtures and on generated exports). The rows stay in that in-memory
DuckDB database (`SysstatBatch`) until the store reads them from it as Arrow streams,
chunk by chunk: no Python object per row or cell on the way.

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

import duckdb
import numpy as np

from .csv_common import _delimiter
from .duck_batch import Reads, SysstatBatch, Workspace
from .sanity import MAX_REDO_Bps

Progress = Callable[[float, str], None]
"""`store_import.FileProgress`, as told by its one caller (`store_import._parse`)."""


_PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\t\r\n"
"""What the fast reader takes: printable ASCII, tab and line ends. Other control
characters split lines in Python but not in DuckDB; the Python reader takes those files."""

MAX_DELTA = 1e15
"""Redo between two snapshots above 1 PB: left to Python (its float repr is 1e+15 style)."""


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
    """The bytes without a UTF-8 BOM, when the fast reader can vouch for them. One pass
    over the bytes for what is rare (a quote, a carriage return: `in` is memchr) before
    looking closer; no copy of the body (each pass over 9 MB counts)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.translate(None, _PLAIN_BYTES):
        return None
    if b'"' in data and (b' "' in data or b'\t"' in data):  # Python's csv keeps a quote
        return None  # after a blank
    crlf = b"\r" in data
    if crlf and data.count(b"\r") != data.count(b"\r\n"):  # a lone CR ends a line
        return None
    end = _body_end(data)
    if data.find(b"\n\n", 0, end) >= 0 or (crlf and data.find(b"\n\r\n", 0, end) >= 0):
        return None  # a blank line shifts DuckDB's row numbers
    return data


def _body_end(data: bytes) -> int:
    """Where the bytes end without their trailing line ends (`rstrip` without a copy)."""
    end = len(data)
    while end and data[end - 1] in (0x0A, 0x0D):
        end -= 1
    return end


def sysstat_batch(
    data: bytes,
    source: str,
    file_hash: str,
    store: Reads | None,
    progress: Progress,
) -> SysstatBatch | None:
    """The export's rows, computed by DuckDB (in `store`'s DuckDB instance when it can be
    written: `duck_batch.Workspace`); None when the Python reader must read it.
    `progress(fraction, phase)` is told each step (it may raise: nothing is kept)."""
    plain = _plain(data)
    head = _header(plain) if plain is not None else None
    if plain is None or head is None:
        return None
    first, names, delim = head
    where = {n: f"c{i}" for i, n in enumerate(names)}  # a repeated name: the last wins
    value_col = "VALUE" if "REDO_SIZE" not in where and "VALUE" in where else "REDO_SIZE"
    if not {"DBID", "INSTANCE_NUMBER", "SNAP_ID", "END_INTERVAL_TIME", value_col} <= set(where):
        return None
    lines = plain.count(b"\n", 0, _body_end(plain)) - first
    try:
        with tempfile.TemporaryDirectory(prefix="rto-sysstat-") as tmp:
            path = os.path.join(tmp, "export.csv")
            with open(path, "wb") as f:
                f.write(plain)
            shape = _Shape(len(names), first, lines, delim, where, value_col, _padded(plain, delim))
            return _query(path, shape, source, file_hash, store, progress)
    except OSError:
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


@dataclass(frozen=True)
class _Shape:
    """What the header says: columns, where the rows start, which column is which."""

    n_columns: int
    first: int
    lines: int
    delim: str
    where: dict[str, str]
    value_col: str
    padded: bool


def _query(
    path: str,
    shape: _Shape,
    source: str,
    file_hash: str,
    store: Reads | None,
    progress: Progress,
) -> SysstatBatch | None:
    space = Workspace(store)
    try:
        where = (space.db, path, shape, source, file_hash, progress)
        if space.run(lambda con: _compute(con, *where)):
            batch, space = SysstatBatch(source, space), None
            return batch
        return None
    finally:
        if space is not None:
            space.close()


def _compute(
    con: duckdb.DuckDBPyConnection,
    db: str,
    path: str,
    shape: _Shape,
    source: str,
    file_hash: str,
    progress: Progress,
) -> bool:
    """Fill table `db.iv` with the export's rows; False (or a DuckDB error) when the
    Python reader must read it. `progress` between the statements (Stop is heard there)."""
    try:
        types = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(shape.n_columns))
        con.execute(
            f"CREATE TABLE {db}.raw AS SELECT * FROM read_csv(?, delim = ?, quote = '\"', "
            f"escape = '\"', header = false, skip = {shape.first + 1}, auto_detect = false, "
            f"null_padding = true, parallel = false, columns = {{{types}}})",
            [path, shape.delim],
        )
        if con.execute(f"SELECT count(*) FROM {db}.raw").fetchall()[0][0] != shape.lines:
            return False  # a record over two lines: the line numbers would not be the file's
        progress(0.3, f"pairing the snapshots of its {shape.lines:,} rows")
        prefix = json.dumps(f"{source}:")[:-1]  # the payload's "source", JSON-escaped as Python
        # a cell the Python reader would read another way or refuse raises: it then reads
        con.execute(_intervals_sql(db, shape), [prefix, file_hash, MAX_DELTA])
        if con.execute(_OUT_OF_ORDER.replace("<db>", db)).fetchall()[0][0]:
            con.execute(f"DROP TABLE {db}.iv")
            con.execute(_intervals_sql(db, shape, sort=True), [prefix, file_hash, MAX_DELTA])
        con.execute(f"DROP TABLE {db}.raw")
        progress(0.9, "checking the intervals")
        bad, rows = con.execute(
            _BAD_INTERVALS.replace("<db>", db), [MAX_DELTA, MAX_REDO_Bps]
        ).fetchall()[0]
        return not bad and rows > 0  # no interval: the Python reader says so
    except duckdb.Error:
        return False


def _intervals_sql(db: str, shape: _Shape, sort: bool = False) -> str:
    where, value_col, first, padded = shape.where, shape.value_col, shape.first, shape.padded
    lengths = ", ".join(f"coalesce(strlen(c{i}), 0)" for i in range(shape.n_columns))
    names = {"dbid_t": "DBID", "inst": "INSTANCE_NUMBER", "snap_t": "SNAP_ID",
             "end_t": "END_INTERVAL_TIME", "value_t": value_col, "startup": "STARTUP_TIME",
             "db_name": "DB_NAME"}  # fmt: skip
    chosen = ", ".join(f"{_cell(where, col, padded)} AS {as_}" for as_, col in names.items())
    cells = (
        f"SELECT *, try_strptime(end_t, '%Y-%m-%d %H:%M:%S') AS end_ts FROM (SELECT rowid + "
        f"{first + 2} AS line, greatest(0, {lengths}) AS longest, {chosen} FROM {db}.raw)"
    )
    order = "ORDER BY dbid_t, inst, snap, line"
    sql = _INTERVALS.replace("<order>", order if sort else "")
    sql = sql.replace("<sorted>", "ORDER BY ord" if sort else "")
    return sql.replace("<cells>", cells).replace("<valid>", _VALID).replace("<db>", db)


_VALID = r"""
    regexp_full_match(concat(dbid_t, chr(31), snap_t, chr(31), value_t, chr(31), end_t,
                             chr(31), inst),
                      '(|[0-9]{1,10}(\.0)?)\x1f[0-9]{1,15}\x1f[0-9]{1,30}\x1f'
                      || '[1-9][0-9]{3}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\x1f'
                      || '[A-Za-z0-9_.+-]*')
    AND end_ts IS NOT NULL
    AND longest < 100000
"""
"""A row the fast reader reads as the Python reader does (a cell over 128 KiB is an error
of Python's csv): DBID empty or whole, SNAP_ID and the redo whole, the end time plain,
the instance a plain name — one regular expression over the cells joined by U+001F,
which `_plain` keeps out of every cell (five took twice the time). `end_ts` is `end_t`
read by DuckDB's strptime, which refuses what Python's refuses (2023-02-29, 24:00:00,
23:59:60): its text is then `end_t` itself."""

_INTERVALS = r"""
CREATE TABLE <db>.iv AS
WITH cells AS (<cells>), typed AS (
    SELECT line, dbid_t, inst, startup, db_name, end_t, end_ts,
           CASE WHEN dbid_t = '' THEN NULL
                ELSE CAST(CAST(dbid_t AS DOUBLE) AS BIGINT) END AS dbid,  -- 10 digits
           CASE WHEN <valid> THEN CAST(snap_t AS DOUBLE) ELSE error('not plain') END AS snap,
           CAST(value_t AS DOUBLE) AS value
    FROM cells
), paired AS (
    SELECT *,
           lag(end_ts) OVER w AS begin_ts, lag(end_t) OVER w AS begin_t,
           lag(value) OVER w AS prev_value, lag(startup) OVER w AS prev_startup,
           CASE WHEN lag(dbid_t) OVER w = dbid_t AND lag(inst) OVER w = inst
                THEN lag(line) OVER w END AS prev_line  -- the same instance's
    FROM typed
    WINDOW w AS (ORDER BY dbid_t, inst, snap, line)
), kept AS (
    SELECT *, value - prev_value AS delta,
           CAST(CASE WHEN value - prev_value < $3 THEN CAST(value - prev_value AS BIGINT) END
                AS VARCHAR) || '.0' AS delta_text,
           coalesce(CAST(dbid AS VARCHAR), dbid_t) AS db
    FROM paired
    WHERE prev_line IS NOT NULL AND startup = prev_startup
      AND value - prev_value >= 0 AND end_ts > begin_ts
)
SELECT row_number() OVER (<order>) - 1 AS ord, dbid_t, snap, line, delta,
       sha256(concat('["sysstat","', db, '","', inst, '","', begin_t, '","', end_t, '",',
                     delta_text, ']')) AS content_hash,
       nullif(db_name, '') AS db_name, dbid, inst AS instance,
       begin_ts AS begin_time, end_ts AS end_time,
       epoch(end_ts - begin_ts) AS elapsed_s,
       delta / epoch(end_ts - begin_ts) AS redo_bytes_per_s,
       concat('{"redo_bytes": ', delta_text, ', "db": "', db, '", "source": ', $1, line,
              '", "file_hash": "', $2, '"}') AS payload
FROM kept <sorted>
"""
"""One row per pair of consecutive snapshots of one instance (see `intervals_from_sysstat`):
the hash text and payload are the ones `store_import` builds, `1234.0` as Python prints
a whole float; `ord` numbers the rows in the Python reader's order. The previous
snapshot of the same instance is the previous row in one window over every row in that
order: DuckDB's window hands its rows on in that order, so `row_number() OVER ()` numbers
them without sorting the wide rows again (that took a quarter of the query). That is
checked (`_OUT_OF_ORDER`), not assumed; if it ever fails, the query runs again with the
order asked for (`sort=True`)."""

_BAD_INTERVALS = (
    "SELECT count(*) FILTER (delta >= $1 OR content_hash IS NULL OR redo_bytes_per_s > $2), "
    "count(*) FROM <db>.iv"
)
"""Intervals the sanity bounds refuse (the Python reader names the row) or whose float
Python would print in exponent form."""

_OUT_OF_ORDER = """
SELECT count(*) FROM <db>.iv a JOIN <db>.iv b ON b.ord = a.ord + 1
WHERE a.dbid_t > b.dbid_t OR a.dbid_t = b.dbid_t AND (a.instance > b.instance
      OR a.instance = b.instance AND (a.snap > b.snap OR a.snap = b.snap AND a.line > b.line))
"""
"""Consecutive rows (by `ord`) out of the Python reader's order: none, or the Python
reader reads the file."""
