"""Table models of the Evidence views: the drill history and one drill's plan vs actual."""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from rtoplanner.core.result import JOB_TITLES, PHASE_TITLES
from rtoplanner.core.store.drills import StoredDrill
from rtoplanner.core.units import format_duration, format_percent, format_rate

from ..models.row_table_model import RIGHT_ALIGNED, RowTableModel

LATE = QColor("#c0392b")
EARLY = QColor("#2e8b57")


def percent(error: float | None) -> str:
    return "—" if error is None else format_percent(error, 1, signed=True)


def phase_title(name: str) -> str:
    if name.startswith("backup."):
        return f"Backup: {JOB_TITLES[name.split('.')[1]]}"
    return PHASE_TITLES[name]


def _error_brush(error: float | None, tolerance: float = 0.10) -> QBrush | None:
    if error is None or abs(error) < tolerance:
        return None
    return QBrush(LATE if error > 0 else EARLY)


class DrillTableModel(RowTableModel[StoredDrill]):
    """The drills of a scenario, oldest first."""

    HEADERS = ("N", "Drilled", "Version", "Phases timed", "Plan", "Actual", "Error", "Label")
    HEADER_TIPS: ClassVar[dict[int, str]] = {
        4: "The plan over the phases the drill timed, for the drill's own volumes",
        6: "(actual − plan) ÷ plan over the phases the drill timed",
    }
    NUMERIC: ClassVar[frozenset[int]] = frozenset({0, 2, 3, 4, 5, 6})

    def cell(self, row: StoredDrill, index: int, column: int, role: int) -> Any:
        c = row.comparison
        if role == Qt.ItemDataRole.DisplayRole:
            timed = sum(1 for r in c["rows"] if r["actual_s"] is not None)
            return (
                str(row.number),
                f"{row.drilled_at:%Y-%m-%d %H:%M}" if row.drilled_at else "—",
                f"v{row.scenario_version}",
                str(timed),
                format_duration(c["plan_s"]),
                format_duration(c["actual_s"]),
                percent(c["error"]),
                row.label,
            )[column]
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.NUMERIC:
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.ForegroundRole and column == 6:
            return _error_brush(c["error"])
        return None


class PhaseRow:
    """One phase of a drill's comparison (a dict from the store, with a title)."""

    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d
        self.title = phase_title(d["name"])


class PhaseTableModel(RowTableModel[PhaseRow]):
    """Plan vs actual per phase of one drill."""

    HEADERS = ("Phase", "Plan", "Actual", "Error", "Measured by", "Rate: plan", "Rate: drill")
    HOW: ClassVar[dict[str | None, str]] = {
        "wall": "wall clock",
        "channels": "channels' elapsed",
        "typed": "typed",
        None: "",
    }

    def cell(self, row: PhaseRow, index: int, column: int, role: int) -> Any:
        d = row.d
        if role == Qt.ItemDataRole.DisplayRole:
            actual = "not timed" if d["actual_s"] is None else format_duration(d["actual_s"])
            return (
                row.title,
                format_duration(d["plan_s"]),
                actual,
                percent(d.get("error")),
                self.HOW.get(d.get("how")),
                format_rate(d["plan_rate_Bps"]) if d.get("plan_rate_Bps") else "",
                format_rate(d["actual_rate_Bps"]) if d.get("actual_rate_Bps") else "",
            )[column]
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (1, 2, 3, 5, 6):
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.ForegroundRole and column == 3:
            return _error_brush(d.get("error"))
        return None


__all__ = ["DrillTableModel", "PhaseRow", "PhaseTableModel", "percent", "phase_title"]
