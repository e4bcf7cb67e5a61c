"""The Backups and Cycle views at 1024 × 700 (issue 23): the window's label covered the
level 0's figures; the cycle's note read "level 1 every 24 h 00 min" for "1d"."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_the_window_label_covers_no_job_figure(qtbot, size):
    win = show_window(qtbot, path=DEMOS / "small_gige_lto.toml", size=size)
    try:
        assert win.doc.wait_idle()
        win.show_view("backups")
        panel = win.results.panel("backups")
        for _ in range(3):  # the plots take their size
            qtbot.wait(20)
            win.grab()
        window = panel.window_label
        assert window.isVisible() and window.toPlainText().startswith("window ")
        window.updateTransform(force=True)
        area = panel.jobs_plot.getPlotItem().getViewBox().sceneBoundingRect()
        assert area.top() - 1 <= window.sceneBoundingRect().top()
        for label in (lab for lab in panel.job_labels if lab.isVisible()):
            label.updateTransform(force=True)
            assert not window.sceneBoundingRect().intersects(label.sceneBoundingRect())
        win.show_view("cycle")
        note = win.results.panel("cycle").note.text()
        assert "level 1 every 24 h (dotted lines)" in note and "24 h 00 min" not in note
    finally:
        close_window(win)
