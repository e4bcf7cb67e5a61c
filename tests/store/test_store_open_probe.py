"""When opening reads the whole store first (issue 14).

The full read (every value of every table) costs 60-120 ms on a large store, so it runs
only when it can matter: before a migration, after an unclean shutdown (a WAL left
behind), or when the file is shorter than its blocks. A bad block in a cleanly closed
file is caught by DuckDB's block checksum when it is read: one clean error, no write.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import REPO, python_env, unpack_fixture

from rtoplanner.core.store import Store, StoreCorruptError

HEADER = 3 * 4096  # DuckDB's file header and two database headers
BLOCK = 262144


def _damaged_store(tmp_path: Path, scenario_text: str) -> Path:
    """A cleanly closed store whose data blocks (all but the first, the metadata) have a
    damaged stretch: the block checksums no longer match."""
    path = tmp_path / "store.duckdb"
    with Store(path) as store:
        store.save_scenario(scenario_text)
    data = bytearray(path.read_bytes())
    for start in range(HEADER + BLOCK, len(data), BLOCK):
        data[start + 64 : start + 128] = bytes(b ^ 0xFF for b in data[start + 64 : start + 128])
    path.write_bytes(bytes(data))
    return path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=python_env(),
    )


def test_a_bad_block_of_a_clean_file_is_a_clean_error_when_read(tmp_path, scenario_text):
    path = _damaged_store(tmp_path, scenario_text)
    before = _sha(path)
    proc = _cli("--db", str(path), "catalog", "list")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("rto-planner: error:") and "damaged" in line and str(path) in line
    assert _sha(path) == before
    assert not path.with_name(path.name + ".wal").exists()


def test_a_cleanly_closed_file_opens_without_the_full_read(tmp_path, scenario_text):
    path = _damaged_store(tmp_path, scenario_text)
    with Store(path, read_only=True) as store:  # only the metadata was read
        assert store.schema_version() >= 2


def test_after_an_unclean_shutdown_opening_reads_everything(tmp_path, scenario_text):
    path = _damaged_store(tmp_path, scenario_text)
    path.with_name(path.name + ".wal").write_bytes(b"")  # what a crash leaves behind
    before = _sha(path)
    with pytest.raises(StoreCorruptError, match="damaged"):
        Store(path, read_only=True)
    assert _sha(path) == before


PLAN_DEMO = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"


def _plan_counting_connects(monkeypatch, capsys, db: Path) -> tuple[list[bool], str]:
    """Run `rto-planner plan` in this process; the read_only flag of every DuckDB
    connection it opens on the store file, and what it wrote to stderr."""
    import duckdb

    from rtoplanner.app.__main__ import main

    opened: list[bool] = []
    real = duckdb.connect

    def counting(database=":memory:", read_only=False, *args, **kwargs):
        if Path(str(database)).resolve() == db.resolve():
            opened.append(read_only)
        return real(database, read_only, *args, **kwargs)

    monkeypatch.setattr(duckdb, "connect", counting)
    assert main(["--db", str(db), "plan", str(PLAN_DEMO), "--as-of", "2026-01-01"]) == 0
    return opened, capsys.readouterr().err


def test_plan_opens_an_existing_store_once_read_only(tmp_path, monkeypatch, capsys):
    db = tmp_path / "store.duckdb"
    Store(db).close()
    before = _sha(db)
    opened, err = _plan_counting_connects(monkeypatch, capsys, db)
    assert opened == [True] and "warning" not in err
    assert _sha(db) == before


def test_plan_reseeds_shipped_rows_of_another_version(tmp_path, monkeypatch, capsys):
    db = tmp_path / "store.duckdb"
    with Store(db) as store:
        store.write(
            lambda con: con.execute("DELETE FROM meta WHERE key = 'shipped_catalog_digest'")
        )
    opened, err = _plan_counting_connects(monkeypatch, capsys, db)
    assert opened[-1] is False and "warning" not in err  # the writable open re-seeded
    with Store(db, read_only=True) as store:
        assert store.shipped_catalog_is_current()


def test_plan_upgrades_an_old_store(tmp_path, monkeypatch, capsys):
    db = unpack_fixture(1, tmp_path)
    opened, err = _plan_counting_connects(monkeypatch, capsys, db)
    assert "warning" not in err and opened[-1] is False
    with Store(db, read_only=True) as store:
        assert store.info.schema_version >= 2
