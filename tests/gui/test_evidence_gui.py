"""The Evidence tab, Recovery in Progress and Fill from RESTORE PREVIEW, driven with qtbot."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from .conftest import REPO

EVIDENCE = REPO / "tests" / "fixtures" / "evidence"
DRILL = [
    EVIDENCE / n
    for n in (
        "drill_prod_iso.log",
        "rman_status_drill.csv",
        "clock/20261012_0120_recovery.csv",
        "preview_prod.txt",
    )
]
SNAPSHOTS = sorted((EVIDENCE / "clock").glob("*.csv"))


def _panel(win):
    return win.evidence.show_window()


def _add_drill(qtbot, panel, paths) -> None:
    with qtbot.waitSignal(panel.runner.done, timeout=30000):
        assert panel.add_drill([str(p) for p in paths])


def test_a_drill_shows_plan_vs_actual_in_the_evidence_tab(qtbot, store_window) -> None:
    panel = _panel(store_window)
    assert "No drill of" in panel.heading.text()
    _add_drill(qtbot, panel, DRILL)
    assert panel.drill_model.rowCount() == 1
    assert "last drill: +20 % against the plan" in panel.heading.text()
    titles = [panel.phase_model.index(r, 0).data() for r in range(panel.phase_model.rowCount())]
    assert "Restore level 0" in titles and "Redo apply" in titles
    row = titles.index("Restore level 0")
    assert panel.phase_model.index(row, 3).data() == "+18.8 %"
    assert panel.phase_model.index(row, 4).data() == "wall clock"
    assert len(panel.actual_bars.opts["width"]) == 6  # the phases both have
    x, y = panel.history_curve.getData()
    assert list(x) == [1] and y[0] == pytest.approx(19.5, abs=0.1)


def test_calibrating_is_one_undoable_step(qtbot, store_window) -> None:
    win = store_window
    panel = _panel(win)
    _add_drill(qtbot, panel, DRILL)
    before = win.doc.scenario.recovery.redo_apply_rate_Bps
    assert panel.calibrate_selected(apply=True)
    win.doc.wait_idle()
    after = win.doc.scenario
    assert after.recovery.redo_apply_rate_Bps < before
    assert after.provenance["recovery.redo_apply_rate"].startswith("measured ±10%: drill 1")
    win.doc.undo_stack.undo()
    win.doc.wait_idle()
    assert win.doc.scenario.recovery.redo_apply_rate_Bps == before
    assert "recovery.redo_apply_rate" not in win.doc.scenario.provenance


def test_delete_a_drill(qtbot, store_window) -> None:
    panel = _panel(store_window)
    _add_drill(qtbot, panel, DRILL[:1])
    assert panel.delete_selected() and panel.drill_model.rowCount() == 0


def test_bad_evidence_is_one_message_and_no_drill(qtbot, store_window, monkeypatch) -> None:
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: said.append(text))
    panel = _panel(store_window)
    with qtbot.waitSignal(panel.runner.failed, timeout=30000):
        panel.add_drill([str(EVIDENCE / "make_evidence.py")])
    assert len(said) == 1 and "not an RMAN output log" in said[0]
    assert panel.drill_model.rowCount() == 0


def test_preview_fills_the_scenario_in_one_step(qtbot, window) -> None:
    doc = window.doc
    assert window.preview_fill.fill(str(EVIDENCE / "preview_prod.txt"), apply=True)
    doc.wait_idle()
    assert doc.scenario.recovery.redo_volume_bytes == pytest.approx(400e9, rel=1e-3)
    assert doc.scenario.provenance["database.size"].startswith("exact: RESTORE PREVIEW")
    doc.undo_stack.undo()
    doc.wait_idle()
    assert doc.scenario.recovery.redo_volume_bytes is None


def test_recovery_in_progress_forecasts_and_writes_the_status_pdf(
    qtbot, window, tmp_path: Path
) -> None:
    clock = window.recovery_clock.show_window()
    qtbot.waitExposed(clock)
    try:
        with qtbot.waitSignal(clock.runner.done, timeout=30000):
            clock.add_files([str(p) for p in [*SNAPSHOTS, EVIDENCE / "preview_prod.txt"]])
        qtbot.waitUntil(
            lambda: clock.clock is not None and len(clock.clock.history) == 20, timeout=30000
        )
        assert clock.headline.text().startswith("Expected open 01:28")
        assert clock.phases.rowCount() >= 3
        assert len(clock.p50_curve.getData()[0]) == 20
        pdf = tmp_path / "status.pdf"
        assert clock.export_pdf(str(pdf)) and pdf.read_bytes().startswith(b"%PDF")
        # a snapshot pasted as SQL*Plus text re-forecasts
        with qtbot.waitSignal(clock.runner.done, timeout=30000):
            assert clock.paste((EVIDENCE / "longops_sqlplus.txt").read_text())
    finally:
        clock.runner.wait()
        window.recovery_clock.shutdown()


def test_preview_into_a_new_scenario_leaves_this_one(qtbot, window) -> None:
    doc = window.doc
    before = doc.file_path
    assert window.preview_fill.fill(str(EVIDENCE / "preview_prod.txt"), apply="new")
    doc.wait_idle()
    assert doc.scenario.name.endswith("(from RESTORE PREVIEW)") and doc.file_path is None
    assert doc.scenario.recovery.redo_volume_bytes == pytest.approx(400e9, rel=1e-3)
    assert before is not None and "redo_volume" not in before.read_text()
