"""The path view at the smallest window (issue 23): at 1024 × 700 the legend inside the
plot covered the first stage's figures, and the band kept for it squeezed five stages'
figures onto each other. The key is in the axis title; each row has its height."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.mark.parametrize("demo", ["small_gige_lto", "oltp_zfs_nas"])
@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_no_legend_over_the_rows_and_rows_apart(qtbot, demo, size):
    win = show_window(qtbot, path=DEMOS / f"{demo}.toml", size=size)
    try:
        assert win.doc.wait_idle()
        win.show_view("path")
        panel = win.results.panel("path")
        for _ in range(3):
            qtbot.wait(20)
            win.grab()
        assert panel.plot.getPlotItem().legend is None
        shown = [lab for lab in panel.labels if lab.isVisible()]
        assert len(shown) == 2 * len(panel.rows)
        # The figures of one row stay clear of the next row's.
        font_h = shown[0].textItem.boundingRect().height()
        vb = panel.plot.getPlotItem().getViewBox()
        y0, y1 = vb.viewRange()[1]
        row_px = vb.height() / (y1 - y0)
        assert row_px >= 1.5 * font_h, (row_px, font_h)
    finally:
        close_window(win)
