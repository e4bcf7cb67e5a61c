"""The plan area: the result views, or — while there is no plan — why, and how to fix it.

A scenario that does not validate has no plan. Rather than an empty chart (or, worse,
the previous scenario's plan), the area lists the scenario's errors, each with a way to
fix it: an unknown key can be renamed to the key it was probably meant to be, or removed;
a bad value takes the user to its field.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.fixes import unknown_keys
from rtoplanner.core.scenario import get_dotted

from .document import ScenarioDocument


class EmptyPlanPage(QScrollArea):
    """Why there is no plan, and one row per error with the buttons that fix it."""

    def __init__(self, doc: ScenarioDocument, show_field: Callable[[str], None]) -> None:
        super().__init__()
        self.setObjectName("empty_plan")
        self.doc = doc
        self.show_field = show_field
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget()
        self._layout = QVBoxLayout(body)
        self._layout.setContentsMargins(24, 24, 24, 24)
        self._layout.setSpacing(10)
        self.title = QLabel()
        self.title.setObjectName("empty_plan_title")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.reason = QLabel()
        self.reason.setObjectName("empty_plan_reason")
        self.reason.setWordWrap(True)
        self._layout.addWidget(self.title)
        self._layout.addWidget(self.reason)
        self.rows = QVBoxLayout()
        self.rows.setSpacing(6)
        self._layout.addLayout(self.rows)
        self._layout.addStretch(1)
        self.setWidget(body)
        self.fix_buttons: dict[str, list[QPushButton]] = {}

    def refresh(self) -> None:
        errors = self.doc.errors
        unknown = unknown_keys(self.doc.raw)
        self._clear_rows()
        if not errors and not unknown:
            self.title.setText("Computing the plan…")
            self.reason.setText("")
            return
        count = len({*errors, *(u.key for u in unknown)})
        self.title.setText("No plan for this scenario yet")
        self.reason.setText(
            f"It has {count} input error{'s' if count != 1 else ''}, so nothing can be "
            "computed; the plan appears as soon as "
            f"{'they are' if count != 1 else 'it is'} fixed. Nothing of another scenario "
            "is shown meanwhile."
        )
        shown = set()
        for u in unknown:
            shown.add(u.key)
            message = errors.get(u.key) or f"unknown key '{u.key.rsplit('.', 1)[-1]}'"
            buttons = []
            if u.suggestion and get_dotted(self.doc.raw, u.suggestion) is None:
                name = u.suggestion.rsplit(".", 1)[-1]
                buttons.append((f"Rename to {name}", self._renamer(u.key, u.suggestion)))
            buttons.append(("Remove the key", self._remover(u.key)))
            self._add_row(u.key, message, buttons)
        for key, message in errors.items():
            if key in shown:
                continue
            buttons = [("Go to the field", self._shower(key))] if key else []
            self._add_row(key, message, buttons)

    def _add_row(self, key: str, message: str, buttons: list[tuple[str, Callable]]) -> None:
        row = QWidget()
        row.setObjectName(f"error_row:{key}")
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel(f"<b>{escape(key or 'Scenario')}</b>: {escape(message)}")
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(label, 1)
        made = []
        for text, slot in buttons:
            button = QPushButton(text)
            button.clicked.connect(slot)
            layout.addWidget(button)
            made.append(button)
        self.fix_buttons[key] = made
        self.rows.addWidget(row)

    def _clear_rows(self) -> None:
        self.fix_buttons = {}
        while self.rows.count():
            item = self.rows.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()

    def _renamer(self, key: str, new_key: str) -> Callable[[], None]:
        return lambda: self.doc.rename_key(key, new_key)

    def _remover(self, key: str) -> Callable[[], None]:
        return lambda: self.doc.remove_key(key)

    def _shower(self, key: str) -> Callable[[], None]:
        return lambda: self.show_field(key)


class PlanArea(QStackedWidget):
    """The result tabs while there is a plan, the `EmptyPlanPage` while there is none."""

    def __init__(
        self, results: QWidget, doc: ScenarioDocument, show_field: Callable[[str], None]
    ) -> None:
        super().__init__()
        self.setObjectName("plan_area")
        self.doc = doc
        self.results = results
        self.empty = EmptyPlanPage(doc, show_field)
        self.addWidget(results)
        self.addWidget(self.empty)
        doc.plan_cleared.connect(self.refresh)
        doc.plan_changed.connect(self.refresh)
        doc.errors_changed.connect(self.refresh)
        self.refresh()

    @property
    def showing_plan(self) -> bool:
        return self.currentWidget() is self.results

    @Slot()
    @Slot(object)
    def refresh(self, *_args: object) -> None:
        if self.doc.plan is not None:
            self.setCurrentWidget(self.results)
            return
        self.empty.refresh()
        self.setCurrentWidget(self.empty)
