"""`take_screenshot` (docs/screenshots, `gui --screenshot`) waits for the plots' axes
to widen to their labels (issue 23): the RPO view's picture had no "Media failure" or
"Site loss" beside its rows."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics

from rtoplanner.app.main import take_screenshot

pytestmark = pytest.mark.gui


def test_the_rpo_rows_are_labelled_in_the_picture(window, tmp_path):
    window.show_view("rpo")
    out = tmp_path / "rpo.png"
    assert take_screenshot(window, out) and out.stat().st_size > 0
    axis = window.results.panel("rpo").rpo_plot.getPlotItem().getAxis("left")
    need = QFontMetrics(axis.font()).horizontalAdvance("Media failure")
    assert axis.width() >= need
