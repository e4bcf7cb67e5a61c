"""The stage table's headers are read whole (issue 23): "Drive compression" (the
words the ledger and the tornado use, not "HW compression") was cut to
"Drive compressior" in its 110 px column."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle

pytestmark = pytest.mark.gui


def test_every_header_fits_its_column(window):
    view = window.stages.view
    header = view.horizontalHeader()
    metrics = header.fontMetrics()
    model = view.model()
    names = []
    for col in range(model.columnCount()):
        text = str(model.headerData(col, Qt.Orientation.Horizontal))
        names.append(text)
        if col == model.columnCount() - 1:
            continue  # the last column stretches
        margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin)
        need = metrics.horizontalAdvance(text) + margin
        assert need <= view.columnWidth(col), (text, view.columnWidth(col))
    assert "Drive compression" in names and "HW compression" not in names


def test_the_price_header_fits_its_column(window):
    """The What it takes panel's prices read "rice of one uni" at 1440 px."""
    window.show_view("fix")
    table = window.results.panel("fix").price_table
    header = table.horizontalHeader()
    text = str(table.model().headerData(2, Qt.Orientation.Horizontal))
    margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin)
    assert text == "Price of one unit"
    assert header.fontMetrics().horizontalAdvance(text) + margin <= table.columnWidth(2)
