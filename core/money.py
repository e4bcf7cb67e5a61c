"""Money: an amount always with its currency (issue 25.4).

A price is kept and shown in the currency it was given in. Totals add amounts of one
currency only: a quote in another currency than the user's is never relabelled, and a
sum that would mix two is refused with one line saying how to resolve it
(`MixedCurrencyError`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .catalog import CatalogError


@dataclass(frozen=True)
class Money:
    """An amount of one currency (a quote for one unit, a total)."""

    amount: float
    currency: str

    def text(self) -> str:
        return format_money(self.amount, self.currency)


def format_money(amount: float, currency: str) -> str:
    """`12,500 USD`: whole units, thousands separated (quotes are never to the cent)."""
    return f"{amount:,.0f} {currency}"


def currency_code(text: str) -> str:
    """A currency code as kept (`eur` -> `EUR`); one line for anything else."""
    code = str(text).strip().upper()
    if not (2 <= len(code) <= 5 and code.isalpha() and code.isascii()):
        raise CatalogError(f"currency {text!r} is not a code such as EUR, USD or GBP")
    return code


class MixedCurrencyError(CatalogError):
    """Prices in another currency than the one a total is in (never added, never relabelled)."""


def mixed_currency_error(currency: str, foreign: Iterable[tuple[str, Money]]) -> MixedCurrencyError:
    """The one line that refuses to add `foreign` quotes (name, quote) into `currency`."""
    quotes = sorted(foreign, key=lambda nq: (nq[1].currency, nq[0]))
    shown = ", ".join(f"{name} {quote.text()}" for name, quote in quotes[:3])
    more = f" and {len(quotes) - 3} more" if len(quotes) > 3 else ""
    others = sorted({q.currency for _n, q in quotes})
    first = quotes[0][0] if quotes else "ITEM"
    return MixedCurrencyError(
        f"your prices are in {currency} and {' and '.join(others)} ({shown}{more}); "
        f"a total never adds two currencies",
        hint=f"give every price in {currency}: rto-planner catalog price '{first}' AMOUNT "
        f"--currency {currency}",
    )
