"""Table models of the What it takes panel: the frontier, and the prices it depends on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from PySide6.QtCore import Qt

from rtoplanner.core.fix import FixPoint, format_money
from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import stage_kind_short

from ..theme import VERDICT_WORDS
from .row_table_model import RIGHT_ALIGNED, RowTableModel, bold_font

RowRole = Qt.ItemDataRole.UserRole + 1

COL_POINT = 0
COL_COST = 1
COL_RECOVERY = 2
COL_VERDICT = 3
COL_CHANGES = 4


@dataclass(frozen=True)
class FrontierRow:
    number: int
    point: FixPoint
    currency: str
    own_changes: tuple[str, ...]
    """The point's changes not common to every point."""


class FrontierTableModel(RowTableModel[FrontierRow]):
    HEADERS: ClassVar = ("#", "Cost", "Worst case", "Verdict", "Changes")
    HEADER_TIPS: ClassVar = {
        COL_COST: "What the changes cost at your prices and the catalog's; 'unpriced' "
        "items have no price yet (set one below)",
        COL_RECOVERY: "Worst-case recovery time with the changes",
        COL_VERDICT: "The headline verdict: RTO, RPO and every backup window",
        COL_CHANGES: "The changes beyond those every point makes",
    }

    def cell(self, item: FrontierRow, row: int, column: int, role: int) -> Any:
        p = item.point
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_POINT:
                return f"{item.number}{' ★' if p.recommended else ''}"
            if column == COL_COST:
                return p.cost.short_text(item.currency)
            if column == COL_RECOVERY:
                return format_duration(p.recovery_s)
            if column == COL_VERDICT:
                return VERDICT_WORDS[p.verdict]
            if column == COL_CHANGES:
                return "; ".join(item.own_changes) or "(only the changes every point makes)"
        if role == Qt.ItemDataRole.ToolTipRole:
            cost = p.cost.text(item.currency)
            return cost + "\n" + "\n".join(f"• {c.words}" for c in p.changes)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_COST, COL_RECOVERY):
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.FontRole and p.recommended:
            return bold_font()
        if role == RowRole:
            return item
        return None


@dataclass(frozen=True)
class PriceRow:
    kind: str
    name: str
    price: float | None
    currency: str


class PriceTableModel(RowTableModel[PriceRow]):
    HEADERS: ClassVar = ("Kind", "Item", "Price of one unit")
    HEADER_TIPS: ClassVar = {2: "Your quote (kept in the store); double-click to set it"}

    def cell(self, item: PriceRow, row: int, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return stage_kind_short(item.kind)  # "datafile storage"
            if column == 1:
                return item.name
            if column == 2:
                return "unpriced" if item.price is None else format_money(item.price, item.currency)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 2:
            return RIGHT_ALIGNED
        if role == RowRole:
            return item
        return None
