"""The store's `meta` table: one value per key (the shipped catalog's digest, the currency).

Also the time helpers every concern module stamps its rows with.
"""

from __future__ import annotations

from datetime import UTC, datetime

import duckdb

from .storefile import StoreFile


def utcnow() -> datetime:
    """Now, in UTC without tzinfo: how the TIMESTAMP columns store it."""
    return datetime.now(UTC).replace(tzinfo=None)


def aware(ts: datetime | None) -> datetime | None:
    """A stored (naive UTC) timestamp as an aware one."""
    return None if ts is None else ts.replace(tzinfo=UTC)


def meta(store: StoreFile, key: str) -> str | None:
    row = store.read(
        lambda cur: cur.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    )
    return row[0] if row else None


def set_meta(con: duckdb.DuckDBPyConnection, key: str, value: str) -> None:
    """Inside a write: replace the value of `key`."""
    con.execute("DELETE FROM meta WHERE key = ?", [key])
    con.execute("INSERT INTO meta (key, value) VALUES (?, ?)", [key, value])
