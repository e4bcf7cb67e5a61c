"""`rto-planner catalog ...` and `rto-planner scenarios ...` end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import DATA, python_env

from rtoplanner.core.catalog import shipped_catalog
from rtoplanner.core.cli import main

SCENARIO = DATA / "scenario.toml"
NAME = "Fixture – Exadata restore from LTO-4"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_users_first_catalog_list(tmp_path: Path) -> None:
    """No --db, no RTOPLANNER_DB: the store is created in the user data dir and listed."""
    env = python_env()
    env.pop("RTOPLANNER_DB", None)
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    env["HOME"] = str(tmp_path / "home")
    proc = subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", "catalog", "list"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    if sys.platform.startswith("linux"):
        assert (tmp_path / "xdg" / "rto-planner" / "rtoplanner.duckdb").exists()
    out = proc.stdout
    assert "SOURCE" in out.splitlines()[0]
    for expected in ("LTO-9", "InfiniBand DDR", "10 GbE", "8GFC", "BASIC", "oltp",
                     "IBM TS4500", "Oracle MAA"):  # fmt: skip
        assert expected in out
    assert f"{len(shipped_catalog())} items" in out


def test_catalog_list_json_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalog", "list", "--kind", "network", "--json")
    assert code == 0
    rows = json.loads(out)
    assert rows and {r["kind"] for r in rows} == {"network"}
    ddr = next(r for r in rows if r["name"] == "InfiniBand DDR")
    assert ddr["practical_rate_Bps"] == pytest.approx(1.6e9)
    assert ddr["source"] and ddr["origin"] == "shipped"


def test_catalog_add_then_list_marks_mine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(
        '[[item]]\nkind = "tape_drive"\nname = "LTO-4"\nrate = "100 MB/s"\n'
        'source = "measured at ACME"\n\n'
        '[[item]]\nkind = "network"\nname = "ACME WAN"\nrate = "2 Gb/s"\nderate = "70%"\n'
        'source = "iperf3, 8 streams, 2024-05"\n',
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "catalog", "add", str(mine))
    assert code == 0 and "Added 2 item(s)" in out
    code, out, _ = run(capsys, "catalog", "add", str(mine), "--json")
    assert json.loads(out) == {"added": [], "replaced": ["tape_drive/LTO-4", "network/ACME WAN"]}
    code, out, _ = run(capsys, "catalog", "list", "--kind", "tape_drive")
    lto4 = [line for line in out.splitlines() if line.startswith("tape_drive  LTO-4 ")]
    assert len(lto4) == 1 and "user*" in lto4[0] and "measured at ACME" in lto4[0]
    code, out, _ = run(capsys, "catalog", "list", "--kind", "tape_drive", "--all")
    assert "(overridden)" in out
    assert run(capsys, "catalog", "remove", "tape_drive", "LTO-4")[0] == 0
    code, out, _ = run(capsys, "catalog", "list", "--kind", "tape_drive", "--json")
    assert all(r["origin"] == "shipped" for r in json.loads(out))


def test_catalog_add_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[item]]\nkind = "toaster"\nname = "x"\nsource = "me"\n')
    code, _, err = run(capsys, "catalog", "add", str(bad))
    assert code == 2 and "unknown kind 'toaster'" in err
    bad.write_text('[[item]]\nkind = "network"\nname = "x"\nrate = "fast"\nsource = "me"\n')
    code, _, err = run(capsys, "catalog", "add", str(bad))
    assert code == 2 and "bad.toml item 1 (x)" in err


def test_scenario_saved_three_times_shows_three_versions_and_restores_any(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    texts = [
        SCENARIO.read_text(encoding="utf-8"),
        SCENARIO.read_text(encoding="utf-8").replace('rto = "4 h"', 'rto = "5 h"'),
        SCENARIO.read_text(encoding="utf-8").replace("channels = 14", "channels = 12"),
    ]
    work = tmp_path / "s.toml"
    for i, text in enumerate(texts, start=1):
        work.write_text(text, encoding="utf-8")
        code, out, err = run(capsys, "scenarios", "save", str(work), "-m", f"change {i}")
        assert code == 0, err
        assert f"as version {i}" in out
    code, out, _ = run(capsys, "scenarios", "history", NAME, "--json")
    history = json.loads(out)
    assert [h["version"] for h in history] == [1, 2, 3]
    assert [h["comment"] for h in history] == ["change 1", "change 2", "change 3"]
    code, out, _ = run(capsys, "scenarios", "history", "fixture")  # unique prefix
    assert code == 0 and "change 2" in out

    for v in (1, 2, 3):
        code, out, _ = run(capsys, "scenarios", "restore", NAME, str(v), "--json")
        assert code == 0 and json.loads(out)["restored_from"] == v
        target = tmp_path / f"restored_{v}.toml"
        assert run(capsys, "scenarios", "export", NAME, "-o", str(target))[0] == 0
        assert target.read_bytes() == texts[v - 1].encode("utf-8")

    code, out, _ = run(capsys, "scenarios", "list", "--json")
    (summary,) = json.loads(out)
    assert summary["versions"] == 6 and summary["latest_comment"] == "restored version 3"


def test_export_import_round_trip_is_exact(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    original = tmp_path / "crlf.toml"
    original.write_bytes(SCENARIO.read_bytes().replace(b"\n", b"\r\n") + b"# \xc3\xbc")
    assert run(capsys, "scenarios", "import", str(original))[0] == 0
    proc = subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", "scenarios", "export", NAME],
        capture_output=True, timeout=60, env=python_env(),
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stdout == original.read_bytes()
    again = tmp_path / "again.toml"
    again.write_bytes(proc.stdout)
    _, out, _ = run(capsys, "scenarios", "import", str(again), "--json")
    (v,) = json.loads(out)
    assert v["version"] == 2 and v["comment"] == "imported from again.toml"
    _code, out, _ = run(capsys, "scenarios", "diff", NAME, "1", "2", "--json")
    assert json.loads(out)["identical"] is True
    _, out, _ = run(capsys, "scenarios", "show", NAME, "--json")
    assert json.loads(out)["text"].encode() == original.read_bytes()


def test_diff_delete_undelete(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    work = tmp_path / "s.toml"
    work.write_bytes(SCENARIO.read_bytes())
    run(capsys, "scenarios", "save", str(work))
    work.write_text(SCENARIO.read_text().replace('rto = "4 h"', 'rto = "6 h"'))
    run(capsys, "scenarios", "save", str(work))
    code, out, _ = run(capsys, "scenarios", "diff", NAME, "1")
    assert code == 0 and '-rto = "4 h"' in out and '+rto = "6 h"' in out
    code, out, _ = run(capsys, "scenarios", "delete", NAME)
    assert code == 0 and "undelete" in out
    assert "No scenarios yet" in run(capsys, "scenarios", "list")[1]
    assert "deleted, purged after" in run(capsys, "scenarios", "list", "--deleted")[1]
    assert run(capsys, "scenarios", "undelete", NAME)[0] == 0
    assert NAME in run(capsys, "scenarios", "list")[1]


def test_results_compute_and_list(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "scenarios", "save", str(SCENARIO))
    code, out, err = run(capsys, "scenarios", "results", NAME, "--compute")
    assert code == 0, err
    assert "current" in out
    code, out, _ = run(capsys, "scenarios", "results", NAME, "--json")
    (r,) = json.loads(out)
    assert r["current"] is True and r["plan"]["recovery"]["verdict"]


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "scenarios", "show", "no such scenario")
    assert code == 2 and "no scenario named 'no such scenario'" in err
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\nname = "x"\n')
    code, _, err = run(capsys, "scenarios", "save", str(bad))
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "scenarios", "save", str(tmp_path / "missing.toml"))
    assert code == 2 and "cannot read" in err


def test_db_option_and_env(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    assert run(capsys, "scenarios", "save", str(SCENARIO), "--db", str(a))[0] == 0
    assert run(capsys, "--db", str(b), "scenarios", "list")[0] == 0
    assert NAME in run(capsys, "scenarios", "list", "--db", str(a))[1]
    assert NAME not in run(capsys, "scenarios", "list", "--db", str(b))[1]
    assert not Path(os.environ["RTOPLANNER_DB"]).exists()
