"""Drills kept in the store (DESIGN §11; schema 5).

A drill is recorded against one version of a stored scenario: what the evidence measured
(`core.evidence.drill.Drill`), the plan vs actual computed then, and which files it was
read from (name, kind and SHA-256, so the same log recorded twice is refused). Drills are
numbered across the store (`rto-planner drills show 3`). Functions over a `Store` (its
read and write lanes), so the store's class stays small.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import duckdb

from .. import __version__
from .errors import NotFoundError, StoreError
from .models import Changes

if TYPE_CHECKING:
    from .store import Store


@dataclass(frozen=True)
class StoredDrill:
    number: int
    scenario: str
    scenario_version: int
    drilled_at: datetime | None
    """When the drill started (the database host's clock, no zone)."""
    recorded_at: datetime
    label: str
    drill: dict[str, Any]
    comparison: dict[str, Any]
    evidence: list[dict[str, str]]


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


_COLS = (
    "d.id, s.name, d.scenario_version, d.drilled_at, d.recorded_at, d.label, d.drill, "
    "d.comparison, d.evidence"
)


def _from_row(row: tuple) -> StoredDrill:
    return StoredDrill(
        number=int(row[0]),
        scenario=row[1],
        scenario_version=int(row[2]),
        drilled_at=row[3],
        recorded_at=row[4].replace(tzinfo=UTC),
        label=row[5],
        drill=json.loads(row[6]),
        comparison=json.loads(row[7]),
        evidence=json.loads(row[8]),
    )


def _scenario_id(con: duckdb.DuckDBPyConnection, name: str, version: int) -> int:
    row = con.execute(
        "SELECT s.id FROM scenario s JOIN scenario_version v ON v.scenario_id = s.id "
        "WHERE s.name = ? AND s.deleted_at IS NULL AND v.version = ?",
        [name, version],
    ).fetchone()
    if row is None:
        raise NotFoundError(
            f"no stored scenario '{name}' version {version}",
            hint="'rto-planner scenarios list' shows the names",
        )
    return int(row[0])


def _refuse_duplicate(con: duckdb.DuckDBPyConnection, evidence: list[dict[str, str]]) -> None:
    hashes = {e["sha256"] for e in evidence}
    for number, stored in con.execute(
        "SELECT id, evidence FROM drill WHERE deleted_at IS NULL ORDER BY id"
    ).fetchall():
        same = hashes & {e["sha256"] for e in json.loads(stored)}
        if same and same == hashes:
            raise StoreError(
                f"these files are already recorded as drill {number}",
                hint=f"'rto-planner drills show {number}' shows it",
            )


def add_drill(
    store: Store,
    scenario: str,
    version: int,
    *,
    drill: dict[str, Any],
    comparison: dict[str, Any],
    evidence: list[dict[str, str]],
    label: str = "",
    drilled_at: datetime | None = None,
) -> StoredDrill:
    """Record a drill against `scenario` version `version`; its number is returned."""

    def add(con: duckdb.DuckDBPyConnection) -> StoredDrill:
        sid = _scenario_id(con, scenario, version)
        _refuse_duplicate(con, evidence)
        (number,) = con.execute(
            "INSERT INTO drill (scenario_id, scenario_version, drilled_at, recorded_at, label, "
            "drill, comparison, evidence, app_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING id",
            [
                sid,
                version,
                drilled_at,
                _now(),
                label,
                json.dumps(drill),
                json.dumps(comparison),
                json.dumps(evidence),
                __version__,
            ],
        ).fetchone()
        row = con.execute(
            f"SELECT {_COLS} FROM drill d JOIN scenario s ON s.id = d.scenario_id WHERE d.id = ?",
            [number],
        ).fetchone()
        return _from_row(row)

    return store.write(add, Changes(drills=True))


def drills(store: Store, scenario: str | None = None) -> list[StoredDrill]:
    """Every drill (of one scenario, by name), oldest first by when it was drilled."""
    where = "WHERE d.deleted_at IS NULL" + (" AND s.name = ?" if scenario else "")
    rows = store.read(
        lambda cur: cur.execute(
            f"SELECT {_COLS} FROM drill d JOIN scenario s ON s.id = d.scenario_id {where} "
            "ORDER BY coalesce(d.drilled_at, d.recorded_at), d.id",
            [scenario] if scenario else [],
        ).fetchall()
    )
    return [_from_row(r) for r in rows]


def drill(store: Store, number: int) -> StoredDrill:
    row = store.read(
        lambda cur: cur.execute(
            f"SELECT {_COLS} FROM drill d JOIN scenario s ON s.id = d.scenario_id "
            "WHERE d.id = ? AND d.deleted_at IS NULL",
            [number],
        ).fetchone()
    )
    if row is None:
        raise NotFoundError(
            f"no drill {number} in {store.path}", hint="'rto-planner drills list' shows the numbers"
        )
    return _from_row(row)


def delete_drill(store: Store, number: int) -> None:
    drill(store, number)  # NotFoundError for a wrong number

    def delete(con: duckdb.DuckDBPyConnection) -> None:
        con.execute("UPDATE drill SET deleted_at = ? WHERE id = ?", [_now(), number])

    store.write(delete, Changes(drills=True))


__all__ = ["StoredDrill", "add_drill", "delete_drill", "drill", "drills"]
