"""Duplicate keys of imported reports live in indexed columns (migration 0003, issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
from store_helpers import REPO, unpack_fixture

from rtoplanner.core.importers.store_import import import_file
from rtoplanner.core.store import Store

AWR = REPO / "tests" / "fixtures" / "awr"
HTML = AWR / "1newstar-awr2csv__awr_11204_1.html"
TEXT = AWR / "1newstar-awr2csv__awr_11204_1.txt"  # the same snapshots as text


def _rows(store: Store, sql: str) -> list[tuple]:
    return store.read(lambda cur: cur.execute(sql).fetchall())


def test_the_snapshot_key_is_looked_up_in_its_column(store: Store) -> None:
    assert import_file(store, HTML).status == "imported"
    ((key, payload),) = _rows(store, "SELECT snap_key, payload FROM workload")
    assert key and json.loads(payload)["snap_key"] == key
    # Take the key out of the payload: only the column can still tell the text report is
    # the same snapshots (before the column, the check read the payload's JSON).
    store.write(
        lambda con: con.execute("UPDATE workload SET payload = json_object('snap_key', NULL)")
    )
    outcome = import_file(store, TEXT)
    assert outcome.status == "duplicate" and outcome.duplicate_of == (str(HTML),)
    assert _rows(store, "SELECT count(*) FROM workload") == [(1,)]


def test_the_keys_are_indexed(store: Store) -> None:
    indexed = _rows(store, "SELECT expressions FROM duckdb_indexes() WHERE table_name = 'workload'")
    assert sorted(str(e) for (e,) in indexed) == ["[content_hash]", "[snap_key]"]


def test_migration_fills_the_key_of_reports_stored_before(tmp_path: Path) -> None:
    path = unpack_fixture(1, tmp_path)
    con = duckdb.connect(str(path))
    con.execute(
        "INSERT INTO workload (content_hash, file_name, kind, payload, imported_at) VALUES "
        "('h1', 'a.html', 'awr', '{\"snap_key\": \"k1\"}', now()), "
        "('h2', 'b.csv', 'rman_job', '{\"snap_key\": \"not a report\"}', now())"
    )
    con.close()
    with Store(path) as store:
        assert store.info.migrated_from == 1
        got = _rows(store, "SELECT content_hash, snap_key FROM workload ORDER BY 1")
    assert got == [("h1", "k1"), ("h2", None)]
