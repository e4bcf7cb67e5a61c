"""Imports that would degrade the store are refused or repaired (issue 16.5).

Real files through the real command line into a real store: a cut-off report replaced by
its complete export, impossible figures refused with the store left byte-identical.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from workload_helpers import CSV, FIXTURES, count, sysstat_csv

from rtoplanner.core.importers.store_import import import_file
from rtoplanner.core.store import Store

REPORT = FIXTURES / "1newstar-awr2csv__awr_11204_1.txt"


def _cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", "--db", str(db), *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_complete_report_replaces_its_cut_off_copy(store_path: Path, tmp_path: Path) -> None:
    lines = REPORT.read_text(encoding="utf-8").splitlines(keepends=True)
    head = tmp_path / "first_percent.txt"
    head.write_text("".join(lines[: len(lines) // 100 + 30]), encoding="utf-8")
    with Store(store_path) as store:
        first = import_file(store, head)
        assert first.status == "imported", first.message
        second = import_file(store, REPORT)
        assert second.status == "imported", second.message
        assert "cut-off" in second.message
        assert count(store) == 1
        ((file_name, warnings),) = store.read(
            lambda c: c.execute(
                "SELECT file_name, json_extract(payload, '$.warnings') FROM workload"
            ).fetchall()
        )
        assert file_name == str(REPORT)
        assert "End of Report" not in warnings
        # ... and a cut-off copy of a stored complete report stays a duplicate.
        assert import_file(store, head).status == "duplicate"
        assert count(store) == 1


def _refused(store_path: Path, path: Path, needle: str) -> None:
    with Store(store_path):
        pass
    before = _sha(store_path)
    proc = _cli(store_path, "import", str(path))
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert needle in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert _sha(store_path) == before
    summary = _cli(store_path, "imports", "summary", "--json")
    assert summary.returncode in (0, 2), summary.stderr
    assert "NaN" not in summary.stdout and "Infinity" not in summary.stdout


def test_negative_redo_rate_is_refused(store_path: Path, tmp_path: Path) -> None:
    bad = tmp_path / "negative.txt"
    text = REPORT.read_text(encoding="utf-8")
    assert "Redo size (bytes):             477.1" in text
    text = text.replace("Redo size (bytes):             477.1", "Redo size (bytes):   -477.1")
    bad.write_text(text, encoding="utf-8")
    _refused(store_path, bad, "negative")


def test_rman_job_with_zero_output_is_refused(store_path: Path, tmp_path: Path) -> None:
    src = (CSV / "rman_backup_job_details.csv").read_text(encoding="utf-8").splitlines()
    header, first = src[0], src[1].split(";")
    first[8] = "0"
    bad = tmp_path / "rman.csv"
    bad.write_text("\n".join([header, ";".join(first), *src[2:]]) + "\n", encoding="utf-8")
    _refused(store_path, bad, "OUTPUT_BYTES = 0")


@pytest.mark.parametrize(("column", "value"), [(8, "1e-320"), (8, "0.5"), (7, "1800.25")])
def test_rman_job_with_a_fraction_of_a_byte_is_refused(
    store_path: Path, tmp_path: Path, column: int, value: str
) -> None:
    """Issue 25.9: OUTPUT_BYTES = 1e-320 was imported and moved the compression ratio."""
    src = (CSV / "rman_backup_job_details.csv").read_text(encoding="utf-8").splitlines()
    header, second = src[0], src[2].split(";")
    second[column] = value
    bad = tmp_path / "rman.csv"
    bad.write_text("\n".join([header, src[1], ";".join(second), *src[3:]]) + "\n", "utf-8")
    _refused(store_path, bad, "not a whole number of bytes")


@pytest.mark.parametrize("value", ["1e308", "-1e308", "nan", "inf"])
def test_absurd_redo_size_is_refused(store_path: Path, tmp_path: Path, value: str) -> None:
    csv = sysstat_csv(tmp_path / "sysstat.csv", hours=4)
    lines = csv.read_text(encoding="utf-8").splitlines()
    cells = lines[3].split(",")
    cells[-1] = value
    lines[3] = ",".join(cells)
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Store(store_path):
        pass
    before = _sha(store_path)
    proc = _cli(store_path, "import", str(csv))
    assert "Traceback" not in proc.stderr
    if proc.returncode == 0:  # the bad snapshot was skipped as a counter reset: fine
        summary = _cli(store_path, "imports", "summary", "--json")
        assert summary.returncode == 0, summary.stderr
        json.loads(summary.stdout)
        assert "NaN" not in summary.stdout and "Infinity" not in summary.stdout
    else:
        assert _sha(store_path) == before


def test_impossible_rows_stored_by_an_older_version_are_left_out_of_summaries(
    store_path: Path, tmp_path: Path
) -> None:
    """A store written before these checks may hold such rows: summaries skip them."""
    from datetime import datetime

    from rtoplanner.core.importers.rman_csv import BackupJob
    from rtoplanner.core.importers.store_import import (
        WorkloadRow,
        insert_row,
        job_to_dict,
    )

    good = _cli(
        store_path, "import", "--database", "PROD", str(CSV / "rman_backup_job_details.csv")
    )
    assert good.returncode == 0, good.stderr
    before = json.loads(_cli(store_path, "imports", "summary", "--json").stdout)
    zero = BackupJob("999", "DB FULL", "COMPLETED", "SBT_TAPE", datetime(2024, 5, 1, 20),
                     datetime(2024, 5, 1, 21), 3600.0, 5e12, 0.0)  # fmt: skip
    hour = (datetime(2024, 5, 1, 0), datetime(2024, 5, 1, 1))
    huge = WorkloadRow("h" * 64, "sysstat", "PROD", None, "1", *hour, 3600.0, 1e308 / 3600,
                       {"redo_bytes": 1e308})  # fmt: skip
    job_row = WorkloadRow("z" * 64, "rman_job", "PROD", None, None, zero.start, zero.end,
                          3600.0, None, job_to_dict(zero))  # fmt: skip
    with Store(store_path) as store:
        now = datetime(2024, 6, 1)
        store.write(lambda con: (insert_row(con, huge, "old", now),
                                 insert_row(con, job_row, "old", now)))  # fmt: skip
    proc = _cli(store_path, "imports", "summary", "--json")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    (after,) = json.loads(proc.stdout, parse_constant=lambda t: pytest.fail(f"{t} in JSON"))
    assert after["backup_rates"] == before[0]["backup_rates"]  # the 0-byte job left out
    assert after["redo"] is None  # the 1e308 interval left out, no OverflowError
