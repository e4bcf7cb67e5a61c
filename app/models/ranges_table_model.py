"""The uncertain figures of a scenario as a table (STYLE §7): one row per figure, its
value, its range (editable), the ends and where the range came from.

Rows are core `UncertainInput`s. Editing a range calls `set_range(key, text)` — the
window writes it to the scenario's `[uncertainty]` table as an undoable edit — but only
when core accepts the text; while the text is not a range yet (`-40%..`) the cell is
marked with the reason and the scenario keeps its last valid range.

The Provenance and Source columns show and edit how each figure is known (exact,
measured, catalog figure, class default, estimate) and where from: an edit calls
`set_provenance(key, text)` with the whole `[provenance]` text (`"measured: drill 3"`),
one undoable edit; "not stated" (None) removes the entry (DESIGN §10, issue 20.1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from rtoplanner.core.scenario import Scenario
from rtoplanner.core.scenario.provenance import KIND_WORDS
from rtoplanner.core.uncertainty.inputs import UncertainInput, describe_value, range_problem
from rtoplanner.core.uncertainty.stating import (
    provenance_choices,
    provenance_problem,
    provenance_text,
    stated_source,
)
from rtoplanner.core.uncertainty.words import origin_words
from rtoplanner.core.units import spaced_percents

from .row_table_model import RIGHT_ALIGNED, RowTableModel, bold_font

COL_FIGURE = 0
COL_VALUE = 1
COL_RANGE = 2
COL_LOW = 3
COL_HIGH = 4
COL_PROVENANCE = 5
COL_SOURCE = 6
COL_FROM = 7

NOT_STATED = ""
"""The Provenance column's choice that removes the `[provenance]` entry."""

HEADERS = ("Figure", "Value", "Range", "Low end", "High end", "Provenance", "Source",
           "Range from")  # fmt: skip
HEADER_TIPS = {
    COL_VALUE: "The scenario's figure: the most likely value (the mode of the triangle)",
    COL_RANGE: "How far the figure may be off: ±15%, -40%..+20% (relative) or 3%..9% "
    "(absolute ends). Type to change it; empty it to go back to the default",
    COL_LOW: "The low end of the range",
    COL_HIGH: "The high end of the range",
    COL_PROVENANCE: "How the figure is known: exact (±0), measured (the spread of measurements), "
    "catalog figure or class default (its prior from published measurements), estimate "
    "(±25 %). Choose to state it in the scenario's [provenance] table",
    COL_SOURCE: "Where the figure comes from (a query, a drill, a datasheet): type to state it",
    COL_FROM: "Where the range comes from: the scenario's [uncertainty] table, else the "
    "figure's provenance (exact ±0, measured ±10 %, a catalog figure or class default its "
    "prior from published measurements, an estimate ±25 %)",
}
KeyRole = Qt.ItemDataRole.UserRole + 1
"""The row's canonical key (`path[0].rate`)."""

ChoicesRole = Qt.ItemDataRole.UserRole + 2
"""The Provenance cell's choices: (kind or NOT_STATED, words) pairs."""

SetRange = Callable[[str, str | None], None]
SetProvenance = Callable[[str, str | None, bool], None]
"""(table key, text or None, merge with the edit before)."""


def origin_text(item: UncertainInput) -> str:
    """Where a row's range came from, in words (the same words as the terminal's)."""
    return origin_words(item)


class RangesTableModel(RowTableModel[UncertainInput]):
    HEADERS = HEADERS
    HEADER_TIPS = HEADER_TIPS

    def __init__(
        self,
        set_range: SetRange | None = None,
        parent: QObject | None = None,
        set_provenance: SetProvenance | None = None,
        catalog: Any = None,
    ) -> None:
        super().__init__(parent)
        self._set_range = set_range
        self._set_provenance = set_provenance
        self.catalog = catalog
        self.scenario: Scenario | None = None
        self.binary = False
        self.errors: dict[str, str] = {}
        self.typed: dict[str, str] = {}
        """Texts typed that are not valid ranges yet, by key."""

    def show_inputs(self, scenario: Scenario, rows: Iterable[UncertainInput]) -> None:
        """New rows; in place (no reset, an open editor stays) when the figures are the
        same ones, so typing in a cell is not interrupted by the plan it triggers."""
        rows = list(rows)
        self.scenario = scenario
        same = [r.key for r in rows] == [r.key for r in self._rows]
        for key in list(self.typed):
            if key not in {r.key for r in rows}:
                self.typed.pop(key)
                self.errors.pop(key, None)
        if same:
            self._rows = rows
            self.refresh()
        else:
            self.set_rows(rows)

    def set_binary(self, binary: bool) -> None:
        self.binary = binary
        self.refresh()

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.column() == COL_RANGE and self._set_range is not None:
            flags |= Qt.ItemFlag.ItemIsEditable
        editable = (COL_PROVENANCE, COL_SOURCE)
        if index.isValid() and index.column() in editable and self._set_provenance is not None:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def cell(self, item: UncertainInput, row: int, col: int, role: int) -> Any:
        if role == KeyRole:
            return item.key
        if role == ChoicesRole and col == COL_PROVENANCE:
            return self.choices(item)
        if role == Qt.ItemDataRole.FontRole and col in (COL_PROVENANCE, COL_SOURCE) and item.stated:
            return bold_font()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._text(item, col, role)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_VALUE, COL_LOW, COL_HIGH):
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.FontRole and col == COL_RANGE and item.origin == "uncertainty":
            return bold_font()
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_RANGE and item.is_zero:
            return QBrush(QColor("#8a8f98"))
        if role == Qt.ItemDataRole.BackgroundRole and col == COL_RANGE and item.key in self.errors:
            return QBrush(QColor(210, 60, 60, 60))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tip(item, col)
        return None

    def _text(self, item: UncertainInput, col: int, role: int) -> str:
        if col == COL_FIGURE:
            return item.label
        if col == COL_VALUE:
            return describe_value(item.kind, item.value, self.binary)
        if col == COL_RANGE:
            text = self.typed.get(item.key, item.range_text)
            # Shown the house way ("-40 %..+20 %", as the PDF and the terminal write it);
            # edited as written.
            return text if role == Qt.ItemDataRole.EditRole else spaced_percents(text)
        if col == COL_LOW:
            return "" if item.is_zero else describe_value(item.kind, item.low, self.binary)
        if col == COL_HIGH:
            return "" if item.is_zero else describe_value(item.kind, item.high, self.binary)
        if col == COL_PROVENANCE:
            if role == Qt.ItemDataRole.EditRole:
                return item.default_origin if item.stated else NOT_STATED
            return KIND_WORDS.get(item.default_origin, item.default_origin)
        if col == COL_SOURCE:
            return self._source(item) if item.stated else item.source
        if col == COL_FROM:
            return origin_text(item)
        return ""

    def _stated_text(self, item: UncertainInput) -> str | None:
        table = (self.scenario.provenance or {}) if self.scenario is not None else {}
        return table.get(item.table_key, table.get(item.key))

    def _source(self, item: UncertainInput) -> str:
        """The source the `[provenance]` table states for the row."""
        return stated_source(self._stated_text(item))

    def choices(self, item: UncertainInput) -> list[tuple[str, str]]:
        """(kind, words) the row may be stated as; NOT_STATED first (as it was typed or
        given by the catalog)."""
        kinds: tuple[str, ...] = ()
        if self.scenario is not None:
            kinds = provenance_choices(item.key, self.scenario, self.catalog)
        return [(NOT_STATED, "not stated")] + [(k, KIND_WORDS[k]) for k in kinds]

    def _tip(self, item: UncertainInput, col: int) -> str | None:
        if col == COL_RANGE and item.key in self.errors:
            return self.errors[item.key]
        if col == COL_FROM:
            return f"{item.key}: {item.source}"
        if col == COL_FIGURE:
            return item.key
        return None

    def setData(
        self,
        index: QModelIndex | QPersistentModelIndex,
        value: Any,
        role: int = Qt.ItemDataRole.EditRole,
    ) -> bool:
        item = self.row_at(index)
        if item is not None and index.column() in (COL_PROVENANCE, COL_SOURCE):
            return self._set_stated(index, item, str(value or "").strip())
        if item is None or index.column() != COL_RANGE or self._set_range is None:
            return False
        text = str(value or "").strip()
        key = item.key
        if self.typed.get(key, item.range_text) == text and key not in self.errors:
            return False
        problem = range_problem(key, text, self.scenario) if text and self.scenario else None
        if problem:
            self.typed[key] = text
            self.errors[key] = problem
            self.dataChanged.emit(index, index)
            return True
        self.typed.pop(key, None)
        self.errors.pop(key, None)
        self._set_range(item.table_key, text or None)
        self.dataChanged.emit(index, index)
        return True

    def _set_stated(
        self, index: QModelIndex | QPersistentModelIndex, item: UncertainInput, value: str
    ) -> bool:
        """A kind chosen or a source typed: the row's whole `[provenance]` text, written
        as one edit (None removes it), or marked with the reason core refuses it."""
        if self._set_provenance is None or self.scenario is None:
            return False
        if index.column() == COL_PROVENANCE:
            kind, source = value, (self._source(item) if item.stated else "")
        else:
            kind, source = item.default_origin, value
        text = provenance_text(kind, source) if kind else None
        if text == self._stated_text(item):
            return False
        problem = provenance_problem(item.key, text, self.scenario, self.catalog) if text else None
        if problem:
            self.errors[item.key] = problem
            self.dataChanged.emit(index, index)
            return False
        self.errors.pop(item.key, None)
        # A kind chosen is a step of its own; a burst of typing in Source is one step.
        self._set_provenance(item.table_key, text, index.column() == COL_SOURCE)
        return True

    def first_error(self) -> tuple[str, str] | None:
        """(label, reason) of the first range being typed that is not valid yet."""
        for item in self._rows:
            if item.key in self.errors:
                return item.label, self.errors[item.key]
        return None
