"""Issue 23.6: the app writes a percentage as the PDF and the terminal do ("90 %"), where
the catalog's Derate column and the What it takes progress read "90%"."""

from __future__ import annotations

import re

import pytest

from rtoplanner.app.models.catalog_table_model import (
    COL_DERATE,
    CatalogTableModel,
    rows_from_catalog,
)
from rtoplanner.core.catalog import shipped_catalog

pytestmark = pytest.mark.gui


def test_the_catalogs_derate_column_writes_percentages_the_house_way(qtbot):
    model = CatalogTableModel()
    model.set_rows(rows_from_catalog(shipped_catalog()))
    shown = [model.index(r, COL_DERATE).data() for r in range(model.rowCount())]
    derates = [t for t in shown if t]
    assert derates
    assert all(re.fullmatch(r"\d+ %", t) for t in derates), derates


def test_the_ranges_column_shows_every_range_one_way_and_edits_it_as_written(window):
    """The Ranges table showed a range the file states as written ("-40%..+20%") beside
    the defaults' "-23 %..+29 % (P10..P90)" in one column."""
    from PySide6.QtCore import Qt

    window.show_view("confidence")
    panel = window.results.panel("confidence")
    assert panel.wait_idle()
    index = panel.range_cell("recovery.redo_apply_rate")
    assert index.data(Qt.ItemDataRole.DisplayRole) == "-40 %..+20 %"
    assert index.data(Qt.ItemDataRole.EditRole) == "-40%..+20%"  # the file's own text
    model = index.model()
    shown = [str(model.index(r, index.column()).data()) for r in range(model.rowCount())]
    assert not any(re.search(r"\d%", t) for t in shown), shown
