"""The path stages of the open scenario as an editable table (STYLE §7).

Rows are the raw `[[path]]` tables in restore order (media first, datafiles last);
columns are core's `STAGE_FIELDS` plus a read-only capacity column from the last plan.
Editing a cell writes the raw value to the document (undoable); formatting lives in
`data()`. Values the user left out are shown greyed with what the scenario resolved
(a catalog rate, a default carries), so nothing in a plan is hidden.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Slot
from PySide6.QtGui import QBrush, QColor, QFont

from rtoplanner.core.engine.path import PathModel, StageCapacity
from rtoplanner.core.plan import Plan
from rtoplanner.core.scenario import STAGE_FIELDS, FieldSpec, Scenario
from rtoplanner.core.units import format_rate
from rtoplanner.core.wording import stage_kind_short, stage_kind_words

from ..document import ScenarioDocument
from ..editor.fields import text_from_value, tooltip_for, value_from_text
from .row_table_model import RIGHT_ALIGNED, RowTableModel, bold_font

# The capacity (what the stage lets through) sits next to count and rate, where it is
# read, and stays in view however narrow the window.
COL_KIND = 0
COL_NAME = 1
COL_COUNT = 2
COL_RATE = 3
COL_CAPACITY = 4
COL_EFFICIENCY = 5
COL_WRITE_FACTOR = 6  # next to efficiency: in view at 1440 px (issue 23.9)
COL_CARRIES = 7
COL_BINDS_CHANNEL = 8
COL_HW_COMPRESSION = 9
COL_MAX_RATE = 10
COL_BACKUP_RATE = 11
COL_RESTORE_RATE = 12
COL_SHARED = 13
COLUMN_COUNT = 14

COLUMN_KEYS: dict[int, str] = {
    COL_KIND: "kind",
    COL_NAME: "name",
    COL_COUNT: "count",
    COL_RATE: "rate",
    COL_EFFICIENCY: "efficiency",
    COL_CARRIES: "carries",
    COL_BINDS_CHANNEL: "binds_channel",
    COL_HW_COMPRESSION: "hw_compression",
    COL_MAX_RATE: "max_rate",
    COL_BACKUP_RATE: "backup_rate",
    COL_RESTORE_RATE: "restore_rate",
    COL_WRITE_FACTOR: "write_factor",
    COL_SHARED: "shared",
}
SPECS: dict[str, FieldSpec] = {s.key: s for s in STAGE_FIELDS}
HEADERS: dict[int, str] = {
    col: "Capacity (data)" if col == COL_CAPACITY else SPECS[COLUMN_KEYS[col]].header
    for col in range(COLUMN_COUNT)
}
HEADER_TIPS: dict[int, str] = {
    col: (
        "<p>What the stage lets through in datafile bytes per second in the "
        "restore direction with the scenario's channels running (compression "
        "and write factor included): for a stage that binds channels, the "
        "active channels × one unit. The bottleneck is highlighted.</p>"
    )
    if col == COL_CAPACITY
    else tooltip_for(SPECS[COLUMN_KEYS[col]])
    for col in range(COLUMN_COUNT)
}

RowRole = Qt.ItemDataRole.UserRole + 1
"""The raw stage dict of the row."""
KeyRole = Qt.ItemDataRole.UserRole + 2
"""The dotted document key of the cell (`path[2].rate`)."""
ErrorRole = Qt.ItemDataRole.UserRole + 3
"""The cell's validation error, or None."""
SortRole = Qt.ItemDataRole.UserRole + 4
BottleneckRole = Qt.ItemDataRole.UserRole + 5

_ERROR_BG = QColor(210, 60, 60, 70)
_BOTTLENECK_BG = QColor(232, 121, 58, 55)
_DERIVED_FG = QColor(128, 128, 128)


def _stage_dicts(rows: Iterable[Any]) -> list[dict[str, Any]]:
    return [dict(r) if isinstance(r, dict) else {} for r in rows]


class StageTableModel(RowTableModel[dict[str, Any]]):
    HEADERS = HEADERS
    HEADER_TIPS = HEADER_TIPS

    def __init__(self, doc: ScenarioDocument, binary: bool = False) -> None:
        super().__init__(doc)
        self.doc = doc
        self.binary = binary
        self._scenario: Scenario | None = None
        self._plan: Plan | None = None
        self._errors: dict[str, str] = {}
        self._errors_any = bool(doc.errors)
        doc.raw_changed.connect(self._on_raw_changed)
        doc.plan_changed.connect(self._on_plan)
        doc.plan_cleared.connect(self._on_plan_cleared)
        doc.errors_changed.connect(self._on_errors)
        self.set_rows(doc.raw.get("path") or [])
        if doc.plan is not None:
            self._plan, self._scenario = doc.plan, doc.plan.scenario
        self._errors = {k: v for k, v in doc.errors.items() if k.startswith("path")}

    # ------------------------------------------------------------------ feeding

    def set_rows(self, rows: Iterable[Any]) -> None:
        super().set_rows(_stage_dicts(rows))

    def set_binary(self, binary: bool) -> None:
        self.binary = binary
        self.refresh()

    @Slot(bool)
    def _on_raw_changed(self, structural: bool) -> None:
        rows = self.doc.raw.get("path") or []
        if structural or len(rows) != len(self._rows):
            self.set_rows(rows)
        else:
            stages = _stage_dicts(rows)
            if stages != self._rows:  # typing in another section leaves the stages alone
                self._rows = stages
                self.refresh()

    @Slot(object)
    def _on_plan(self, plan: Plan) -> None:
        self._plan = plan
        self._scenario = plan.scenario
        self.refresh()

    @Slot()
    def _on_plan_cleared(self) -> None:
        """Another scenario was opened: no capacity of the previous plan stays shown."""
        self._plan = None
        self._scenario = None
        self.refresh()

    @Slot(dict)
    def _on_errors(self, errors: dict[str, str]) -> None:
        mine = {k: v for k, v in errors.items() if k.startswith("path")}
        if mine != self._errors or bool(errors) != self._errors_any:
            self._errors = mine
            self._errors_any = bool(errors)
            self.refresh()

    # ------------------------------------------------------------------ Qt model API

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Vertical:
            if role == Qt.ItemDataRole.DisplayRole:
                return str(section + 1)
            if role == Qt.ItemDataRole.ToolTipRole:
                return "Restore order: media first, datafiles last"
            return None
        return super().headerData(section, orientation, role)

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() != COL_CAPACITY:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def key(self, row: int, column: int) -> str | None:
        name = COLUMN_KEYS.get(column)
        return None if name is None else f"path[{row}].{name}"

    def _stage(self, row: int):
        s = self._scenario
        if s is None or len(s.path) != len(self._rows) or row >= len(s.path):
            return None
        return s.path[row]

    def current_path(self) -> PathModel | None:
        """The plan's restore path when it is the plan of what the table shows: None while
        the scenario has input errors (the last valid plan's capacities would be stale)
        or when the stages differ. The compression CPU stage core adds after the
        scenario's stages has no row (`cpu_stage`)."""
        if self._plan is None or self._errors_any:
            return None
        path = self._plan.restore_path
        rows = [st for st in path.stages if not st.per_core]
        return path if len(rows) == len(self._rows) else None

    def cpu_stage(self) -> tuple[StageCapacity, float, bool] | None:
        """The compression CPU ceiling (not a row of the path): its record, what it lets
        through, and whether it is the bottleneck."""
        path = self.current_path()
        for st in path.stages if path is not None else ():
            if st.per_core:
                return st, path.capacity_at_Bps(st.index), path.bottleneck_index == st.index
        return None

    def _capacity(self, row: int) -> tuple[StageCapacity, float] | None:
        """The stage's capacity record and what it lets through with the path's channels
        running (core's `PathModel.capacity_at_Bps`: for a stage that binds channels the
        active channels × one unit, not every unit)."""
        path = self.current_path()
        if path is None or row >= len(self._rows):
            return None
        return path.stages[row], path.capacity_at_Bps(row)

    def is_bottleneck(self, row: int) -> bool:
        path = self.current_path()
        return path is not None and row < len(self._rows) and path.bottleneck_index == row

    def _capacity_tip(self, row: int, cap: StageCapacity, through: float) -> list[str]:
        b = self.binary
        unit = format_rate(cap.unit_Bps, binary=b)
        lines = []
        if (cap.per_channel_only or cap.binds_channel) and self._plan is not None:
            active = self._plan.restore_path.active_channels
            lines.append(
                f"<b>{cap.label}</b>: {format_rate(through, binary=b)} of data with "
                f"{active} channel{'s' if active != 1 else ''} running "
                f"({active} × {unit} per channel)"
            )
            if cap.binds_channel and not cap.per_channel_only:
                lines.append(
                    f"Binds channels: each of the {cap.count} units serves one RMAN channel; "
                    f"all of them together could take {format_rate(cap.total_Bps, binary=b)}, "
                    "but idle units do not help."
                )
        else:
            lines.append(f"<b>{cap.label}</b>: {cap.count} × {unit} of data")
        lines.append(f"Source: {cap.source}")
        if self.is_bottleneck(row) and self._plan is not None:
            lines.append(f"<b>Bottleneck</b>: {self._plan.restore_path.explain()}")
        return lines

    def _derived_text(self, row: int, column: int) -> str:
        """What the scenario resolved for a value the user left out."""
        stage = self._stage(row)
        if stage is None:
            return ""
        if column == COL_RATE:
            return format_rate(stage.rate_Bps, binary=self.binary)
        if column == COL_EFFICIENCY:
            return f"{stage.efficiency:g}"
        if column == COL_CARRIES:
            return stage.carries
        if column == COL_BINDS_CHANNEL:
            return "yes" if stage.binds_channel else "no"
        if column == COL_HW_COMPRESSION:
            return f"{stage.hw_compression:g}" if stage.kind == "tape_drive" else ""
        if column == COL_MAX_RATE:
            if stage.max_rate_Bps is None:
                return ""
            return format_rate(stage.max_rate_Bps, binary=self.binary)
        if column == COL_COUNT:
            return str(stage.count)
        if column == COL_WRITE_FACTOR:
            return f"{stage.write_factor:g}" if stage.kind == "storage_write" else ""
        return ""

    def cell(self, raw: dict[str, Any], row: int, col: int, role: int) -> Any:
        key = self.key(row, col)
        error = self._errors.get(key) if key else None
        if col == COL_CAPACITY:
            found = self._capacity(row)
            if role in (Qt.ItemDataRole.DisplayRole, SortRole):
                if found is None:
                    return "" if role == Qt.ItemDataRole.DisplayRole else 0.0
                cap, through = found
                if role == SortRole:
                    return through
                text = format_rate(through, binary=self.binary)
                return text + ("  ◀ bottleneck" if self.is_bottleneck(row) else "")
            if role == Qt.ItemDataRole.ToolTipRole and found is not None:
                cap, through = found
                return "<br>".join(self._capacity_tip(row, cap, through))
            if role == Qt.ItemDataRole.FontRole and self.is_bottleneck(row):
                return bold_font()
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return RIGHT_ALIGNED
        else:
            name = COLUMN_KEYS[col]
            value = raw.get(name)
            if role == Qt.ItemDataRole.DisplayRole:
                if value is None:
                    derived = self._derived_text(row, col)
                    if col in (COL_RATE, COL_MAX_RATE) and derived and raw.get("name"):
                        return f"{derived} (catalog)"
                    return derived
                if col == COL_KIND and isinstance(value, str):
                    return stage_kind_short(value)  # `nas_head` is the file's word
                return text_from_value(value)
            if role == Qt.ItemDataRole.EditRole:
                return value if isinstance(value, bool) or value is None else str(value)
            if role == SortRole:
                return text_from_value(value)
            if role == Qt.ItemDataRole.ForegroundRole and value is None:
                return QBrush(_DERIVED_FG)
            if role == Qt.ItemDataRole.FontRole and value is None:
                font = QFont()
                font.setItalic(True)
                return font
            if role == Qt.ItemDataRole.ToolTipRole:
                tip = tooltip_for(SPECS[name])
                if col == COL_KIND and isinstance(value, str):
                    tip = f"<b>{stage_kind_words(value)}</b><br>{tip}"
                elif col == COL_NAME and isinstance(value, str) and value:
                    tip = f"<b>{html.escape(value)}</b><br>{tip}"  # a long name, whole
                if error:
                    return f"<p style='color:#d23c3c'><b>{error}</b></p>{tip}"
                if value is None and self._derived_text(row, col):
                    stage = self._stage(row)
                    from_catalog = col in (COL_RATE, COL_MAX_RATE)
                    src = f"<br>From {stage.source}" if stage and from_catalog else ""
                    return (
                        f"{tip}<p><i>Not set here: the scenario uses the shown value.{src}</i></p>"
                    )
                return tip
        if role == Qt.ItemDataRole.BackgroundRole:
            if error:
                return QBrush(_ERROR_BG)
            if self.is_bottleneck(row):
                return QBrush(_BOTTLENECK_BG)
        if role == RowRole:
            return dict(raw)
        if role == KeyRole:
            return key
        if role == ErrorRole:
            return error
        if role == BottleneckRole:
            return self.is_bottleneck(row)
        return None

    def setData(
        self,
        index: QModelIndex | QPersistentModelIndex,
        value: Any,
        role: int = Qt.ItemDataRole.EditRole,
    ) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        key = self.key(index.row(), index.column())
        if key is None:
            return False
        spec = SPECS[COLUMN_KEYS[index.column()]]
        if isinstance(value, str):
            value = value_from_text(spec, value)
        self.doc.set_value(key, value)
        return True
