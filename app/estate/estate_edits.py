"""Every change made in the Estate window, as one undoable step each (QUndoStack): a tier
edited or dragged, an RTO edited, the least hardware applied, the runbook applied. Each
builds the changed estate with core's functions (`with_priority`, `with_rto`,
`apply_answer`) and hands it to the window, which recomputes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QMessageBox

from rtoplanner.core.errors import CoreError
from rtoplanner.core.estate import Estate, with_priority, with_rto
from rtoplanner.core.estate.least_apply import apply_answer
from rtoplanner.core.units import format_duration

if TYPE_CHECKING:
    from .estate_window import EstateWindow


class SetEstate(QUndoCommand):
    """One undoable change of the window's estate."""

    def __init__(self, window: EstateWindow, before: Estate, after: Estate, text: str) -> None:
        super().__init__(text)
        self.window, self.before, self.after = window, before, after

    def redo(self) -> None:
        self.window.set_estate(self.after)

    def undo(self) -> None:
        self.window.set_estate(self.before)


class EstateEdits(QObject):
    """The window's edits, pushed on its undo stack."""

    def __init__(self, window: EstateWindow, stack: QUndoStack) -> None:
        super().__init__(window)
        self.window = window
        self.stack = stack

    def change(self, after: Estate, text: str) -> None:
        before = self.window.estate
        if before is not None:
            self.stack.push(SetEstate(self.window, before, after, text))
            self.window.statusBar().showMessage(text, 6000)

    @Slot(str, int)
    def set_priority(self, name: str, priority: int) -> None:
        if self.window.estate is not None:
            self.change(with_priority(self.window.estate, name, priority),
                        f"{name} moved to tier {priority}")  # fmt: skip

    @Slot(str, float)
    def set_rto(self, name: str, rto_s: float) -> None:
        if self.window.estate is None:
            return
        try:
            after = with_rto(self.window.estate, name, rto_s)
        except CoreError as exc:
            self.window.statusBar().showMessage(f"{name}: {exc}", 8000)
            return
        self.change(after, f"{name}: RTO {format_duration(rto_s)}")

    @Slot()
    def apply_least(self) -> None:
        """Make the least hardware's purchases (and its runbook): one undoable step."""
        least, estate = self.window.least, self.window.estate
        if estate is None or least is None or least.answer is None:
            return
        try:
            fixed = apply_answer(estate, least, self.window.catalog)
        except CoreError as exc:
            QMessageBox.warning(self.window, "Estate", f"Cannot apply the least hardware:\n\n{exc}")
            return
        words = "; ".join(c.words for c in least.answer.changes)
        self.change(fixed, f"Apply: {words}")

    @Slot()
    def apply_runbook(self) -> None:
        """Follow the runbook found before any purchase: one undoable step."""
        least, estate = self.window.least, self.window.estate
        if estate is None or least is None or least.policy is None or not least.policy.found:
            return
        self.change(estate.with_policy(least.policy.best.policy), "Apply the runbook order")
