"""Importing into the store: once per content, one transaction per file, batches go on."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from workload_helpers import CSV, MIT_REPORTS, SYNTHETIC, count, rows, sysstat_csv

from rtoplanner.core.importers import parse_file
from rtoplanner.core.importers import store_import as si
from rtoplanner.core.importers.store_import import import_file, import_paths
from rtoplanner.core.store import Store, StoreReadOnlyError


def test_mit_fixtures_imported_twice_are_stored_once(store, tmp_path) -> None:
    first = list(import_paths(store, MIT_REPORTS))
    assert [o.status for o in first].count("error") == 0
    # the 11.2 reports exist as text and HTML of the same snapshots: one report each
    assert [o.status for o in first].count("imported") == 5
    assert [o.status for o in first].count("duplicate") == 2
    assert count(store) == 5
    hashes = {r.content_hash for p in MIT_REPORTS for r in parse_file(p)}
    stored = [h for (h,) in rows(store, "SELECT content_hash FROM workload")]
    assert len(stored) == len(set(stored)) == 5 and set(stored) <= hashes

    second = list(import_paths(store, MIT_REPORTS))
    assert [o.status for o in second] == ["duplicate"] * len(MIT_REPORTS)
    assert all(o.imported == 0 and o.duplicates == 1 for o in second)
    assert count(store) == 5

    # the same bytes under another name, with CRLF line endings, are still the same report
    txt = next(p for p in MIT_REPORTS if p.suffix == ".txt")
    copy = tmp_path / "renamed.txt"
    copy.write_bytes(txt.read_bytes().replace(b"\n", b"\r\n"))
    again = import_file(store, copy)
    assert again.status == "duplicate" and count(store) == 5


def test_batch_with_bad_files_imports_the_good_ones(store, tmp_path) -> None:
    good = tmp_path / "good.txt"
    shutil.copy(SYNTHETIC / "awr_19c_text.txt", good)
    cut = tmp_path / "cut.txt"
    data = (SYNTHETIC / "awr_10g_text_ja.txt").read_bytes()
    cut.write_bytes(data[: len(data) // 8])
    bad_csv = tmp_path / "rman.csv"
    bad_csv.write_text(
        "INPUT_TYPE,STATUS,OUTPUT_DEVICE_TYPE,INPUT_BYTES,OUTPUT_BYTES,ELAPSED_SECONDS\n"
        "DB FULL,COMPLETED,DISK,12,3,600\nDB FULL,COMPLETED,DISK,lots,3,600\n"
    )
    notes = tmp_path / "notes.md"
    notes.write_text("# notes\n")
    out = {o.path.name: o for o in import_paths(store, [cut, bad_csv, good, notes])}
    assert out["good.txt"].status == "imported"
    assert {n: out[n].status for n in ("cut.txt", "rman.csv", "notes.md")} == dict.fromkeys(
        ("cut.txt", "rman.csv", "notes.md"), "error"
    )
    assert "rman.csv:3" in out["rman.csv"].message and "INPUT_BYTES" in out["rman.csv"].message
    assert "neither an AWR" in out["notes.md"].message
    assert count(store) == 1
    assert count(store, "file_name <> ?", [str(good)]) == 0


def _fail_after_rows(n: int, real):
    """`insert_rows` that stores its rows, then hits a real DuckDB error (NOT NULL
    violated) once `n` rows in all have been inserted: the file's write must roll back."""
    calls = {"rows": 0}

    def insert(con, rows, file_name, now):
        real(con, rows, file_name, now)
        before, calls["rows"] = calls["rows"], calls["rows"] + len(rows)
        if before < n <= calls["rows"]:  # once
            con.execute("INSERT INTO workload (content_hash) VALUES ('half-way')")

    return insert


def test_a_file_failing_half_way_leaves_nothing(store, monkeypatch) -> None:
    compare = SYNTHETIC / "awrddrpt_11g_text.txt"  # two periods: two rows
    monkeypatch.setattr(si, "insert_rows", _fail_after_rows(2, si.insert_rows))
    out = import_file(store, compare)
    assert out.status == "error" and "nothing of it was kept" in out.message
    assert count(store) == 0  # the rows inserted before the error were rolled back
    monkeypatch.undo()
    assert import_file(store, compare).status == "imported"
    assert count(store) == 2


def test_an_exception_in_the_write_rolls_back_and_propagates(store, monkeypatch) -> None:
    real = si.insert_select  # a DBA_HIST_SYSSTAT export goes in from DuckDB's own table

    def insert(con, *args):
        real(con, *args)
        n = con.execute("SELECT count(*) FROM workload").fetchone()[0]
        raise RuntimeError(f"injected after {n} rows")

    monkeypatch.setattr(si, "insert_select", insert)
    path = sysstat_csv(Path(tempfile.mkdtemp()) / "redo.csv", hours=6)
    with pytest.raises(RuntimeError, match="injected after 6 rows"):
        import_file(store, path)
    assert count(store) == 0
    monkeypatch.undo()
    assert import_file(store, path).imported == 6


def test_a_batch_goes_on_after_a_file_fails_in_the_store(store, monkeypatch) -> None:
    monkeypatch.setattr(si, "insert_rows", _fail_after_rows(2, si.insert_rows))
    files = [SYNTHETIC / "awrddrpt_12c.html", SYNTHETIC / "awr_19c_text.txt"]
    out = list(import_paths(store, files))
    assert [o.status for o in out] == ["error", "imported"]
    assert count(store, "file_name = ?", [str(files[0])]) == 0
    assert count(store, "file_name = ?", [str(files[1])]) == 1


def test_overlapping_sysstat_exports_store_each_interval_once(store, tmp_path) -> None:
    a = sysstat_csv(tmp_path / "a.csv", hours=24)
    b = sysstat_csv(tmp_path / "b.csv", hours=36)  # the first 24 hours again, and 12 more
    assert import_file(store, a).imported == 24
    out = import_file(store, b)
    assert (out.status, out.imported, out.duplicates) == ("imported", 12, 24)
    assert "24 already stored" in out.message
    assert count(store, "kind = 'sysstat'") == 36
    assert import_file(store, b).status == "duplicate"


def test_exports_without_a_database_name_are_attributed(store) -> None:
    rman = CSV / "rman_backup_job_details.csv"
    out = import_file(store, rman)
    assert out.status == "imported" and "--database" in out.message
    assert count(store, "db_name IS NULL") == 8
    again = import_file(store, rman, database="PROD")
    assert again.status == "duplicate" and "attributed to PROD" in again.message
    assert count(store, "db_name = 'PROD'") == 8 and count(store) == 8
    progress = import_file(store, CSV / "recovery_progress.csv", database="PROD")
    assert progress.status == "imported" and progress.db_names == ("PROD",)


def test_rman_export_with_db_name_column(store, tmp_path) -> None:
    text = (CSV / "rman_backup_job_details.csv").read_text()
    lines = text.splitlines()
    lines[0] += ";DB_NAME;DBID"
    lines[1:] = [line + ";ERP;42" for line in lines[1:] if line]
    f = tmp_path / "rman_named.csv"
    f.write_text("\n".join(lines) + "\n")
    out = import_file(store, f)
    assert out.db_names == ("ERP",)
    assert rows(store, "SELECT DISTINCT db_name, dbid FROM workload") == [("ERP", 42)]


def test_read_only_store_stops_the_batch(store_file) -> None:
    Store(store_file).close()
    with Store(store_file, read_only=True) as ro, pytest.raises(StoreReadOnlyError):
        import_file(ro, SYNTHETIC / "awr_19c_text.txt")


POOL = [
    SYNTHETIC / "awr_19c_text.txt",
    SYNTHETIC / "awrddrpt_11g_text.txt",
    SYNTHETIC / "statspack_19c_crlf_de.txt",
    SYNTHETIC / "awrgrpt_19c_text.txt",
    CSV / "rman_backup_job_details.csv",
    CSV / "recovery_progress.csv",
    CSV / "dba_hist_sysstat_redo.csv",
]
EXPECTED_ROWS = {0: 1, 1: 2, 2: 1, 3: 1, 4: 8, 5: 1, 6: 7}


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.sampled_from(range(len(POOL))), min_size=1, max_size=10))
def test_any_import_order_stores_each_item_once(order) -> None:
    with tempfile.TemporaryDirectory() as d, Store(Path(d) / "s.duckdb") as store:
        seen: set[int] = set()
        for i in order:
            out = import_file(store, POOL[i])
            assert out.status == ("duplicate" if i in seen else "imported")
            seen.add(i)
        assert count(store) == sum(EXPECTED_ROWS[i] for i in seen)
        hashes = [h for (h,) in rows(store, "SELECT content_hash FROM workload")]
        assert len(hashes) == len(set(hashes))
