"""Help › User Guide and F1: the shipped docs (Markdown), shown in a browser window.

The pages come from the installed package (`core.paths.docs_dir`, importlib.resources),
so the guide works the same from a clone, a wheel and a frozen bundle, offline. F1 opens
the section of the guide about the result view on screen (context help: the heading a
view registers as its `help`, `shell/registry.py`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QAction, QKeySequence, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QTextBrowser,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.paths import docs_dir

from .shell.placement import fit_size

GUIDE = "guide.md"

PAGES = (
    ("User guide", GUIDE),
    ("Scenario files", "scenario-format.md"),
    ("Importing workloads", "importing.md"),
    ("The model", "model.md"),
    ("The PDF plan", "report.md"),
    ("How sure is the plan", "risk.md"),
    ("What it takes", "what-it-takes.md"),
    ("The store", "store.md"),
    ("Estates", "estate.md"),
    ("Evidence: drills and the clock", "evidence.md"),
)


class HelpWindow(QWidget):
    """The guide's pages on the left, the page on the right; links between pages work."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setObjectName("help_window")
        self.setWindowTitle("RTO Planner — User Guide")
        fit_size(self, 900, 700)
        try:
            self.folder: Path | None = docs_dir()
        except CoreError:
            self.folder = None
        self.pages = QListWidget()
        self.pages.setMaximumWidth(200)
        self.browser = QTextBrowser()
        self.browser.setObjectName("help_browser")
        self.browser.setOpenExternalLinks(True)
        layout = QHBoxLayout(self)
        layout.addWidget(self.pages)
        layout.addWidget(self.browser, 1)
        if self.folder is not None:
            self.browser.setSearchPaths([str(self.folder)])
            for title, name in PAGES:
                if (self.folder / name).is_file():
                    item = QListWidgetItem(title)
                    item.setData(Qt.ItemDataRole.UserRole, name)
                    self.pages.addItem(item)
        self.pages.currentItemChanged.connect(self._on_page)
        # A window of its own closes as a viewer does: Escape or Ctrl+W (issue 23.10).
        self.close_action = QAction("Close", self)
        self.close_action.setShortcuts([QKeySequence(Qt.Key.Key_Escape), QKeySequence("Ctrl+W")])
        self.close_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.close_action.triggered.connect(self.close)
        self.addAction(self.close_action)

    def show_page(self, name: str = GUIDE, heading: str = "") -> None:
        """Show a page (and scroll to a heading of it), then raise the window."""
        self.show()
        self.raise_()
        self.activateWindow()
        if self.folder is None or not (self.folder / name).is_file():
            self.browser.setPlainText(
                "The user guide is not installed with this copy of RTO Planner. "
                "Reinstall it, or read the docs folder of its source."
            )
            return
        url = QUrl.fromLocalFile(str(self.folder / name))
        self.browser.setSource(url, QTextDocument.ResourceType.MarkdownResource)
        self._select(name)
        self._fit_images(640)
        if heading:
            self.browser.document().adjustSize()  # lay the page out before scrolling
            self.scroll_to(heading)

    def _fit_images(self, max_px: int) -> None:
        """Screenshots at most `max_px` wide, so the text wraps to the window, not to them."""
        doc = self.browser.document()
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                fmt = fragment.charFormat()
                if fmt.isImageFormat():
                    image = fmt.toImageFormat()
                    size = doc.resource(
                        QTextDocument.ResourceType.ImageResource, QUrl(image.name())
                    )
                    width = size.width() if hasattr(size, "width") else 0
                    if width > max_px:
                        image.setWidth(max_px)
                        image.setHeight(size.height() * max_px / width)
                        cursor = QTextCursor(doc)
                        cursor.setPosition(fragment.position())
                        cursor.setPosition(
                            fragment.position() + fragment.length(),
                            QTextCursor.MoveMode.KeepAnchor,
                        )
                        cursor.setCharFormat(image)
                it += 1
            block = block.next()

    def current_page(self) -> str:
        return Path(self.browser.source().toLocalFile()).name

    def scroll_to(self, heading: str) -> bool:
        """Put the heading's line at the top of the view."""
        doc = self.browser.document()
        cursor = doc.find(heading, 0, QTextDocument.FindFlag.FindCaseSensitively)
        while not cursor.isNull() and cursor.block().text().strip() != heading:
            cursor = doc.find(heading, cursor, QTextDocument.FindFlag.FindCaseSensitively)
        if cursor.isNull():
            return False
        cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock)
        self.browser.setTextCursor(cursor)
        bar = self.browser.verticalScrollBar()
        bar.setValue(bar.maximum())  # then back, so the heading ends up at the top
        self.browser.ensureCursorVisible()
        return True

    def heading_at_top(self) -> str:
        """The text of the block at the top of the view (what a test checks)."""
        cursor = self.browser.cursorForPosition(self.browser.viewport().rect().topLeft())
        return cursor.block().text().strip()

    def _select(self, name: str) -> None:
        for i in range(self.pages.count()):
            item = self.pages.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == name:
                self.pages.blockSignals(True)
                self.pages.setCurrentItem(item)
                self.pages.blockSignals(False)
                return

    @Slot(QListWidgetItem, QListWidgetItem)
    def _on_page(self, item: QListWidgetItem | None, _previous) -> None:
        if item is not None:
            self.show_page(item.data(Qt.ItemDataRole.UserRole))
