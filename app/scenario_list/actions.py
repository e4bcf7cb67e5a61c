"""What the Scenarios dock does to the store: new, open, duplicate, delete (to the bin,
with undo), history, the bin, and saving the editor's document as a version.

Store calls run on the GUI thread: each is a few milliseconds (the store's own write
lane serialises writes), far below where STYLE §5 asks for progress.
"""

from __future__ import annotations

import tomllib
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint, Qt, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMenu, QMessageBox

from rtoplanner.core.errors import CoreError
from rtoplanner.core.store.models import ScenarioVersion

from ..dialogs.confirm import confirm
from ..document import ScenarioDocument, StoreOrigin
from ..history_dialog import HistoryDialog
from ..models.scenario_list_model import COL_COMMENT
from .dialogs import DeletedScenariosDialog
from .model import renamed_text

if TYPE_CHECKING:
    from .view import ScenarioListPanel

PUBLIC = (
    "new_action", "open_action", "duplicate_action", "delete_action", "history_action",
    "deleted_action", "undo_delete_action", "duplicate", "delete", "undo_delete",
    "undelete", "show_history", "show_deleted", "history_dialogs", "store_document",
    "add_document", "all_names", "unique_name",
)  # fmt: skip
"""What the panel offers of its actions (`panel.delete(…)`, `panel.delete_action`)."""


class ScenarioActions(QObject):
    """The dock's commands, as actions (menus, buttons, shortcuts) and methods."""

    def __init__(self, panel: ScenarioListPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.history_dialogs: dict[str, HistoryDialog] = {}
        self.deleted_dialog: DeletedScenariosDialog | None = None
        self._last_deleted: str | None = None
        self._make_actions()

    @property
    def store(self) -> Any:
        return self.panel.store

    def _action(self, text: str, slot, tip: str, shortcut=None) -> QAction:
        a = QAction(text, self.panel)
        a.setToolTip(tip)
        a.setStatusTip(tip)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        a.triggered.connect(lambda _c=False: slot())
        return a

    def _make_actions(self) -> None:
        panel = self.panel
        self.new_action = self._action(
            "New", panel.new_requested.emit, "Start a new scenario; Save (Ctrl+S) keeps it here"
        )
        self.open_action = self._action("Open", panel.open_selected, "Open the selected scenario")
        self.duplicate_action = self._action(
            "Duplicate", self.duplicate, "Save a copy of the selected scenario under a new name"
        )
        self.delete_action = self._action(
            "Delete", self.delete, "Move the selected scenario to the bin (Undo brings it back)",
            QKeySequence.StandardKey.Delete,
        )  # fmt: skip
        self.history_action = self._action(
            "History…", self.show_history, "Versions of the selected scenario, with what changed"
        )
        self.deleted_action = self._action(
            "Deleted Scenarios…", self.show_deleted, "Scenarios in the bin (kept for 30 days)"
        )
        self.undo_delete_action = self._action(
            "Undo Delete", self.undo_delete, "Bring back the scenario deleted last"
        )
        self.undo_delete_action.setEnabled(False)

    @Slot()
    def update_actions(self, *_args) -> None:
        has_store = self.store is not None
        selected = self.panel.selected_name() is not None
        self.new_action.setEnabled(True)
        for a in (self.open_action, self.duplicate_action, self.delete_action,
                  self.history_action):  # fmt: skip
            a.setEnabled(has_store and selected)
        self.deleted_action.setEnabled(has_store)

    # ------------------------------------------------------------------ context menus

    @Slot(QPoint)
    def context_menu(self, pos: QPoint) -> None:
        view = self.panel.view
        index = view.indexAt(pos)
        if index.isValid():
            view.setCurrentIndex(index)
        menu = QMenu(self.panel)
        menu.addActions([self.open_action, self.new_action, self.duplicate_action])
        menu.addSeparator()
        menu.addAction(self.history_action)
        menu.addAction(self._compare_menu(menu))
        menu.addSeparator()
        menu.addActions([self.delete_action, self.deleted_action])
        menu.popup(view.viewport().mapToGlobal(pos))

    def _compare_menu(self, parent: QMenu) -> QAction:
        """Compare with… › every other stored scenario."""
        panel = self.panel
        selected = panel.selected_name()
        compare = QAction("Compare with…", parent)
        compare.setEnabled(selected is not None and panel.model.rowCount() > 1)
        compare_menu = QMenu(parent)
        for other in panel.model.names():
            if other != selected:
                compare_menu.addAction(
                    other,
                    lambda o=other: panel.compare_requested.emit(
                        panel.selected_name() or "", 0, o, 0
                    ),
                )
        compare.setMenu(compare_menu)
        return compare

    @Slot(QPoint)
    def header_menu(self, pos: QPoint) -> None:
        view = self.panel.view
        menu = QMenu(self.panel)
        show = menu.addAction("Show Comment Column")
        show.setCheckable(True)
        show.setChecked(not view.isColumnHidden(COL_COMMENT))
        show.toggled.connect(lambda on: view.setColumnHidden(COL_COMMENT, not on))
        menu.popup(view.header().mapToGlobal(pos))

    # ------------------------------------------------------------------ names

    def all_names(self) -> set[str]:
        """Every name the store knows, including the bin's (a new name must avoid both)."""
        store = self.store
        if store is None:
            return set()
        return {s.name for s in store.scenarios(include_deleted=True)}

    def unique_name(self, base: str) -> str:
        taken = {n.casefold() for n in self.all_names()}
        if base.casefold() not in taken:
            return base
        n = 2
        while f"{base} {n}".casefold() in taken:
            n += 1
        return f"{base} {n}"

    # ------------------------------------------------------------------ commands

    def duplicate(self, name: str | None = None, new_name: str | None = None) -> str | None:
        """Save a copy of a stored scenario (its latest version) under a new name.

        Asks for the name unless given; returns the new name, or None when cancelled.
        """
        store = self.store
        name = name or self.panel.selected_name()
        if store is None or not name:
            return None
        if new_name is None:
            new_name, ok = QInputDialog.getText(
                self.panel,
                "Duplicate Scenario",
                f"A copy of “{name}” named:",
                QLineEdit.EchoMode.Normal,
                self.unique_name(f"{name} (copy)"),
            )
            if not ok:
                return None
        new_name = new_name.strip()
        if not new_name or not self._name_is_free(new_name):
            return None
        try:
            latest = store.scenario_version(name)
            store.save_scenario(
                renamed_text(latest.text, new_name),
                comment=f"duplicated from “{name}” v{latest.version}",
                source=new_name,
            )
        except (CoreError, tomllib.TOMLDecodeError, TypeError) as exc:
            QMessageBox.critical(
                self.panel, "Duplicate Scenario", f"Cannot duplicate “{name}”:\n\n{exc}"
            )
            return None
        self.panel.select(new_name)
        return new_name

    def _name_is_free(self, new_name: str) -> bool:
        if new_name.casefold() not in {n.casefold() for n in self.all_names()}:
            return True
        QMessageBox.warning(
            self.panel,
            "Duplicate Scenario",
            f"The store already has a scenario named “{new_name}” (perhaps in the bin). "
            "Choose another name.",
        )
        return False

    def delete(self, name: str | None = None) -> bool:
        """Move a stored scenario to the bin; the undo message offers to bring it back."""
        store = self.store
        name = name or self.panel.selected_name()
        if store is None or not name:
            return False
        try:
            store.delete_scenario(name)
        except CoreError as exc:
            QMessageBox.critical(self.panel, "Delete Scenario", f"Cannot delete “{name}”:\n\n{exc}")
            return False
        self._last_deleted = name
        self.undo_delete_action.setText(f"Undo Delete “{name}”")
        self.undo_delete_action.setEnabled(True)
        self.panel.undo_message.show_message(
            f"Deleted “{name}” (kept 30 days in View › Deleted Scenarios…).",
            lambda n=name: self.undelete(n),
        )
        return True

    @Slot()
    def undo_delete(self) -> bool:
        name = self._last_deleted
        return self.undelete(name) if name else False

    def undelete(self, name: str) -> bool:
        store = self.store
        if store is None:
            return False
        try:
            store.undelete_scenario(name)
        except CoreError as exc:
            QMessageBox.critical(
                self.panel, "Restore Scenario", f"Cannot bring back “{name}”:\n\n{exc}"
            )
            return False
        if name == self._last_deleted:
            self._last_deleted = None
            self.undo_delete_action.setText("Undo Delete")
            self.undo_delete_action.setEnabled(False)
            self.panel.undo_message.dismiss()
        self.panel.select(name)
        return True

    def show_history(self, name: str | None = None) -> HistoryDialog | None:
        panel = self.panel
        name = name or panel.selected_name()
        if panel.store_service is None or self.store is None or not name:
            return None
        dialog = self.history_dialogs.get(name)
        if dialog is None:
            dialog = HistoryDialog(panel.store_service, name, panel)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dialog.open_version_requested.connect(panel.open_stored_requested)
            dialog.compare_requested.connect(
                lambda n, v, cur: panel.compare_requested.emit(n, v, n, cur)
            )
            dialog.destroyed.connect(lambda _o=None, n=name: self.history_dialogs.pop(n, None))
            self.history_dialogs[name] = dialog
        dialog.show()
        dialog.raise_()
        return dialog

    def show_deleted(self) -> DeletedScenariosDialog | None:
        if self.store is None:
            return None
        if self.deleted_dialog is None:
            self.deleted_dialog = DeletedScenariosDialog(self.panel)
        self.deleted_dialog.reload()
        self.deleted_dialog.show()
        self.deleted_dialog.raise_()
        return self.deleted_dialog

    # ------------------------------------------------------------------ saving documents

    def store_document(self, doc: ScenarioDocument, comment: str = "") -> ScenarioVersion | None:
        """Save the document as a new version in the store, under its `name`.

        A document that did not come from the stored scenario of that name (a new one, a
        file, a renamed one) asks before it adds a version to an existing scenario. On
        success the document belongs to the stored scenario (`doc.store_origin`).
        """
        version = self._store_text(doc, comment, title="Save")
        if version is not None:
            doc.mark_stored(StoreOrigin(version.scenario, version.version))
        return version

    def add_document(self, doc: ScenarioDocument, comment: str = "") -> ScenarioVersion | None:
        """Keep a copy of the document in the store; the document stays with its file."""
        if not comment and doc.file_path is not None:
            comment = f"added from {doc.file_path.name}"
        return self._store_text(doc, comment, title="Add to Store")

    def _store_text(self, doc: ScenarioDocument, comment: str, title: str):
        store = self.store
        if store is None or not self._storable(doc, title):
            return None
        name = doc.raw["name"]
        try:
            version = store.save_scenario(doc.text(), comment=comment, source=name)
        except (CoreError, ValueError) as exc:
            QMessageBox.critical(self.panel, title, f"Cannot save “{name}” to the store:\n\n{exc}")
            return None
        self.panel.select(version.scenario)
        return version

    def _storable(self, doc: ScenarioDocument, title: str) -> bool:
        """Whether the document may go into the store under its name (asking when another
        scenario already has that name)."""
        if doc.errors:
            key, msg = next(iter(doc.errors.items()))
            return self._refuse(
                title,
                "The store keeps only valid scenarios, and this one has input errors "
                f"({key or 'scenario'}: {msg}).\n\nFix them first, or save it to a file "
                "(File › Save As…).",
            )
        name = doc.raw.get("name")
        if not isinstance(name, str) or not name.strip():
            return self._refuse(title, "The scenario needs a name to be stored.")
        origin = doc.store_origin
        existing = {s.name: s for s in self.store.scenarios(include_deleted=True)}
        other = existing.get(name)
        if other is None or (origin is not None and origin.name == name):
            return True
        if other.deleted_at is not None:
            return self._refuse(
                title,
                f"A scenario named “{name}” is in the bin (View › Deleted Scenarios…). "
                "Restore it first, or give this scenario another name.",
            )
        return confirm(
            self.panel,
            title,
            f"The store already has a scenario named “{name}” ({other.versions} "
            f"version{'s' if other.versions != 1 else ''}). Save this as its version "
            f"{other.latest_version + 1}?\n\n(To keep both, give this one another name "
            "first.)",
            QMessageBox.StandardButton.Save,
        )

    def _refuse(self, title: str, message: str) -> bool:
        QMessageBox.warning(self.panel, title, message)
        return False
