"""Migrations from real old files (STYLE §9), refusal of newer ones, and the guard tests."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pytest
from make_fixture import FIXTURE_PLAN, FIXTURE_SCENARIO, FIXTURE_USER_ITEM, SCENARIO, fixture_path
from store_helpers import unpack_fixture

from rtoplanner.core.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Migration,
    NotAStoreError,
    Store,
    StoreTooNewError,
)
from rtoplanner.core.store.migrations import (
    apply_migrations,
    check_migration_list,
    current_version,
)

RELEASED = list(range(1, SCHEMA_VERSION + 1))


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_migration_numbers_are_unique_and_contiguous() -> None:
    check_migration_list()
    assert len(MIGRATIONS) == SCHEMA_VERSION
    for m in MIGRATIONS:
        assert m.sql() or m.python, f"{m.name} is empty"


def test_duplicate_migration_numbers_are_caught() -> None:
    dup = (Migration(1, "0001_init.sql"), Migration(1, "0001_other.sql"))
    with pytest.raises(AssertionError, match="expected 2"):
        check_migration_list(dup)
    with pytest.raises(AssertionError, match="does not start with 0002_"):
        check_migration_list((Migration(1, "0001_init.sql"), Migration(2, "0003_x.sql")))


@pytest.mark.parametrize("version", RELEASED)
def test_every_released_schema_has_a_fixture(version: int) -> None:
    """Fails when SCHEMA_VERSION is bumped without `make_fixture.py` for the old schema."""
    assert fixture_path(version).exists(), (
        f"no fixture for store schema {version}: run tests/store/make_fixture.py "
        "with that schema and commit the file"
    )


@pytest.mark.parametrize("version", RELEASED)
def test_old_files_migrate_and_keep_their_data(version: int, tmp_path: Path) -> None:
    path = unpack_fixture(version, tmp_path)
    original = path.read_bytes()
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        if version < SCHEMA_VERSION:
            assert store.info.migrated_from == version
            assert store.info.backup_path is not None
            assert store.info.backup_path.read_bytes() == original
        else:
            assert store.info.migrated_from is None and store.info.backup_path is None
        history = store.history(FIXTURE_SCENARIO)
        assert [v.comment for v in history] == ["fixture v1", "fixture v2"]
        assert history[0].text == SCENARIO.read_text(encoding="utf-8")
        lto4 = store.catalog().find("tape_drive", "LTO-4")
        assert lto4 is not None and lto4.source == FIXTURE_USER_ITEM.source
        (result,) = store.results(FIXTURE_SCENARIO)
        assert result.plan == FIXTURE_PLAN and result.engine_version == "fixture"
        assert not store.check_result(result).current
        # and it still takes new data
        assert store.save_scenario(history[1].text).version == 3


def test_migration_runs_in_one_transaction(tmp_path: Path) -> None:
    """A failing step leaves the file at the previous version, with nothing half-done."""
    con = duckdb.connect(str(tmp_path / "m.duckdb"))
    try:
        apply_migrations(con, 0, app_version="test")
        bad = (
            *MIGRATIONS,
            Migration(
                SCHEMA_VERSION + 1,
                f"{SCHEMA_VERSION + 1:04d}_bad.py",
                python=lambda c: (
                    c.execute("CREATE TABLE half_done (x INTEGER)"),
                    c.execute("SELECT * FROM no_such_table"),
                ),
            ),
        )
        with pytest.raises(duckdb.CatalogException):
            apply_migrations(con, SCHEMA_VERSION, app_version="test", migrations=bad)
        assert current_version(con) == SCHEMA_VERSION
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        assert "half_done" not in tables
        # Re-running is idempotent: nothing above the current version is applied twice.
        assert apply_migrations(con, SCHEMA_VERSION, app_version="test") == []
    finally:
        con.close()


def test_newer_file_is_refused_and_untouched(store_path: Path) -> None:
    with Store(store_path) as s:
        s.write(
            lambda con: con.execute(
                "INSERT INTO schema_version VALUES (?, 'future.sql', now()::TIMESTAMP, '9.9')",
                [SCHEMA_VERSION + 1],
            )
        )
    before = _sha(store_path)
    with pytest.raises(StoreTooNewError) as info:
        Store(store_path)
    msg = str(info.value)
    assert str(store_path) in msg and "RTO Planner 9.9" in msg and "update" in msg
    assert _sha(store_path) == before
    with pytest.raises(StoreTooNewError):
        Store(store_path, read_only=True)
    assert _sha(store_path) == before


def test_foreign_duckdb_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE sales (id INTEGER); INSERT INTO sales VALUES (1)")
    con.close()
    before = _sha(path)
    with pytest.raises(NotAStoreError, match="another program"):
        Store(path)
    assert _sha(path) == before
    assert not path.with_name(path.name + ".wal").exists()


def _add_step(monkeypatch: pytest.MonkeyPatch, step: Migration) -> None:
    """Pretend this build ships one more migration than it does."""
    from rtoplanner.core.store import migrations

    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, step))
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", step.version)


def test_older_file_is_copied_aside_then_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = unpack_fixture(SCHEMA_VERSION, tmp_path)
    with Store(path):  # bring the WAL in, as a user's file would be
        pass
    original = path.read_bytes()
    nxt = SCHEMA_VERSION + 1
    _add_step(monkeypatch, Migration(nxt, f"{nxt:04d}_tags.py", python=lambda c: c.execute(
        "ALTER TABLE scenario ADD COLUMN tags VARCHAR DEFAULT ''")))  # fmt: skip
    with Store(path) as store:
        assert store.info.migrated_from == SCHEMA_VERSION
        backup = store.info.backup_path
        assert backup is not None and backup.read_bytes() == original
        assert f".v{SCHEMA_VERSION}." in backup.name and backup.name.endswith(".bak.duckdb")
        assert store.schema_version() == nxt
        cols = store.read(lambda c: [r[0] for r in c.execute("DESCRIBE scenario").fetchall()])
        assert "tags" in cols
        assert len(store.history(FIXTURE_SCENARIO)) == 2
    # The backup is a working store of the old schema.
    monkeypatch.undo()
    with Store(backup) as old:
        assert old.schema_version() == SCHEMA_VERSION


def test_failed_migration_is_rolled_back_with_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtoplanner.core.store import StoreMigrationError

    path = unpack_fixture(SCHEMA_VERSION, tmp_path)
    nxt = SCHEMA_VERSION + 1
    _add_step(monkeypatch, Migration(nxt, f"{nxt:04d}_bad.py", python=lambda c: (
        c.execute("ALTER TABLE scenario ADD COLUMN tags VARCHAR"),
        c.execute("SELECT nope FROM scenario"),
    )))  # fmt: skip
    with pytest.raises(StoreMigrationError) as info:
        Store(path)
    assert "rolled back" in str(info.value) and ".bak.duckdb" in str(info.value)
    monkeypatch.undo()
    with Store(path) as store:  # still the old schema, all data there
        assert store.schema_version() == SCHEMA_VERSION
        cols = store.read(lambda c: [r[0] for r in c.execute("DESCRIBE scenario").fetchall()])
        assert "tags" not in cols
        assert len(store.history(FIXTURE_SCENARIO)) == 2


@pytest.mark.parametrize(
    "setup",
    ["", "CREATE VIEW v AS SELECT 1 AS x", "CREATE SEQUENCE s", "CREATE SCHEMA other"],
    ids=["no objects", "only a view", "only a sequence", "only a schema"],
)
def test_foreign_duckdb_file_without_tables_is_not_taken_for_a_store(
    tmp_path: Path, setup: str
) -> None:
    """Issue 16.6: a DuckDB file without tables used to get RTO Planner's tables."""
    path = tmp_path / "theirs.duckdb"
    con = duckdb.connect(str(path))
    if setup:
        con.execute(setup)
    con.execute("CHECKPOINT")
    con.close()
    before = _sha(path)
    listing = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(NotAStoreError, match="without RTO Planner's tables") as info:
        Store(path)
    assert "the copy" not in str(info.value)
    with pytest.raises(NotAStoreError):
        Store(path, read_only=True)
    assert _sha(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing


def test_a_new_store_appears_complete_under_its_name(tmp_path: Path) -> None:
    path = tmp_path / "new.duckdb"
    with Store(path) as s:
        assert s.info.created and s.schema_version() == SCHEMA_VERSION
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.duckdb", "new.duckdb.lock"]
    with Store(path) as s:
        assert not s.info.created
