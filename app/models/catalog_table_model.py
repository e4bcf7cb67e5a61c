"""The hardware catalog as a table (STYLE §7): one row per item a plan can use.

Rows are `CatalogRow`s: a core `CatalogItem` and where it comes from (`shipped` with the
app, or `user`, which wins over a shipped item of the same kind and name). Formatting
lives in `data()` and goes through core's `format_rate`; sorting uses `SortRole` (the
numbers, not their text), and `RowRole` gives the row itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Any

from PySide6.QtCore import QObject, Qt

from rtoplanner.core.catalog import Catalog, CatalogItem
from rtoplanner.core.fix.prices import PriceBook
from rtoplanner.core.store import CatalogEntry
from rtoplanner.core.units import format_duration, format_percent, format_rate
from rtoplanner.core.wording import stage_kind_short, stage_kind_words

from .row_table_model import RIGHT_ALIGNED, RowTableModel, bold_font

COL_KIND = 0
COL_NAME = 1
COL_RATE = 2
COL_DERATE = 3
COL_PRACTICAL = 4
COL_COMPRESSION = 5
COL_COMPRESSED_RATE = 6
COL_PRICE = 7
COL_ORIGIN = 8
COL_SOURCE = 9
COLUMN_COUNT = 10

HEADERS = {
    COL_KIND: "Kind",
    COL_NAME: "Name",
    COL_RATE: "Rate",
    COL_DERATE: "Derate",
    COL_PRACTICAL: "Practical rate",
    COL_COMPRESSION: "Compression",
    COL_COMPRESSED_RATE: "Compressed rate",
    COL_PRICE: "Price",
    COL_ORIGIN: "Origin",
    COL_SOURCE: "Source",
}
HEADER_TIPS = {
    COL_RATE: "Datasheet rate of one unit in the restore direction (a tape drive's native, "
    "uncompressed rate; a redo apply class's apply rate)",
    COL_DERATE: "Share of the datasheet rate reached in practice; becomes the stage's efficiency",
    COL_PRACTICAL: "Rate × derate",
    COL_COMPRESSION: "A tape drive's own compression on uncompressed data, or an RMAN "
    "compression level's typical ratio (data bytes per backup byte)",
    COL_COMPRESSED_RATE: "A tape drive's ceiling on compressible data (its host interface); "
    "fills a stage's max_rate",
    COL_PRICE: "Price of one unit: your quote (kept in the store) or the catalog's; "
    "What it takes uses it. Empty: unpriced",
    COL_ORIGIN: "shipped with RTO Planner, or your own (yours win over a shipped item of "
    "the same kind and name)",
    COL_SOURCE: "Where the figure comes from; hover for the full source and notes",
}

SortRole = Qt.ItemDataRole.UserRole + 1


def natural_key(text: str) -> str:
    """Text that sorts as people read it: numbers by value (1GFC < 16GFC, LTO-9 < LTO-10)."""
    return re.sub(r"\d+", lambda m: m.group().zfill(10), text.lower())


RowRole = Qt.ItemDataRole.UserRole + 2
"""The `CatalogRow` of the row."""
ItemRole = Qt.ItemDataRole.UserRole + 3
"""The core `CatalogItem` of the row."""

_NUMERIC = {COL_RATE, COL_DERATE, COL_PRACTICAL, COL_COMPRESSION, COL_COMPRESSED_RATE}


@dataclass(frozen=True)
class CatalogRow:
    item: CatalogItem
    origin: str  # "shipped" | "user"
    overrides_shipped: bool = False

    @property
    def is_user(self) -> bool:
        return self.origin == "user"

    @classmethod
    def from_entry(cls, entry: CatalogEntry) -> CatalogRow:
        return cls(entry.item, entry.origin, entry.overrides_shipped)


def rows_from_catalog(catalog: Catalog) -> list[CatalogRow]:
    """Rows for a catalog without a store (the shipped one): origin from the item."""
    return [CatalogRow(i, "user" if i.user else "shipped") for i in catalog]


class CatalogTableModel(RowTableModel[CatalogRow]):
    HEADERS = HEADERS
    HEADER_TIPS = HEADER_TIPS

    def __init__(self, parent: QObject | None = None, binary: bool = False) -> None:
        super().__init__(parent)
        self.binary = binary
        self.prices = PriceBook()

    def set_prices(self, prices: PriceBook) -> None:
        """The prices to show (the user's quotes over the catalog's)."""
        self.prices = prices
        self.refresh()

    def set_binary(self, binary: bool) -> None:
        self.binary = binary
        self.refresh()

    def row(self, row: int) -> CatalogRow | None:
        return self.row_at(row)

    def find(self, kind: str, name: str) -> int:
        """The row of an item by kind and name (case and punctuation as core matches)."""
        probe = Catalog([CatalogItem(kind, name, "")])
        for i, r in enumerate(self._rows):
            if probe.find(r.item.kind, r.item.name) is not None:
                return i
        return -1

    def _rate(self, value: float | None) -> str:
        return "" if value is None else format_rate(value, binary=self.binary)

    def _text(self, r: CatalogRow, col: int) -> str:
        item = r.item
        if col == COL_KIND:
            return stage_kind_short(item.kind)  # the tooltip says it all
        if col == COL_NAME:
            return item.name
        if col == COL_RATE:
            return self._rate(item.rate_Bps)
        if col == COL_DERATE:
            return (
                ""
                if item.rate_Bps is None and item.derate == 1.0
                else format_percent(item.derate, 0)
            )
        if col == COL_PRACTICAL:
            return self._rate(item.practical_rate_Bps)
        if col == COL_COMPRESSION:
            ratio = item.hw_compression if item.hw_compression is not None else item.ratio
            return "" if ratio is None else f"{ratio:g}:1"
        if col == COL_COMPRESSED_RATE:
            return self._rate(item.compressed_rate_Bps)
        if col == COL_PRICE:
            quote = self.prices.money(item.kind, item.name)  # as given: never relabelled
            return "" if quote is None else quote.text()
        if col == COL_ORIGIN:
            if r.is_user:
                return "user (replaces shipped)" if r.overrides_shipped else "user"
            return "shipped"
        if col == COL_SOURCE:
            return item.source
        return ""

    def _sort_value(self, r: CatalogRow, col: int) -> Any:
        item = r.item
        value: float | None = {
            COL_RATE: item.rate_Bps,
            COL_DERATE: item.derate,
            COL_PRACTICAL: item.practical_rate_Bps,
            COL_COMPRESSION: item.hw_compression if item.hw_compression is not None else item.ratio,
            COL_COMPRESSED_RATE: item.compressed_rate_Bps,
        }.get(col)
        if col == COL_PRICE:
            quote = self.prices.money(item.kind, item.name)
            return -1.0 if quote is None else quote.amount
        if col in _NUMERIC:
            return -1.0 if value is None else float(value)
        return natural_key(self._text(r, col))

    def _tooltip(self, r: CatalogRow) -> str:
        item = r.item
        lines = [f"<b>{escape(item.name)}</b> ({escape(stage_kind_words(item.kind))})"]
        lines.append(f"<b>Source:</b> {escape(item.source)}")
        if item.notes:
            lines.append(f"<b>Notes:</b> {escape(item.notes)}")
        times = [
            (label, value)
            for label, value in (
                ("load", item.load_s),
                ("unload", item.unload_s),
                ("locate", item.locate_s),
            )
            if value is not None
        ]
        if times:
            lines.append(", ".join(f"{label} {format_duration(v)}" for label, v in times))
        if item.backup_rate_Bps is not None:
            lines.append(f"Backup direction: {self._rate(item.backup_rate_Bps)}")
        if item.cpu_cost is not None:
            lines.append(f"CPU cost relative to BASIC: {item.cpu_cost:g}")
        for key, value in item.extra.items():
            lines.append(f"{escape(key.replace('_', ' '))}: {escape(value)}")
        if r.overrides_shipped:
            lines.append("<i>Your item replaces the shipped one of this name.</i>")
        return "<p style='white-space:pre-wrap'>" + "<br>".join(lines) + "</p>"

    def cell(self, r: CatalogRow, row: int, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(r, col)
        if role == SortRole:
            return self._sort_value(r, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(r)
        if role == Qt.ItemDataRole.TextAlignmentRole and (col in _NUMERIC or col == COL_PRICE):
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.FontRole and r.is_user and col in (COL_NAME, COL_ORIGIN):
            return bold_font()
        if role == RowRole:
            return r
        if role == ItemRole:
            return r.item
        return None
