"""The Confidence view: the Monte Carlo answer in a worker, ranges edited in place."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLineEdit, QSizePolicy

from rtoplanner.app.plots.common import short_duration
from rtoplanner.app.plots.confidence_panel import ConfidencePanel

from .helpers import distinct_colours, type_into

pytestmark = pytest.mark.gui


def confidence(window) -> ConfidencePanel:
    window.show_view("confidence")
    panel = window.results.panel("confidence")
    assert panel.wait_idle()
    assert panel.result is not None
    return panel


def type_range(qtbot, panel: ConfidencePanel, key: str, text: str) -> QLineEdit:
    index = panel.range_cell(key)
    panel.table.setCurrentIndex(index)
    panel.table.edit(index)
    editor = panel.table.findChild(QLineEdit, "range_editor")
    assert editor is not None and editor.isVisible()
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    qtbot.keyClicks(editor, text)
    return editor


def test_the_view_shows_the_probability_distribution_and_tornado(window):
    panel = confidence(window)
    r = panel.result
    assert "The database is open within the RTO" in panel.headline.text()
    assert "meets" in panel.probabilities.text() and "P90" in panel.probabilities.text()
    assert r.trials == panel.trials
    shown = [b for b in r.tornado if b.swing_s > 0][:8]
    assert len(panel.low_bars.opts["x0"]) == len(shown) > 0
    cut = 100.0 * (r.worst.hist_below + r.worst.hist_beyond) / r.trials  # a tail, stated
    assert sum(panel.bars.opts["height"]) + cut == pytest.approx(100.0)  # shares of trials
    assert panel.rto_line.value() == r.rto_s
    # Every row says where its range came from.
    assert "[uncertainty]" in panel.from_text("recovery.redo_apply_rate")
    assert "estimate" in panel.from_text("database.size")
    image = panel.grab().toImage()
    assert distinct_colours(image) > 20


def test_typing_a_range_writes_the_scenario_and_reruns_with_the_old_answer_kept(qtbot, window):
    panel = confidence(window)
    old, count = panel.result, panel.result_count
    type_range(qtbot, panel, "recovery.redo_apply_rate", "±1%")
    assert panel.result is old  # the previous answer stays until the new one lands
    window.doc.wait_idle()
    qtbot.waitUntil(lambda: panel.result_count > count, timeout=20000)
    assert window.doc.raw["uncertainty"]["recovery.redo_apply_rate"] == "±1%"
    bar = next(b for b in panel.result.tornado if b.key == "recovery.redo_apply_rate")
    old_bar = next(b for b in old.tornado if b.key == "recovery.redo_apply_rate")
    assert bar.swing_s < old_bar.swing_s
    # One undo step for the burst of typing: back to the file's range.
    window.doc.undo_stack.undo()
    assert window.doc.raw["uncertainty"]["recovery.redo_apply_rate"] == "-40%..+20%"


def test_a_range_that_is_not_one_yet_is_marked_and_not_written(qtbot, window):
    panel = confidence(window)
    before = dict(window.doc.raw["uncertainty"])
    type_range(qtbot, panel, "database.size", "-10%..")
    index = panel.range_cell("database.size")
    assert "not a range" in panel.model.data(index, Qt.ItemDataRole.ToolTipRole)
    assert panel.model.data(index, Qt.ItemDataRole.BackgroundRole) is not None
    assert "database size" in panel.note.text() and "last valid range" in panel.note.text()
    assert window.doc.raw["uncertainty"] == before
    qtbot.keyClicks(panel.table.findChild(QLineEdit, "range_editor"), "+5%")
    assert window.doc.raw["uncertainty"]["database.size"] == "-10%..+5%"
    assert panel.model.data(index, Qt.ItemDataRole.BackgroundRole) is None


def test_a_figure_typed_in_the_editor_moves_the_answer(qtbot, window):
    panel = confidence(window)
    count = panel.result_count
    type_into(qtbot, window, "targets.rto", "12 h")
    qtbot.waitUntil(lambda: panel.result_count > count, timeout=20000)
    assert panel.result.rto_s == 12 * 3600
    assert panel.result.worst.p_misses == 0.0


def test_stop_cancels_the_run_and_keeps_the_last_answer(qtbot, window):
    panel = confidence(window)
    old = panel.result
    window.doc.set_value("uncertainty.database.size", "±3%")
    window.doc.recompute_now()
    assert panel.runner.busy and panel.stop_button.isVisibleTo(panel)
    qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
    assert panel.wait_idle()
    assert panel.result is old
    assert "stopped" in panel.status.text()
    assert not panel.stop_button.isVisibleTo(panel)


def test_probabilities_that_round_away_are_written_out(window):
    from dataclasses import replace

    from PySide6.QtGui import QTextDocument

    panel = confidence(window)
    r = panel.result
    rare = replace(r, worst=replace(r.worst, p_meets=0.9994, p_at_risk=0.0001, p_misses=0.0005))
    doc = QTextDocument()
    doc.setHtml(panel._probabilities_html(rare))
    shown = doc.toPlainText()
    assert "meets > 99.9 %" in shown
    assert "misses < 0.1 %" in shown


def _laid_out(label) -> tuple[QTextDocument, int, int]:
    """The label's text laid out at the label's width: (document, width, height)."""
    room = label.contentsRect()
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    doc.setHtml(label.text())
    doc.setTextWidth(room.width())
    return doc, room.width(), room.height()


def test_the_percentiles_line_wraps_rather_than_clipping_at_1024x700(qtbot, window):
    window.resize(1024, 700)
    panel = confidence(window)
    label = panel.probabilities

    def fits() -> bool:
        doc, width, height = _laid_out(label)
        unwrapped_fits = label.wordWrap() or label.sizeHint().width() <= width
        # nothing runs past the right edge (1 px: the table's rounding), every line shown
        return unwrapped_fits and doc.idealWidth() <= width + 1 and doc.size().height() <= height

    qtbot.waitUntil(lambda: label.isVisible() and fits(), timeout=3000)
    # Other views' minimum sizes may widen the window past 1024; the label must not be
    # what needs that: it asks for no width it would not have in a 1024-wide window.
    at_1024 = label.width() - max(window.width() - 1024, 0)
    policy = label.sizePolicy().horizontalPolicy()
    asks = 0 if policy == QSizePolicy.Policy.Ignored else label.minimumSizeHint().width()
    assert max(asks, label.minimumWidth()) <= at_1024
    doc, _, _ = _laid_out(label)
    doc.setTextWidth(at_1024)
    assert doc.idealWidth() <= at_1024 + 1  # and its text wraps into that width
    doc, _, _ = _laid_out(label)
    assert "Any moment" in doc.toPlainText() and "P99" in doc.toPlainText()
    r = panel.result
    tip = label.toolTip()
    for mode in ("worst", "uniform"):
        assert short_duration(r.distribution(mode).percentile(99)) in tip


def test_the_view_writes_real_plurals(window):
    # The caption said "7 figure(s) vary ... 9 typed figure(s) are held".
    panel = confidence(window)
    assert "typed figure" in panel.note.text()
    assert "(s)" not in panel.note.text()
