"""`rto-planner import` shows which file of how many it is on, on a terminal only (issue 25:
a large import was silent): one line on standard error, rewritten and cleared; a pipe gets
nothing, and standard output is the same either way."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from workload_helpers import CSV, sysstat_csv

from rtoplanner.core.cli import main
from rtoplanner.core.cli import progress as progress_module


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _files(tmp_path: Path) -> list[str]:
    folder = tmp_path / "exports"
    folder.mkdir()
    sysstat_csv(folder / "a_redo.csv", hours=4)
    (folder / "b_rman.csv").write_bytes((CSV / "rman_backup_job_details.csv").read_bytes())
    return [str(folder)]


def test_import_progress_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(progress_module, "MIN_INTERVAL_S", 0.0)
    files = _files(tmp_path)
    rc = main(["import", *files, "--db", str(tmp_path / "piped.duckdb")])
    piped_out, piped_err = capsys.readouterr()
    assert rc == 0 and piped_err == ""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    rc = main(["import", *files, "--db", str(tmp_path / "tty.duckdb")])
    out, _ = capsys.readouterr()
    assert rc == 0
    assert out.replace("tty.duckdb", "piped.duckdb") == piped_out
    shown = terminal.getvalue()
    assert "\rimport:   0 %  file 1 of 2: a_redo.csv" in shown
    assert "\rimport:  50 %  file 2 of 2: b_rman.csv" in shown
    assert shown.endswith("\r") and shown.split("\r")[-2].strip() == ""  # cleared
