"""Opening a store file: look before writing, create complete, back up, then migrate.

Why this shape (STYLE §8):

* Before DuckDB may write to an existing file we look at it read-only: the header must
  be DuckDB's, the file must not be newer than we understand, and it must be ours (a
  `schema_version` table). A file that fails is reported and never written to.
* A new store is created under a temporary name, fully migrated, then renamed into
  place, so a file at the store's path is either a whole RTO Planner store or not ours.
* An older file is checkpointed, copied aside, then migrated one transaction per step.

`open_connection` is the one entry point; `StoreFile` (storefile.py) calls it with the
lock already held.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from datetime import datetime
from pathlib import Path

import duckdb

from .. import __version__
from . import migrations as _migrations
from .errors import (
    NotAStoreError,
    NotFoundError,
    StoreCorruptError,
    StoreError,
    StoreMigrationError,
    StoreNeedsUpgradeError,
    StoreTooNewError,
    translate_duckdb_error,
)
from .migrations import current_version
from .models import StoreInfo

# `_migrations.SCHEMA_VERSION` / `.MIGRATIONS` are read at run time (not bound at import)
# so that a test can add a step and watch a real file being backed up and migrated.

_DUCKDB_MAGIC = b"DUCK"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 3 * 4096  # DuckDB's file header and its two database headers
_UNCHANGED = "pass --db with another file name; the file was not changed"


def connect(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as exc:
        raise translate_duckdb_error(exc, path) from None


# ----------------------------------------------------------------------------- looking


def _head(path: Path) -> tuple[int, bytes]:
    """The file's size and first 16 bytes; a special file or a directory is refused."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise StoreError(f"{path} is a directory; --db takes a file name")
        if not stat.S_ISREG(mode):
            raise StoreError(
                f"{path} is not a regular file (a device, FIFO or socket); --db takes a store file",
                hint="pass --db with a file name",
            )
        with path.open("rb") as fh:
            return os.fstat(fh.fileno()).st_size, fh.read(16)
    except IsADirectoryError:
        raise StoreError(f"{path} is a directory; --db takes a file name") from None
    except PermissionError:
        raise StoreError(
            f"cannot read the store {path}: permission denied",
            hint="check the permissions of the file; it was not changed",
        ) from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the store file ({exc.strerror or exc})") from None


def check_header(path: Path) -> None:
    """Refuse, before DuckDB sees it, a file that cannot be a DuckDB database."""
    size, head = _head(path)
    if size == 0:
        raise StoreCorruptError(
            f"{path} is empty (0 bytes), not an RTO Planner store",
            hint="remove the empty file or pass --db with another name; it was not changed",
        )
    if head.startswith(_SQLITE_MAGIC):
        raise NotAStoreError(f"{path} is an SQLite database, not an RTO Planner store",
                             hint=_UNCHANGED)  # fmt: skip
    if len(head) < 12 or head[8:12] != _DUCKDB_MAGIC:
        raise StoreCorruptError(
            f"{path} is not a DuckDB database file",
            hint="check that --db names an RTO Planner store; the file was not changed",
        )


def _worth_a_full_read(
    con: duckdb.DuckDBPyConnection, path: Path, version: int, writing: bool
) -> bool:
    """Whether opening should read the whole file first: before any open for writing
    (a command that changes one table must not write into a file with a bad block in
    another: issue 25.13), before a migration rewrites it, after an unclean shutdown (a
    WAL left behind) and when the file is shorter than the blocks DuckDB says it holds.
    A cleanly closed file opened read-only skips it: the full read costs 60-120 ms on a
    large store, and DuckDB still checksums every block it reads later (issue 14)."""
    if writing or version < _migrations.SCHEMA_VERSION:
        return True
    if path.with_name(path.name + ".wal").exists():
        return True
    # A file cut short (a copy that stopped half-way) no longer holds every block.
    ((block_size, blocks),) = con.execute(
        "SELECT block_size, total_blocks FROM pragma_database_size()"
    ).fetchall()
    return path.stat().st_size < _HEADER_BYTES + block_size * blocks


def _read_every_table(con: duckdb.DuckDBPyConnection) -> None:
    """Read every value of every table once (hashing keeps it inside DuckDB), so a
    truncated file or a bad block (DuckDB checksums blocks) shows up here, read-only,
    rather than in the middle of a write."""
    for (table,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
    ).fetchall():
        con.execute(f'SELECT count(*), bit_xor(hash(t)) FROM "{table}" t').fetchall()


def _refuse_foreign_or_newer(con: duckdb.DuckDBPyConnection, path: Path, version: int | None):
    if version is None:
        raise NotAStoreError(
            f"{path} is a DuckDB database of another program, not an RTO Planner store",
            hint=_UNCHANGED,
        )
    if version == 0:
        # RTO Planner creates a store under another name and renames it into place
        # complete (`_create_new`), so an existing file without our tables is someone
        # else's (or an empty database): never write our tables into it.
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


def checked_version(con: duckdb.DuckDBPyConnection, path: Path, *, writing: bool = False) -> int:
    """The schema version of the file `con` (read-only) has open, or raise when the file
    is foreign, too new or (where a full read is worth it: always before `writing`)
    damaged."""
    try:
        version = current_version(con)
        _refuse_foreign_or_newer(con, path, version)
        assert version is not None
        if _worth_a_full_read(con, path, version, writing):
            _read_every_table(con)
        return version
    except duckdb.Error as exc:
        raise translate_duckdb_error(exc, path) from None


def _probe(path: Path) -> int:
    """Open an existing file read-only and return its schema version, or raise.

    Read-only, so a damaged, foreign or too-new file is never written to: DuckDB may
    replay its WAL and checkpoint when it opens a file for writing.
    """
    con = connect(path, read_only=True)
    try:
        return checked_version(con, path, writing=True)
    finally:
        con.close()


def _probe_keeping(path: Path) -> tuple[duckdb.DuckDBPyConnection, int]:
    """A read-only probe whose connection the read-only store keeps: the file is opened
    once (issue 14: `plan` reads the catalog this way)."""
    con = connect(path, read_only=True)
    try:
        return con, checked_version(con, path)
    except BaseException:
        con.close()
        raise


# ----------------------------------------------------------------------------- creating


def create_new(path: Path) -> None:
    """Create the store under a temporary name, complete, then rename it into place.

    So a file at the store's path is either a whole RTO Planner store or was never
    written by us (a crash mid-creation leaves only the temporary file, removed here
    on any error it can see).
    """
    tmp = path.with_name(f".{path.name}.creating-{os.getpid()}")
    leftovers = (tmp, tmp.with_name(tmp.name + ".wal"))
    for leftover in leftovers:
        leftover.unlink(missing_ok=True)
    try:
        _create_migrated(tmp)
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
        for leftover in leftovers:
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)


def _create_migrated(tmp: Path) -> None:
    con = duckdb.connect(str(tmp))
    try:
        _migrations.apply_migrations(
            con, 0, app_version=__version__, migrations=_migrations.MIGRATIONS
        )
        con.execute("CHECKPOINT")
    finally:
        con.close()


# ----------------------------------------------------------------------------- migrating


def _backup_path(path: Path, version: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    suffix = path.suffix or ".duckdb"
    candidate = path.with_name(f"{path.stem}.v{version}.{stamp}.bak{suffix}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}.v{version}.{stamp}-{n}.bak{suffix}")
    return candidate


def backup_before_migration(path: Path, version: int) -> Path:
    """Checkpoint (so the WAL is folded in) and copy the file aside."""
    con = connect(path, read_only=False)
    try:
        con.execute("CHECKPOINT")
    except duckdb.Error as exc:
        raise translate_duckdb_error(exc, path) from None
    finally:
        con.close()
    target = _backup_path(path, version)
    try:
        shutil.copy2(path, target)
        wal = path.with_name(path.name + ".wal")
        if wal.exists():
            shutil.copy2(wal, target.with_name(target.name + ".wal"))
    except OSError as exc:
        raise StoreMigrationError(
            f"{path} needs an upgrade from schema {version}, but the copy to "
            f"{target} failed ({exc.strerror or exc}); nothing was changed",
            hint="free some disk space or check permissions, then try again",
        ) from None
    return target


def _migrate(wcon: duckdb.DuckDBPyConnection, path: Path, backup: Path | None) -> None:
    """Bring the open file to this build's schema (re-checked: it may have changed since
    the probe)."""
    version_now = current_version(wcon)
    if version_now is None or version_now > _migrations.SCHEMA_VERSION:
        raise StoreError(f"{path} changed while it was being opened; try again")
    if version_now == _migrations.SCHEMA_VERSION:
        return
    try:
        _migrations.apply_migrations(
            wcon, version_now, app_version=__version__, migrations=_migrations.MIGRATIONS
        )
    except duckdb.Error as exc:
        where = f"; the copy taken before it is {backup}" if backup else ""
        raise StoreMigrationError(
            f"upgrading {path} from schema {version_now} failed "
            f"({str(exc).splitlines()[0]}); it was rolled back{where}",
            hint="please report this; your data is in the file and the copy",
        ) from None


# ----------------------------------------------------------------------------- opening


def _existing_version(path: Path, read_only: bool):
    """(the read-only store's connection or None, the file's schema version)."""
    check_header(path)
    if read_only:
        con, version = _probe_keeping(path)
        if version < _migrations.SCHEMA_VERSION:
            con.close()
            raise StoreNeedsUpgradeError(
                f"{path} has store schema {version} and needs an upgrade to "
                f"{_migrations.SCHEMA_VERSION}, which a read-only open cannot do",
                hint="open it once without read-only (a copy is kept before upgrading)",
            )
        return con, version
    return None, _probe(path)


def open_connection(path: Path, read_only: bool) -> tuple[duckdb.DuckDBPyConnection, StoreInfo]:
    """Open (creating, or backing up and migrating, as needed) the store at `path`.

    The caller holds the store's lock. Returns the connection the store keeps and the
    facts of this open.
    """
    existed = path.exists()
    con: duckdb.DuckDBPyConnection | None = None
    if existed:
        con, version = _existing_version(path, read_only)
    elif read_only:
        raise NotFoundError(
            f"{path} does not exist", hint="run a command without read-only once to "
            "create it, or pass --db with an existing store"
        )  # fmt: skip
    else:
        create_new(path)
        version = _migrations.SCHEMA_VERSION
    backup = None
    if existed and version < _migrations.SCHEMA_VERSION:
        backup = backup_before_migration(path, version)
    con = con if con is not None else connect(path, read_only)
    if not read_only:
        _migrate_or_close(con, path, backup)
    info = StoreInfo(
        path=path, schema_version=_migrations.SCHEMA_VERSION, read_only=read_only,
        created=not existed, migrated_from=version if backup else None, backup_path=backup,
    )  # fmt: skip
    return con, info


def _migrate_or_close(con: duckdb.DuckDBPyConnection, path: Path, backup: Path | None) -> None:
    try:
        _migrate(con, path, backup)
    except duckdb.Error as exc:
        con.close()
        raise translate_duckdb_error(exc, path) from None
    except BaseException:
        con.close()
        raise
