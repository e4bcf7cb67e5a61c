"""The left panel: scenarios to open.

For now it lists recent files and the shipped demo scenarios. It is the seam for the
store (issue 5, LATER): a store-backed list (search, new, duplicate, delete with undo)
replaces `ScenarioListPanel.populate` and emits the same `open_requested` signal, with a
store id instead of a path once the document can load from the store.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.paths import scenarios_dir

PathRole = Qt.ItemDataRole.UserRole + 1


def demo_scenarios() -> list[Path]:
    d = scenarios_dir()
    return sorted(d.glob("*.toml")) if d.is_dir() else []


class ScenarioListPanel(QWidget):
    open_requested = Signal(str)
    new_requested = Signal()
    browse_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter scenarios")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        layout.addWidget(self.search)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.itemActivated.connect(self._on_activated)
        layout.addWidget(self.tree, 1)
        buttons = QHBoxLayout()
        new = QPushButton("New")
        new.setToolTip("Start a new scenario from a small template (Ctrl+N)")
        new.clicked.connect(self.new_requested)
        browse = QPushButton("Open…")
        browse.setToolTip("Open a scenario TOML file (Ctrl+O)")
        browse.clicked.connect(self.browse_requested)
        buttons.addWidget(new)
        buttons.addWidget(browse)
        layout.addLayout(buttons)

    def populate(self, recent: list[str], current: str | None = None) -> None:
        self.tree.clear()
        groups = (("Recent files", [Path(p) for p in recent]), ("Demo scenarios", demo_scenarios()))
        for title, paths in groups:
            if not paths:
                continue
            top = QTreeWidgetItem([title])
            top.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            self.tree.addTopLevelItem(top)
            for p in paths:
                child = QTreeWidgetItem([p.stem.replace("_", " ")])
                child.setToolTip(0, str(p))
                child.setData(0, PathRole, str(p))
                if current and str(p) == current:
                    f = child.font(0)
                    f.setItalic(True)
                    child.setFont(0, f)
                top.addChild(child)
            top.setExpanded(True)
        self._filter(self.search.text())

    @Slot(str)
    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                child = top.child(j)
                hay = (child.text(0) + " " + (child.data(0, PathRole) or "")).lower()
                child.setHidden(bool(needle) and needle not in hay)

    @Slot(QTreeWidgetItem, int)
    def _on_activated(self, item: QTreeWidgetItem, _col: int) -> None:
        path = item.data(0, PathRole)
        if path:
            self.open_requested.emit(path)
