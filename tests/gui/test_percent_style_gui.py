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
