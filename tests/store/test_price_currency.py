"""Issue 25.4: each saved price keeps its currency; a total never adds two currencies.

After `catalog price LTO-9 9500 --currency USD`, an earlier quote of 9,000 EUR stays
9,000 EUR (catalog list, What it takes) and is never added into a USD total: `fix`
refuses in one line that says how to resolve it. Old stores migrate with their quotes
in the currency that was in force (schema 6).
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from store_helpers import unpack_fixture

from rtoplanner.core.cli import main
from rtoplanner.core.fix.prices import PriceBook, price_book
from rtoplanner.core.money import MixedCurrencyError, Money
from rtoplanner.core.scenario import dump_scenario, load_scenario, with_values
from rtoplanner.core.store import MIGRATIONS, Store
from rtoplanner.core.store.migrations import apply_migrations


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def failing(tmp_path: Path, demo_paths: list[Path]) -> Path:
    """A demo scenario that misses (its database twice as large): `fix` prices changes."""
    s = load_scenario(next(p for p in demo_paths if p.stem == "small_gige_lto"))
    s = with_values(s, {"database.size": f"{s.database.size_bytes * 2} B"})
    out = tmp_path / "small_2x.toml"
    out.write_text(dump_scenario(s), encoding="utf-8")
    return out


def _price_of(listing: str, name: str) -> tuple[float | None, str]:
    row = next(r for r in json.loads(listing) if r["name"] == name)
    return row["price"], row["currency"]


def test_an_earlier_price_keeps_its_currency_and_totals_refuse_to_mix(
    capsys: pytest.CaptureFixture[str], store_path: Path, failing: Path
) -> None:
    db = str(store_path)
    rc, _o, err = run(capsys, "catalog", "price", "LTO-8", "9000", "--currency", "EUR",
                      "--db", db)  # fmt: skip
    assert rc == 0, err
    rc, _o, err = run(capsys, "catalog", "price", "LTO-9", "9500", "--currency", "USD",
                      "--db", db)  # fmt: skip
    assert rc == 0, err
    rc, listing, err = run(capsys, "catalog", "list", "--kind", "tape_drive", "--json",
                           "--db", db)  # fmt: skip
    assert rc == 0, err
    assert _price_of(listing, "LTO-8") == (9000.0, "EUR")
    assert _price_of(listing, "LTO-9") == (9500.0, "USD")
    rc, text, err = run(capsys, "catalog", "list", "--kind", "tape_drive", "--db", db)
    assert rc == 0, err
    assert "9,000 EUR" in text and "9,500 USD" in text and "9,000 USD" not in text

    rc, out, err = run(capsys, "fix", str(failing), "--db", db)
    assert rc == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert "USD and EUR" in line and "LTO-8 9,000 EUR" in line
    assert "--currency USD" in line and "9,000 USD" not in line

    # Given again in USD, the quote is one currency with the rest: fix answers.
    rc, _o, err = run(capsys, "catalog", "price", "LTO-8", "8700", "--db", db)
    assert rc == 0, err
    rc, out, err = run(capsys, "fix", str(failing), "--json", "--db", db)
    assert rc == 0, err
    assert json.loads(out)["currency"] == "USD"


def test_setting_the_currency_never_relabels_a_quote(store: Store) -> None:
    store.set_currency("EUR")
    store.set_price("tape_drive", "LTO-9", 9000.0)
    store.set_currency("USD")
    store.set_price("tape_drive", "LTO-8", 100.0, "gbp")
    assert store.user_prices() == {
        ("tape_drive", "LTO-8"): Money(100.0, "GBP"),
        ("tape_drive", "LTO-9"): Money(9000.0, "EUR"),
    }
    book = price_book(store)
    assert book.currency == "USD"
    assert book.money("tape_drive", "lto 9") == Money(9000.0, "EUR")
    with pytest.raises(MixedCurrencyError, match="USD and EUR and GBP"):
        book.require_one_currency()
    with pytest.raises(MixedCurrencyError, match="LTO-9 9,000 EUR"):
        book.price("tape_drive", "LTO-9")


def test_quotes_in_the_books_currency_add_up() -> None:
    from rtoplanner.core.catalog import shipped_catalog

    book = PriceBook.from_catalog(
        shipped_catalog(), {("tape_drive", "LTO-9"): Money(9500.0, "EUR")}, "EUR"
    )
    book.require_one_currency()
    assert book.price("tape_drive", "LTO-9") == 9500.0


def test_a_schema_5_store_keeps_its_quotes_in_the_currency_then_in_force(
    tmp_path: Path,
) -> None:
    """A real schema-5 file with a quote and the user's currency EUR migrates to schema 6
    with the quote in EUR (not in whatever currency is set later)."""
    path = tmp_path / "v5.duckdb"
    con = duckdb.connect(str(path))
    apply_migrations(con, 0, app_version="test", migrations=MIGRATIONS[:5])
    con.execute("INSERT INTO meta (key, value) VALUES ('currency', 'EUR')")
    con.execute(
        "INSERT INTO catalog_price (kind, name, name_key, price, updated_at) "
        "VALUES ('tape_drive', 'LTO-9', 'lto9', 9000, now()::TIMESTAMP)"
    )
    con.close()
    with Store(path) as store:
        assert store.info.migrated_from == 5
        store.set_currency("USD")
        assert store.user_prices() == {("tape_drive", "LTO-9"): Money(9000.0, "EUR")}


def test_the_schema_6_fixture_holds_a_quote_in_another_currency(tmp_path: Path) -> None:
    from make_fixture import FIXTURE_PRICE

    kind, name, amount, code = FIXTURE_PRICE
    with Store(unpack_fixture(6, tmp_path)) as store:
        assert store.currency() == "USD"
        assert store.user_prices() == {(kind, name): Money(amount, code)}
