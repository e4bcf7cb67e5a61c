"""The Scenarios dock's widget: the filter, the store's list, the files, the note.

The store part is a `ScenarioListModel` behind a `FilterProxy`; it reloads when
`StoreService.changed` says scenarios changed, whoever wrote them (this panel, the
History dialog, an import). What the buttons, menus and shortcuts do is
`ScenarioActions` (`actions.py`); the panel offers those actions and commands as its own
(`panel.delete(…)`, `panel.delete_action`).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QToolButton,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.store.models import Changes

from ..models.scenario_list_model import (
    COL_COMMENT,
    COL_DELETED,
    COL_NAME,
    COL_SAVED,
    COL_VERSIONS,
    NameRole,
    ScenarioListModel,
)
from ..store_service import StoreService
from .actions import PUBLIC, ScenarioActions
from .dialogs import UndoMessage
from .model import DemoRole, FilterProxy, PathRole, fill_files, filter_files

RESIZE_PRECISION_ROWS = 100
DOCK_WIDTH_STORE = 300  # names, versions, dates
DOCK_WIDTH_FILES = 190
DOCK_WIDTH_MAX = 560


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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.search = QLineEdit()
        self.search.setObjectName("scenario_search")
        self.search.setPlaceholderText("Filter scenarios (name, comment)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        layout.addWidget(self.search)
        self.model = ScenarioListModel(self)
        self.proxy = FilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.view = self._make_view()
        self.commands = ScenarioActions(self)
        for name in PUBLIC:
            setattr(self, name, getattr(self.commands, name))
        self.view.addAction(self.delete_action)
        self.view.customContextMenuRequested.connect(self.commands.context_menu)
        self.view.header().customContextMenuRequested.connect(self.commands.header_menu)
        self.view.selectionModel().selectionChanged.connect(self.commands.update_actions)
        self.model.modelReset.connect(self.commands.update_actions)
        self.store_box = self._make_store_box()
        files_box = self._make_files_box()
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.store_box)
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
        self._show_store_state()
        self.reload()
        self.commands.update_actions()

    # ------------------------------------------------------------------ building

    def _make_view(self) -> QTreeView:
        view = QTreeView()
        view.setObjectName("stored_scenarios")
        view.setModel(self.proxy)
        view.setRootIsDecorated(False)
        view.setUniformRowHeights(True)
        view.setAlternatingRowColors(True)
        view.setSortingEnabled(True)
        view.sortByColumn(COL_NAME, Qt.SortOrder.AscendingOrder)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.activated.connect(self._on_stored_activated)
        # The dock is narrow: the name gets the room; the comment is in the tooltip (and
        # the filter searches it); the header's context menu shows it again.
        view.setColumnHidden(COL_DELETED, True)
        view.setColumnHidden(COL_COMMENT, True)
        header = view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_VERSIONS, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_SAVED, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_COMMENT, QHeaderView.ResizeMode.Interactive)
        # Fit the columns to the first rows, not to a thousand (every row measured asks
        # the model for its data in several roles).
        header.setResizeContentsPrecision(RESIZE_PRECISION_ROWS)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        return view

    def _make_store_box(self) -> QWidget:
        box = QWidget()
        sl = QVBoxLayout(box)
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
        return box

    def _make_files_box(self) -> QWidget:
        self.tree = QTreeWidget()
        self.tree.setObjectName("scenario_files")
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.itemActivated.connect(self._on_activated)
        box = QWidget()
        fl = QVBoxLayout(box)
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
        return box

    def _show_store_state(self) -> None:
        """With a store: its list (and New there); without: the files and why."""
        if self.store is not None:
            self.new_button.hide()  # the store row has New
            self.store_service.changed.connect(self._on_store_changed)
            self.note.hide()
            return
        self.store_box.hide()
        why = self.store_service.error if self.store_service is not None else None
        text = f"Store unavailable, files only: {why}" if why else "No store: files only"
        self.note.setText(text)
        self.note.setToolTip(text)
        self.note.setWordWrap(False)
        self.note.setMinimumWidth(1)

    # ------------------------------------------------------------------ state

    @property
    def store(self):
        return self.store_service.store if self.store_service is not None else None

    @property
    def dock_base_width(self) -> int:
        """The dock's width without regard to its names (a narrow window keeps this)."""
        return DOCK_WIDTH_STORE if self.store is not None else DOCK_WIDTH_FILES

    @property
    def dock_width(self) -> int:
        """The dock's width at start: room for versions and dates when there is a store,
        widened for the longest name (up to DOCK_WIDTH_MAX; issue 23.9: names were cut
        even on a 1920 px screen)."""
        base = DOCK_WIDTH_STORE if self.store is not None else DOCK_WIDTH_FILES
        items = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        items += [it.child(j) for it in items for j in range(it.childCount())]
        names = self.model.names() + [it.text(0) for it in items]
        fm = self.fontMetrics()
        longest = max((fm.horizontalAdvance(n) for n in names), default=0)
        extra = base - DOCK_WIDTH_FILES  # the versions and dates columns
        return min(max(base, longest + extra + 80), DOCK_WIDTH_MAX)  # indent, margins

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
        fill_files(self.tree, recent, current)
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

    @Slot(str)
    def _filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())
        filter_files(self.tree, text)

    # ------------------------------------------------------------------ opening

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
