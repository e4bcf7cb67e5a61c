"""`rto-planner import` and `rto-planner imports list|summary|apply`: output and exit status."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import datetime

import pytest
from workload_helpers import CSV, FIXTURES, MIT_REPORTS, SCENARIO, SYNTHETIC, sysstat_csv

from rtoplanner.core.cli import main
from rtoplanner.core.importers.stored import database_workload
from rtoplanner.core.scenario import load_scenario
from rtoplanner.core.store import Store


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "cli.duckdb")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# ----------------------------------------------------------------------------- import


def test_import_then_again(capsys, db, tmp_path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    for p in [*MIT_REPORTS, FIXTURES / "README.md"]:
        shutil.copy(p, folder / p.name)
    rc, out, err = run(capsys, "import", "--db", db, *map(str, MIT_REPORTS))
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    assert sum(line.startswith("imported ") for line in lines) == 5
    assert sum(line.startswith("duplicate ") for line in lines) == 2
    assert lines[-1].startswith("5 file(s) imported, 2 already imported, 0 failed")
    rc, out, err = run(capsys, "import", "--db", db, str(folder))
    assert rc == 1  # README.md in the folder is not a report
    assert "README.md" in one_error_line(err)
    assert all(not line.startswith("imported ") for line in out.splitlines())
    assert "0 file(s) imported, 7 already imported, 1 failed" in out


def test_import_json(capsys, db) -> None:
    rc, out, err = run(
        capsys, "import", "--db", db, "--json", str(SYNTHETIC / "awrddrpt_12c.html"),
        str(CSV / "rman_backup_job_details.csv"), "--database", "SHOP",
    )  # fmt: skip
    assert (rc, err) == (0, "")
    a, b = json.loads(out)
    assert (a["status"], a["kind"], a["imported"], a["db_names"]) == (
        "imported", "awr", 2, ["SHOP"],
    )  # fmt: skip
    assert (b["status"], b["kind"], b["imported"], b["db_names"]) == (
        "imported", "rman_job", 8, ["SHOP"],
    )  # fmt: skip


def test_import_errors(capsys, db, tmp_path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    rc, _out, err = run(capsys, "import", "--db", db, str(tmp_path / "missing.txt"), str(empty))
    assert rc == 1
    assert err.count("\n") == 2 and "no such file" in err and "directory without files" in err
    assert "Traceback" not in err
    bad_store = tmp_path / "not_a_store.duckdb"
    bad_store.write_text("hello\n")
    rc, _out, err = run(capsys, "import", "--db", str(bad_store), str(MIT_REPORTS[0]))
    assert rc == 2 and one_error_line(err).startswith("rto-planner: error:")
    with pytest.raises(SystemExit) as exc:
        main(["import", "--db", db])
    assert exc.value.code == 2 and "FILE" in one_error_line(capsys.readouterr().err)


def test_import_into_a_store_open_elsewhere(capsys, db) -> None:
    with Store(db):
        rc, _out, err = run(capsys, "import", "--db", db, str(MIT_REPORTS[0]))
    assert rc == 2 and "already open" in one_error_line(err)


def test_import_subprocess_has_no_traceback(tmp_path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("SNAP_ID,DBID\n1,2\n")
    proc = subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", "import", "--db",
         str(tmp_path / "s.duckdb"), str(bad), str(SYNTHETIC / "awr_19c_text.txt")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "bad.csv" in one_error_line(proc.stderr)
    assert "imported   " in proc.stdout


# ----------------------------------------------------------------------------- list / summary


@pytest.fixture
def filled(capsys, db, tmp_path) -> str:
    sysstat_csv(tmp_path / "prod.csv", hours=48, instances=2)
    rc, _, _ = run(
        capsys, "import", "--db", db, str(tmp_path / "prod.csv"),
        str(CSV / "rman_backup_job_details.csv"), str(CSV / "recovery_progress.csv"),
        "--database", "PROD",
    )  # fmt: skip
    assert rc == 0
    rc, _, _ = run(capsys, "import", "--db", db, str(SYNTHETIC / "awr_19c_text.txt"))
    assert rc == 0
    return db


def test_imports_list(capsys, filled) -> None:
    rc, out, err = run(capsys, "imports", "list", "--db", filled)
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["database", "kind", "items"]
    assert any("PROD (1234)" in x and "sysstat" in x and " 96 " in x for x in lines)
    assert any("rman_job" in x for x in lines) and any("PROD19" in x for x in lines)
    rc, out, _ = run(capsys, "imports", "list", "--db", filled, "--db-name", "prod19", "--json")
    (item,) = json.loads(out)
    assert (item["kind"], item["db_name"], item["items"]) == ("awr", "PROD19", 1)
    rc, out, _ = run(capsys, "imports", "list", "--db", filled, "--database", "NONE")
    assert rc == 0 and "nothing imported for database 'NONE'" in out


def test_imports_summary(capsys, filled) -> None:
    rc, out, err = run(capsys, "imports", "summary", "--db", filled)
    assert (rc, err) == (0, "")
    assert "PROD (dbid 1234)" in out and "PROD19 (dbid 2233445566)" in out
    assert "96 DBA_HIST_SYSSTAT intervals" in out and "busiest hour" in out
    assert "SBT_TAPE" in out and "compression 4.08" in out and "redo apply" in out
    rc, out, _ = run(capsys, "imports", "summary", "--db", filled, "--database", "PROD", "--json")
    (d,) = json.loads(out)
    with Store(filled) as store:
        s = database_workload(store, "PROD").series
    assert d["redo"]["p95_Bps"] == s.p95_Bps and d["redo"]["intervals"] == 96
    assert d["devices"][0]["device_type"] == "SBT_TAPE"
    assert d["apply_rates"][0]["average_Bps"] == 88765 * 1024
    rc, _, err = run(capsys, "imports", "summary", "--db", filled, "--database", "X")
    assert rc == 2 and "nothing imported for database 'X'" in one_error_line(err)


def test_empty_store(capsys, db) -> None:
    rc, out, _ = run(capsys, "imports", "summary", "--db", db)
    assert rc == 0 and out.startswith("nothing imported")


# ----------------------------------------------------------------------------- apply


def test_apply_to_a_file(capsys, filled, tmp_path) -> None:
    target = tmp_path / "out.toml"
    rc, out, err = run(
        capsys, "imports", "apply", "--db", filled, str(SCENARIO), "--database", "prod",
        "--compression", "--apply-rate", "-o", str(target),
    )  # fmt: skip
    assert (rc, err) == (0, "")
    assert "database.redo_rate = " in out and "(was 1 MB/s)" in out
    assert "from p95 of hourly redo over 96 DBA_HIST_SYSSTAT intervals" in out
    assert f"wrote {target}" in out
    new = load_scenario(target)
    with Store(filled) as store:
        s = database_workload(store, "PROD").series
    assert new.database.redo_rate_Bps == pytest.approx(s.p95_Bps, rel=5e-4)
    assert 'redo_rate = "8.932 MB/s"' in target.read_text(encoding="utf-8")
    assert new.backup.compression_ratio == pytest.approx(26.48 / 6.49)
    assert new.recovery.redo_apply_rate_Bps == pytest.approx(88765 * 1024, rel=5e-4)
    assert set(new.provenance) == {
        "database.redo_rate", "backup.compression_ratio", "recovery.redo_apply_rate",
        "workload.database", "workload.dbid",
    }  # fmt: skip


def test_apply_to_stdout_and_in_place(capsys, filled, tmp_path) -> None:
    rc, out, err = run(
        capsys, "imports", "apply", "--db", filled, str(SCENARIO), "--database", "PROD",
        "--redo", "peak", "--change", "--redo", "none",
    )  # fmt: skip
    assert rc == 2 and "block changes" in one_error_line(err)  # sysstat has no Load Profile
    rc, out, err = run(
        capsys, "imports", "apply", "--db", filled, str(SCENARIO), "--database", "PROD19",
        "--change",
    )  # fmt: skip
    assert (rc, err) == (0, "")
    assert out.startswith("# note: daily_change 100% is an upper bound")
    assert '"database.daily_change" = "upper bound:' in out
    copy = tmp_path / "copy.toml"
    copy.write_text(SCENARIO.read_text(encoding="utf-8"), encoding="utf-8")
    rc, out, _ = run(
        capsys, "imports", "apply", "--db", filled, str(copy), "--database", "PROD19",
        "--redo", "avg", "--in-place", "--json",
    )  # fmt: skip
    d = json.loads(out)
    assert rc == 0 and d["written"] == str(copy)
    assert d["values"][0]["key"] == "database.redo_rate"
    assert load_scenario(copy).database.redo_rate_Bps == 4.812e6  # 4812337.6 B/s, in MB/s


def test_apply_to_a_stored_scenario(capsys, filled) -> None:
    rc, _, _ = run(capsys, "scenarios", "save", "--db", filled, str(SCENARIO))
    assert rc == 0
    rc, out, err = run(
        capsys, "imports", "apply", "--db", filled, "--scenario", "small erp",
        "--database", "PROD", "--measured-path",
    )  # fmt: skip
    assert (rc, err) == (0, "")
    assert "saved 'Small ERP – restore over GigE from LTO-5' version 2" in out
    with Store(filled) as store:
        v = store.scenario_version("Small ERP – restore over GigE from LTO-5")
        scenario = store.load_scenario(v.scenario)
    assert v.version == 2 and v.comment.startswith("imports apply from PROD (dbid 1234)")
    assert scenario.path[-1].kind == "measured"
    assert scenario.provenance["workload.database"] == "PROD"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--database", "PROD"], "give a scenario file or --scenario NAME"),
        (["SCEN", "--scenario", "x", "--database", "PROD"], "give a scenario file or --scenario"),
        (["--scenario", "x", "--database", "PROD", "-o", "o.toml"], "-o/--in-place are for"),
        (["missing.toml", "--database", "PROD"], "missing.toml: no such file"),
        (["SCEN", "--database", "NOPE"], "nothing imported for database 'NOPE'"),
        (["SCEN", "--database", "PROD", "--device", "DISK", "--compression"], "device type DISK"),
        (["--scenario", "nothing", "--database", "PROD"], "no scenario named 'nothing'"),
    ],
)
def test_apply_errors(capsys, filled, argv, message) -> None:
    argv = [str(SCENARIO) if a == "SCEN" else a for a in argv]
    rc, out, err = run(capsys, "imports", "apply", "--db", filled, *argv)
    assert rc == 2 and out == ""
    line = one_error_line(err)
    assert line.startswith("rto-planner: error:") and message in line


@pytest.mark.parametrize(
    "argv",
    [
        ["SCEN", "--database", "PROD", "--redo", "max"],
        ["SCEN", "--database", "PROD", "--block-size", "12K"],
        ["SCEN"],
        ["SCEN", "--database", "PROD", "-o", "a.toml", "--in-place"],
    ],
)
def test_apply_usage_errors(capsys, filled, argv) -> None:
    argv = [str(SCENARIO) if a == "SCEN" else a for a in argv]
    with pytest.raises(SystemExit) as exc:
        main(["imports", "apply", "--db", filled, *argv])
    _, err = capsys.readouterr()
    assert exc.value.code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("rto-planner imports apply: error:")


def test_imports_summary_of_one_hour_of_rac_data_says_so(capsys, db, tmp_path) -> None:
    """Issue 15.8: "2 hours, 2 instances" for one hour of RAC data, and p95/peak of a
    single hour without a warning."""
    sysstat_csv(tmp_path / "one.csv", hours=1, instances=2, start=datetime(2024, 3, 1, 10, 30))
    rc, _, _ = run(capsys, "import", "--db", db, str(tmp_path / "one.csv"), "--database", "PROD")
    assert rc == 0
    rc, out, err = run(capsys, "imports", "summary", "--db", db)
    assert (rc, err) == (0, "")
    assert "(1 h 00 min of reports, 2 instances)" in out
    assert "2 hours" not in out
    assert "p95 and peak of only 1 h 00 min of reports" in out
