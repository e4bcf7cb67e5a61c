"""Write `tests/store/data/store_v<SCHEMA_VERSION>.duckdb.gz`: a small store of this schema.

Run it once when you add a migration, *before* bumping SCHEMA_VERSION, so the suite keeps
a real file of every released schema and migrates it (STYLE §9); commit the file. It
refuses to overwrite an existing fixture: released files never change.

The file is gzipped: DuckDB allocates 256 KiB blocks, so even this tiny store is ~1.8 MB
on disk but ~17 KB compressed. Tests unzip it into a temporary directory.

    .venv/bin/python tests/store/make_fixture.py
"""

from __future__ import annotations

import gzip
import sys
import tempfile
from pathlib import Path

from rtoplanner.core.catalog import CatalogItem
from rtoplanner.core.store import SCHEMA_VERSION, Store

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SCENARIO = DATA / "scenario.toml"

# What every fixture holds; test_migrations.py checks these after migrating.
FIXTURE_SCENARIO = "Fixture – Exadata restore from LTO-4"
FIXTURE_USER_ITEM = CatalogItem(
    kind="tape_drive",
    name="LTO-4",
    source="fixture: measured on the customer's library, 2024-03",
    rate_Bps=110e6,
    derate=1.0,
    hw_compression=1.8,
    notes="user item overriding the shipped LTO-4",
)
FIXTURE_ESTATE = "Fixture estate"
ESTATE_TEXT = (
    f'format = 1\nname = "{FIXTURE_ESTATE}"\n\n[[database]]\n'
    f'scenario = "{FIXTURE_SCENARIO}"\npriority = 1\n'
)
FIXTURE_DRILL = {
    "phases": [
        {"name": "restore_level0", "duration_s": 3975.0, "how": "wall", "source": "drill.log"}
    ]
}
FIXTURE_PRICE = ("tape_drive", "LTO-4", 9000.0, "EUR")
"""A quote in its own currency (schema 6 keeps each quote's currency)."""
FIXTURE_PLAN = {"scenario": FIXTURE_SCENARIO, "recovery": {"total_s": 11760.0, "verdict": "meets"}}


def fixture_path(version: int) -> Path:
    return DATA / f"store_v{version}.duckdb.gz"


def build(target: Path) -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    with Store(target) as store:
        v1 = store.save_scenario(text, comment="fixture v1")
        store.save_scenario(text.replace('rto = "4 h"', 'rto = "5 h"'), comment="fixture v2")
        store.add_catalog_items([FIXTURE_USER_ITEM])
        store.record_result(v1, FIXTURE_PLAN, inputs_hash="0" * 64, engine_version="fixture")
        if SCHEMA_VERSION >= 4:  # estates (schema 4)
            from rtoplanner.core.store.estates import save_estate

            save_estate(store, ESTATE_TEXT, comment="fixture estate")
        if SCHEMA_VERSION >= 5:  # drills (schema 5)
            from rtoplanner.core.store.drills import add_drill

            add_drill(
                store,
                FIXTURE_SCENARIO,
                1,
                drill=FIXTURE_DRILL,
                comparison={"rows": []},
                evidence=[{"file": "drill.log", "kind": "rman_log", "sha256": "0" * 64}],
            )
        if SCHEMA_VERSION >= 6:  # each price with its currency (schema 6)
            kind, name, amount, code = FIXTURE_PRICE
            store.set_price(kind, name, amount, code)
            store.set_currency("USD")  # the user's currency now; the quote stays EUR


def main() -> int:
    out = fixture_path(SCHEMA_VERSION)
    if out.exists():
        print(f"{out} exists; a released schema's fixture never changes", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        tmp_file = Path(tmp) / f"store_v{SCHEMA_VERSION}.duckdb"
        build(tmp_file)
        out.write_bytes(gzip.compress(tmp_file.read_bytes(), compresslevel=9, mtime=0))
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
