"""The Scenarios dock's small windows: the status bar's "Deleted … [Undo]" message and
View › Deleted Scenarios… (the bin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.store.models import Changes

from ..models.scenario_list_model import COL_NAME, ScenarioListModel

UNDO_MESSAGE_MS = 15000


class UndoMessage(QWidget):
    """A status-bar message with an Undo button ("Deleted “ERP”. [Undo]"), for a while."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("undo_message")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.label = QLabel()
        self.button = QToolButton()
        self.button.setText("Undo")
        self.button.setAutoRaise(False)
        self.button.clicked.connect(self._on_undo)
        layout.addWidget(self.label)
        layout.addWidget(self.button)
        self._undo: Callable[[], object] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self.hide()

    def show_message(self, text: str, undo: Callable[[], object], ms: int = UNDO_MESSAGE_MS):
        self.label.setText(text)
        self._undo = undo
        self.show()
        self._timer.start(ms)

    @Slot()
    def dismiss(self) -> None:
        self._timer.stop()
        self._undo = None
        self.hide()

    @Slot()
    def _on_undo(self) -> None:
        undo = self._undo
        self.dismiss()
        if undo is not None:
            undo()


class DeletedScenariosDialog(QDialog):
    """The bin: deleted scenarios with when they go for good; Restore undeletes."""

    def __init__(self, panel: Any) -> None:
        super().__init__(panel)
        self.panel = panel
        self.setObjectName("deleted_scenarios")
        self.setWindowTitle("Deleted Scenarios")
        self.resize(620, 340)
        self.model = ScenarioListModel(self)
        self.view = QTreeView()
        self.view.setModel(self.model)
        self.view.setRootIsDecorated(False)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.header().setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        self.view.header().setStretchLastSection(False)
        note = QLabel(
            "Deleted scenarios keep all their versions for 30 days, then the store removes "
            "them. Restore brings a scenario back to the list."
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox()
        self.restore_button = QPushButton("&Restore")
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        self.restore_button.clicked.connect(self.restore_selected)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)
        if panel.store_service is not None:
            panel.store_service.changed.connect(self._on_store_changed)
        self.reload()

    def reload(self) -> None:
        store = self.panel.store
        rows = []
        if store is not None:
            try:
                rows = [s for s in store.scenarios(include_deleted=True) if s.deleted_at]
            except CoreError:
                rows = []
        self.model.set_rows(rows)
        self.restore_button.setEnabled(bool(rows))

    def select(self, name: str) -> None:
        row = self.model.row_of(name)
        if row >= 0:
            self.view.setCurrentIndex(self.model.index(row, 0))

    @Slot()
    def restore_selected(self) -> list[str]:
        names = [
            self.model.summary(i.row()).name for i in self.view.selectionModel().selectedRows()
        ]
        done = [n for n in names if self.panel.undelete(n)]
        self.reload()
        return done

    @Slot(object)
    def _on_store_changed(self, changes: Changes) -> None:
        if changes.scenarios:
            self.reload()
