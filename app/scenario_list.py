"""The left panel: the scenarios in the store, and scenario files.

    ┌ Scenarios ───────────────────────┐
    │ [filter                        ] │   one filter for both lists
    │ Name        Versions Last saved… │   the store (ScenarioListModel)
    │ ERP v3          3  today 14:03   │   double-click opens, bold = in the editor
    │ [New][Duplicate][Delete][History]│
    │ Files                            │   recent files, then the shipped demos
    │  Recent files / Demo scenarios   │
    │ [Open file…]                     │
    └──────────────────────────────────┘

The store part is a `ScenarioListModel` behind a `QSortFilterProxyModel`; it reloads when
`StoreService.changed` says scenarios changed, whoever wrote them (this panel, the
History dialog, an import). Delete is the store's soft delete (a 30-day bin): the
status-bar `UndoMessage` and Edit › Undo Delete bring the scenario back, and View ›
Deleted Scenarios… lists the bin.

The demo scenarios stay files under "Files" rather than being imported into the store on
first start: they ship with each release and may change, and a user who wants to keep
an edited copy saves it (Save keeps a demo opened from its file in that file; File › Add
to Store keeps it in the store).

Without a store (another RTO Planner holds it, or it is damaged) the store part is
hidden, a one-line note says why, and the panel is the file list it was before.

Store calls run on the GUI thread: each is a few milliseconds (the store's own write
lane serialises writes), far below where STYLE §5 asks for progress.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import (
    QModelIndex,
    QPoint,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QToolButton,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError, ScenarioError
from rtoplanner.core.paths import scenarios_dir
from rtoplanner.core.scenario import dump_mapping
from rtoplanner.core.store.models import Changes, ScenarioVersion

from .dialogs.confirm import confirm
from .document import ScenarioDocument, StoreOrigin
from .history_dialog import HistoryDialog
from .models.scenario_list_model import (
    COL_COMMENT,
    COL_DELETED,
    COL_NAME,
    COL_SAVED,
    COL_VERSIONS,
    NameRole,
    ScenarioListModel,
)
from .store_service import StoreService

PathRole = Qt.ItemDataRole.UserRole + 1
DemoRole = Qt.ItemDataRole.UserRole + 2
UNDO_MESSAGE_MS = 15000
RESIZE_PRECISION_ROWS = 100


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

    def __init__(self, panel: ScenarioListPanel) -> None:
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


class ScenarioListPanel(QWidget):
    open_requested = Signal(str)
    """A scenario file to open (a recent one)."""
    demo_requested = Signal(str)
    """A shipped demo to open as an untitled copy (Save must never overwrite it)."""
    open_stored_requested = Signal(str, int)
    """(name, version) of a stored scenario to open; version 0 is the latest."""
    compare_requested = Signal(str, int, str, int)
    """Two stored versions to compare: (name A, version A, name B, version B)."""
    new_requested = Signal()
    browse_requested = Signal()

    def __init__(self, store_service: StoreService | None = None) -> None:
        super().__init__()
        self.store_service = store_service
        self.history_dialogs: dict[str, HistoryDialog] = {}
        self.deleted_dialog: DeletedScenariosDialog | None = None
        self._last_deleted: str | None = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.search = QLineEdit()
        self.search.setObjectName("scenario_search")
        self.search.setPlaceholderText("Filter scenarios (name, comment)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        layout.addWidget(self.search)

        # ---- the store
        self.model = ScenarioListModel(self)
        self.proxy = FilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.view = QTreeView()
        self.view.setObjectName("stored_scenarios")
        self.view.setModel(self.proxy)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(COL_NAME, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.activated.connect(self._on_stored_activated)
        # The dock is narrow: the name gets the room; the comment is in the tooltip (and
        # the filter searches it); the header's context menu shows it again.
        self.view.setColumnHidden(COL_DELETED, True)
        self.view.setColumnHidden(COL_COMMENT, True)
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_VERSIONS, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_SAVED, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_COMMENT, QHeaderView.ResizeMode.Interactive)
        # Fit the columns to the first rows, not to a thousand (every row measured asks
        # the model for its data in several roles).
        header.setResizeContentsPrecision(RESIZE_PRECISION_ROWS)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        self.view.selectionModel().selectionChanged.connect(self._update_actions)
        self.model.modelReset.connect(self._update_actions)

        self._make_actions()
        store_box = QWidget()
        sl = QVBoxLayout(store_box)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.setSpacing(2)
        self.store_title = QLabel("<b>In the store</b>")
        sl.addWidget(self.store_title)
        sl.addWidget(self.view, 1)
        row = QHBoxLayout()
        row.setSpacing(2)
        for action in (self.new_action, self.duplicate_action, self.delete_action,
                       self.history_action):  # fmt: skip
            b = QToolButton()
            b.setDefaultAction(action)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            row.addWidget(b)
        row.addStretch(1)
        sl.addLayout(row)
        self.store_box = store_box

        # ---- files: recent and demos
        self.tree = QTreeWidget()
        self.tree.setObjectName("scenario_files")
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.itemActivated.connect(self._on_activated)
        files_box = QWidget()
        fl = QVBoxLayout(files_box)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.setSpacing(2)
        fl.addWidget(self.tree, 1)
        buttons = QHBoxLayout()
        buttons.setSpacing(2)
        self.new_button = QPushButton("New")
        self.new_button.setToolTip("Start a new scenario from a small template (Ctrl+N)")
        self.new_button.clicked.connect(self.new_requested)
        browse = QPushButton("Open File…")
        browse.setToolTip("Open a scenario TOML file (Ctrl+O)")
        browse.clicked.connect(self.browse_requested)
        buttons.addWidget(self.new_button)
        buttons.addWidget(browse)
        buttons.addStretch(1)
        fl.addLayout(buttons)

        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(store_box)
        self.split.addWidget(files_box)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        layout.addWidget(self.split, 1)

        self.note = QLabel()
        self.note.setObjectName("store_note")
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setStyleSheet("color: palette(placeholder-text);")
        layout.addWidget(self.note)

        self.undo_message = UndoMessage()
        """For the window's status bar: "Deleted “X”. [Undo]"."""

        if self.store is not None:
            self.new_button.hide()  # the store row has New
            store_service.changed.connect(self._on_store_changed)
            self.note.hide()
        else:
            store_box.hide()
            why = store_service.error if store_service is not None else None
            text = f"Store unavailable, files only: {why}" if why else "No store: files only"
            self.note.setText(text)
            self.note.setToolTip(text)
            self.note.setWordWrap(False)
            self.note.setMinimumWidth(1)
        self.reload()
        self._update_actions()

    # ------------------------------------------------------------------ actions

    def _make_actions(self) -> None:
        def action(text: str, slot, tip: str, shortcut=None) -> QAction:
            a = QAction(text, self)
            a.setToolTip(tip)
            a.setStatusTip(tip)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
                a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            a.triggered.connect(lambda _c=False: slot())
            return a

        self.new_action = action(
            "New", self.new_requested.emit, "Start a new scenario; Save (Ctrl+S) keeps it here"
        )
        self.open_action = action("Open", self.open_selected, "Open the selected scenario")
        self.duplicate_action = action(
            "Duplicate", self.duplicate, "Save a copy of the selected scenario under a new name"
        )
        self.delete_action = action(
            "Delete",
            self.delete,
            "Move the selected scenario to the bin (Undo brings it back)",
            QKeySequence.StandardKey.Delete,
        )
        self.view.addAction(self.delete_action)
        self.history_action = action(
            "History…", self.show_history, "Versions of the selected scenario, with what changed"
        )
        self.deleted_action = action(
            "Deleted Scenarios…", self.show_deleted, "Scenarios in the bin (kept for 30 days)"
        )
        self.undo_delete_action = action(
            "Undo Delete", self.undo_delete, "Bring back the scenario deleted last"
        )
        self.undo_delete_action.setEnabled(False)

    @Slot()
    def _update_actions(self, *_args) -> None:
        has_store = self.store is not None
        selected = self.selected_name() is not None
        self.new_action.setEnabled(True)
        for a in (self.open_action, self.duplicate_action, self.delete_action,
                  self.history_action):  # fmt: skip
            a.setEnabled(has_store and selected)
        self.deleted_action.setEnabled(has_store)

    @Slot(QPoint)
    def _context_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if index.isValid():
            self.view.setCurrentIndex(index)
        menu = QMenu(self)
        menu.addActions([self.open_action, self.new_action, self.duplicate_action])
        menu.addSeparator()
        menu.addAction(self.history_action)
        compare = menu.addAction("Compare with…")
        compare.setEnabled(self.selected_name() is not None and self.model.rowCount() > 1)
        compare_menu = QMenu(menu)
        for other in self.model.names():
            if other != self.selected_name():
                compare_menu.addAction(
                    other,
                    lambda o=other: self.compare_requested.emit(
                        self.selected_name() or "", 0, o, 0
                    ),
                )
        compare.setMenu(compare_menu)
        menu.addSeparator()
        menu.addActions([self.delete_action, self.deleted_action])
        menu.popup(self.view.viewport().mapToGlobal(pos))

    @Slot(QPoint)
    def _header_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        show = menu.addAction("Show Comment Column")
        show.setCheckable(True)
        show.setChecked(not self.view.isColumnHidden(COL_COMMENT))
        show.toggled.connect(lambda on: self.view.setColumnHidden(COL_COMMENT, not on))
        menu.popup(self.view.header().mapToGlobal(pos))

    # ------------------------------------------------------------------ state

    @property
    def store(self):
        return self.store_service.store if self.store_service is not None else None

    def reload(self) -> None:
        """Read the scenario list from the store again, keeping the selection."""
        store = self.store
        if store is None:
            self.model.set_rows([])
            return
        selected = self.selected_name()
        try:
            rows = store.scenarios()
        except CoreError as exc:
            self.note.setText(f"Cannot read the store: {exc}")
            self.note.show()
            return
        self.model.set_rows(rows)
        self.store_title.setText(
            f"<b>In the store</b> ({len(rows)})" if rows else "<b>In the store</b> (none yet)"
        )
        if selected is not None:
            self.select(selected)

    @Slot(object)
    def _on_store_changed(self, changes: Changes) -> None:
        if changes.scenarios:
            self.reload()

    def populate(self, recent: list[str], current: str | None = None) -> None:
        """The files part: recent files and the demo scenarios (current in italics)."""
        self.tree.clear()
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
            self.tree.addTopLevelItem(top)
            for p in paths:
                text = p.stem.replace("_", " ")
                if demos:
                    tip = f"{p}\nOpens as an untitled copy: Save asks where to keep it."
                else:
                    text = f"{text}  —  {short_folder(p)}"
                    tip = str(p)
                child = QTreeWidgetItem([text])
                child.setToolTip(0, tip)
                child.setData(0, PathRole, str(p))
                child.setData(0, DemoRole, demos)
                if current and str(p) == current:
                    f = QFont(child.font(0))
                    f.setItalic(True)
                    child.setFont(0, f)
                top.addChild(child)
            top.setExpanded(True)
        self._filter(self.search.text())

    def set_current_stored(self, name: str | None) -> None:
        """Mark the stored scenario open in the editor (bold)."""
        self.model.set_current(name)

    def selected_name(self) -> str | None:
        sm = self.view.selectionModel()
        rows = sm.selectedRows() if sm is not None else []
        if not rows:
            return None
        return self.proxy.data(rows[0], NameRole)

    def select(self, name: str) -> bool:
        row = self.model.row_of(name)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            return False
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    def visible_names(self) -> list[str]:
        """The stored scenarios the filter lets through, in view order."""
        return [
            self.proxy.data(self.proxy.index(r, COL_NAME), NameRole)
            for r in range(self.proxy.rowCount())
        ]

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

    @Slot(str)
    def _filter(self, text: str) -> None:
        needle = text.strip()
        self.proxy.setFilterFixedString(needle)
        low = needle.lower()
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                child = top.child(j)
                hay = (child.text(0) + " " + (child.data(0, PathRole) or "")).lower()
                child.setHidden(bool(low) and low not in hay)

    # ------------------------------------------------------------------ commands

    @Slot(QTreeWidgetItem, int)
    def _on_activated(self, item: QTreeWidgetItem, _col: int) -> None:
        path = item.data(0, PathRole)
        if not path:
            return
        if item.data(0, DemoRole):
            self.demo_requested.emit(path)
        else:
            self.open_requested.emit(path)

    @Slot(QModelIndex)
    def _on_stored_activated(self, index: QModelIndex) -> None:
        name = self.proxy.data(index, NameRole)
        if name:
            self.open_stored_requested.emit(name, 0)

    @Slot()
    def open_selected(self) -> None:
        name = self.selected_name()
        if name:
            self.open_stored_requested.emit(name, 0)

    def duplicate(self, name: str | None = None, new_name: str | None = None) -> str | None:
        """Save a copy of a stored scenario (its latest version) under a new name.

        Asks for the name unless given; returns the new name, or None when cancelled.
        """
        store = self.store
        name = name or self.selected_name()
        if store is None or not name:
            return None
        if new_name is None:
            new_name, ok = QInputDialog.getText(
                self,
                "Duplicate Scenario",
                f"A copy of “{name}” named:",
                QLineEdit.EchoMode.Normal,
                self.unique_name(f"{name} (copy)"),
            )
            if not ok:
                return None
        new_name = new_name.strip()
        if not new_name:
            return None
        if new_name.casefold() in {n.casefold() for n in self.all_names()}:
            QMessageBox.warning(
                self,
                "Duplicate Scenario",
                f"The store already has a scenario named “{new_name}” (perhaps in the bin). "
                "Choose another name.",
            )
            return None
        try:
            latest = store.scenario_version(name)
            store.save_scenario(
                renamed_text(latest.text, new_name),
                comment=f"duplicated from “{name}” v{latest.version}",
                source=new_name,
            )
        except (CoreError, tomllib.TOMLDecodeError, TypeError) as exc:
            QMessageBox.critical(self, "Duplicate Scenario", f"Cannot duplicate “{name}”:\n\n{exc}")
            return None
        self.select(new_name)
        return new_name

    def delete(self, name: str | None = None) -> bool:
        """Move a stored scenario to the bin; the undo message offers to bring it back."""
        store = self.store
        name = name or self.selected_name()
        if store is None or not name:
            return False
        try:
            store.delete_scenario(name)
        except CoreError as exc:
            QMessageBox.critical(self, "Delete Scenario", f"Cannot delete “{name}”:\n\n{exc}")
            return False
        self._last_deleted = name
        self.undo_delete_action.setText(f"Undo Delete “{name}”")
        self.undo_delete_action.setEnabled(True)
        self.undo_message.show_message(
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
            QMessageBox.critical(self, "Restore Scenario", f"Cannot bring back “{name}”:\n\n{exc}")
            return False
        if name == self._last_deleted:
            self._last_deleted = None
            self.undo_delete_action.setText("Undo Delete")
            self.undo_delete_action.setEnabled(False)
            self.undo_message.dismiss()
        self.select(name)
        return True

    def show_history(self, name: str | None = None) -> HistoryDialog | None:
        name = name or self.selected_name()
        if self.store_service is None or self.store is None or not name:
            return None
        dialog = self.history_dialogs.get(name)
        if dialog is None:
            dialog = HistoryDialog(self.store_service, name, self)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dialog.open_version_requested.connect(self.open_stored_requested)
            dialog.compare_requested.connect(
                lambda n, v, cur: self.compare_requested.emit(n, v, n, cur)
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
            self.deleted_dialog = DeletedScenariosDialog(self)
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
        if store is None:
            return None
        if doc.errors:
            key, msg = next(iter(doc.errors.items()))
            QMessageBox.warning(
                self,
                title,
                "The store keeps only valid scenarios, and this one has input errors "
                f"({key or 'scenario'}: {msg}).\n\nFix them first, or save it to a file "
                "(File › Save As…).",
            )
            return None
        name = doc.raw.get("name")
        if not isinstance(name, str) or not name.strip():
            QMessageBox.warning(self, title, "The scenario needs a name to be stored.")
            return None
        origin = doc.store_origin
        existing = {s.name: s for s in store.scenarios(include_deleted=True)}
        other = existing.get(name)
        if other is not None and (origin is None or origin.name != name):
            if other.deleted_at is not None:
                QMessageBox.warning(
                    self,
                    title,
                    f"A scenario named “{name}” is in the bin (View › Deleted Scenarios…). "
                    "Restore it first, or give this scenario another name.",
                )
                return None
            if not confirm(
                self,
                title,
                f"The store already has a scenario named “{name}” ({other.versions} "
                f"version{'s' if other.versions != 1 else ''}). Save this as its version "
                f"{other.latest_version + 1}?\n\n(To keep both, give this one another name "
                "first.)",
                QMessageBox.StandardButton.Save,
            ):
                return None
        try:
            text = doc.text()
            version = store.save_scenario(text, comment=comment, source=name)
        except (CoreError, ValueError) as exc:
            if isinstance(exc, ScenarioError | CoreError):
                message = str(exc)
            else:
                message = f"{exc}"
            QMessageBox.critical(self, title, f"Cannot save “{name}” to the store:\n\n{message}")
            return None
        self.select(version.scenario)
        return version
