"""Chart labels inside their plots (issue 23 item 7), on real widgets."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt

from rtoplanner.app.plots.cycle_panel import CyclePanel
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario

pytestmark = pytest.mark.gui

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.mark.parametrize("demo", ["small_gige_lto", "oltp_zfs_nas"])
def test_cycle_worst_case_label_is_not_clipped(qtbot, demo):
    """The worst case lies just after the cycle's start (a failure before the level 0
    finishes): its label, right-aligned on the dot, ran off the plot's left edge."""
    plan = compute_plan(load_scenario(DEMOS / f"{demo}.toml"), include_growth=False)
    assert plan.cycle.worst_at_s < 0.5 * plan.cycle.points[-1].since_level0_s
    panel = CyclePanel()
    qtbot.addWidget(panel)
    panel.resize(900, 500)
    panel.show()
    panel.set_plan(plan)
    qtbot.waitExposed(panel)
    qtbot.wait(50)  # the view range settles, the label follows it
    vb = panel.plot.getPlotItem().getViewBox()
    label = panel.worst_label
    label.updateTransform(force=True)
    rect = label.sceneBoundingRect()
    area = vb.sceneBoundingRect()
    assert label.toPlainText().startswith("worst ")
    assert area.left() - 1 <= rect.left() and rect.right() <= area.right() + 1


@pytest.mark.parametrize("demo", ["exadata_tape_infiniband", "nas_two_heads", "oltp_zfs_nas"])
def test_path_legend_covers_no_bar_value(qtbot, demo):
    """The path view's legend, top right, sat over the first stage's figures: the key is
    in the axis title now, nothing lies over the bars."""
    from rtoplanner.app.plots.path_panel import PathPanel

    plan = compute_plan(load_scenario(DEMOS / f"{demo}.toml"), include_growth=False,
                        include_cycle=False)  # fmt: skip
    panel = PathPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 520)
    panel.show()
    panel.set_plan(plan)
    qtbot.waitExposed(panel)
    qtbot.wait(50)
    item = panel.plot.getPlotItem()
    assert item.legend is None
    title = item.getAxis("bottom").labelText
    assert "restore" in title and "backup" in title
    assert [lab for lab in panel.labels if lab.isVisible()]


def _cut_labels(app, win, view: str) -> list[str]:
    """The labels and axis titles of a view that run past their plot (2 px allowed: a
    label's box has a margin round its letters)."""
    import pyqtgraph as pg

    win.show_view(view)
    panel = win.results.panel(view)
    if hasattr(panel, "wait_idle"):
        assert panel.wait_idle()
    for _ in range(3):  # the plots take their size, the labels and ranges follow
        app.processEvents()
        win.grab()
    cut = []
    for plot in panel.findChildren(pg.PlotWidget):
        if not plot.isVisible():
            continue
        vb = plot.getPlotItem().getViewBox()
        area = vb.sceneBoundingRect().adjusted(-2, -2, 2, 2)
        for item in vb.addedItems:
            if isinstance(item, pg.TextItem) and item.isVisible() and item.toPlainText().strip():
                item.updateTransform(force=True)
                if not area.contains(item.sceneBoundingRect()):
                    cut.append(f"{view}: {item.toPlainText()!r}")
        for side in ("left", "bottom"):
            axis = plot.getPlotItem().getAxis(side)
            title = axis.label.toPlainText().strip()
            if axis.isVisible() and axis.labelText and title:
                box = axis.boundingRect()
                along = box.height() if side == "left" else box.width()
                if axis.label.boundingRect().width() > along + 1:
                    cut.append(f"{view} axis: {title!r}")
    return cut


def _open(qtbot, source: str, size: tuple[int, int]):
    """A shown main window on a demo, or ("20 TiB") on the reporter's File › New scenario
    made 20 TiB on two ZFS heads, RMAN MEDIUM: a worst case of 34 h against an 8 h RTO."""
    from .conftest import show_window

    if source != "20 TiB":
        return show_window(qtbot, path=DEMOS / f"{source}.toml", size=size)
    win = show_window(qtbot, size=size)
    for key, value in (("database.size", "20 TiB"), ("database.cpu_cores", 16),
                       ("backup.compression", "medium"), ("database.growth", "30%/y"),
                       ("path[0].kind", "nas_head"),
                       ("path[0].name", "ZFS Storage Appliance head"),
                       ("path[0].count", 2)):  # fmt: skip
        win.doc.set_value(key, value)
    return win


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
@pytest.mark.parametrize("source", ["20 TiB", "exadata_tape_infiniband", "small_gige_lto"])
def test_timeline_line_labels_stand_beside_their_lines(qtbot, source, size):
    """Issue 23.7: on a large overrun at 1024 px "RTO 8 h 00 min" stood under "over by
    26 h 07 min", by the recovery's end at 34 h, far from the RTO's dashed line at 8 h."""
    from .conftest import close_window

    win = _open(qtbot, source, size)
    try:
        assert win.doc.wait_idle() and win.doc.is_valid, win.doc.errors
        win.show_view("timeline")
        qtbot.wait(30)
        panel = win.timeline_panel
        panel.plot.grab()
        vb = panel.plot.getPlotItem().getViewBox()
        rec = win.doc.plan.recovery
        for label, at in ((panel.rto_label, rec.rto_s), (panel.margin_label, rec.total_s)):
            label.updateTransform(force=True)
            box = label.sceneBoundingRect()
            x = vb.mapViewToScene(QPointF(at, 0)).x()
            beside = min(abs(box.left() - x), abs(box.right() - x))
            assert beside <= 6, (label.toPlainText(), box.left(), box.right(), x)
            assert vb.sceneBoundingRect().contains(box), label.toPlainText()
            # On the background, over the risk line (it ran through "RTO 4 h | 00 min").
            assert label.fill.style() != Qt.BrushStyle.NoBrush and label.fill.color().alpha() > 150
            assert label.zValue() > panel.risk_line.zValue()
        rto, margin = panel.rto_label.sceneBoundingRect(), panel.margin_label.sceneBoundingRect()
        assert not rto.intersects(margin)
    finally:
        close_window(win)


@pytest.mark.parametrize("source", ["ssd_restore_destination", "oltp_zfs_nas", "20 TiB"])
def test_no_label_or_axis_title_is_cut_at_1024_by_700(qtbot, qapp, source):
    """At 1024 × 700 (issue 23.4/23.7): the path's "1.40 GB/s ◀ bo", the backups'
    "w 10 h 00 min" and "705 GB/h effecti", the RPO's "45 min 4", and the axis titles
    "covery time (failure at the worst moment)", "Rate (data) (MB/s" were cut."""
    from .conftest import close_window

    win = _open(qtbot, source, (1024, 700))
    try:
        assert win.doc.wait_idle() and win.doc.is_valid, win.doc.errors
        cut = []
        for view in ("timeline", "path", "backups", "cycle", "rpo", "confidence"):
            cut += _cut_labels(qapp, win, view)
        assert not cut
    finally:
        close_window(win)
