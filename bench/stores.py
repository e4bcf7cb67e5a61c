"""Stores of a given size for the benchmarks (a helper module, not a benchmark).

`store_with_scenarios(n)` returns a store file holding `n` scenarios (the demo saved once
through the API, the rest copied in SQL under numbered names), kept in the temporary
folder between runs so a benchmark pays for it once.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from rtoplanner.core.store import Store

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"
CACHE = Path(tempfile.gettempdir()) / "rto-bench-stores"


def store_with_scenarios(n: int) -> Path:
    from rtoplanner.core.store import SCHEMA_VERSION

    path = CACHE / f"scenarios_{n}_v{SCHEMA_VERSION}.duckdb"
    if path.exists():
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.duckdb")
    partial.unlink(missing_ok=True)
    with Store(partial) as store:
        base = store.import_scenario(DEMO)
        if n > 1:
            store.write(lambda con: _copies(con, base.scenario, n - 1))
    partial.rename(path)
    return path


def _copies(con, name: str, count: int) -> None:
    (base_id,) = con.execute("SELECT id FROM scenario WHERE name = ?", [name]).fetchone()
    con.execute(
        "INSERT INTO scenario (name, created_at) "
        "SELECT ? || ' ' || lpad(i::VARCHAR, 5, '0'), now()::TIMESTAMP FROM range(1, ? + 1) r(i)",
        [name, count],
    )
    con.execute(
        "INSERT INTO scenario_version (scenario_id, version, saved_at, comment, toml_text, "
        "content_hash, app_version) "
        "SELECT s.id, 1, v.saved_at, v.comment, "
        "replace(v.toml_text, 'name = \"' || ? || '\"', 'name = \"' || s.name || '\"'), "
        "v.content_hash, v.app_version "
        "FROM scenario s, scenario_version v WHERE s.id <> ? AND v.scenario_id = ?",
        [name, base_id, base_id],
    )
