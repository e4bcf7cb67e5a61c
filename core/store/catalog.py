"""The catalog in the store: the shipped items (re-seeded when a release changes them) and
the user's items, which win over a shipped item of the same kind and name.

Functions over a `StoreFile`; `Store` offers them as methods (`store.catalog()`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import duckdb

from .. import __version__
from ..catalog import (
    Catalog,
    CatalogItem,
    _norm,
    item_to_mapping,
    load_catalog_file,
    shipped_catalog_digest,
    shipped_catalog_files,
)
from .errors import NotFoundError
from .meta import aware, meta, set_meta, utcnow
from .models import CatalogChange, CatalogEntry, Changes
from .storefile import StoreFile

_COLUMNS = (
    "kind, name, source, rate_Bps, derate, hw_compression, compressed_rate_Bps, "
    "backup_rate_Bps, ratio, cpu_cost, load_s, unload_s, locate_s, notes, extra, origin, "
    "updated_at, price"
)
_ORIGIN, _UPDATED, _NAME_KEY = 15, 16, 18  # positions in a row of `_COLUMNS, name_key, id`


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
    now = utcnow()
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


def seed_catalog(store: StoreFile, *, force: bool = False) -> bool:
    """Replace the shipped rows when the shipped catalog changed (user rows untouched)."""
    digest = shipped_catalog_digest()
    if meta(store, "shipped_catalog_digest") == digest and not force:
        return False
    items: list[CatalogItem] = []
    for path in shipped_catalog_files():
        items.extend(load_catalog_file(path))

    def seed(con: duckdb.DuckDBPyConnection) -> None:
        con.execute("DELETE FROM catalog_item WHERE origin = 'shipped'")
        for item in items:
            _insert_item(con, item, "shipped")
        set_meta(con, "shipped_catalog_digest", digest)
        set_meta(con, "shipped_catalog_app_version", __version__)

    store.write(seed, Changes(catalog=True))
    return True


def shipped_catalog_is_current(store: StoreFile) -> bool:
    """Whether the shipped rows are this version's shipped catalog (a writable open
    re-seeds them when not; a read-only one cannot)."""
    return meta(store, "shipped_catalog_digest") == shipped_catalog_digest()


def _entry(row: tuple, user_keys: set, shipped_keys: set) -> CatalogEntry:
    key = (row[0], row[_NAME_KEY])
    return CatalogEntry(
        item=_item_from_row(row),
        origin=row[_ORIGIN],
        updated_at=aware(row[_UPDATED]),  # type: ignore[arg-type]
        overrides_shipped=row[_ORIGIN] == "user" and key in shipped_keys,
        shadowed=row[_ORIGIN] == "shipped" and key in user_keys,
    )


def catalog_entries(
    store: StoreFile, kind: str | None = None, *, include_shadowed: bool = False
) -> list[CatalogEntry]:
    """Catalog rows, shipped and user, ordered by kind and name.

    A user item replaces a shipped item of the same kind and name; the shipped one is
    left out unless `include_shadowed`.
    """
    sql = f"SELECT {_COLUMNS}, name_key, id FROM catalog_item"
    params: list[Any] = []
    if kind:
        sql += " WHERE kind = ?"
        params.append(kind)
    sql += " ORDER BY kind, origin = 'user', id"
    rows = store.read(lambda cur: cur.execute(sql, params).fetchall())
    keys = {o: {(r[0], r[_NAME_KEY]) for r in rows if r[_ORIGIN] == o} for o in ("user", "shipped")}
    entries = (_entry(r, keys["user"], keys["shipped"]) for r in rows)
    return [e for e in entries if include_shadowed or not e.shadowed]


def catalog(store: StoreFile) -> Catalog:
    """The effective catalog for the model: shipped items, then user items (which win)."""
    entries = catalog_entries(store, include_shadowed=True)
    ordered = [e.item for e in entries if e.origin == "shipped"]
    ordered += [e.item for e in entries if e.origin == "user"]
    return Catalog(ordered)


def add_catalog_items(store: StoreFile, items: Iterable[CatalogItem]) -> CatalogChange:
    """Add or replace user items (matched by kind and name). Shipped rows are kept."""
    items = list(items)

    def add(con: duckdb.DuckDBPyConnection) -> CatalogChange:
        added: list[str] = []
        updated: list[str] = []
        for item in items:
            gone = con.execute(
                "DELETE FROM catalog_item WHERE origin = 'user' AND kind = ? "
                "AND name_key = ? RETURNING id",
                [item.kind, _norm(item.name)],
            ).fetchall()
            (updated if gone else added).append(f"{item.kind}/{item.name}")
            _insert_item(con, item, "user")
        return CatalogChange(added=tuple(added), updated=tuple(updated))

    return store.write(add, Changes(catalog=True))


def remove_catalog_item(store: StoreFile, kind: str, name: str) -> None:
    """Remove a user item; the shipped item of that name (if any) applies again."""

    def remove(con: duckdb.DuckDBPyConnection) -> None:
        key = [kind, _norm(name)]
        gone = con.execute(
            "DELETE FROM catalog_item WHERE origin = 'user' AND kind = ? AND name_key = ? "
            "RETURNING id",
            key,
        ).fetchall()
        if gone:
            return
        shipped = con.execute(
            "SELECT count(*) FROM catalog_item WHERE kind = ? AND name_key = ?", key
        ).fetchone()
        if shipped and shipped[0]:
            raise NotFoundError(
                f"{kind} '{name}' is a shipped catalog item and cannot be removed",
                hint="add a user item of the same kind and name to override it",
            )
        raise NotFoundError(f"the catalog has no user item {kind} '{name}'")

    store.write(remove, Changes(catalog=True))
