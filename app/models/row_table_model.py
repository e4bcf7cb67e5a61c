"""A flat table over a list of row objects: the part every table model repeats (STYLE §7).

A subclass names its columns in `HEADERS` (a tuple, or a dict column → header) and,
optionally, `HEADER_TIPS` (column → header tooltip); it formats a cell in `cell()`.
The base keeps the rows (`set_rows()` resets the model), answers `rowCount`,
`columnCount` (one column per header), `headerData` (horizontal headers only) and checks
the index before `data()` hands over to `cell()`. Flags are Qt's table default (enabled,
selectable, no children); a model that edits overrides `flags` and `setData`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

RowT = TypeVar("RowT")
Index = QModelIndex | QPersistentModelIndex

RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
"""The `TextAlignmentRole` answer for a number column."""


def bold_font() -> QFont:
    font = QFont()
    font.setBold(True)
    return font


class RowTableModel(QAbstractTableModel, Generic[RowT]):
    HEADERS: ClassVar[Sequence[str] | Mapping[int, str]] = ()
    HEADER_TIPS: ClassVar[Mapping[int, str]] = {}

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[RowT] = []

    # ------------------------------------------------------------------ rows

    def set_rows(self, rows: Iterable[RowT]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    @property
    def rows(self) -> list[RowT]:
        """A copy of the rows."""
        return list(self._rows)

    def row_at(self, index_or_row: Index | int) -> RowT | None:
        """The row object at a row number or a (valid) index of this model, else None."""
        if isinstance(index_or_row, int):
            row = index_or_row
        elif index_or_row.isValid():
            row = index_or_row.row()
        else:
            return None
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def refresh(self, first: int = 0, last: int | None = None, roles: Sequence[int] = ()) -> None:
        """Tell the views that rows `first`..`last` (default: all) changed in every column."""
        last = len(self._rows) - 1 if last is None else last
        if 0 <= first <= last:
            self.dataChanged.emit(
                self.index(first, 0), self.index(last, self.columnCount() - 1), list(roles)
            )

    # ------------------------------------------------------------------ headers

    def header(self, section: int) -> str | None:
        """The horizontal header text of a column."""
        if isinstance(self.HEADERS, Mapping):
            return self.HEADERS.get(section)
        return self.HEADERS[section] if 0 <= section < len(self.HEADERS) else None

    def header_tip(self, section: int) -> str | None:
        """The horizontal header tooltip of a column."""
        return self.HEADER_TIPS.get(section)

    # ------------------------------------------------------------------ for subclasses

    def cell(self, item: RowT, row: int, column: int, role: int) -> Any:
        """What `data()` answers for the row object `item` (at `row`) in `column`."""
        return None

    # ------------------------------------------------------------------ Qt model API

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.header(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.header_tip(section)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return self.cell(self._rows[index.row()], index.row(), index.column(), role)
