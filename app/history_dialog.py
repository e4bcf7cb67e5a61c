"""History of a stored scenario: its versions, what each changed, open, restore, compare.

Every save of a scenario is a version in the store (`Store.history`). The dialog lists
them (newest last, the latest is "current"), shows the diff of the selected version
against the current one (`Store.diff`; for the current version itself, what it changed
from the one before), and offers to open a version in the editor, to restore it
(`Store.restore_version`: its text saved as a new version, history is never rewritten)
or to compare its plan with the current version's.

The dialog is modeless and reloads when the store says scenarios changed.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QSortFilterProxyModel, Qt, Signal, Slot
from PySide6.QtGui import QColor, QFontDatabase, QSyntaxHighlighter, QTextCharFormat
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.store.models import Changes, ScenarioVersion

from .models.scenario_list_model import (
    COL_V_SAVED,
    COL_V_VERSION,
    SortRole,
    VersionListModel,
)
from .shell.placement import fit_size
from .store_service import StoreService
from .theme import VERDICT_COLORS


class DiffHighlighter(QSyntaxHighlighter):
    """Colours a unified diff: additions green, removals red, hunk headers muted."""

    def __init__(self, document) -> None:
        super().__init__(document)
        self.added = QTextCharFormat()
        self.added.setForeground(QColor(VERDICT_COLORS["meets"]))
        self.added.setBackground(QColor(46, 157, 79, 28))
        self.removed = QTextCharFormat()
        self.removed.setForeground(QColor(VERDICT_COLORS["misses"]))
        self.removed.setBackground(QColor(210, 60, 60, 28))
        self.hunk = QTextCharFormat()
        self.hunk.setForeground(QColor("#7a7f87"))

    def highlightBlock(self, text: str) -> None:
        if text.startswith(("+++", "---")):
            self.setFormat(0, len(text), self.hunk)
        elif text.startswith("+"):
            self.setFormat(0, len(text), self.added)
        elif text.startswith("-"):
            self.setFormat(0, len(text), self.removed)
        elif text.startswith("@@"):
            self.setFormat(0, len(text), self.hunk)


class HistoryDialog(QDialog):
    open_version_requested = Signal(str, int)
    """(scenario name, version): open that version in the editor."""
    compare_requested = Signal(str, int, int)
    """(scenario name, version, current version): compare the two plans."""

    def __init__(self, store_service: StoreService, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.store_service = store_service
        self.name = name
        self.setObjectName("history_dialog")
        self.setWindowTitle(f"History of “{name}”")
        self.setModal(False)
        fit_size(self, 860, 560)

        self.model = VersionListModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SortRole)
        self.view = QTreeView()
        self.view.setObjectName("versions")
        self.view.setModel(self.proxy)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(COL_V_VERSION, Qt.SortOrder.DescendingOrder)
        header = self.view.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(COL_V_VERSION, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_V_SAVED, QHeaderView.ResizeMode.ResizeToContents)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self.view.doubleClicked.connect(lambda _i: self.open_selected())

        self.diff_title = QLabel()
        self.diff_title.setObjectName("diff_title")
        self.diff_title.setWordWrap(True)
        self.diff_view = QPlainTextEdit()
        self.diff_view.setObjectName("diff")
        self.diff_view.setReadOnly(True)
        self.diff_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.highlighter = DiffHighlighter(self.diff_view.document())
        diff_box = QWidget()
        dl = QVBoxLayout(diff_box)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.diff_title)
        dl.addWidget(self.diff_view, 1)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.view)
        split.addWidget(diff_box)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 2)
        split.setSizes([180, 340])

        self.status = QLabel()
        self.status.setObjectName("history_status")
        buttons = QDialogButtonBox()
        self.open_button = QPushButton("&Open This Version")
        self.open_button.setToolTip(
            "Open the selected version in the editor; Save makes it a new version"
        )
        self.restore_button = QPushButton("&Restore This Version")
        self.restore_button.setToolTip(
            "Save the selected version's text as the newest version (history is kept)"
        )
        self.compare_button = QPushButton("&Compare with Current")
        self.compare_button.setToolTip(
            "The selected version's recovery timeline beside the current version's"
        )
        for b in (self.open_button, self.restore_button, self.compare_button):
            buttons.addButton(b, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        self.open_button.clicked.connect(self.open_selected)
        self.restore_button.clicked.connect(self.restore_selected)
        self.compare_button.clicked.connect(self.compare_selected)

        self.heading = QLabel()
        self.heading.setObjectName("history_heading")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

        store_service.changed.connect(self._on_store_changed)
        self.reload()
        self.select_version(None)

    # ------------------------------------------------------------------ state

    def reload(self) -> None:
        store = self.store_service.store
        selected = self.selected_version()
        try:
            rows = store.history(self.name) if store is not None else []
        except CoreError as exc:
            rows = []
            self.status.setText(str(exc))
        self.model.set_rows(rows)
        n = len(rows)
        name = self.name.replace("&", "&amp;").replace("<", "&lt;")
        self.heading.setText(
            f"<b>{name}</b> — {n} version{'s' if n != 1 else ''}; every save is kept, and "
            "restoring saves an old version again as the newest."
        )
        self.select_version(selected.version if selected else None)

    def selected_version(self) -> ScenarioVersion | None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return None
        return self.model.version(self.proxy.mapToSource(rows[0]).row())

    def select_version(self, version: int | None) -> None:
        """Select a version (the current one when None or when it no longer exists)."""
        row = self.model.row_of(version) if version is not None else -1
        if row < 0:
            row = self.model.rowCount() - 1
        if row < 0:
            self._show_diff(None)
            return
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)

    @Slot(QItemSelection, QItemSelection)
    def _on_selection(self, *_args) -> None:
        self._show_diff(self.selected_version())

    def _show_diff(self, v: ScenarioVersion | None) -> None:
        latest = self.model.latest
        is_latest = v is not None and latest is not None and v.version == latest.version
        self.open_button.setEnabled(v is not None)
        self.restore_button.setEnabled(v is not None and not is_latest)
        self.compare_button.setEnabled(v is not None and not is_latest)
        store = self.store_service.store
        if v is None or latest is None or store is None:
            self.diff_title.setText("")
            self.diff_view.setPlainText("")
            return
        if is_latest and v.version == self.model.version(0).version:
            self.diff_title.setText(f"v{v.version} is the first version: nothing to compare with.")
            self.diff_view.setPlainText(v.text)
            return
        if is_latest:
            before = self.model.version(self.model.row_of(v.version) - 1).version
            a, b = before, v.version
            title = f"What v{b} (current) changed from v{a}:"
        else:
            a, b = v.version, latest.version
            title = f"From v{a} (selected) to v{b} (current):"
        try:
            diff = store.diff(self.name, a, b)
        except CoreError as exc:
            self.diff_title.setText(str(exc))
            self.diff_view.setPlainText("")
            return
        if diff.identical:
            self.diff_title.setText(f"v{a} and v{b} have the same text.")
            self.diff_view.setPlainText("")
        else:
            self.diff_title.setText(title + "  lines with − are removed, with + added.")
            self.diff_view.setPlainText("\n".join(diff.lines))

    # ------------------------------------------------------------------ commands

    @Slot()
    def open_selected(self) -> None:
        v = self.selected_version()
        if v is not None:
            self.open_version_requested.emit(self.name, v.version)

    @Slot()
    def restore_selected(self) -> ScenarioVersion | None:
        v = self.selected_version()
        store = self.store_service.store
        if v is None or store is None:
            return None
        try:
            new = store.restore_version(self.name, v.version)
        except CoreError as exc:
            QMessageBox.critical(self, "Restore", f"Cannot restore version {v.version}:\n\n{exc}")
            return None
        self.reload()  # also on `changed`; here so the new version is selected now
        self.select_version(new.version)
        self.status.setText(f"Restored v{v.version} as v{new.version} (the current version).")
        return new

    @Slot()
    def compare_selected(self) -> None:
        v = self.selected_version()
        latest = self.model.latest
        if v is not None and latest is not None:
            self.compare_requested.emit(self.name, v.version, latest.version)

    @Slot(object)
    def _on_store_changed(self, changes: Changes) -> None:
        if changes.scenarios:
            self.reload()
