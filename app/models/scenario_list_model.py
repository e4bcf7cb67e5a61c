"""Stored scenarios and their versions as Qt models (STYLE §7).

`ScenarioListModel` lists the store's scenarios (`Store.scenarios()`), one row per
scenario with its number of versions, when it was last saved and that save's comment;
`VersionListModel` lists one scenario's versions (`Store.history()`). Rows are the
store's frozen records, set with `set_rows()`; all formatting happens in `data()`.
Times are stored in UTC and shown in local time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from rtoplanner.core.store.models import ScenarioSummary, ScenarioVersion

COL_NAME = 0
COL_VERSIONS = 1
COL_SAVED = 2
COL_COMMENT = 3
COL_DELETED = 4
COLUMN_COUNT = 5
HEADERS = {
    COL_NAME: "Name",
    COL_VERSIONS: "Versions",
    COL_SAVED: "Saved",
    COL_COMMENT: "Comment",
    COL_DELETED: "Deleted",
}

COL_V_VERSION = 0
COL_V_SAVED = 1
COL_V_COMMENT = 2
V_COLUMN_COUNT = 3
V_HEADERS = {COL_V_VERSION: "Version", COL_V_SAVED: "Saved", COL_V_COMMENT: "Comment"}

RowRole = Qt.ItemDataRole.UserRole + 1
"""The row's record: a `ScenarioSummary` or a `ScenarioVersion`."""
NameRole = Qt.ItemDataRole.UserRole + 2
"""The scenario's name (its store key)."""
SortRole = Qt.ItemDataRole.UserRole + 3
VersionRole = Qt.ItemDataRole.UserRole + 4
"""The version number (int)."""

_Index = QModelIndex | QPersistentModelIndex


def local_time(ts: datetime | None) -> datetime | None:
    return None if ts is None else ts.astimezone()


def format_saved(ts: datetime | None, now: datetime | None = None) -> str:
    """A save time in local time: `today 14:03`, `yesterday 09:10`, else `2026-05-01 14:03`."""
    local = local_time(ts)
    if local is None:
        return ""
    now = (now or datetime.now().astimezone()).astimezone()
    days = (now.date() - local.date()).days
    if days == 0:
        return f"today {local:%H:%M}"
    if days == 1:
        return f"yesterday {local:%H:%M}"
    return f"{local:%Y-%m-%d %H:%M}"


def format_saved_short(ts: datetime | None, now: datetime | None = None) -> str:
    """A save time for a narrow column: `14:03` today, `12 May` this year, else the date."""
    local = local_time(ts)
    if local is None:
        return ""
    now = (now or datetime.now().astimezone()).astimezone()
    if local.date() == now.date():
        return f"{local:%H:%M}"
    if local.year == now.year:
        return f"{local.day} {local:%b}"
    return f"{local:%Y-%m-%d}"


def format_when(ts: datetime | None) -> str:
    """A full local timestamp for tooltips."""
    local = local_time(ts)
    return "" if local is None else f"{local:%Y-%m-%d %H:%M:%S %Z}"


class ScenarioListModel(QAbstractTableModel):
    """The store's scenarios; `set_current(name)` marks the one open in the editor."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[ScenarioSummary] = []
        self._current: str | None = None

    def set_rows(self, rows: Sequence[ScenarioSummary]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    @property
    def rows(self) -> list[ScenarioSummary]:
        return list(self._rows)

    def names(self) -> list[str]:
        return [r.name for r in self._rows]

    def row_of(self, name: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.name == name), -1)

    def summary(self, row: int) -> ScenarioSummary:
        return self._rows[row]

    def set_current(self, name: str | None) -> None:
        if name == self._current:
            return
        old = self._current
        self._current = name
        for n in (old, name):
            row = self.row_of(n) if n is not None else -1
            if row >= 0:
                self.dataChanged.emit(
                    self.index(row, 0),
                    self.index(row, COLUMN_COUNT - 1),
                    [Qt.ItemDataRole.FontRole],
                )

    # ---------------------------------------------------------------- Qt overrides

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS.get(section)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        r = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_NAME:
                return r.name
            if col == COL_VERSIONS:
                return str(r.versions)
            if col == COL_SAVED:
                return format_saved_short(r.latest_saved_at)
            if col == COL_COMMENT:
                return r.latest_comment
            if col == COL_DELETED:
                return format_saved(r.deleted_at)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [
                f"<b>{_html(r.name)}</b>",
                f"{r.versions} version{'s' if r.versions != 1 else ''}; "
                f"last saved {format_when(r.latest_saved_at)}",
            ]
            if r.latest_comment:
                lines.append(f"“{_html(r.latest_comment)}”")
            lines.append(f"created {format_when(r.created_at)}")
            if r.deleted_at is not None:
                lines.append(
                    f"deleted {format_when(r.deleted_at)}; purged after "
                    f"{format_when(r.purge_after)}"
                )
            return "<br>".join(lines)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == COL_VERSIONS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and r.name == self._current:
            font = QFont()
            font.setBold(True)
            return font
        if role == RowRole:
            return r
        if role == NameRole:
            return r.name
        if role == VersionRole:
            return r.latest_version
        if role == SortRole:
            if col == COL_NAME:
                return r.name.casefold()
            if col == COL_VERSIONS:
                return r.versions
            if col == COL_SAVED:
                return r.latest_saved_at.timestamp()
            if col == COL_COMMENT:
                return r.latest_comment.casefold()
            if col == COL_DELETED:
                return r.deleted_at.timestamp() if r.deleted_at else 0.0
        return None


class VersionListModel(QAbstractTableModel):
    """The versions of one stored scenario, oldest first (the latest is "current")."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[ScenarioVersion] = []

    def set_rows(self, rows: Sequence[ScenarioVersion]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    @property
    def rows(self) -> list[ScenarioVersion]:
        return list(self._rows)

    def version(self, row: int) -> ScenarioVersion:
        return self._rows[row]

    def row_of(self, version: int) -> int:
        return next((i for i, r in enumerate(self._rows) if r.version == version), -1)

    @property
    def latest(self) -> ScenarioVersion | None:
        return self._rows[-1] if self._rows else None

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else V_COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return V_HEADERS.get(section)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        v = self._rows[index.row()]
        col = index.column()
        is_latest = index.row() == len(self._rows) - 1
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_V_VERSION:
                return f"v{v.version}" + (" (current)" if is_latest else "")
            if col == COL_V_SAVED:
                return format_saved(v.saved_at)
            if col == COL_V_COMMENT:
                return v.comment
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [f"<b>{_html(v.scenario)} v{v.version}</b>", f"saved {format_when(v.saved_at)}"]
            if v.comment:
                lines.append(f"“{_html(v.comment)}”")
            if v.restored_from is not None:
                lines.append(f"restored from version {v.restored_from}")
            if v.app_version:
                lines.append(f"RTO Planner {v.app_version}")
            return "<br>".join(lines)
        if role == Qt.ItemDataRole.FontRole and is_latest:
            font = QFont()
            font.setBold(True)
            return font
        if role == RowRole:
            return v
        if role == NameRole:
            return v.scenario
        if role == VersionRole:
            return v.version
        if role == SortRole:
            if col == COL_V_VERSION:
                return v.version
            if col == COL_V_SAVED:
                return v.saved_at.timestamp()
            if col == COL_V_COMMENT:
                return v.comment.casefold()
        return None


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
