"""Errors of the store.

Each message names the file and says what the user can do, because the store is the one
part of the program where a user's data is at stake: "database error" helps nobody, "the
file is open in another RTO Planner (PID 4711); close it or pass --db" does.

`translate_duckdb_error` turns DuckDB's exceptions into these.

They derive from `RuntimeError` (besides `CoreError`) rather than `ValueError`: the
problem is the state of a file on disk, not a value the caller passed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import CoreError

if TYPE_CHECKING:  # DuckDB is imported by the modules that use it (`catalog_stamp.py`)
    import duckdb


class StoreError(CoreError, RuntimeError):
    """Any problem with the store file that the user can act on."""


class StoreLockedError(StoreError):
    """Another process (or another `Store` in this process) has the file open."""


class StoreTooNewError(StoreError):
    """The file was written by a newer RTO Planner (or DuckDB); it is left untouched."""


class StoreCorruptError(StoreError):
    """The file is not a DuckDB database, is truncated or damaged; it is never overwritten."""


class NotAStoreError(StoreError):
    """A valid DuckDB file that is not an RTO Planner store (it has no `schema_version`)."""


class StoreMigrationError(StoreError):
    """A migration failed; it was rolled back and a copy of the file was kept."""


class StoreNeedsUpgradeError(StoreError):
    """An older file that a read-only open cannot upgrade; a writable open does."""


class StoreReadOnlyError(StoreError):
    """A write was attempted on a store opened read-only."""


class NotFoundError(StoreError, LookupError):
    """A scenario, version or catalog item that the store does not have."""


# ----------------------------------------------------------------------------- DuckDB's


RECOVERY_HINT = (
    "the file was not changed; restore it from a backup (a copy '*.bak.duckdb' is kept "
    "beside it before every migration) or pass --db with a new file"
)
LOCKED_HINT = "close the other window or command and try again, or pass --db with another file"


def locked_error(path: Path, pid: str | None) -> StoreLockedError:
    who = f" (PID {pid})" if pid else ""
    return StoreLockedError(f"{path} is open in another RTO Planner process{who}", hint=LOCKED_HINT)


def translate_duckdb_error(exc: duckdb.Error, path: Path) -> StoreError:
    """Turn a DuckDB exception into a message that names the file and what to do."""
    msg = str(exc)
    first = msg.strip().splitlines()[0] if msg.strip() else type(exc).__name__
    if "Could not set lock" in msg or "Conflicting lock" in msg:
        pid = re.search(r"PID (\d+)", msg)
        return locked_error(path, pid.group(1) if pid else None)
    return _environment_error(msg, path) or _file_error(exc, msg, first, path)


def _file_error(exc: duckdb.Error, msg: str, first: str, path: Path) -> StoreError:
    """What a DuckDB error says about the file itself (foreign, too new, damaged)."""
    import duckdb  # loaded already: it raised `exc`

    if "not a valid DuckDB database file" in msg:
        return StoreCorruptError(
            f"{path} is not a DuckDB database (or its header is damaged)", hint=RECOVERY_HINT
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
        return StoreCorruptError(f"{path} is damaged or truncated ({first})", hint=RECOVERY_HINT)
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
