"""The recovery clock: re-forecasts from snapshots, converges on the actual open."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import numpy as np
import pytest

from rtoplanner.core.cli import main
from rtoplanner.core.evidence.clock import ClockError, recovery_clock
from rtoplanner.core.evidence.progress import longops_progress, progress_points
from rtoplanner.core.importers.restore_evidence import read_evidence

from .conftest import EVIDENCE, EXADATA

SNAPSHOTS = sorted((EVIDENCE / "clock").glob("*.csv"))


def _files(paths):
    return [read_evidence(p) for p in paths]


def test_replayed_recovery_p50_converges_on_the_actual_open(exadata, truth) -> None:
    """Snapshots every 10 minutes of a recovery that ran slower than planned: each
    forecast uses only the snapshots so far; the last ones land on the actual open."""
    _, t = truth
    actual = t["open_end"]
    errors = []
    for k in range(1, len(SNAPSHOTS) + 1):
        clock = recovery_clock(exadata, _files([*SNAPSHOTS[:k], EVIDENCE / "preview_prod.txt"]))
        assert clock.history[-1] == clock.now and len(clock.history) == k
        errors.append(abs((clock.now.open_p50 - actual).total_seconds()))
    assert errors[-1] < 120  # within two minutes of the open, 8 minutes before it
    assert max(errors[-6:]) < 5 * 60
    assert np.mean(errors[-6:]) < np.mean(errors[:6]) / 3  # it converges
    first = recovery_clock(exadata, _files([SNAPSHOTS[0], EVIDENCE / "preview_prod.txt"]))
    assert first.now.open_p90 > first.now.open_p50  # early on, a band


def test_forecast_from_all_snapshots_equals_the_last_of_the_replay(exadata) -> None:
    """The history is what the clock said at each snapshot: no peeking ahead."""
    files = _files([*SNAPSHOTS, EVIDENCE / "preview_prod.txt"])
    whole = recovery_clock(exadata, files)
    for k in (3, 9, 15):
        part = recovery_clock(exadata, _files([*SNAPSHOTS[:k], EVIDENCE / "preview_prod.txt"]))
        assert part.now == whole.history[k - 1]


def test_running_phase_is_timed_by_its_measured_rate(exadata, truth) -> None:
    clock = recovery_clock(exadata, _files([*SNAPSHOTS[:3], EVIDENCE / "preview_prod.txt"]))
    n = clock.now
    assert n.phase == "restore_level0" and 0.4 < n.fraction < 0.5
    assert n.rate_Bps == pytest.approx(2.6e9, rel=0.05)  # the drill's true restore rate
    # the level 0 finishes at the measured rate: close to when it really finished
    _, t = truth
    end = n.at + timedelta(seconds=n.remaining_phase_s)
    assert abs((end - t["restore_end"]).total_seconds()) < 120
    assert "restore level 0 45 % done at 2.6" in clock.headline()


def test_without_preview_the_redo_is_the_plans_and_it_says_so(exadata) -> None:
    clock = recovery_clock(exadata, _files(SNAPSHOTS))
    assert any("the redo to apply is the plan's worst case" in n for n in clock.notes)


def test_deadline_from_the_failure_time(exadata) -> None:
    failed = datetime(2026, 10, 11, 21, 30)
    clock = recovery_clock(exadata, _files(SNAPSHOTS[:2]), failed_at=failed)
    assert clock.deadline == failed + timedelta(hours=4)
    assert 0.0 <= clock.now.p_by_deadline <= 1.0


def test_longops_snapshot_with_a_finished_restore_and_running_incrementals() -> None:
    """Longops keeps finished rows: the latest command is the one running."""
    a = read_evidence(EVIDENCE / "clock" / "20261011_2300_longops.csv").longops[0]
    b = read_evidence(EVIDENCE / "clock" / "20261011_2320_longops.csv").longops[0]
    merged = type(b)(b.at, a.rows + b.rows, "merged", False)
    p = longops_progress(merged)
    assert p.phase == "restore_incremental" and p.started == datetime(2026, 10, 11, 23, 7, 23)
    assert progress_points([merged], [], None)[0] == p


def test_no_snapshot_is_refused(exadata) -> None:
    with pytest.raises(ClockError, match="no snapshot of a recovery in progress"):
        recovery_clock(exadata, _files([EVIDENCE / "preview_prod.txt"]))


def test_cli_prints_the_forecast_and_writes_the_status_pdf(tmp_path, capsys) -> None:
    from pypdf import PdfReader

    pdf = tmp_path / "status.pdf"
    argv = [
        "clock",
        str(EXADATA),
        *map(str, SNAPSHOTS),
        str(EVIDENCE / "preview_prod.txt"),
        "--failed-at",
        "2026-10-11 21:40",
        "-o",
        str(pdf),
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Expected open 01:28" in out and "RTO runs out at 2026-10-12 01:40" in out
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "Expected open 01:28" in text and "Redo apply" in text and "RTO deadline" in text
    assert main([*argv[:-2], "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["headline"].startswith("expected open 01:28") and len(doc["history"]) == 20


def test_cli_refuses_bad_evidence_in_one_line(capsys) -> None:
    assert main(["clock", str(EXADATA), str(EVIDENCE / "make_evidence.py")]) == 2
    err = capsys.readouterr().err
    assert "make_evidence.py" in err and err.count("\n") == 1
