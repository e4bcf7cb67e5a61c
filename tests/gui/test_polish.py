"""What a DBA winced at (issue 15): hover tips, small windows, invalid files, demos,
help and the small things, each checked on the real widgets."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPointF
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from .conftest import DEMO, close_window, show_window
from .helpers import phase

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = show_window(qtbot, path=DEMO)
    win.doc.wait_idle()
    yield win
    close_window(win)


def rest_mouse_on(plot, view_x: float, view_y: float) -> None:
    """Move the mouse to a point of the plot, then let it rest (Qt's ToolTip event)."""
    vb = plot.getPlotItem().getViewBox()
    scene_pt = vb.mapViewToScene(QPointF(view_x, view_y))
    pos = plot.mapFromScene(scene_pt)
    viewport = plot.viewport()
    plot.scene().sigMouseMoved.emit(scene_pt)
    event = QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos))
    QApplication.sendEvent(viewport, event)


def test_timeline_hover_tip_stays_and_shows_volume_rate_and_bottleneck(qtbot, window):
    window.show_view("timeline")
    panel = window.timeline_panel
    qtbot.wait(50)
    p = phase(window, "restore_level0")
    row = panel.shown.index(p)
    rest_mouse_on(panel.plot, p.start_s + p.duration_s / 2, row)
    qtbot.wait(600)  # Qt hides an empty tip after a delay
    assert QToolTip.isVisible()
    text = QToolTip.text()
    assert "Volume" in text and "Rate" in text and "Bottleneck" in text
    # Resting again (Qt repeats the event) keeps it up.
    rest_mouse_on(panel.plot, p.start_s + p.duration_s / 2, row)
    qtbot.wait(600)
    assert QToolTip.isVisible() and "Bottleneck" in QToolTip.text()
    QToolTip.hideText()


def test_path_hover_tip_stays(qtbot, window):
    window.show_view("path")
    panel = window.path_panel
    qtbot.wait(50)
    row = window.doc.plan.restore_path.bottleneck_index
    rest_mouse_on(panel.plot, 1.0, row - 0.18)
    qtbot.wait(600)  # Qt hides an empty tip after a delay
    assert QToolTip.isVisible() and "Bottleneck" in QToolTip.text()
    QToolTip.hideText()
