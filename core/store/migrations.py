"""Numbered, forward-only migrations of the store schema (STYLE §8).

The list is explicit rather than discovered so that a frozen bundle (PyInstaller) knows
which files to carry and so that two branches adding the same number collide in a test,
not on a user's disk. Each migration runs in one transaction together with the row that
records it in `schema_version`, so a file is always at exactly one schema version: a
crash or an error mid-migration leaves it at the previous one (vorta#1512 shows what
half-applied migrations do).

To add a migration: write `migrations/000N_what.sql` (or a Python function taking the
connection), append `Migration(N, "000N_what.sql")` to `MIGRATIONS`, run
`python tests/store/make_fixture.py` to keep a fixture of the schema you are leaving
behind, and commit both. Rules for DuckDB: no PRIMARY KEY/UNIQUE/FOREIGN KEY on tables
that may be altered; to change a column type, create a new table, copy, drop, rename.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

import duckdb


@dataclass(frozen=True)
class Migration:
    """One schema step: an SQL file in `migrations/`, or a Python function.

    `python` exists for steps SQL cannot express (re-deriving data in Python); it runs on
    the migration's connection inside the same transaction.
    """

    version: int
    name: str
    python: Callable[[duckdb.DuckDBPyConnection], None] | None = None

    def sql(self) -> str | None:
        if not self.name.endswith(".sql"):
            return None
        return resources.files(__package__).joinpath("migrations", self.name).read_text("utf-8")

    def apply(self, con: duckdb.DuckDBPyConnection) -> None:
        sql = self.sql()
        if sql is not None:
            con.execute(sql)
        if self.python is not None:
            self.python(con)


def _price_currency(con: duckdb.DuckDBPyConnection) -> None:
    """0006: the quotes stored so far are in the currency that was in force: the user's
    (`meta` 'currency'), else the shipped catalog's."""
    from ..catalog import shipped_catalog_currency

    row = con.execute("SELECT value FROM meta WHERE key = 'currency'").fetchone()
    code = row[0] if row and row[0] else shipped_catalog_currency()
    con.execute("UPDATE catalog_price SET currency = ? WHERE currency IS NULL", [code])


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "0001_init.sql"),
    Migration(2, "0002_catalog_prices.sql"),
    Migration(3, "0003_workload_keys.sql"),
    Migration(4, "0004_estates.sql"),
    Migration(5, "0005_drills.sql"),
    Migration(6, "0006_price_currency.sql", _price_currency),
)

SCHEMA_VERSION: int = MIGRATIONS[-1].version
"""The schema this program writes. Files at a higher version are refused."""


def check_migration_list(migrations: tuple[Migration, ...] = MIGRATIONS) -> None:
    """Fail loudly on duplicate, missing or misnamed migration numbers (run by a test)."""
    for expected, m in enumerate(migrations, start=1):
        if m.version != expected:
            raise AssertionError(f"migration {m.name} has number {m.version}, expected {expected}")
        if not m.name.startswith(f"{m.version:04d}_"):
            raise AssertionError(f"migration file {m.name} does not start with {m.version:04d}_")


_INTEGER_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                  "USMALLINT", "UINTEGER", "UBIGINT")  # fmt: skip


def current_version(con: duckdb.DuckDBPyConnection) -> int | None:
    """The schema version of an open file: 0 for an empty database, None if it is not ours.

    "Not ours" is a DuckDB file with tables but no `schema_version` of our shape (an
    integer `version` column in the main schema; another program's table of that name
    is not ours either: issue 25.16): we never write into someone else's database.
    """
    tables = {
        (schema, name)
        for schema, name in con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() "
            "WHERE database_name = current_database()"
        ).fetchall()
    }
    if ("main", "schema_version") in tables:
        return _version_of(con)
    if tables:
        return None
    return 0


def _version_of(con: duckdb.DuckDBPyConnection) -> int | None:
    """max(version) of our `schema_version` table; None when the table is not ours."""
    types = {
        column: data_type
        for column, data_type in con.execute(
            "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = "
            "current_database() AND schema_name = 'main' AND table_name = 'schema_version'"
        ).fetchall()
    }
    if types.get("version") not in _INTEGER_TYPES or types.get("app_version") != "VARCHAR":
        return None
    row = con.execute("SELECT max(version) FROM main.schema_version").fetchone()
    version = int(row[0]) if row and row[0] is not None else 0
    return version if version >= 0 else None


def apply_migrations(
    con: duckdb.DuckDBPyConnection,
    from_version: int,
    *,
    app_version: str,
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> list[int]:
    """Apply every migration above `from_version`, each in its own transaction.

    Returns the versions applied. On an error the failing step is rolled back and the
    exception propagates; earlier steps stay committed (each is complete on its own).
    """
    applied: list[int] = []
    for m in migrations:
        if m.version <= from_version:
            continue
        con.begin()
        try:
            m.apply(con)
            con.execute(
                "INSERT INTO schema_version (version, name, applied_at, app_version) "
                "VALUES (?, ?, ?, ?)",
                [m.version, m.name, datetime.now(UTC).replace(tzinfo=None), app_version],
            )
            con.commit()
        except BaseException:
            con.rollback()
            raise
        applied.append(m.version)
    return applied
