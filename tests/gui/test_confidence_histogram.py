"""The Confidence view's histogram on a long-tailed demo (issue 23): the bars filled a
few pixels at the left of an axis that ran to the slowest of the trials."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtoplanner.core.uncertainty.words import histogram_tails

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_the_bars_fill_the_plot_and_the_tail_is_stated(qtbot, size):
    win = show_window(qtbot, path=DEMOS / "oltp_zfs_nas.toml", size=size)
    try:
        assert win.doc.wait_idle()
        win.show_view("confidence")
        panel = win.results.panel("confidence")
        assert panel.wait_idle()
        r = panel.result
        qtbot.wait(50)
        (x_lo, x_hi), _ = panel.dist_plot.getPlotItem().getViewBox().viewRange()
        x0, x1 = panel.bars.opts["x0"], panel.bars.opts["x1"]
        # The bars span most of the x-range (they held 3 % of it: the tail ran to years).
        assert (max(x1) - min(x0)) > 0.6 * (x_hi - x_lo)
        assert max(panel.bars.opts["height"]) < 25.0
        # What the bars leave out is said, in the core's words, inside the plot.
        beyond = histogram_tails(r.worst, r.trials, short=True)[1]
        assert r.worst.hist_beyond > 0 and beyond.endswith("→")
        label = panel.tail_beyond
        assert label.isVisible() and label.toPlainText() == beyond
        label.updateTransform(force=True)
        area = panel.dist_plot.getPlotItem().getViewBox().sceneBoundingRect()
        rect = label.sceneBoundingRect()
        assert area.left() - 1 <= rect.left() and rect.right() <= area.right() + 1
        assert area.top() - 1 <= rect.top() and rect.bottom() <= area.bottom() + 1
        # Heights are shares of all the trials: the bars plus the tails make 100 %.
        cut = 100.0 * (r.worst.hist_below + r.worst.hist_beyond) / r.trials
        assert sum(panel.bars.opts["height"]) + cut == pytest.approx(100.0)
    finally:
        close_window(win)


def test_a_priors_range_reads_whole(window):
    """The Ranges table cut "-23%..+29% (P10..P90)" to "-23%..+29% …" at 1440 px."""
    from PySide6.QtCore import Qt

    from rtoplanner.app.models.ranges_table_model import COL_RANGE

    window.show_view("confidence")
    panel = window.results.panel("confidence")
    assert panel.wait_idle()
    index = panel.range_cell("database.size")
    text = str(index.data(Qt.ItemDataRole.DisplayRole))
    assert "(P10..P90)" in text
    need = panel.table.fontMetrics().horizontalAdvance(text) + 8
    assert need <= panel.table.columnWidth(COL_RANGE)


def test_tornado_rows_of_one_stage_stay_apart():
    """Two figures of one long-named stage read alike once cut to the axis' width."""
    from rtoplanner.app.plots.confidence_charts import _short

    rate = _short("EFS-CG NAS head (one GigE NFS path): rate")
    eff = _short("EFS-CG NAS head (one GigE NFS path): efficiency")
    assert rate != eff and rate.endswith(": rate") and eff.endswith(": efficiency")
    assert len(rate) <= 26 and len(eff) <= 26
    assert _short("apply cost per archived log") == "apply cost per archived log"[:25] + "…"
