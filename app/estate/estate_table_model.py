"""The Estate window's table: one row per database, in recovery order.

Tier and RTO are edited in place; dragging a row onto another moves the database into
that row's tier. Edits are not applied here: the model emits `priority_edited` /
`rto_edited` and the window recomputes the estate in a worker and resets the rows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import QByteArray, QMimeData, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from rtoplanner.core.errors import UnitError
from rtoplanner.core.estate import DatabaseOutcome
from rtoplanner.core.estate.run import NOTHING, waited_words
from rtoplanner.core.units import format_duration, parse_duration

from ..models.row_table_model import RIGHT_ALIGNED, Index, RowTableModel, bold_font
from ..theme import VERDICT_COLORS, VERDICT_WORDS

COL_TIER = 0
COL_NAME = 1
COL_OPENS = 2
COL_RTO = 3
COL_MARGIN = 4
COL_VERDICT = 5
COL_ALONE = 6
COL_WAITED = 7

MIME = "application/x-rtoplanner-estate-row"
RowRole = Qt.ItemDataRole.UserRole + 1
"""The DatabaseOutcome of the row."""


def _margin(s: float) -> str:
    return ("−" if s < 0 else "") + format_duration(abs(s))


class EstateTableModel(RowTableModel[DatabaseOutcome]):
    HEADERS = ("Tier", "Database", "Opens", "RTO", "Margin", "Verdict", "Alone", "Waited for")
    HEADER_TIPS: ClassVar[dict[int, str]] = {
        COL_TIER: "Recovery priority: 1 goes first; one tier shares fairly. Edit it, or drag "
        "a database onto another to move it into that tier.",
        COL_OPENS: "When the database is open after the site loss, with every other database "
        "recovering at the same time",
        COL_RTO: "Its RTO in the estate (edit to override the scenario's)",
        COL_ALONE: "When it would open with the shared hardware to itself (its own plan)",
        COL_WAITED: "The shared resource it lost most time to, and how much",
    }

    priority_edited = Signal(str, int)
    rto_edited = Signal(str, float)
    edit_refused = Signal(str)

    def cell(self, item: DatabaseOutcome, row: int, column: int, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._text(item, column, role)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            COL_TIER, COL_OPENS, COL_RTO, COL_MARGIN, COL_ALONE
        ):  # fmt: skip
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.ForegroundRole and column in (COL_VERDICT, COL_MARGIN):
            return QBrush(QColor(VERDICT_COLORS[item.verdict]))
        if role == Qt.ItemDataRole.FontRole and column == COL_VERDICT:
            return bold_font()
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_WAITED:
            return waited_words(item)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{item.name}: {item.source}\nDouble-click to open its own plan."
        if role == RowRole:
            return item
        return None

    @staticmethod
    def _text(d: DatabaseOutcome, column: int, role: int) -> Any:
        if column == COL_TIER:
            return d.priority if role == Qt.ItemDataRole.EditRole else str(d.priority)
        return {
            COL_NAME: d.name,
            COL_OPENS: format_duration(d.open_s),
            COL_RTO: format_duration(d.rto_s),
            COL_MARGIN: _margin(d.margin_s),
            COL_VERDICT: VERDICT_WORDS[d.verdict],
            COL_ALONE: format_duration(d.alone_s),
            COL_WAITED: NOTHING
            if d.waited_s <= 0
            else f"{d.waited_for} ({format_duration(d.waited_s)})",
        }.get(column)

    # ------------------------------------------------------------------ editing

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if not index.isValid():
            return base | Qt.ItemFlag.ItemIsDropEnabled
        base |= Qt.ItemFlag.ItemIsDragEnabled | Qt.ItemFlag.ItemIsDropEnabled
        if index.column() in (COL_TIER, COL_RTO):
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        item = self.row_at(index)
        if item is None or role != Qt.ItemDataRole.EditRole:
            return False
        if index.column() == COL_TIER:
            try:
                tier = int(value)
            except (TypeError, ValueError):
                tier = 0
            if tier < 1:
                self.edit_refused.emit(f"{item.name}: a tier is a whole number from 1")
                return False
            if tier != item.priority:
                self.priority_edited.emit(item.name, tier)
            return True
        if index.column() == COL_RTO:
            try:
                rto_s = parse_duration(str(value))
            except (UnitError, ValueError) as exc:
                self.edit_refused.emit(f"{item.name}: RTO {exc}")
                return False
            if rto_s <= 0:
                self.edit_refused.emit(f"{item.name}: an RTO must be greater than zero")
                return False
            self.rto_edited.emit(item.name, rto_s)
            return True
        return False

    # ------------------------------------------------------------------ drag to reorder

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:
        mime = QMimeData()
        rows = sorted({i.row() for i in indexes if i.isValid()})
        names = [self._rows[r].name for r in rows]
        mime.setData(MIME, QByteArray("\n".join(names).encode("utf-8")))
        return mime

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        """A database dropped on (or just above) a row joins that row's tier; dropped
        below the last row, the last tier. The rows are not moved here: the window
        recomputes and shows the new order."""
        if action != Qt.DropAction.MoveAction or not data.hasFormat(MIME) or not self._rows:
            return False
        names = bytes(data.data(MIME).data()).decode("utf-8").split("\n")
        target = parent.row() if parent.isValid() else row
        if target < 0 or target >= len(self._rows):
            target = len(self._rows) - 1
        tier = self._rows[target].priority
        for name in names:
            current = next((d for d in self._rows if d.name == name), None)
            if current is not None and current.priority != tier:
                self.priority_edited.emit(name, tier)
        return False  # nothing to remove: the recomputed rows replace these
