"""Errors of the store.

Each message names the file and says what the user can do, because the store is the one
part of the program where a user's data is at stake: "database error" helps nobody, "the
file is open in another RTO Planner (PID 4711); close it or pass --db" does.

They derive from `RuntimeError` (besides `CoreError`) rather than `ValueError`: the
problem is the state of a file on disk, not a value the caller passed.
"""

from __future__ import annotations

from ..errors import CoreError


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
