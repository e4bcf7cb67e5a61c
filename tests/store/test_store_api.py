"""The Store's behaviour on real files: catalog, scenario history, results, modes."""

from __future__ import annotations

import shutil
import threading
from datetime import timedelta
from pathlib import Path

import duckdb
import pytest
from store_helpers import REPO

from rtoplanner.core import ENGINE_VERSION
from rtoplanner.core.catalog import CatalogItem, shipped_catalog
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.store import (
    SCHEMA_VERSION,
    Changes,
    NotFoundError,
    Store,
    StoreError,
    StoreLockedError,
    StoreReadOnlyError,
)

MY_LTO4 = CatalogItem(
    kind="tape_drive", name="lto 4", source="measured at ACME, 2024", rate_Bps=100e6, derate=1.0
)


# ------------------------------------------------------------------ open, create, seed


def test_new_store_is_created_and_seeded(store: Store, store_path: Path) -> None:
    assert store_path.exists()
    assert store.info.created and store.info.schema_version == SCHEMA_VERSION
    assert store.schema_version() == SCHEMA_VERSION
    entries = store.catalog_entries()
    assert len(entries) == len(shipped_catalog())
    assert all(e.origin == "shipped" and e.item.source for e in entries)


def test_reopen_does_not_reseed(store_path: Path) -> None:
    with Store(store_path) as s:
        first = {e.item.name: e.updated_at for e in s.catalog_entries()}
    with Store(store_path) as s:
        assert not s.info.created
        assert {e.item.name: e.updated_at for e in s.catalog_entries()} == first


def test_creates_missing_parent_folders(tmp_path: Path) -> None:
    with Store(tmp_path / "a" / "b" / "store.duckdb") as s:
        assert s.info.created


def test_same_file_twice_in_one_process_is_refused(store: Store, store_path: Path) -> None:
    with pytest.raises(StoreLockedError, match="already open in this process"):
        Store(store_path)


def test_closed_store_can_be_reopened(store_path: Path) -> None:
    s = Store(store_path)
    s.close()
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        s.catalog()
    with Store(store_path) as again:
        assert again.catalog()


def test_read_only_open_never_writes(store_path: Path, scenario_text: str) -> None:
    with Store(store_path) as s:
        s.save_scenario(scenario_text)
    before = store_path.read_bytes()
    with Store(store_path, read_only=True) as ro:
        assert ro.info.read_only
        assert len(ro.scenarios()) == 1
        with pytest.raises(StoreReadOnlyError, match="read-only"):
            ro.save_scenario(scenario_text)
    assert store_path.read_bytes() == before


def test_read_only_open_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="does not exist"):
        Store(tmp_path / "nope.duckdb", read_only=True)
    assert not (tmp_path / "nope.duckdb").exists()


# ------------------------------------------------------------------ catalog


def test_user_items_win_and_survive_catalog_updates(
    store_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(store_path) as s:
        change = s.add_catalog_items([MY_LTO4])
        assert change.added == ("tape_drive/lto 4",)
        assert s.catalog().find("tape_drive", "LTO-4").rate_Bps == 100e6
        listed = s.catalog_entries("tape_drive")
        mine = [e for e in listed if e.origin == "user"]
        assert len(mine) == 1 and mine[0].overrides_shipped
        assert not any(e.item.name == "LTO-4" for e in listed)  # shadowed: hidden
        all_rows = s.catalog_entries("tape_drive", include_shadowed=True)
        assert any(e.shadowed and e.item.name == "LTO-4" for e in all_rows)

    # A new release ships a changed catalog: shipped rows are replaced, mine stay and win.
    data = tmp_path / "data"
    shutil.copytree(REPO / "data" / "catalog", data / "catalog")
    tape = data / "catalog" / "tape.toml"
    tape.write_text(tape.read_text().replace('name = "LTO-9"', 'name = "LTO-9X"'))
    monkeypatch.setenv("RTOPLANNER_DATA", str(data))
    with Store(store_path) as s:
        cat = s.catalog()
        assert cat.find("tape_drive", "LTO-9X") is not None
        assert cat.find("tape_drive", "LTO-9") is None
        assert cat.find("tape_drive", "LTO-4").source == "measured at ACME, 2024"
        assert cat.find("tape_drive", "LTO-4").user


def test_add_replaces_own_item_and_remove_restores_shipped(store: Store) -> None:
    store.add_catalog_items([MY_LTO4])
    change = store.add_catalog_items([MY_LTO4])
    assert change.updated == ("tape_drive/lto 4",) and not change.added
    assert sum(e.origin == "user" for e in store.catalog_entries()) == 1
    store.remove_catalog_item("tape_drive", "LTO-4")
    assert not store.catalog().find("tape_drive", "LTO-4").user
    with pytest.raises(NotFoundError, match="shipped catalog item"):
        store.remove_catalog_item("tape_drive", "LTO-4")
    with pytest.raises(NotFoundError, match="no user item"):
        store.remove_catalog_item("tape_drive", "LTO-99")


def test_catalog_rows_keep_every_field(store: Store) -> None:
    stored = {(i.kind, i.name): i for i in store.catalog()}
    for item in shipped_catalog():
        assert stored[(item.kind, item.name)] == item


# ------------------------------------------------------------------ scenarios


def test_three_saves_three_versions_each_restorable(store: Store, scenario_text: str) -> None:
    texts = [
        scenario_text,
        scenario_text.replace('rto = "4 h"', 'rto = "5 h"'),
        scenario_text.replace("channels = 14", "channels = 12"),
    ]
    for i, t in enumerate(texts, start=1):
        v = store.save_scenario(t, comment=f"save {i}")
        assert v.version == i
    name = v.scenario
    history = store.history(name)
    assert [h.version for h in history] == [1, 2, 3]
    assert [h.comment for h in history] == ["save 1", "save 2", "save 3"]
    for old in (1, 2, 3):
        restored = store.restore_version(name, old)
        assert restored.restored_from == old
        assert store.export_scenario(name) == texts[old - 1]
    assert [h.version for h in store.history(name)] == [1, 2, 3, 4, 5, 6]
    (summary,) = store.scenarios()
    assert summary.versions == 6 and summary.latest_comment == "restored version 3"


def test_export_returns_the_exact_text(store: Store, scenario_text: str) -> None:
    odd = scenario_text.replace("\n", "\r\n").rstrip("\r\n") + "  # no final newline, ü"
    v = store.save_scenario(odd)
    assert store.export_scenario(v.scenario, v.version) == odd


def test_import_keeps_bytes(store: Store, tmp_path: Path, scenario_text: str) -> None:
    path = tmp_path / "in.toml"
    path.write_bytes(scenario_text.replace("\n", "\r\n").encode())
    v = store.import_scenario(path)
    assert v.comment == "imported from in.toml"
    assert store.export_scenario(v.scenario).encode() == path.read_bytes()


def test_invalid_scenario_is_refused_and_nothing_saved(store: Store, scenario_text: str) -> None:
    with pytest.raises(ScenarioError):
        store.save_scenario(scenario_text.replace('size = "10 TB"', 'size = "ten"'))
    with pytest.raises(ScenarioError):
        store.save_scenario("this is = not toml [")
    assert store.scenarios() == []


def test_diff_between_versions(store: Store, scenario_text: str) -> None:
    v1 = store.save_scenario(scenario_text)
    store.save_scenario(scenario_text.replace('rto = "4 h"', 'rto = "5 h"'))
    d = store.diff(v1.scenario, 1)
    assert d.to_version == 2 and not d.identical
    assert '-rto = "4 h"' in d.lines and '+rto = "5 h"' in d.lines
    assert store.diff(v1.scenario, 1, 1).identical


def test_unknown_names_and_versions(store: Store, scenario_text: str) -> None:
    v = store.save_scenario(scenario_text)
    with pytest.raises(NotFoundError, match="no scenario named"):
        store.history("nope")
    with pytest.raises(NotFoundError, match="has no version 7"):
        store.scenario_version(v.scenario, 7)


def test_soft_delete_undelete_and_purge(store: Store, scenario_text: str) -> None:
    name = store.save_scenario(scenario_text).scenario
    purge_after = store.delete_scenario(name)
    assert store.scenarios() == []
    (binned,) = store.scenarios(include_deleted=True)
    assert binned.deleted_at is not None and binned.purge_after == purge_after
    with pytest.raises(StoreError, match="is deleted"):
        store.save_scenario(scenario_text)
    with pytest.raises(NotFoundError, match="was deleted"):
        store.delete_scenario(name)
    assert store.purge_deleted() == 0  # inside the grace period
    store.undelete_scenario(name)
    assert [s.name for s in store.scenarios()] == [name]
    with pytest.raises(StoreError, match="not deleted"):
        store.undelete_scenario(name)
    store.delete_scenario(name)
    assert store.purge_deleted(older_than=timedelta(0)) == 1
    assert store.scenarios(include_deleted=True) == []
    assert store.save_scenario(scenario_text).version == 1  # the name is free again


def test_open_purges_after_the_grace_period(store_path: Path, scenario_text: str) -> None:
    with Store(store_path) as s:
        name = s.save_scenario(scenario_text).scenario
        s.delete_scenario(name)
        s.write(
            lambda con: con.execute("UPDATE scenario SET deleted_at = deleted_at - INTERVAL 31 DAY")
        )
    with Store(store_path) as s:
        assert s.scenarios(include_deleted=True) == []


# ------------------------------------------------------------------ results


def test_results_keep_inputs_hash_and_engine_version(store: Store, scenario_text: str) -> None:
    v = store.save_scenario(scenario_text)
    r = store.compute_result(v.scenario)
    assert r.engine_version == ENGINE_VERSION and len(r.inputs_hash) == 64
    assert r.plan["recovery"]["verdict"] in {"meets", "at_risk", "misses"}
    assert store.check_result(r).current
    assert store.compute_result(v.scenario).id == r.id  # reused, not recomputed
    # A catalog change makes the stored result stale (inputs changed).
    store.add_catalog_items([MY_LTO4])
    check = store.check_result(r)
    assert check.inputs_changed and not check.engine_changed and not check.current
    r2 = store.compute_result(v.scenario)
    assert r2.id != r.id
    assert [x.id for x in store.results(v.scenario)] == [r.id, r2.id]


def test_record_result_notices_an_engine_change(store: Store, scenario_text: str) -> None:
    v = store.save_scenario(scenario_text)
    r = store.record_result(v, {"recovery": {"total_s": 1.0}}, inputs_hash="x" * 64,
                            engine_version="0")  # fmt: skip
    check = store.check_result(r)
    assert check.engine_changed and check.inputs_changed
    assert store.results(v.scenario, 1)[0].plan == {"recovery": {"total_s": 1.0}}
    assert store.results(v.scenario, 2) == []


# ------------------------------------------------------------------ lane, threads, hooks


def test_subscribers_hear_what_changed(store: Store, scenario_text: str) -> None:
    heard: list[Changes] = []
    unsubscribe = store.subscribe(heard.append)
    store.save_scenario(scenario_text)
    store.add_catalog_items([MY_LTO4])
    unsubscribe()
    store.save_scenario(scenario_text)
    assert heard == [Changes(scenarios=True), Changes(catalog=True)]


def test_failed_write_rolls_back(store: Store, scenario_text: str) -> None:
    store.save_scenario(scenario_text)

    def half_then_fail(con: duckdb.DuckDBPyConnection) -> None:
        con.execute("DELETE FROM scenario_version")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        store.write(half_then_fail)
    assert len(store.history(store.scenarios()[0].name)) == 1


def test_reads_from_threads_while_writing(store: Store, scenario_text: str) -> None:
    name = store.save_scenario(scenario_text).scenario
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            for _ in range(30):
                assert store.history(name)
                assert store.catalog()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def writer() -> None:
        try:
            for i in range(15):
                store.save_scenario(scenario_text, comment=str(i))
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    threads += [threading.Thread(target=writer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    versions = [v.version for v in store.history(name)]
    assert versions == list(range(1, 32))  # serialised: no gaps, no duplicates


def test_nested_write_fails_fast_instead_of_deadlocking(store: Store) -> None:
    def outer(con: duckdb.DuckDBPyConnection) -> None:
        store.write(lambda c: None)

    with pytest.raises(RuntimeError, match="inside a write"):
        store.write(outer)
    assert store.catalog()  # the lane still works
