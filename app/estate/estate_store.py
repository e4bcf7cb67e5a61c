"""The store's estates in the Estate window (DESIGN §9: the store keeps estates with
their history, like scenarios).

*Keep Version…* adds the estate as shown (its file's text with the tiers and RTOs edited
here) as a new version under its name, with a comment. *Stored Estates…* lists the
stored estates and the versions of the one selected, and opens a version in the window:
its scenario files are found in the folder it was kept from, its other databases in the
store. The same as `rto-planner estates save|list|history` and `rto-planner estate NAME`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.store.estates import (
    EstateVersion,
    estate_history,
    estates,
    load_stored_estate,
    save_estate,
)

from ..shell.placement import fit_size
from ..tables import read_only_table

if TYPE_CHECKING:
    from rtoplanner.core.store import Store

    from .estate_window import EstateWindow

NO_STORE = "No store is open: estates cannot be kept (see the main window's status bar)."


def _row(*cells: str) -> list[QStandardItem]:
    return [QStandardItem(c) for c in cells]


class StoredEstatesDialog(QDialog):
    """The stored estates (left) and the versions of the one selected (right)."""

    def __init__(self, store: Store, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.setObjectName("stored_estates")
        self.setWindowTitle("Stored estates")
        fit_size(self, 960, 420)
        self.names = QStandardItemModel(0, 3, self)
        self.names.setHorizontalHeaderLabels(["Estate", "Versions", "Last kept (UTC)"])
        self.versions = QStandardItemModel(0, 3, self)
        self.versions.setHorizontalHeaderLabels(["Version", "Kept (UTC)", "Comment"])
        self.name_view = read_only_table(self.names, "estate_names")
        self.version_view = read_only_table(self.versions, "estate_versions")
        for view, stretch in ((self.name_view, 0), (self.version_view, 2)):
            header = view.horizontalHeader()
            header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
        self.name_view.selectionModel().currentRowChanged.connect(self._show_versions)
        self.version_view.doubleClicked.connect(self.accept)
        self.history: list[EstateVersion] = []

        lists = QHBoxLayout()
        lists.addWidget(self.name_view, 3)
        lists.addWidget(self.version_view, 2)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        self.empty = QLabel(
            "No estates in the store yet: open an estate file and use Keep Version… to "
            "keep it here."
        )
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)
        layout.addLayout(lists, 1)
        layout.addWidget(self.buttons)
        self._fill_names()

    def _fill_names(self) -> None:
        rows = estates(self.store)
        for name, version, saved in rows:
            self.names.appendRow(_row(name, str(version), f"{saved:%Y-%m-%d %H:%M}"))
        self.empty.setVisible(not rows)
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setEnabled(bool(rows))
        if rows:
            self.name_view.selectRow(0)

    @Slot()
    def _show_versions(self) -> None:
        self.versions.removeRows(0, self.versions.rowCount())
        name = self.selected_name()
        self.history = [] if name is None else estate_history(self.store, name)
        for v in reversed(self.history):  # newest first
            self.versions.appendRow(_row(str(v.version), f"{v.saved_at:%Y-%m-%d %H:%M}",
                                         v.comment))  # fmt: skip
        if self.history:
            self.version_view.selectRow(0)

    def selected_name(self) -> str | None:
        index = self.name_view.currentIndex()
        return None if not index.isValid() else self.names.item(index.row(), 0).text()

    def selected_version(self) -> EstateVersion | None:
        index = self.version_view.currentIndex()
        if not index.isValid() or not self.history:
            return None
        return self.history[len(self.history) - 1 - index.row()]


class EstateStoreActions(QObject):
    """Keep Version… and Stored Estates… in one Estate window's button row."""

    def __init__(self, window: EstateWindow, store_of: Callable[[], Store | None]) -> None:
        super().__init__(window)
        self.window = window
        self.store_of = store_of
        self.keep_button = QPushButton("Keep Version…")
        self.keep_button.setToolTip("Keep the estate as shown as a new version in the store")
        self.keep_button.clicked.connect(self.keep_version)
        self.stored_button = QPushButton("Stored Estates…")
        self.stored_button.setToolTip("Open a version of an estate kept in the store")
        self.stored_button.clicked.connect(self.open_stored)
        row = window.button_row
        at = row.indexOf(window.plan_button) + 1
        row.insertWidget(at, self.keep_button)
        row.insertWidget(at + 1, self.stored_button)
        # With no estate shown it did nothing, silently: enabled with the estate.
        window.needs_estate.append(self.keep_button)
        self.keep_button.setEnabled(window.estate is not None)

    def _store(self) -> Store | None:
        store = self.store_of()
        if store is None:
            self.window.statusBar().showMessage(NO_STORE, 8000)
        return store

    @Slot()
    def keep_version(self, comment: str | None = None) -> EstateVersion | None:
        """Keep the estate as shown; asks for a comment unless one is given."""
        store = self._store()
        if store is None or self.window.estate is None:
            return None
        if comment is None:
            comment, ok = QInputDialog.getText(self.window, "Keep a version",
                                               "What changed in this version?")  # fmt: skip
            if not ok:
                return None
        path = self.window.path
        try:
            version = save_estate(
                store, self.window.estate_text(), comment=comment,
                base_dir=None if path is None else path.resolve().parent,
                source=str(path or self.window.estate.source),
            )  # fmt: skip
        except CoreError as exc:
            QMessageBox.critical(self.window, "Estate", f"Cannot keep the estate:\n\n{exc}")
            return None
        self.window.statusBar().showMessage(
            f"Kept version {version.version} of “{version.estate}” in the store", 6000
        )
        return version

    @Slot()
    def open_stored(self) -> None:
        store = self._store()
        if store is None:
            return
        dialog = StoredEstatesDialog(store, self.window)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.selected_version():
            self.open_version(dialog.selected_version())  # type: ignore[arg-type]

    def open_version(self, version: EstateVersion) -> bool:
        """Show a stored version in the window; errors are shown, not raised."""
        store = self._store()
        if store is None:
            return False
        try:
            estate = load_stored_estate(store, version.estate, version.version,
                                        catalog=self.window.catalog)  # fmt: skip
        except CoreError as exc:
            QMessageBox.critical(self.window, "Estate", f"Cannot open the estate:\n\n{exc}")
            return False
        self.window.show_stored(estate, version.text, version.base_dir)
        self.window.statusBar().showMessage(
            f"Opened version {version.version} of “{version.estate}” from the store", 6000
        )
        return True
