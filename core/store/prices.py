"""The user's prices in the store (DESIGN §8): quotes per (kind, name) and the currency.

Quotes live apart from the catalog rows (`catalog_price`), so they survive a re-seeded
catalog and may name a stage or an option that is not in the catalog. Functions over a
`StoreFile`; `Store` offers them as methods.
"""

from __future__ import annotations

import duckdb

from ..catalog import _norm, shipped_catalog_currency
from .errors import StoreError
from .meta import meta, set_meta, utcnow
from .models import Changes
from .storefile import StoreFile


def currency(store: StoreFile) -> str:
    """The user's currency, else the shipped catalog's."""
    return meta(store, "currency") or shipped_catalog_currency()


def set_currency(store: StoreFile, code: str) -> None:
    code = code.strip().upper()
    if not (2 <= len(code) <= 5 and code.isalpha()):
        raise StoreError(f"currency {code!r} is not a code such as EUR, USD or GBP")
    store.write(lambda con: set_meta(con, "currency", code), Changes(catalog=True))


def user_prices(store: StoreFile) -> dict[tuple[str, str], float]:
    """The user's quotes: unit price by (kind, name)."""
    rows = store.read(
        lambda cur: cur.execute(
            "SELECT kind, name, price FROM catalog_price ORDER BY kind, name"
        ).fetchall()
    )
    return {(kind, name): price for kind, name, price in rows}


def set_price(store: StoreFile, kind: str, name: str, amount: float | None) -> None:
    """Keep the user's quote for one unit of (kind, name); None forgets it."""

    def store_price(con: duckdb.DuckDBPyConnection) -> None:
        con.execute(
            "DELETE FROM catalog_price WHERE kind = ? AND name_key = ?", [kind, _norm(name)]
        )
        if amount is not None:
            con.execute(
                "INSERT INTO catalog_price (kind, name, name_key, price, updated_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [kind, name, _norm(name), float(amount), utcnow()],
            )

    store.write(store_price, Changes(catalog=True))
