"""The RPO and growth view at the smallest window (issue 23): the RPO target's label was
cut at the plot's left edge ("0 24 h 00 min") and the growth legend covered the label
of the date the plan breaks."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


def _inside(label, plot) -> bool:
    label.updateTransform(force=True)
    rect = label.sceneBoundingRect()
    area = plot.getPlotItem().getViewBox().sceneBoundingRect()
    return area.left() - 1 <= rect.left() and rect.right() <= area.right() + 1


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_labels_are_whole_and_nothing_covers_the_break_date(qtbot, size):
    win = show_window(qtbot, path=DEMOS / "small_gige_lto.toml", size=size)
    try:
        assert win.doc.wait_idle()
        win.show_view("rpo")
        panel = win.results.panel("rpo")
        for _ in range(3):  # the plots take their size and their axes' labels
            qtbot.wait(20)
            win.grab()
        panel.redraw()  # placed with the plot's size known, as after any edit
        assert panel.target_label.toPlainText() == "RPO 24 h"
        assert _inside(panel.target_label, panel.rpo_plot)
        # No legend inside the growth plot: the key is in the title above it.
        assert panel.growth_plot.getPlotItem().legend is None
        assert "worst-case recovery" in panel.growth_title.text()
        assert panel.break_label.isVisible()
    finally:
        close_window(win)


def test_no_growth_rate_shows_words_not_an_empty_plot(qtbot):
    """The NAS demo has no growth rate: the view drew an empty plot whose date axis read
    "00.250 00.500 00.750", and named the key database.growth."""
    win = show_window(qtbot, path=DEMOS / "nas_two_heads.toml")
    try:
        assert win.doc.wait_idle()
        win.show_view("rpo")
        panel = win.results.panel("rpo")
        assert not panel.growth_plot.isVisible()
        title = panel.growth_title.text()
        assert "no growth rate set" in title and "database.growth" not in title
        win.doc.set_value("database.growth", "20%/y")
        assert win.doc.wait_idle()
        panel = win.results.panel("rpo")
        qtbot.waitUntil(lambda: panel.growth_plot.isVisible(), timeout=10000)
    finally:
        close_window(win)
