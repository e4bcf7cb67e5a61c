"""The path view's legend at the smallest window (issue 23): at 1024 × 700 the plot is
about 200 px tall and a band of one row's height above the stages was lower than the
legend, which covered the first stage's figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.mark.parametrize("demo", ["small_gige_lto", "exadata_tape_infiniband"])
@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_the_legend_covers_no_figure(qtbot, demo, size):
    win = show_window(qtbot, path=DEMOS / f"{demo}.toml", size=size)
    try:
        assert win.doc.wait_idle()
        win.show_view("path")
        panel = win.results.panel("path")
        qtbot.wait(50)
        legend = panel.legend.sceneBoundingRect()
        shown = [lab for lab in panel.labels if lab.isVisible()]
        assert shown
        for label in shown:
            label.updateTransform(force=True)
            assert not legend.intersects(label.sceneBoundingRect()), label.toPlainText()
    finally:
        close_window(win)
