"""`StoreFile`: the one owner of the store's DuckDB connection, its lock and its lanes.

Why this shape (STYLE §4, §8):

* One process holds a store for writing. DuckDB's own lock is a POSIX record lock that
  the kernel drops when the holder closes any descriptor of the file, so every RTO
  Planner process first takes `flock` on `<store>.lock` (`lock.py`) and keeps it until
  `close()`. A second process gets `StoreLockedError` naming the file and the other PID.
* Inside the process, one `DuckDBPyConnection` is owned here. Every write runs on a
  one-thread executor (the "DB lane") inside a transaction, so writes are serialised and
  each is all-or-nothing: a process killed mid-save loses that save, never the file.
  Reads open a cursor of their own, so a GUI thread can read while the lane writes.
* Opening (look before writing, create, back up, migrate) is `opening.py`'s.

What the store holds is not here: each concern (catalog, prices, scenarios, results,
workloads, estates) is a module of functions over a `StoreFile`'s `read` and `write`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import duckdb

from .errors import StoreError, StoreLockedError, StoreReadOnlyError, translate_duckdb_error
from .lock import StoreLock
from .migrations import current_version
from .models import Changes, StoreInfo
from .opening import open_connection

T = TypeVar("T")

_NO_CHANGES = Changes()

# Stores open in this process, by resolved path: DuckDB shares one database instance per
# file inside a process, so a second Store would not hit the file lock; we refuse it here.
_OPEN: set[Path] = set()
_OPEN_LOCK = threading.Lock()


def resolved_store_path(path: str | Path) -> Path:
    """The store's absolute path with symlinks followed; a loop is one line, not a crash."""
    try:
        return Path(path).expanduser().resolve()
    except (RuntimeError, OSError) as exc:  # RuntimeError: "Symlink loop from ..." (3.11)
        raise StoreError(
            f"{path}: the store path is a symbolic link loop ({exc})"
            if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == 40
            else f"{path}: cannot resolve the store path ({exc})",
            hint="point --db at a store file, not at a link that leads back to itself",
        ) from None


def _claim(path: Path) -> None:
    with _OPEN_LOCK:
        if path in _OPEN:
            raise StoreLockedError(
                f"{path} is already open in this process",
                hint="use the Store object that is already open",
            )
        _OPEN.add(path)


def _unclaim(path: Path) -> None:
    with _OPEN_LOCK:
        _OPEN.discard(path)


class StoreFile:
    """An open store file: the lock, the connection, the write lane and read cursors.

    `StoreFile(path)` opens (creating or migrating) for writing, `read_only=True` for
    secondary tools (never writes, never migrates). Use as a context manager or call
    `close()`. `read` and `write` are synchronous and thread-safe.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = resolved_store_path(path)
        self.read_only = read_only
        self._listeners: list[Callable[[Changes], None]] = []
        self._cursor_lock = threading.Lock()
        self._closed = False
        self._lane_thread: int | None = None
        _claim(self.path)
        self._lane = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rto-store-lane")
        self._lock = StoreLock(self.path, shared=read_only)
        try:
            self._make_folder()
            self._lock.acquire()  # before anything opens the store file (see lock.py)
            self._con, self._info = open_connection(self.path, read_only)
            self._lock.hold_file()  # a store this open created is locked by its file too
            self._wcon = self._con.cursor()  # the lane's connection; nobody else writes
        except BaseException:
            self._lane.shutdown()
            self._lock.release(failed_open=True)
            _unclaim(self.path)
            raise

    def _make_folder(self) -> None:
        """Create the folder of a new store (the lock file goes there first)."""
        if self.read_only or self.path.parent.is_dir():
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the folder for the store {self.path} ({exc.strerror or exc})",
                hint="pass --db with a writable location",
            ) from None

    def _close_connections(self) -> None:
        for con in (getattr(self, "_wcon", None), getattr(self, "_con", None)):
            if con is not None:
                with contextlib.suppress(duckdb.Error):
                    con.close()

    def close(self) -> None:
        """Finish queued writes, close the file and release the lock. Safe to repeat."""
        if self._closed:
            return
        self._closed = True
        self._lane.shutdown(wait=True)
        self._close_connections()
        self._lock.release()  # only after DuckDB has closed (and checkpointed) the file
        _unclaim(self.path)

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def info(self) -> StoreInfo:
        return self._info

    def schema_version(self) -> int:
        return self.read(lambda cur: current_version(cur) or 0)

    # ---------------------------------------------------------------- lane and reads

    def subscribe(self, listener: Callable[[Changes], None]) -> Callable[[], None]:
        """Call `listener(changes)` after each committed write (on the writing thread).

        Returns a function that unsubscribes. The GUI forwards the `Changes` to a signal.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def read(self, fn: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        """Run `fn(cursor)` on a cursor of its own, from any thread.

        How every concern module (and the importers, reports) queries the store.
        """
        if self._closed:
            raise StoreError(f"{self.path}: the store is closed")
        with self._cursor_lock:
            cur = self._con.cursor()
        try:
            return fn(cur)
        except duckdb.Error as exc:
            raise translate_duckdb_error(exc, self.path) from None
        finally:
            cur.close()

    def write(
        self, fn: Callable[[duckdb.DuckDBPyConnection], T], changes: Changes = _NO_CHANGES
    ) -> T:
        """Run `fn(connection)` in one transaction on the write lane and wait for it.

        Either all of `fn`'s statements are committed or none is. `changes` is broadcast
        to subscribers after the commit.
        """
        if self.read_only:
            raise StoreReadOnlyError(
                f"{self.path} is open read-only", hint="open it without read-only to change it"
            )
        if self._closed:
            raise StoreError(f"{self.path}: the store is closed")
        if threading.get_ident() == self._lane_thread:
            # A write queued from inside a write would wait for itself forever.
            raise RuntimeError("Store.write() called from inside a write; use its connection")
        result = self._lane.submit(self._run_write, fn).result()
        for listener in list(self._listeners):
            listener(changes)
        return result

    def _run_write(self, fn: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        self._lane_thread = threading.get_ident()
        con = self._wcon
        try:
            con.begin()
            try:
                result = fn(con)
                con.commit()
            except BaseException:
                # A failed commit (disk full) may leave nothing to roll back; the error
                # the user needs is the first one, not "cannot rollback".
                with contextlib.suppress(duckdb.Error):
                    con.rollback()
                raise
        except duckdb.Error as exc:
            raise translate_duckdb_error(exc, self.path) from None
        return result
