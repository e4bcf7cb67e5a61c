"""The `Store`: one owner of the DuckDB file, a single write lane, cursors for reads.

Why this shape (STYLE §4, §8):

* One process holds a store for writing. DuckDB's own lock is a POSIX record lock that
  the kernel drops when the holder closes any descriptor of the file, so every RTO
  Planner process first takes `flock` on `<store>.lock` (`lock.py`) and keeps it until
  `close()`. A second process gets `StoreLockedError` naming the file and the other PID.
* Inside the process, one `DuckDBPyConnection` is owned here. Every write runs on a
  one-thread executor (the "DB lane") inside a transaction, so writes are serialised and
  each is all-or-nothing: a process killed mid-save loses that save, never the file.
  Reads open a cursor of their own, so a GUI thread can read while the lane writes.
* Before DuckDB may write to an existing file we look at it read-only: the header must
  be DuckDB's, the file must not be newer than we understand, and it must be ours (a
  `schema_version` table). A file that fails is reported and never written to.
* An older file is checkpointed, copied aside, then migrated one transaction per step.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import re
import shutil
import stat
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import duckdb

from .. import ENGINE_VERSION, __version__
from ..bounds import MAX_SCENARIO_BYTES
from ..catalog import (
    Catalog,
    CatalogItem,
    _norm,
    item_to_mapping,
    load_catalog_file,
    shipped_catalog_currency,
    shipped_catalog_digest,
    shipped_catalog_files,
)
from ..errors import ScenarioError
from ..inputfile import InputFileError, read_limited
from ..scenario import load_scenario_text
from . import migrations as _migrations
from .errors import (
    NotAStoreError,
    NotFoundError,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
    StoreMigrationError,
    StoreNeedsUpgradeError,
    StoreReadOnlyError,
    StoreTooNewError,
)
from .lock import StoreLock
from .migrations import current_version
from .models import (
    CatalogChange,
    CatalogEntry,
    Changes,
    ResultCheck,
    ScenarioDiff,
    ScenarioSummary,
    ScenarioVersion,
    StoredResult,
    StoreInfo,
)

T = TypeVar("T")

# `_migrations.SCHEMA_VERSION` / `.MIGRATIONS` are read at run time (not bound at import)
# so that a test can add a step and watch a real file being backed up and migrated.

_NO_CHANGES = Changes()

GRACE_PERIOD = timedelta(days=30)
"""How long a deleted scenario stays restorable before an open of the store purges it."""

_DUCKDB_MAGIC = b"DUCK"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_RECOVERY_HINT = (
    "the file was not changed; restore it from a backup (a copy '*.bak.duckdb' is kept "
    "beside it before every migration) or pass --db with a new file"
)

# Stores open in this process, by resolved path: DuckDB shares one database instance per
# file inside a process, so a second Store would not hit the file lock; we refuse it here.
_OPEN: set[Path] = set()
_OPEN_LOCK = threading.Lock()


def _utcnow() -> datetime:
    """Now, in UTC without tzinfo: how the TIMESTAMP columns store it."""
    return datetime.now(UTC).replace(tzinfo=None)


def _aware(ts: datetime | None) -> datetime | None:
    return None if ts is None else ts.replace(tzinfo=UTC)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def translate_duckdb_error(exc: duckdb.Error, path: Path) -> StoreError:
    """Turn a DuckDB exception into a message that names the file and what to do."""
    msg = str(exc)
    first = msg.strip().splitlines()[0] if msg.strip() else type(exc).__name__
    if "Could not set lock" in msg or "Conflicting lock" in msg:
        pid = re.search(r"PID (\d+)", msg)
        who = f" (PID {pid.group(1)})" if pid else ""
        return StoreLockedError(
            f"{path} is open in another RTO Planner process{who}",
            hint="close the other window or command and try again, or pass --db with another file",
        )
    environment = _environment_error(msg, path)
    if environment is not None:
        return environment
    if "not a valid DuckDB database file" in msg:
        return StoreCorruptError(
            f"{path} is not a DuckDB database (or its header is damaged)", hint=_RECOVERY_HINT
        )
    if re.search(r"version number|newer version|storage version", msg, re.IGNORECASE):
        return StoreTooNewError(
            f"{path} was written by a newer DuckDB storage format than this RTO Planner "
            f"reads ({first})",
            hint="update RTO Planner to open it; the file was left untouched",
        )
    if isinstance(exc, duckdb.IOException | duckdb.InternalException | duckdb.FatalException) or (
        re.search(r"corrupt|checksum|Could not read enough bytes", msg, re.IGNORECASE)
    ):
        return StoreCorruptError(f"{path} is damaged or truncated ({first})", hint=_RECOVERY_HINT)
    return StoreError(f"{path}: database error: {first}")


_ENVIRONMENT = (
    ("Permission denied", "permission denied",
     "check the permissions of the file and its folder; the file was not changed"),
    ("No space left on device", "the disk is full",
     "free some disk space and try again; what was saved before is intact"),
    ("Read-only file system", "the file system is read-only",
     "copy the store to a writable place and pass --db with it"),
    ("Disk quota exceeded", "the disk quota is exceeded",
     "free some space and try again; what was saved before is intact"),
)  # fmt: skip


def _environment_error(msg: str, path: Path) -> StoreError | None:
    """Errors of the machine (permissions, a full disk) rather than of the file: saying
    "damaged, restore from a backup" there would send a user to restore a healthy store."""
    for needle, what, hint in _ENVIRONMENT:
        if needle in msg:
            return StoreError(f"cannot use the store {path}: {what}", hint=hint)
    return None


def _check_header(path: Path) -> None:
    """Refuse, before DuckDB sees it, a file that cannot be a DuckDB database."""
    try:
        mode = path.stat().st_mode
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            raise StoreError(
                f"{path} is not a regular file (a device, FIFO or socket); --db takes a store file",
                hint="pass --db with a file name",
            )
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(16)
    except IsADirectoryError:
        raise StoreError(f"{path} is a directory; --db takes a file name") from None
    except PermissionError:
        raise StoreError(
            f"cannot read the store {path}: permission denied",
            hint="check the permissions of the file; it was not changed",
        ) from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the store file ({exc.strerror or exc})") from None
    if path.is_dir():
        raise StoreError(f"{path} is a directory; --db takes a file name")
    if size == 0:
        raise StoreCorruptError(
            f"{path} is empty (0 bytes), not an RTO Planner store",
            hint="remove the empty file or pass --db with another name; it was not changed",
        )
    if head.startswith(_SQLITE_MAGIC):
        raise NotAStoreError(
            f"{path} is an SQLite database, not an RTO Planner store",
            hint="pass --db with another file name; the file was not changed",
        )
    if len(head) < 12 or head[8:12] != _DUCKDB_MAGIC:
        raise StoreCorruptError(
            f"{path} is not a DuckDB database file",
            hint="check that --db names an RTO Planner store; the file was not changed",
        )


def _connect(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as exc:
        raise translate_duckdb_error(exc, path) from None


_HEADER_BYTES = 3 * 4096  # DuckDB's file header and its two database headers


def _worth_a_full_read(con: duckdb.DuckDBPyConnection, path: Path, version: int) -> bool:
    """Whether opening should read the whole file first: before a migration rewrites it,
    after an unclean shutdown (a WAL left behind) and when the file is shorter than the
    blocks DuckDB says it holds. A cleanly closed file opens without it: the full read
    costs 60-120 ms, and DuckDB still checksums every block it reads later (issue 14)."""
    if version < _migrations.SCHEMA_VERSION:
        return True
    if path.with_name(path.name + ".wal").exists():
        return True
    # A file cut short (a copy that stopped half-way) no longer holds every block.
    ((block_size, blocks),) = con.execute(
        "SELECT block_size, total_blocks FROM pragma_database_size()"
    ).fetchall()
    return path.stat().st_size < _HEADER_BYTES + block_size * blocks


def _probe(path: Path) -> int:
    """Open an existing file read-only and return its schema version, or raise.

    Read-only, so a damaged, foreign or too-new file is never written to: DuckDB may
    replay its WAL and checkpoint when it opens a file for writing.
    """
    con = _connect(path, read_only=True)
    try:
        return _checked_version(con, path)
    finally:
        con.close()


def _checked_version(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """The schema version of the file `con` (read-only) has open, or raise when the file
    is foreign, too new or (where a full read is worth it) damaged."""
    try:
        version = current_version(con)
        if version is None:
            raise NotAStoreError(
                f"{path} is a DuckDB database of another program, not an RTO Planner store",
                hint="pass --db with another file name; the file was not changed",
            )
        if version == 0:
            # RTO Planner creates a store under another name and renames it into place
            # complete (`_create_new`), so an existing file without our tables is
            # someone else's (or an empty database): never write our tables into it.
            raise NotAStoreError(
                f"{path} is a DuckDB database without RTO Planner's tables (an empty "
                "database or another program's), not an RTO Planner store",
                hint="pass --db with a new file name (RTO Planner creates it); "
                "the file was not changed",
            )
        if version > _migrations.SCHEMA_VERSION:
            row = con.execute(
                "SELECT app_version FROM schema_version ORDER BY version DESC LIMIT 1"
            ).fetchone()
            by = f" by RTO Planner {row[0]}" if row else ""
            raise StoreTooNewError(
                f"{path} was written{by} with store schema {version}; this RTO Planner "
                f"({__version__}) reads schema {_migrations.SCHEMA_VERSION} and older",
                hint="update RTO Planner to open it; the file was left untouched",
            )
        if version > 0 and _worth_a_full_read(con, path, version):
            # Read every value of every table once (hashing keeps it inside DuckDB), so a
            # truncated file or a bad block (DuckDB checksums blocks) shows up here,
            # read-only, rather than in the middle of a write.
            for (table,) in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
            ).fetchall():
                con.execute(f'SELECT count(*), bit_xor(hash(t)) FROM "{table}" t').fetchall()
        return version
    except duckdb.Error as exc:
        raise translate_duckdb_error(exc, path) from None


def _backup_path(path: Path, version: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.stem}.v{version}.{stamp}.bak{path.suffix or '.duckdb'}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(
            f"{path.stem}.v{version}.{stamp}-{n}.bak{path.suffix or '.duckdb'}"
        )
    return candidate


def inputs_hash(text: str, catalog: Catalog) -> str:
    """A sha256 over what a plan is computed from: the scenario text and the catalog.

    The whole effective catalog is hashed (not only the items the scenario names), which
    errs on the side of calling a result stale after a catalog change.
    """
    items = sorted(
        (json.dumps({**item_to_mapping(i), "user": i.user}, sort_keys=True) for i in catalog),
    )
    h = hashlib.sha256()
    h.update(text.encode("utf-8"))
    for line in items:
        h.update(b"\0" + line.encode("utf-8"))
    return h.hexdigest()


def _scenario_name_from_text(text: str, source: str, catalog: Catalog) -> str:
    """Validate a scenario text (as a plan would load it) and return its name."""
    return load_scenario_text(text, source=source, catalog=catalog).name


_CATALOG_COLUMNS = (
    "kind, name, source, rate_Bps, derate, hw_compression, compressed_rate_Bps, "
    "backup_rate_Bps, ratio, cpu_cost, load_s, unload_s, locate_s, notes, extra, origin, "
    "updated_at, price"
)


def _item_from_row(row: tuple) -> CatalogItem:
    (kind, name, source, rate, derate, hw, comp, back, ratio, cpu, load, unload, locate,
     notes, extra, origin, _updated, price) = row[:18]  # fmt: skip
    return CatalogItem(
        kind=kind, name=name, source=source, rate_Bps=rate, derate=derate,
        hw_compression=hw, compressed_rate_Bps=comp, backup_rate_Bps=back, ratio=ratio,
        cpu_cost=cpu, load_s=load, unload_s=unload, locate_s=locate, notes=notes or "",
        user=origin == "user", extra=json.loads(extra) if extra else {}, price=price,
    )  # fmt: skip


def _insert_item(con: duckdb.DuckDBPyConnection, item: CatalogItem, origin: str) -> None:
    now = _utcnow()
    con.execute(
        "INSERT INTO catalog_item (origin, kind, name, name_key, source, rate_Bps, derate, "
        "hw_compression, compressed_rate_Bps, backup_rate_Bps, ratio, cpu_cost, load_s, "
        "unload_s, locate_s, notes, extra, raw, added_at, updated_at, price) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            origin, item.kind, item.name, _norm(item.name), item.source, item.rate_Bps,
            item.derate, item.hw_compression, item.compressed_rate_Bps, item.backup_rate_Bps,
            item.ratio, item.cpu_cost, item.load_s, item.unload_s, item.locate_s, item.notes,
            json.dumps(item.extra), json.dumps(item_to_mapping(item)), now, now, item.price,
        ],
    )  # fmt: skip


class Store:
    """The RTO Planner store file: catalog, scenarios with history, results, workloads.

    Open with `Store(path)` (creates and seeds a new file) or `Store(path, read_only=True)`
    (for secondary tools; never writes, never migrates). Use as a context manager or call
    `close()`. Public methods are synchronous and thread-safe: writes are queued on the
    store's lane and the caller waits for them; reads run on a cursor of their own.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path).expanduser().resolve()
        self.read_only = read_only
        self._listeners: list[Callable[[Changes], None]] = []
        self._cursor_lock = threading.Lock()
        self._closed = False
        self._lane_thread: int | None = None
        with _OPEN_LOCK:
            if self.path in _OPEN:
                raise StoreLockedError(
                    f"{self.path} is already open in this process",
                    hint="use the Store object that is already open",
                )
            _OPEN.add(self.path)
        self._lane = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rto-store-lane")
        self._lock = StoreLock(self.path, shared=read_only)
        try:
            self._make_folder()
            self._lock.acquire()  # before anything opens the store file (see lock.py)
            self._info = self._open()
        except BaseException:
            self._lane.shutdown()
            self._lock.release(failed_open=True)
            with _OPEN_LOCK:
                _OPEN.discard(self.path)
            raise
        try:
            if not read_only:
                self._seed_catalog()
                self.purge_deleted()
        except BaseException:
            self.close()
            raise

    # ---------------------------------------------------------------- open and close

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

    def _open(self) -> StoreInfo:
        path = self.path
        existed = path.exists()
        probe: duckdb.DuckDBPyConnection | None = None
        if existed:
            _check_header(path)
            if self.read_only:
                # The probe's read-only connection is the one a read-only store keeps:
                # the file is opened once (issue 14: `plan` reads the catalog this way).
                probe = _connect(path, read_only=True)
                try:
                    version = _checked_version(probe, path)
                except BaseException:
                    probe.close()
                    raise
            else:
                version = _probe(path)
        else:
            if self.read_only:
                raise NotFoundError(
                    f"{path} does not exist", hint="run a command without read-only once to "
                    "create it, or pass --db with an existing store"
                )  # fmt: skip
            self._create_new()
            version = _migrations.SCHEMA_VERSION
        if self.read_only and version < _migrations.SCHEMA_VERSION:
            if probe is not None:
                probe.close()
            raise StoreNeedsUpgradeError(
                f"{path} has store schema {version} and needs an upgrade to "
                f"{_migrations.SCHEMA_VERSION}, which a read-only open cannot do",
                hint="open it once without read-only (a copy is kept before upgrading)",
            )
        migrated_from: int | None = None
        backup: Path | None = None
        if existed and 0 < version < _migrations.SCHEMA_VERSION:
            backup = self._backup_before_migration(version)
            migrated_from = version
        self._con = probe if probe is not None else _connect(path, self.read_only)
        self._wcon = self._con.cursor()  # the lane's connection; nobody else writes
        try:
            version_now = current_version(self._con)
            if (
                version_now is None or version_now > _migrations.SCHEMA_VERSION
            ):  # changed since the probe
                raise StoreError(f"{path} changed while it was being opened; try again")
            if version_now < _migrations.SCHEMA_VERSION:
                try:
                    _migrations.apply_migrations(
                        self._wcon,
                        version_now,
                        app_version=__version__,
                        migrations=_migrations.MIGRATIONS,
                    )
                except duckdb.Error as exc:
                    where = f"; the copy taken before it is {backup}" if backup else ""
                    raise StoreMigrationError(
                        f"upgrading {path} from schema {version_now} failed "
                        f"({str(exc).splitlines()[0]}); it was rolled back{where}",
                        hint="please report this; your data is in the file and the copy",
                    ) from None
        except duckdb.Error as exc:
            self._close_connections()
            raise translate_duckdb_error(exc, path) from None
        except BaseException:
            self._close_connections()
            raise
        return StoreInfo(
            path=path,
            schema_version=_migrations.SCHEMA_VERSION,
            read_only=self.read_only,
            created=not existed,
            migrated_from=migrated_from,
            backup_path=backup,
        )

    def _create_new(self) -> None:
        """Create the store under a temporary name, complete, then rename it into place.

        So a file at the store's path is either a whole RTO Planner store or was never
        written by us (a crash mid-creation leaves only the temporary file, removed here
        on any error it can see).
        """
        path = self.path
        tmp = path.with_name(f".{path.name}.creating-{os.getpid()}")
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            leftover.unlink(missing_ok=True)
        try:
            con = duckdb.connect(str(tmp))
            try:
                _migrations.apply_migrations(
                    con, 0, app_version=__version__, migrations=_migrations.MIGRATIONS
                )
                con.execute("CHECKPOINT")
            finally:
                con.close()
            if path.exists():  # someone not honouring the lock made it meanwhile
                raise StoreError(f"{path} appeared while it was being created; try again")
            os.replace(tmp, path)
        except duckdb.Error as exc:
            raise translate_duckdb_error(exc, path) from None
        except OSError as exc:
            raise StoreError(
                f"cannot create the store {path} ({exc.strerror or exc})",
                hint="free some disk space or pass --db with a writable location",
            ) from None
        finally:
            for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
                with contextlib.suppress(OSError):
                    leftover.unlink(missing_ok=True)

    def _backup_before_migration(self, version: int) -> Path:
        """Checkpoint (so the WAL is folded in) and copy the file aside."""
        con = _connect(self.path, read_only=False)
        try:
            con.execute("CHECKPOINT")
        except duckdb.Error as exc:
            raise translate_duckdb_error(exc, self.path) from None
        finally:
            con.close()
        target = _backup_path(self.path, version)
        try:
            shutil.copy2(self.path, target)
            wal = self.path.with_name(self.path.name + ".wal")
            if wal.exists():
                shutil.copy2(wal, target.with_name(target.name + ".wal"))
        except OSError as exc:
            raise StoreMigrationError(
                f"{self.path} needs an upgrade from schema {version}, but the copy to "
                f"{target} failed ({exc.strerror or exc}); nothing was changed",
                hint="free some disk space or check permissions, then try again",
            ) from None
        return target

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
        with _OPEN_LOCK:
            _OPEN.discard(self.path)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def info(self) -> StoreInfo:
        return self._info

    # ---------------------------------------------------------------- lane and reads

    def subscribe(self, listener: Callable[[Changes], None]) -> Callable[[], None]:
        """Call `listener(changes)` after each committed write (on the writing thread).

        Returns a function that unsubscribes. The GUI forwards the `Changes` to a signal.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def read(self, fn: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        """Run `fn(cursor)` on a cursor of its own, from any thread.

        Public so other core modules (importers, reports) can add their own queries
        without reaching into the store.
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

    def schema_version(self) -> int:
        return self.read(lambda cur: current_version(cur) or 0)

    # ---------------------------------------------------------------- catalog

    def _seed_catalog(self, *, force: bool = False) -> bool:
        """Replace the shipped rows when the shipped catalog changed (user rows untouched)."""
        digest = shipped_catalog_digest()
        stored = self.meta("shipped_catalog_digest")
        if stored == digest and not force:
            return False
        items: list[CatalogItem] = []
        for path in shipped_catalog_files():
            items.extend(load_catalog_file(path))

        def seed(con: duckdb.DuckDBPyConnection) -> None:
            con.execute("DELETE FROM catalog_item WHERE origin = 'shipped'")
            for item in items:
                _insert_item(con, item, "shipped")
            self._set_meta(con, "shipped_catalog_digest", digest)
            self._set_meta(con, "shipped_catalog_app_version", __version__)

        self.write(seed, Changes(catalog=True))
        return True

    def shipped_catalog_is_current(self) -> bool:
        """Whether the shipped rows are this version's shipped catalog (a writable open
        re-seeds them when not; a read-only one cannot)."""
        return self.meta("shipped_catalog_digest") == shipped_catalog_digest()

    def meta(self, key: str) -> str | None:
        row = self.read(
            lambda cur: cur.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        )
        return row[0] if row else None

    @staticmethod
    def _set_meta(con: duckdb.DuckDBPyConnection, key: str, value: str) -> None:
        con.execute("DELETE FROM meta WHERE key = ?", [key])
        con.execute("INSERT INTO meta (key, value) VALUES (?, ?)", [key, value])

    def catalog_entries(
        self, kind: str | None = None, *, include_shadowed: bool = False
    ) -> list[CatalogEntry]:
        """Catalog rows, shipped and user, ordered by kind and name.

        A user item replaces a shipped item of the same kind and name; the shipped one is
        left out unless `include_shadowed`.
        """
        sql = f"SELECT {_CATALOG_COLUMNS}, name_key, id FROM catalog_item"
        params: list[Any] = []
        if kind:
            sql += " WHERE kind = ?"
            params.append(kind)
        sql += " ORDER BY kind, origin = 'user', id"
        rows = self.read(lambda cur: cur.execute(sql, params).fetchall())
        user_keys = {(r[0], r[18]) for r in rows if r[15] == "user"}
        shipped_keys = {(r[0], r[18]) for r in rows if r[15] == "shipped"}
        out: list[CatalogEntry] = []
        for r in rows:
            key = (r[0], r[18])
            shadowed = r[15] == "shipped" and key in user_keys
            if shadowed and not include_shadowed:
                continue
            out.append(
                CatalogEntry(
                    item=_item_from_row(r),
                    origin=r[15],
                    updated_at=_aware(r[16]),  # type: ignore[arg-type]
                    overrides_shipped=r[15] == "user" and key in shipped_keys,
                    shadowed=shadowed,
                )
            )
        return out

    def catalog(self) -> Catalog:
        """The effective catalog for the model: shipped items, then user items (which win)."""
        entries = self.catalog_entries(include_shadowed=True)
        ordered = [e.item for e in entries if e.origin == "shipped"]
        ordered += [e.item for e in entries if e.origin == "user"]
        return Catalog(ordered)

    # ---------------------------------------------------------------- prices (DESIGN §8)

    def currency(self) -> str:
        """The user's currency, else the shipped catalog's."""
        return self.meta("currency") or shipped_catalog_currency()

    def set_currency(self, code: str) -> None:
        code = code.strip().upper()
        if not (2 <= len(code) <= 5 and code.isalpha()):
            raise StoreError(f"currency {code!r} is not a code such as EUR, USD or GBP")
        self.write(lambda con: self._set_meta(con, "currency", code), Changes(catalog=True))

    def user_prices(self) -> dict[tuple[str, str], float]:
        """The user's quotes: unit price by (kind, name)."""
        rows = self.read(
            lambda cur: cur.execute(
                "SELECT kind, name, price FROM catalog_price ORDER BY kind, name"
            ).fetchall()
        )
        return {(kind, name): price for kind, name, price in rows}

    def set_price(self, kind: str, name: str, amount: float | None) -> None:
        """Keep the user's quote for one unit of (kind, name); None forgets it."""

        def store_price(con: duckdb.DuckDBPyConnection) -> None:
            con.execute(
                "DELETE FROM catalog_price WHERE kind = ? AND name_key = ?", [kind, _norm(name)]
            )
            if amount is not None:
                con.execute(
                    "INSERT INTO catalog_price (kind, name, name_key, price, updated_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [kind, name, _norm(name), float(amount), _utcnow()],
                )

        self.write(store_price, Changes(catalog=True))

    def add_catalog_items(self, items: Iterable[CatalogItem]) -> CatalogChange:
        """Add or replace user items (matched by kind and name). Shipped rows are kept."""
        items = list(items)

        def add(con: duckdb.DuckDBPyConnection) -> CatalogChange:
            added: list[str] = []
            updated: list[str] = []
            for item in items:
                key = [item.kind, _norm(item.name)]
                gone = con.execute(
                    "DELETE FROM catalog_item WHERE origin = 'user' AND kind = ? "
                    "AND name_key = ? RETURNING id",
                    key,
                ).fetchall()
                (updated if gone else added).append(f"{item.kind}/{item.name}")
                _insert_item(con, item, "user")
            return CatalogChange(added=tuple(added), updated=tuple(updated))

        return self.write(add, Changes(catalog=True))

    def remove_catalog_item(self, kind: str, name: str) -> None:
        """Remove a user item; the shipped item of that name (if any) applies again."""

        def remove(con: duckdb.DuckDBPyConnection) -> None:
            gone = con.execute(
                "DELETE FROM catalog_item WHERE origin = 'user' AND kind = ? AND name_key = ? "
                "RETURNING id",
                [kind, _norm(name)],
            ).fetchall()
            if not gone:
                shipped = con.execute(
                    "SELECT count(*) FROM catalog_item WHERE kind = ? AND name_key = ?",
                    [kind, _norm(name)],
                ).fetchone()
                if shipped and shipped[0]:
                    raise NotFoundError(
                        f"{kind} '{name}' is a shipped catalog item and cannot be removed",
                        hint="add a user item of the same kind and name to override it",
                    )
                raise NotFoundError(f"the catalog has no user item {kind} '{name}'")

        self.write(remove, Changes(catalog=True))

    # ---------------------------------------------------------------- scenarios

    def _scenario_row(
        self, con: duckdb.DuckDBPyConnection, name: str, *, deleted_ok: bool = False
    ) -> tuple[int, datetime | None]:
        row = con.execute(
            "SELECT id, deleted_at FROM scenario WHERE name = ? ORDER BY id DESC LIMIT 1",
            [name],
        ).fetchone()
        if row is None:
            raise NotFoundError(
                f"no scenario named '{name}' in {self.path}",
                hint="'rto-planner scenarios list' shows the names",
            )
        if row[1] is not None and not deleted_ok:
            raise NotFoundError(
                f"scenario '{name}' was deleted on {row[1]:%Y-%m-%d %H:%M} UTC",
                hint=f"'rto-planner scenarios undelete \"{name}\"' brings it back",
            )
        return int(row[0]), row[1]

    @staticmethod
    def _version_from_row(name: str, row: tuple) -> ScenarioVersion:
        vid, version, saved_at, comment, text, chash, restored_from, app_version = row
        return ScenarioVersion(
            id=int(vid), scenario=name, version=int(version),
            saved_at=_aware(saved_at),  # type: ignore[arg-type]
            comment=comment, text=text, content_hash=chash,
            restored_from=restored_from, app_version=app_version,
        )  # fmt: skip

    _VERSION_COLS = (
        "id, version, saved_at, comment, toml_text, content_hash, restored_from, app_version"
    )

    def save_scenario(
        self, text: str, *, comment: str = "", source: str = "<text>"
    ) -> ScenarioVersion:
        """Validate a scenario's TOML text and save it as the next version of its name.

        Every save is a new version, even when the text is unchanged, because a save is
        also a record that someone looked at it then. The text is kept byte for byte.
        """
        name = _scenario_name_from_text(text, source, self.catalog())
        return self._add_version(name, text, comment=comment, restored_from=None)

    def _add_version(
        self, name: str, text: str, *, comment: str, restored_from: int | None
    ) -> ScenarioVersion:
        def add(con: duckdb.DuckDBPyConnection) -> ScenarioVersion:
            now = _utcnow()
            row = con.execute(
                "SELECT id, deleted_at FROM scenario WHERE name = ? ORDER BY id DESC LIMIT 1",
                [name],
            ).fetchone()
            if row is None:
                sid = con.execute(
                    "INSERT INTO scenario (name, created_at) VALUES (?, ?) RETURNING id",
                    [name, now],
                ).fetchone()[0]
            elif row[1] is not None:
                raise StoreError(
                    f"scenario '{name}' is deleted (in the bin since {row[1]:%Y-%m-%d %H:%M} UTC)",
                    hint=f"'rto-planner scenarios undelete \"{name}\"' first, or rename it",
                )
            else:
                sid = row[0]
            (last,) = con.execute(
                "SELECT coalesce(max(version), 0) FROM scenario_version WHERE scenario_id = ?",
                [sid],
            ).fetchone()
            new = con.execute(
                "INSERT INTO scenario_version (scenario_id, version, saved_at, comment, "
                "toml_text, content_hash, restored_from, app_version) "
                f"VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING {self._VERSION_COLS}",
                [sid, last + 1, now, comment, text, _sha256(text), restored_from, __version__],
            ).fetchone()
            return self._version_from_row(name, new)

        return self.write(add, Changes(scenarios=True))

    def scenarios(self, *, include_deleted: bool = False) -> list[ScenarioSummary]:
        """Scenarios by name with their latest version; deleted ones only on request."""
        sql = (
            "SELECT s.name, s.created_at, s.deleted_at, count(*) AS n, "
            "arg_max(v.version, v.version), arg_max(v.saved_at, v.version), "
            "arg_max(v.comment, v.version) "
            "FROM scenario s JOIN scenario_version v ON v.scenario_id = s.id "
        )
        if not include_deleted:
            sql += "WHERE s.deleted_at IS NULL "
        sql += "GROUP BY s.id, s.name, s.created_at, s.deleted_at ORDER BY s.name, s.id"
        rows = self.read(lambda cur: cur.execute(sql).fetchall())
        return [
            ScenarioSummary(
                name=name,
                versions=int(n),
                latest_version=int(last),
                latest_saved_at=_aware(saved),  # type: ignore[arg-type]
                latest_comment=comment,
                created_at=_aware(created),  # type: ignore[arg-type]
                deleted_at=_aware(deleted),
                purge_after=_aware(deleted + GRACE_PERIOD) if deleted else None,
            )
            for name, created, deleted, n, last, saved, comment in rows
        ]

    def history(self, name: str) -> list[ScenarioVersion]:
        """Every version of a scenario, oldest first."""

        def q(cur: duckdb.DuckDBPyConnection) -> list[ScenarioVersion]:
            sid, _ = self._scenario_row(cur, name, deleted_ok=True)
            rows = cur.execute(
                f"SELECT {self._VERSION_COLS} FROM scenario_version WHERE scenario_id = ? "
                "ORDER BY version",
                [sid],
            ).fetchall()
            return [self._version_from_row(name, r) for r in rows]

        return self.read(q)

    def scenario_version(self, name: str, version: int | None = None) -> ScenarioVersion:
        """One version (the latest when `version` is None)."""

        def q(cur: duckdb.DuckDBPyConnection) -> ScenarioVersion:
            sid, _ = self._scenario_row(cur, name, deleted_ok=True)
            if version is None:
                row = cur.execute(
                    f"SELECT {self._VERSION_COLS} FROM scenario_version WHERE scenario_id = ? "
                    "ORDER BY version DESC LIMIT 1",
                    [sid],
                ).fetchone()
            else:
                row = cur.execute(
                    f"SELECT {self._VERSION_COLS} FROM scenario_version WHERE scenario_id = ? "
                    "AND version = ?",
                    [sid, version],
                ).fetchone()
            if row is None:
                raise NotFoundError(
                    f"scenario '{name}' has no version {version}",
                    hint=f"'rto-planner scenarios history \"{name}\"' lists its versions",
                )
            return self._version_from_row(name, row)

        return self.read(q)

    def export_scenario(self, name: str, version: int | None = None) -> str:
        """The TOML text of a version, exactly as it was saved."""
        return self.scenario_version(name, version).text

    def import_scenario(self, path: str | Path, *, comment: str | None = None) -> ScenarioVersion:
        """Save a scenario file as a new version; the file's bytes are kept exactly."""
        path = Path(path)
        try:
            text = read_limited(path, MAX_SCENARIO_BYTES, "scenario file").decode("utf-8")
        except InputFileError as exc:
            raise ScenarioError(exc.reason, source=str(path)) from None
        except OSError as exc:
            raise StoreError(f"{path}: cannot read the scenario file ({exc.strerror})") from None
        except UnicodeDecodeError as exc:
            raise ScenarioError(f"not UTF-8 text ({exc.reason})", source=str(path)) from None
        return self.save_scenario(
            text, comment=comment if comment is not None else f"imported from {path.name}",
            source=str(path),
        )  # fmt: skip

    def diff(self, name: str, from_version: int, to_version: int | None = None) -> ScenarioDiff:
        """A unified diff of two versions' texts (`to_version` defaults to the latest)."""
        a = self.scenario_version(name, from_version)
        b = self.scenario_version(name, to_version)
        lines = difflib.unified_diff(
            a.text.splitlines(), b.text.splitlines(),
            fromfile=f"{name} v{a.version}", tofile=f"{name} v{b.version}", lineterm="",
        )  # fmt: skip
        return ScenarioDiff(name, a.version, b.version, tuple(lines))

    def restore_version(
        self, name: str, version: int, *, comment: str | None = None
    ) -> ScenarioVersion:
        """Make an old version current by saving its text as a new version.

        History is never rewritten: restoring version 1 of three gives version 4.
        """
        old = self.scenario_version(name, version)
        return self._add_version(
            name, old.text, restored_from=old.version,
            comment=comment if comment is not None else f"restored version {old.version}",
        )  # fmt: skip

    def delete_scenario(self, name: str) -> datetime:
        """Move a scenario to the bin; returns when it will be purged (after GRACE_PERIOD)."""

        def delete(con: duckdb.DuckDBPyConnection) -> datetime:
            sid, _ = self._scenario_row(con, name)
            now = _utcnow()
            con.execute("UPDATE scenario SET deleted_at = ? WHERE id = ?", [now, sid])
            return now + GRACE_PERIOD

        return _aware(self.write(delete, Changes(scenarios=True)))  # type: ignore[return-value]

    def undelete_scenario(self, name: str) -> None:
        """Take a scenario out of the bin, with all its versions."""

        def undelete(con: duckdb.DuckDBPyConnection) -> None:
            live = con.execute(
                "SELECT count(*) FROM scenario WHERE name = ? AND deleted_at IS NULL", [name]
            ).fetchone()[0]
            if live:
                raise StoreError(f"scenario '{name}' is not deleted")
            sid, _ = self._scenario_row(con, name, deleted_ok=True)
            con.execute("UPDATE scenario SET deleted_at = NULL WHERE id = ?", [sid])

        self.write(undelete, Changes(scenarios=True))

    def purge_deleted(self, *, older_than: timedelta = GRACE_PERIOD) -> int:
        """Remove scenarios deleted more than `older_than` ago; returns how many.

        Runs on every writable open, so the grace period needs no background job.
        """
        cutoff = _utcnow() - older_than
        count = self.read(
            lambda cur: cur.execute(
                "SELECT count(*) FROM scenario WHERE deleted_at IS NOT NULL AND deleted_at <= ?",
                [cutoff],
            ).fetchone()[0]
        )
        if not count:
            return 0

        def purge(con: duckdb.DuckDBPyConnection) -> int:
            ids = "SELECT id FROM scenario WHERE deleted_at IS NOT NULL AND deleted_at <= ?"
            versions = f"SELECT id FROM scenario_version WHERE scenario_id IN ({ids})"
            con.execute(
                f"DELETE FROM plan_result WHERE scenario_version_id IN ({versions})", [cutoff]
            )
            con.execute(f"DELETE FROM scenario_version WHERE scenario_id IN ({ids})", [cutoff])
            return len(con.execute(f"DELETE FROM scenario WHERE id IN ({ids}) RETURNING id",
                                   [cutoff]).fetchall())  # fmt: skip

        return self.write(purge, Changes(scenarios=True, results=True))

    def load_scenario(self, name: str, version: int | None = None) -> Any:
        """The validated `Scenario` of a version, with the store's catalog."""

        v = self.scenario_version(name, version)
        return load_scenario_text(v.text, source=f"{name} v{v.version}", catalog=self.catalog())

    # ---------------------------------------------------------------- results

    def record_result(
        self, version: ScenarioVersion, plan: dict[str, Any], *, inputs_hash: str,
        engine_version: str = ENGINE_VERSION,
    ) -> StoredResult:  # fmt: skip
        """Keep a computed plan (JSON per DESIGN §5) for a stored scenario version."""
        payload = json.dumps(plan, sort_keys=True, allow_nan=False)

        def add(con: duckdb.DuckDBPyConnection) -> StoredResult:
            now = _utcnow()
            (rid,) = con.execute(
                "INSERT INTO plan_result (scenario_version_id, inputs_hash, engine_version, "
                "computed_at, plan) VALUES (?, ?, ?, ?, ?) RETURNING id",
                [version.id, inputs_hash, engine_version, now, payload],
            ).fetchone()
            return StoredResult(
                id=int(rid), scenario=version.scenario, version=version.version,
                scenario_version_id=version.id, computed_at=_aware(now),  # type: ignore[arg-type]
                inputs_hash=inputs_hash, engine_version=engine_version, plan=json.loads(payload),
            )  # fmt: skip

        return self.write(add, Changes(results=True))

    def results(self, name: str, version: int | None = None) -> list[StoredResult]:
        """Stored results of a scenario (of one version if given), oldest first."""

        def q(cur: duckdb.DuckDBPyConnection) -> list[StoredResult]:
            sid, _ = self._scenario_row(cur, name, deleted_ok=True)
            sql = (
                "SELECT r.id, v.version, v.id, r.computed_at, r.inputs_hash, r.engine_version, "
                "r.plan FROM plan_result r JOIN scenario_version v "
                "ON v.id = r.scenario_version_id WHERE v.scenario_id = ?"
            )
            params: list[Any] = [sid]
            if version is not None:
                sql += " AND v.version = ?"
                params.append(version)
            rows = cur.execute(sql + " ORDER BY r.id", params).fetchall()
            return [
                StoredResult(
                    id=int(rid),
                    scenario=name,
                    version=int(ver),
                    scenario_version_id=int(vid),
                    computed_at=_aware(at),
                    inputs_hash=ih,  # type: ignore[arg-type]
                    engine_version=ev,
                    plan=json.loads(plan),
                )
                for rid, ver, vid, at, ih, ev, plan in rows
            ]

        return self.read(q)

    def check_result(self, result: StoredResult) -> ResultCheck:
        """Compare a stored result's inputs hash and engine version with today's."""
        v = self.scenario_version(result.scenario, result.version)
        return ResultCheck(result, inputs_hash(v.text, self.catalog()), ENGINE_VERSION)

    def compute_result(
        self, name: str, version: int | None = None, *, reuse: bool = True
    ) -> StoredResult:
        """Compute the plan of a stored version and keep it (or reuse an identical one).

        "Identical" means same version, same inputs hash and same engine version: then the
        stored plan is what computing again would give.
        """
        from ..plan import compute_plan, plan_to_json

        v = self.scenario_version(name, version)
        catalog = self.catalog()
        ih = inputs_hash(v.text, catalog)
        if reuse:
            for r in reversed(self.results(name, v.version)):
                if r.inputs_hash == ih and r.engine_version == ENGINE_VERSION:
                    return r

        scenario = load_scenario_text(v.text, source=f"{name} v{v.version}", catalog=catalog)
        plan = plan_to_json(compute_plan(scenario))
        return self.record_result(v, plan, inputs_hash=ih, engine_version=ENGINE_VERSION)
