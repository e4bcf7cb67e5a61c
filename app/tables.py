"""Small table-view helpers shared by the app's panels and dialogs."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel
from PySide6.QtWidgets import QAbstractItemView, QTableView


def read_only_table(model: QAbstractItemModel, name: str) -> QTableView:
    """A read-only list view of `model`: whole rows selected one at a time, alternating
    row colours, no row numbers, compact rows, no word wrap."""
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(22)
    return view


CELL_PADDING = 16
"""A cell's text margins and the sort arrow's or the editor's room, in pixels."""


def kind_column_width(view: QTableView) -> int:
    """A Kind column as wide as the longest stage kind's short words ("backup appliance",
    "object storage"): at 95–100 px they read "object stora…" (issue 23)."""
    from rtoplanner.core.wording import STAGE_KIND_WORDS, stage_kind_short

    metrics = view.fontMetrics()
    return max(metrics.horizontalAdvance(stage_kind_short(k)) for k in STAGE_KIND_WORDS) + (
        CELL_PADDING
    )


def catalog_rate_width(view: QTableView) -> int:
    """A rate column as wide as a rate the catalog fills in, in the italic of a value not
    typed: "16.7 GB/s (catalog)" read "16.7 GB/s …" in 120 px (issue 23)."""
    from PySide6.QtGui import QFontMetrics

    font = view.font()
    font.setItalic(True)
    return QFontMetrics(font).horizontalAdvance("888 MB/s (catalog)") + CELL_PADDING
