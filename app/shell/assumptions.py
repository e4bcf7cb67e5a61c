"""View › Decisive Assumptions and Notes (Ctrl+Shift+I): what the banner's tooltip says, in a
window the keyboard reaches (issue 23.10: a hover tooltip is out of a keyboard user's
reach). The banner's "read them" link opens it too."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout

from rtoplanner.core.decisive import banner_tooltip
from rtoplanner.core.plan import Plan
from rtoplanner.core.wording import for_reader

from .banner import ASSUMPTIONS_LINK


class AssumptionsWindow(QDialog):
    """Every check, the defaults that decide the recovery time, and the plan's notes."""

    def __init__(self, parent: Any) -> None:
        super().__init__(parent)
        self.setObjectName("assumptions_window")
        self.setWindowTitle("Decisive assumptions and notes")
        self.resize(640, 420)
        self.text = QTextBrowser()
        self.text.setObjectName("assumptions_text")
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        close = QAction("Close", self)
        close.setShortcut(QKeySequence("Ctrl+W"))
        close.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        close.triggered.connect(self.close)
        self.addAction(close)  # Escape closes a dialog already

    def show_plan(self, plan: Plan | None) -> None:
        text = for_reader(banner_tooltip(plan)) if plan is not None else "No plan yet."
        self.text.setPlainText(text)


class AssumptionsCommand(QObject):
    """Opens the window from the View menu (Ctrl+Shift+I) or the banner's link."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.host = host
        self.window: AssumptionsWindow | None = None
        host.banner.linkActivated.connect(self._on_link)
        host.doc.plan_changed.connect(self._on_plan)

    def show(self) -> AssumptionsWindow:
        if self.window is None:
            self.window = AssumptionsWindow(self.host)
        self.window.show_plan(self.host.doc.plan)
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()
        self.window.text.setFocus()
        return self.window

    @Slot(str)
    def _on_link(self, link: str) -> None:
        if link == ASSUMPTIONS_LINK:
            self.show()

    @Slot(object)
    def _on_plan(self, plan: Plan) -> None:
        if self.window is not None and self.window.isVisible():
            self.window.show_plan(plan)
