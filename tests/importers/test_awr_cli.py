"""`rto-planner awr`: table and JSON output, directories, per-file failures, exit status."""

from __future__ import annotations

import json

import pytest
from awr_paths import FIXTURES, SYNTHETIC

from rtoplanner.core.cli import main
from rtoplanner.core.cli.awr import CONTRACT_KEYS

TXT = FIXTURES / "1newstar-awr2csv__awr_11204_1.txt"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["awr", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_json_has_the_contract_keys(capsys) -> None:
    rc, out, err = run(capsys, "--json", str(TXT))
    assert (rc, err) == (0, "")
    (d,) = json.loads(out)
    assert list(d)[: len(CONTRACT_KEYS)] == list(CONTRACT_KEYS)
    assert d["file"] == str(TXT)
    assert (d["kind"], d["db_name"], d["instance"], d["version"]) == (
        "awr", "ORCL", "orcl1", "11.2.0.4.0",
    )  # fmt: skip
    assert (d["begin"], d["end"]) == ("2014-07-10T04:00:45", "2014-07-10T05:00:58")
    assert d["elapsed_s"] == pytest.approx(60.22 * 60)
    assert (d["redo_bytes_per_s"], d["txn_per_s"], d["block_changes_per_s"]) == (477.1, 0.0, 1.3)
    assert (d["physical_reads_per_s"], d["physical_writes_per_s"]) == (0.0, 0.2)


@pytest.mark.parametrize("value", ["-477.1", "1e308"])
def test_an_impossible_figure_is_said_not_printed_silently(capsys, tmp_path, value) -> None:
    """Issue 25.9: `awr` printed a redo of -477 or 1e308 B/s without a word, although
    `import` refuses the report."""
    bad = tmp_path / "bad.txt"
    text = TXT.read_text(encoding="utf-8")
    bad.write_text(text.replace("Redo size (bytes):             477.1",
                                f"Redo size (bytes):   {value}"), encoding="utf-8")  # fmt: skip
    rc, out, _ = run(capsys, "--json", str(bad))
    (d,) = json.loads(out)
    assert rc == 0 and any("import` refuses this report" in w for w in d["warnings"])
    rc, out, _ = run(capsys, str(bad))
    assert "impossible figure" in out and "redo_bytes_per_s" in out
    rc, out, _ = run(capsys, "--json", str(TXT))
    assert json.loads(out)[0]["warnings"] == []


def test_table_for_people(capsys) -> None:
    rc, out, _ = run(capsys, str(TXT), str(SYNTHETIC / "awrddrpt_11g_text.txt"))
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["file", "kind", "db"]
    assert "ORCL" in lines[1] and "477 B/s" in lines[1]
    assert "[1]" in lines[2] and "[2]" in lines[3]  # compare report: one line per period


def test_directories_are_walked_and_failures_reported(capsys, tmp_path) -> None:
    (tmp_path / "a.txt").write_bytes(TXT.read_bytes())
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "notes.md").write_text("just notes\n")
    (sub / "cut.html").write_bytes(
        b"<html><title>AWR Report for DB: X</title><h1>WORKLOAD REPOSITORY report for</h1>"
    )
    rc, out, err = run(capsys, "--json", str(tmp_path))
    assert rc == 1
    assert len(json.loads(out)) == 1
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert any("cut.html" in line and "report without" in line for line in lines)
    assert any("notes.md" in line and "not an AWR" in line for line in lines)
    assert "Traceback" not in err


def test_garbage_never_gives_a_traceback(capsys, tmp_path) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(bytes(range(256)) * 50)
    rc, out, err = run(capsys, str(bad), str(tmp_path / "missing.txt"))
    assert rc == 1
    assert out == ""
    assert err.count("\n") == 2 and "Traceback" not in err
    assert "missing.txt: no such file" in err


def test_usage_error_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["awr"])
    assert info.value.code == 2
    assert "FILE" in capsys.readouterr().err
