"""Where a DBA_HIST_SYSSTAT export's rows wait between DuckDB computing them
(`sysstat_sql`) and the store taking them (`store_import._write_batch`), and how the
store takes them (issue 25: import speed).

`Workspace`: a DuckDB database to compute in. Importing into a store, it is an in-memory
database attached to the store's own DuckDB instance: the store's write then reads the
rows with `INSERT ... SELECT` from there, with no copy between two databases (handing
100,000 rows over as NumPy columns of Python strings, or as an Arrow stream, cost as
much as storing them). Without a store (or with a read-only one) it is a DuckDB database
of its own, and the write first copies the rows over as one Arrow C stream
(`__arrow_c_stream__`, no pyarrow, no Python object per cell).

`SysstatBatch`: the rows (table `iv`, `ord` 0, 1, ... in the order the Python reader
gives them), what the import's message says of them, and the statements that leave out
the rows stored before and store the rest chunk by chunk.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, Protocol, TypeVar

import duckdb
import numpy as np

KIND = "sysstat"

STORED_COLUMNS = ("content_hash", "db_name", "dbid", "instance", "begin_time", "end_time",
                  "elapsed_s", "redo_bytes_per_s", "payload")  # fmt: skip
"""The columns of `workload` a batch fills (`kind`, `file_name`, `imported_at` are the
same for every row; `snap_key` stays NULL)."""

T = TypeVar("T")


class Reads(Protocol):
    """What a workspace needs of the store (`core.store.StoreFile`)."""

    read_only: bool

    def read(self, fn: Callable[[duckdb.DuckDBPyConnection], T]) -> T: ...


class ArrowStream:
    """Rows one DuckDB database computed, for another to read once as an Arrow C stream
    (`__arrow_c_stream__`, no pyarrow)."""

    def __init__(self, relation: duckdb.DuckDBPyRelation) -> None:
        self._capsule = relation.__arrow_c_stream__()

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return self._capsule


class Workspace:
    """A DuckDB database to compute an export's rows in (`db` names it in SQL): in the
    store's DuckDB instance when `store` can be written, else one of its own."""

    def __init__(self, store: Reads | None = None) -> None:
        self._store: Reads | None = None
        self._own: duckdb.DuckDBPyConnection | None = None
        self.db = "memory"
        if store is not None and not store.read_only:
            name = f"rto_import_{uuid.uuid4().hex}"
            with contextlib.suppress(duckdb.Error, RuntimeError):  # the store's: StoreError
                store.read(lambda cur: cur.execute(f"ATTACH ':memory:' AS {name}"))
                self._store, self.db = store, name
                _one_thread(store, +1)
        if self._store is None:
            self._own = duckdb.connect(":memory:", config={"threads": 1})

    def run(self, fn: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        """`fn(connection)` on a connection that sees `db` (`fn` handles DuckDB's errors)."""
        if self._own is not None:
            return fn(self._own)
        assert self._store is not None
        return self._store.read(fn)

    def seen_from(self, con: duckdb.DuckDBPyConnection) -> bool:
        """Whether `con` (the store's write) reads `db` itself, with no copy."""
        if self._own is not None:
            return False
        sql = "SELECT count(*) FROM duckdb_databases() WHERE database_name = ?"
        return bool(con.execute(sql, [self.db]).fetchall()[0][0])

    def stream(self, sql: str) -> ArrowStream:
        """The rows of `sql` (run in this workspace) as an Arrow stream."""
        return self.run(lambda con: ArrowStream(con.sql(sql)))

    def close(self) -> None:
        """Free the database and its rows. Safe to repeat."""
        if self._own is not None:
            self._own.close()
        elif self._store is not None:
            store, self._store = self._store, None
            with contextlib.suppress(duckdb.Error, RuntimeError):
                store.read(lambda cur: cur.execute(f"DETACH {self.db}"))
            _one_thread(store, -1)


_THREADS_LOCK = threading.Lock()
_SINGLE: dict[int, tuple[int, str]] = {}  # id(store) -> (workspaces open, threads before)


def _one_thread(store: Reads, step: int) -> None:
    """DuckDB's `threads` at 1 while a workspace of the store is open (`step` +1 when one
    opens, -1 when it closes; the setting before comes back after the last). The import's
    statements are many small steps over 100,000 rows: a second worker thread cost ~10 %
    more CPU time for the same file (0.82 s against 0.75 s for 100,000 rows on 2 cores)
    and saved no wall-clock time on a loaded machine. A DuckDB setting of the whole
    instance: the store's other readers meanwhile run on one thread too."""
    with _THREADS_LOCK, contextlib.suppress(duckdb.Error, RuntimeError):
        open_, before = _SINGLE.get(id(store), (0, ""))
        if step > 0 and not open_:
            before = store.read(
                lambda cur: str(cur.execute("SELECT current_setting('threads')").fetchall()[0][0])
            )
            store.read(lambda cur: cur.execute("SET threads = 1"))
        open_ += step
        if open_ > 0:
            _SINGLE[id(store)] = (open_, before)
            return
        _SINGLE.pop(id(store), None)
        if before:
            store.read(lambda cur: cur.execute(f"SET threads = {int(before)}"))


class SysstatBatch:
    """The rows of one export, in table `iv` of `workspace.db` until stored; `close()`
    frees them. Made by `sysstat_sql.sysstat_batch` once `iv` is filled."""

    def __init__(self, source: str, workspace: Workspace) -> None:
        self.source = source
        self.workspace = workspace
        self._n, distinct, first, last, names, moved = workspace.run(
            lambda con: con.execute(
                f"SELECT count(*), count(DISTINCT content_hash), min(begin_time), "
                f"max(end_time), list(DISTINCT db_name) FILTER (db_name IS NOT NULL), "
                f"count(*) FILTER (ord <> rowid) FROM {workspace.db}.iv"
            ).fetchall()[0]
        )
        self._repeats = self._n > distinct
        self._in_order = not moved  # stored in `ord` order: a chunk needs no sort
        self._times: tuple[datetime, datetime] = (first, last)
        self._db_names = set(names or ())

    def __len__(self) -> int:
        return self._n

    @property
    def kind(self) -> str:
        return KIND

    def db_names(self) -> set[str]:
        return set(self._db_names)

    def times(self) -> tuple[datetime, datetime]:
        return self._times

    def close(self) -> None:
        self.workspace.close()

    @contextlib.contextmanager
    def table_in(self, con: duckdb.DuckDBPyConnection) -> Iterator[Rows]:
        """The rows as `con` (inside the store's write) reads them: the workspace's table
        itself, or a temporary copy when the workspace is another database."""
        table, in_order = f"{self.workspace.db}.iv", self._in_order
        if not self.workspace.seen_from(con):
            in_order = False
            con.register(_COPY, self.workspace.stream(f"SELECT * FROM {table}"))
            try:
                con.execute(f"CREATE OR REPLACE TEMP TABLE {_COPY}_t AS SELECT * FROM {_COPY}")
            finally:
                con.unregister(_COPY)
            table = f"temp.{_COPY}_t"
        rows = Rows(con, table, self._n, self._repeats, in_order)
        yield rows
        con.execute(f"DROP TABLE IF EXISTS temp.{_COPY}_t; DROP TABLE IF EXISTS temp.{_PICK}")


_COPY = "_rto_sysstat"
_PICK = "_rto_sysstat_pick"
_LEFT_OUT_VIEW = "_rto_left_out"


class Rows:
    """A batch's rows as one connection reads them (table `table`): which to leave out,
    and the statements that give the rest chunk by chunk."""

    def __init__(
        self, con: duckdb.DuckDBPyConnection, table: str, n: int, repeats: bool, in_order: bool
    ) -> None:
        self.con, self.table, self.n = con, table, n
        self._repeats, self._in_order = repeats, in_order
        self._picked = False

    def hashes_sql(self) -> str:
        return f"SELECT content_hash FROM {self.table}"

    def hashes(self) -> list[str]:
        """Every row's content hash, in row order (a Python list: for the rare lookups
        that need one, e.g. naming the database of rows stored before)."""
        rows = self.con.execute(f"{self.hashes_sql()} ORDER BY ord").fetchall()
        return [h for (h,) in rows]

    def pick_new(self, stored: dict[str, str]) -> tuple[int, list[str]]:
        """Keep the rows whose hash is neither in `stored` (hash -> file that stored it)
        nor earlier in the file; (how many are kept, the files of the stored ones in row
        order). `chunk` then numbers the kept rows 0, 1, ..."""
        if not stored and not self._repeats:  # the usual case: every row new
            return self.n, []
        hashes = np.array(sorted(stored) or [""], dtype=object)  # "" matches no hash
        self.con.register(_LEFT_OUT_VIEW, {"h": hashes})
        try:
            left_out = self.con.execute(
                f"SELECT ord, content_hash FROM (SELECT ord, content_hash, row_number() OVER "
                f"(PARTITION BY content_hash ORDER BY ord) AS nth FROM {self.table}) "
                f"WHERE nth > 1 OR content_hash IN (SELECT h FROM {_LEFT_OUT_VIEW}) ORDER BY ord"
            ).fetchall()
        finally:
            self.con.unregister(_LEFT_OUT_VIEW)
        dup_files: list[str] = []
        for _ord, h in left_out:
            earlier = stored.get(h)
            if earlier and earlier not in dup_files:
                dup_files.append(earlier)
        ords = np.array([o for o, _ in left_out] or [-1], np.int64)  # -1 is no row's
        self.con.register(_LEFT_OUT_VIEW, {"o": ords})
        try:
            self.con.execute(
                f"CREATE OR REPLACE TEMP TABLE {_PICK} AS SELECT row_number() OVER "
                f"(ORDER BY ord) - 1 AS k, ord FROM {self.table} "
                f"WHERE ord NOT IN (SELECT o FROM {_LEFT_OUT_VIEW})"
            )
        finally:
            self.con.unregister(_LEFT_OUT_VIEW)
        self._picked = True
        return self.n - len(left_out), dup_files

    def chunk(self, start: int, stop: int, database: str | None) -> tuple[str, dict[str, Any]]:
        """(SELECT, its parameters) of kept rows `start` to `stop` as the `STORED_COLUMNS`;
        `database` names rows whose export names none."""
        if self._picked:
            rows, key = f"{self.table} JOIN temp.{_PICK} USING (ord)", "k"
        else:
            rows, key = self.table, "ord"
        columns = ", ".join(
            "coalesce(db_name, $db) AS db_name" if c == "db_name" else c for c in STORED_COLUMNS
        )
        sql = f"SELECT {columns} FROM {rows} WHERE {key} >= $start AND {key} < $stop"
        if self._picked or not self._in_order:  # a scan of one table with a filter keeps
            sql += f" ORDER BY {key}"  # its order (DuckDB's order preservation): no sort
        return sql, {"db": database, "start": start, "stop": stop}
