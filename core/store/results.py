"""Plans computed for stored scenario versions (DESIGN §5), with what they came from.

A result keeps the plan JSON, the engine version and an inputs hash (the scenario text
and the whole effective catalog), so a later run can tell whether recomputing would give
the same plan. Functions over a `StoreFile`; `Store` offers them as methods.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import duckdb

from .. import ENGINE_VERSION
from ..catalog import Catalog, item_to_mapping
from ..scenario import load_scenario_text
from .catalog import catalog
from .meta import aware, utcnow
from .models import Changes, ResultCheck, ScenarioVersion, StoredResult
from .scenarios import scenario_row, scenario_version
from .storefile import StoreFile


def inputs_hash(text: str, catalog: Catalog) -> str:
    """A sha256 over what a plan is computed from: the scenario text and the catalog.

    The whole effective catalog is hashed (not only the items the scenario names), which
    errs on the side of calling a result stale after a catalog change.
    """
    items = sorted(
        (json.dumps({**item_to_mapping(i), "user": i.user}, sort_keys=True) for i in catalog),
    )
    h = hashlib.sha256()
    h.update(text.encode("utf-8"))
    for line in items:
        h.update(b"\0" + line.encode("utf-8"))
    return h.hexdigest()


def record_result(
    store: StoreFile, version: ScenarioVersion, plan: dict[str, Any], *, inputs_hash: str,
    engine_version: str = ENGINE_VERSION,
) -> StoredResult:  # fmt: skip
    """Keep a computed plan (JSON per DESIGN §5) for a stored scenario version."""
    payload = json.dumps(plan, sort_keys=True, allow_nan=False)

    def add(con: duckdb.DuckDBPyConnection) -> StoredResult:
        now = utcnow()
        (rid,) = con.execute(
            "INSERT INTO plan_result (scenario_version_id, inputs_hash, engine_version, "
            "computed_at, plan) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [version.id, inputs_hash, engine_version, now, payload],
        ).fetchone()
        return StoredResult(
            id=int(rid), scenario=version.scenario, version=version.version,
            scenario_version_id=version.id, computed_at=aware(now),  # type: ignore[arg-type]
            inputs_hash=inputs_hash, engine_version=engine_version, plan=json.loads(payload),
        )  # fmt: skip

    return store.write(add, Changes(results=True))


_RESULTS_SQL = (
    "SELECT r.id, v.version, v.id, r.computed_at, r.inputs_hash, r.engine_version, r.plan "
    "FROM plan_result r JOIN scenario_version v ON v.id = r.scenario_version_id "
    "WHERE v.scenario_id = ?"
)


def results(store: StoreFile, name: str, version: int | None = None) -> list[StoredResult]:
    """Stored results of a scenario (of one version if given), oldest first."""

    def q(cur: duckdb.DuckDBPyConnection) -> list[tuple]:
        sid, _ = scenario_row(store, cur, name, deleted_ok=True)
        if version is None:
            return cur.execute(_RESULTS_SQL + " ORDER BY r.id", [sid]).fetchall()
        sql = _RESULTS_SQL + " AND v.version = ? ORDER BY r.id"
        return cur.execute(sql, [sid, version]).fetchall()

    return [_result_from_row(name, row) for row in store.read(q)]


def _result_from_row(name: str, row: tuple) -> StoredResult:
    rid, ver, vid, at, ih, ev, plan = row
    return StoredResult(
        id=int(rid), scenario=name, version=int(ver), scenario_version_id=int(vid),
        computed_at=aware(at), inputs_hash=ih,  # type: ignore[arg-type]
        engine_version=ev, plan=json.loads(plan),
    )  # fmt: skip


def check_result(store: StoreFile, result: StoredResult) -> ResultCheck:
    """Compare a stored result's inputs hash and engine version with today's."""
    v = scenario_version(store, result.scenario, result.version)
    return ResultCheck(result, inputs_hash(v.text, catalog(store)), ENGINE_VERSION)


def compute_result(
    store: StoreFile, name: str, version: int | None = None, *, reuse: bool = True
) -> StoredResult:
    """Compute the plan of a stored version and keep it (or reuse an identical one).

    "Identical" means same version, same inputs hash and same engine version: then the
    stored plan is what computing again would give.
    """
    from ..plan import compute_plan, plan_to_json

    v = scenario_version(store, name, version)
    cat = catalog(store)
    ih = inputs_hash(v.text, cat)
    if reuse:
        for r in reversed(results(store, name, v.version)):
            if r.inputs_hash == ih and r.engine_version == ENGINE_VERSION:
                return r
    scenario = load_scenario_text(v.text, source=f"{name} v{v.version}", catalog=cat)
    plan = plan_to_json(compute_plan(scenario))
    return record_result(store, v, plan, inputs_hash=ih, engine_version=ENGINE_VERSION)
