"""The Estate window's Gantt (issue 23): "RTO 2 d →", at the chart's right edge over the
bars, covered the Data warehouse's opening (the last of the estate)."""

from __future__ import annotations

import pytest

from rtoplanner.app.estate.estate_window import EstateWindow
from rtoplanner.core.paths import estates_dir

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_far_rto_labels_leave_the_openings_clear(qtbot, size):
    win = EstateWindow()
    qtbot.addWidget(win)
    assert win.open_estate(estates_dir() / "site_loss.toml")
    win.resize(*size)
    win.show()
    qtbot.waitUntil(lambda: not win.runner.busy and win.result is not None, timeout=20000)
    gantt = win.gantt
    gantt.set_result(win.result, gantt.rows)  # laid out at the window's size
    assert gantt.far
    view = gantt.view
    for item in gantt.far:
        item.updateTransform(force=True)
        left = view.mapSceneToView(item.sceneBoundingRect().topLeft()).x()
        row = round(item.pos().y())
        d = gantt.rows[row]
        assert left > d.open_s, (item.toPlainText(), d.name)
    win.close()


def test_the_least_tab_points_to_the_runbook_tab(qtbot):
    """ "the runbook order above" on the PDF page; in the window the runbook is a tab."""
    win = EstateWindow()
    qtbot.addWidget(win)
    assert win.open_estate(estates_dir() / "site_loss.toml")
    qtbot.waitUntil(lambda: not win.runner.busy and win.result is not None, timeout=20000)
    text = win.least_panel.summary.text()
    assert "runbook order (its tab)" in text and "above" not in text
    win.close()


def test_the_legend_breaks_between_entries_only():
    """At 1440 px the legend's last line read "(verdict colour)" under "● opens"."""
    from rtoplanner.app.estate.estate_words import phase_legend

    html = phase_legend()
    entries = html.split("&nbsp;&nbsp; ")
    assert len(entries) >= 5
    for entry in entries:
        text = entry.split("</span>")[-1]
        assert " " not in text, entry
