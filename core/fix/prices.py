"""Prices for "What it takes" (DESIGN §8): what one unit of a thing costs, or that nobody
said.

A `PriceBook` answers `price(kind, name)` from the catalog's own `price` figures and the
user's quotes (which win; the store keeps them). A missing price is `None` and the
optimiser says "unpriced" rather than inventing a number.

Some purchases are not hardware a catalog lists — a Data Guard standby, off-site
replication of backups, the Advanced Compression Option. They are `OPTIONS` of kind
`option`, priced the same way (`rto-planner catalog price "Data Guard standby" 80000`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..catalog import DEFAULT_CURRENCY, Catalog
from ..money import Money, mixed_currency_error
from ..money import format_money as format_money  # re-exported: callers import it here

OPTION_KIND = "option"
LICENCE_KIND = "licence"
"""Oracle licences are catalog items of this kind (DESIGN §12), priced per processor."""
STANDBY = "Data Guard standby"
REPLICATION = "Off-site replication of backups"
ARCHIVE_DISK = "Disk for archived logs (per TB)"
ADVANCED_COMPRESSION = "Advanced Compression Option"
OPTIONS: dict[str, str] = {
    STANDBY: "A standby database at the second site (servers, storage, Data Guard set-up).",
    REPLICATION: "Backups copied off site as they are taken (replicated disk or cloud) "
    "instead of vaulted tapes.",
    ARCHIVE_DISK: "Disk (FRA) to keep the archived logs a recovery needs instead of "
    "restoring them; one unit is one TB.",
}
"""Purchases that are not catalog hardware, with what each stands for."""


def norm_name(name: str) -> str:
    """The lookup key of a name: lower-case letters and digits only (as the catalog does)."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


@dataclass(frozen=True)
class PriceBook:
    """Unit prices by (kind, name) in one currency; the user's quotes over the catalog's.

    `foreign` holds the user's quotes in another currency (by the same key, with the name
    as given): they are shown as given (`money`) but never added into a total in
    `currency` — `price` and `require_one_currency` refuse them in one line (issue 25.4).
    """

    currency: str = DEFAULT_CURRENCY
    prices: Mapping[tuple[str, str], float] = field(default_factory=dict)
    foreign: Mapping[tuple[str, str], tuple[str, Money]] = field(default_factory=dict)

    def price(self, kind: str, name: str | None) -> float | None:
        """One unit's price in `currency`; a quote in another currency is refused."""
        if not name:
            return None
        key = (kind, norm_name(name))
        if key in self.foreign:
            raise mixed_currency_error(self.currency, [self.foreign[key]])
        return self.prices.get(key)

    def money(self, kind: str, name: str | None) -> Money | None:
        """One unit's price as given, in its own currency (for showing, never for adding)."""
        if not name:
            return None
        key = (kind, norm_name(name))
        if key in self.foreign:
            return self.foreign[key][1]
        amount = self.prices.get(key)
        return None if amount is None else Money(amount, self.currency)

    def require_one_currency(self) -> None:
        """Refuse, in one line saying how, to work out totals over quotes in two currencies."""
        if self.foreign:
            raise mixed_currency_error(self.currency, self.foreign.values())

    @classmethod
    def from_catalog(
        cls,
        catalog: Catalog,
        user_prices: Mapping[tuple[str, str], float | Money] | None = None,
        currency: str | None = None,
    ) -> PriceBook:
        """The catalog's item prices, overridden by `user_prices` keyed (kind, name): a
        plain amount is in `currency`, a `Money` in its own (another one goes to
        `foreign`).

        The catalog's prices are in its currency: with another currency (the user's)
        they are not used — a list price in USD is no price in EUR."""
        book_currency = currency or catalog.currency
        prices: dict[tuple[str, str], float] = {}
        if book_currency == catalog.currency:
            prices = {
                (item.kind, norm_name(item.name)): item.price
                for item in catalog
                if item.price is not None
            }
        foreign: dict[tuple[str, str], tuple[str, Money]] = {}
        for (kind, name), quote in (user_prices or {}).items():
            if kind == OPTION_KIND and norm_name(name) == norm_name(ADVANCED_COMPRESSION):
                kind = LICENCE_KIND  # an option before it became a licence item
            key = (kind, norm_name(name))
            if isinstance(quote, Money) and quote.currency != book_currency:
                prices.pop(key, None)
                foreign[key] = (name, quote)
                continue
            prices[key] = quote.amount if isinstance(quote, Money) else quote
        return cls(currency=book_currency, prices=prices, foreign=foreign)


def price_book(store: object | None = None, catalog: Catalog | None = None) -> PriceBook:
    """The prices to use: the catalog's, then the store's quotes and currency (which win).

    `store` is a `core.store.Store` (duck-typed: `catalog()`, `user_prices()`,
    `currency()`), or None for the shipped catalog alone.
    """
    if store is None:
        from ..catalog import shipped_catalog

        return PriceBook.from_catalog(catalog or shipped_catalog())
    cat = catalog or store.catalog()  # type: ignore[attr-defined]
    return PriceBook.from_catalog(
        cat,
        store.user_prices(),  # type: ignore[attr-defined]
        store.currency(),  # type: ignore[attr-defined]
    )
