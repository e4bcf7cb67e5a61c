"""The Confidence view's ranges table shows and edits each figure's provenance (issue
20.1): a kind chosen or a source typed is one undoable edit of the scenario's
`[provenance]` table, the figure's range follows, and the PDF ledger says it."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from rtoplanner.app.models.ranges_table_model import COL_PROVENANCE, COL_SOURCE, ChoicesRole

pytestmark = pytest.mark.gui


def confidence(window):
    window.show_view("confidence")
    panel = window.results.panel("confidence")
    assert panel.wait_idle()
    return panel


def cell(panel, key: str, col: int):
    return panel.range_cell(key).siblingAtColumn(col)


def choose(qtbot, panel, key: str, words: str) -> None:
    """Open the Provenance cell's editor and pick `words` as a user does."""
    index = cell(panel, key, COL_PROVENANCE)
    panel.table.setCurrentIndex(index)
    panel.table.edit(index)
    combo = panel.table.findChild(QComboBox, "provenance_editor")
    assert combo is not None and combo.isVisible()
    combo.setCurrentIndex(combo.findText(words))
    combo.activated.emit(combo.currentIndex())


def type_source(qtbot, panel, key: str, text: str) -> None:
    index = cell(panel, key, COL_SOURCE)
    panel.table.setCurrentIndex(index)
    panel.table.edit(index)
    editor = panel.table.findChild(QLineEdit, "source_editor")
    assert editor is not None and editor.isVisible()
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    qtbot.keyClicks(editor, text)  # each keystroke states it; one undo step for the burst
    panel.table.setCurrentIndex(cell(panel, key, COL_PROVENANCE))


def test_choosing_a_kind_and_typing_a_source_state_the_provenance(qtbot, window):
    doc = window.doc
    panel = confidence(window)
    key = "database.size"
    assert panel.model.data(cell(panel, key, COL_PROVENANCE)) == "estimate"
    kinds = [k for k, _ in panel.model.data(cell(panel, key, COL_PROVENANCE), ChoicesRole)]
    assert kinds == ["", "exact", "measured", "estimate"]  # no prior: no catalog, no default
    steps = doc.undo_stack.count()
    choose(qtbot, panel, key, "exact")
    assert doc.raw["provenance"][key] == "exact"
    assert doc.undo_stack.count() == steps + 1
    doc.recompute_now()
    assert doc.wait_idle()
    row = next(r for r in panel.model.rows if r.key == key)
    assert row.default_origin == "exact" and row.low == row.high == row.value  # ±0 now
    type_source(qtbot, panel, key, "DBA_DATA_FILES 2026-11-20")
    assert doc.raw["provenance"][key] == "exact: DBA_DATA_FILES 2026-11-20"
    assert doc.undo_stack.count() == steps + 2
    doc.recompute_now()
    assert doc.wait_idle()
    assert panel.model.data(cell(panel, key, COL_SOURCE)) == "DBA_DATA_FILES 2026-11-20"
    # Each edit is one undo step: back to exact, then to not stated.
    doc.undo_stack.undo()
    assert doc.raw["provenance"][key] == "exact"
    doc.undo_stack.undo()
    assert key not in (doc.raw.get("provenance") or {})


def test_a_class_default_is_offered_only_where_the_catalog_has_its_prior(qtbot, window):
    panel = confidence(window)
    kinds = [k for k, _ in panel.model.data(cell(panel, "path[0].rate", COL_PROVENANCE),
                                           ChoicesRole)]  # fmt: skip
    assert "catalog" in kinds and "default" not in kinds
    # The model refuses what core refuses, with the reason, and writes nothing.
    before = dict(window.doc.raw.get("provenance") or {})
    index = cell(panel, "database.size", COL_PROVENANCE)
    assert not panel.model.setData(index, "catalog")
    assert "no catalog figure prior" in panel.model.errors["database.size"]
    assert dict(window.doc.raw.get("provenance") or {}) == before


def test_the_pdf_ledger_says_the_stated_provenance(qtbot, window, tmp_path):
    doc = window.doc
    panel = confidence(window)
    choose(qtbot, panel, "database.size", "measured")
    type_source(qtbot, panel, "database.size", "drill 3 2026-10-12")
    doc.recompute_now()
    assert doc.wait_idle()
    from rtoplanner.app.dialogs.export_pdf import export_plan

    out = export_plan(doc.scenario, tmp_path / "plan.pdf")  # what File › Export PDF runs
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(out.read_bytes())).pages]
    ledger = re.sub(r"\s+", " ", " ".join(pages)).split("Assumptions ledger", 1)[1]
    assert "drill 3 2026-10-12" in ledger
    assert "measured" in ledger
