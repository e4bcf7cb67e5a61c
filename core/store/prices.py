"""The user's prices in the store (DESIGN §8): quotes per (kind, name), each with its
currency, and the user's currency (the one a quote given without one is in).

Each quote keeps the currency it was given in (store schema 6, issue 25.4): changing the
currency never relabels an earlier quote. Quotes live apart from the catalog rows
(`catalog_price`), so they survive a re-seeded catalog and may name a stage or an option
that is not in the catalog. Functions over a `StoreFile`; `Store` offers them as methods.
"""

from __future__ import annotations

import duckdb

from ..catalog import CatalogError, _norm, shipped_catalog_currency
from ..money import Money, currency_code
from .errors import StoreError
from .meta import meta, set_meta, utcnow
from .models import Changes
from .storefile import StoreFile


def currency(store: StoreFile) -> str:
    """The user's currency, else the shipped catalog's."""
    return meta(store, "currency") or shipped_catalog_currency()


def _code(text: str) -> str:
    try:
        return currency_code(text)
    except CatalogError as exc:
        raise StoreError(exc.message) from None


def set_currency(store: StoreFile, code: str) -> None:
    """The currency of quotes given from now on without one (earlier ones keep theirs)."""
    code = _code(code)
    store.write(lambda con: set_meta(con, "currency", code), Changes(catalog=True))


def user_prices(store: StoreFile) -> dict[tuple[str, str], Money]:
    """The user's quotes: the price of one unit by (kind, name), in its own currency."""
    rows = store.read(
        lambda cur: cur.execute(
            "SELECT kind, name, price, currency FROM catalog_price ORDER BY kind, name"
        ).fetchall()
    )
    return {(kind, name): Money(price, code) for kind, name, price, code in rows}


def set_price(
    store: StoreFile, kind: str, name: str, amount: float | None, in_currency: str | None = None
) -> None:
    """Keep the user's quote for one unit of (kind, name) in `in_currency` (default: the
    user's currency); None forgets it."""
    code = _code(in_currency) if in_currency else currency(store)

    def store_price(con: duckdb.DuckDBPyConnection) -> None:
        con.execute(
            "DELETE FROM catalog_price WHERE kind = ? AND name_key = ?", [kind, _norm(name)]
        )
        if amount is not None:
            con.execute(
                "INSERT INTO catalog_price (kind, name, name_key, price, currency, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [kind, name, _norm(name), float(amount), code, utcnow()],
            )

    store.write(store_price, Changes(catalog=True))
