"""The Scenarios dock's data: the filter over the store's `ScenarioListModel`, and the
files part's items (recent files, then the shipped demos)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from rtoplanner.core.paths import scenarios_dir
from rtoplanner.core.scenario import dump_mapping

PathRole = Qt.ItemDataRole.UserRole + 1
DemoRole = Qt.ItemDataRole.UserRole + 2


def demo_scenarios() -> list[Path]:
    d = scenarios_dir()
    return sorted(d.glob("*.toml")) if d.is_dir() else []


def short_folder(path: Path) -> str:
    """The folder of a file as a user reads it: `~/plans/erp` rather than the full path."""
    folder = path.parent
    try:
        return "~/" + folder.relative_to(Path.home()).as_posix() if folder != Path.home() else "~"
    except ValueError:
        return folder.as_posix()


def renamed_text(text: str, new_name: str) -> str:
    """A scenario's TOML text with another `name` (the store key), in the canonical
    layout of `dump_mapping` (comments of the original are not kept)."""
    raw = tomllib.loads(text)
    raw["name"] = new_name
    return dump_mapping(raw)


class FilterProxy(QSortFilterProxyModel):
    """Filters; sorting is handed to the source model, which sorts its rows in Python
    (a proxy sort asks `data()` twice per comparison: seconds for 10,000 scenarios)."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)


def fill_files(tree: QTreeWidget, recent: list[str], current: str | None) -> None:
    """Recent files and the demo scenarios as two groups (the file open now in italics)."""
    tree.clear()
    groups = (
        ("Recent files", [Path(p) for p in recent], False),
        ("Demo scenarios", demo_scenarios(), True),
    )
    for title, paths, demos in groups:
        if not paths:
            continue
        top = QTreeWidgetItem([title])
        top.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = top.font(0)
        font.setBold(True)
        top.setFont(0, font)
        tree.addTopLevelItem(top)
        for p in paths:
            top.addChild(_file_item(p, demos, current))
        top.setExpanded(True)


def _file_item(p: Path, demo: bool, current: str | None) -> QTreeWidgetItem:
    text = p.stem.replace("_", " ")
    if demo:
        tip = f"{p}\nOpens as an untitled copy: Save asks where to keep it."
    else:
        text = f"{text}  —  {short_folder(p)}"
        tip = str(p)
    child = QTreeWidgetItem([text])
    child.setToolTip(0, tip)
    child.setData(0, PathRole, str(p))
    child.setData(0, DemoRole, demo)
    if current and str(p) == current:
        f = QFont(child.font(0))
        f.setItalic(True)
        child.setFont(0, f)
    return child


def filter_files(tree: QTreeWidget, text: str) -> None:
    """Hide the files whose name and path do not contain `text` (any case)."""
    low = text.strip().lower()
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        for j in range(top.childCount()):
            child = top.child(j)
            hay = (child.text(0) + " " + (child.data(0, PathRole) or "")).lower()
            child.setHidden(bool(low) and low not in hay)
