"""The path editor: the stage table with add, remove, reorder and pick-from-catalog.

Edits commit while the user types (the delegate's editors emit `commitData` on every
change) so the timeline moves with each keystroke, like the form fields do.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.catalog import Catalog, CatalogItem
from rtoplanner.core.scenario import STAGE_KINDS
from rtoplanner.core.units import format_rate
from rtoplanner.core.wording import stage_kind_words

from ..document import ScenarioDocument
from ..models.stage_table_model import (
    COL_BACKUP_RATE,
    COL_BINDS_CHANNEL,
    COL_CAPACITY,
    COL_CARRIES,
    COL_COUNT,
    COL_EFFICIENCY,
    COL_HW_COMPRESSION,
    COL_KIND,
    COL_MAX_RATE,
    COL_NAME,
    COL_RATE,
    COL_RESTORE_RATE,
    COL_WRITE_FACTOR,
    COLUMN_KEYS,
    SPECS,
    StageTableModel,
)
from ..tables import CELL_PADDING, catalog_rate_width, kind_column_width
from .fields import EXAMPLES, error_words, key_words, not_set_text
from .section_form import ERROR_STYLE

_COMBO_COLUMNS = {COL_KIND, COL_CARRIES, COL_BINDS_CHANNEL}
NAME_WIDTH = (190, 280)
"""The Name column's width, and how far it grows to show a stage's whole name (the
catalog's read "Recovery Appliance RA23 …")."""


class StageDelegate(QStyledItemDelegate):
    """Combo boxes for choices, a spin box for the count, line edits for quantities.

    A number or a quantity commits on every keystroke: `typing` is told first, so the
    verdict of "1" on the way to "12" is not shown as the answer (issue 23.10)."""

    def __init__(self, parent: QWidget, typing: Any = None) -> None:
        super().__init__(parent)
        self.typing = typing

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        col = index.column()
        spec = SPECS.get(COLUMN_KEYS.get(col, ""))
        if col in _COMBO_COLUMNS and spec is not None:
            combo = QComboBox(parent)
            if not spec.required:
                combo.addItem(not_set_text(spec), None)
            if spec.kind == "bool":
                combo.addItem("yes", True)
                combo.addItem("no", False)
            else:
                for choice in spec.choices:
                    combo.addItem(stage_kind_words(choice) if col == COL_KIND else choice, choice)
            combo.activated.connect(lambda _i, w=combo: self._commit(w))
            return combo
        if col == COL_COUNT:
            spin = QSpinBox(parent)
            spin.setRange(1, 100000)
            spin.valueChanged.connect(lambda _v, w=spin: self._commit(w))
            return spin
        line = QLineEdit(parent)
        if spec is not None:
            line.setPlaceholderText(EXAMPLES.get(spec.kind, ""))
        line.textEdited.connect(lambda _t, w=line: self._commit(w))
        return line

    def _commit(self, editor: QWidget) -> None:
        if self.typing is not None and isinstance(editor, (QLineEdit, QSpinBox)):
            self.typing(True)
        self.commitData.emit(editor)

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QComboBox):
            idx = editor.findData(value)
            if idx < 0 and value is not None:
                editor.addItem(str(value), value)
                idx = editor.count() - 1
            if editor.currentIndex() != max(idx, 0):
                editor.setCurrentIndex(max(idx, 0))
        elif isinstance(editor, QSpinBox):
            try:
                number = int(value) if value is not None else 1
            except (TypeError, ValueError):
                number = 1
            if editor.value() != number:
                editor.blockSignals(True)
                editor.setValue(number)
                editor.blockSignals(False)
        elif isinstance(editor, QLineEdit):
            text = "" if value is None else str(value)
            if editor.text().strip() != text.strip():
                editor.setText(text)

    def setModelData(
        self, editor: QWidget, model: Any, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData())
        elif isinstance(editor, QSpinBox):
            model.setData(index, editor.value())
        elif isinstance(editor, QLineEdit):
            model.setData(index, editor.text())


class StageView(QTableView):
    """The stage table: a click on its empty space clears the selection, so the next
    "Add stage" or catalog pick does not act on a row selected long ago."""

    def mousePressEvent(self, event: Any) -> None:
        if not self.indexAt(event.position().toPoint()).isValid():
            self.clearSelection()
            self.setCurrentIndex(QModelIndex())
            return
        super().mousePressEvent(event)


_RESTORE_RANK = {
    "tape_drive": 0, "disk": 0, "nas_head": 0, "measured": 0, "backup_appliance": 0,
    "object_storage": 0,
    "media_server": 1, "network": 2, "channel": 3, "cpu": 3, "storage_write": 4,
}  # fmt: skip
"""Where a kind of stage sits in the restore order: media first, datafiles last."""


def restore_order_index(path: list, kind: str) -> int:
    """Where a new stage of `kind` goes when none is selected: before the first stage
    that comes later in the restore order (a network link never lands after the
    datafiles)."""
    rank = _RESTORE_RANK.get(kind, 2)
    for i, stage in enumerate(path):
        other = stage.get("kind") if isinstance(stage, dict) else None
        if _RESTORE_RANK.get(other, 2) > rank:
            return i
    return len(path)


class StageTablePanel(QWidget):
    """Toolbar, table and the errors of the path (the table cells show them too)."""

    selection_changed = Signal(int)

    def __init__(self, doc: ScenarioDocument, catalog: Catalog, binary: bool = False) -> None:
        super().__init__()
        self.doc = doc
        self.catalog = catalog
        self.model = StageTableModel(doc, binary)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        title = QLabel("<b>Restore path</b> — media first, datafiles last")
        title.setToolTip(
            "Backups flow through the same stages in the other direction. Double-click a "
            "cell to edit; greyed values are what the scenario uses when you leave a cell "
            "empty (catalog figures and defaults)."
        )
        bar.addWidget(title)
        bar.addStretch(1)

        self.add_action = QAction("Add stage", self)
        self.add_action.setShortcut(QKeySequence("Ctrl+Shift+A"))
        self.add_action.setToolTip("Add a stage after the selected one (Ctrl+Shift+A)")
        self.add_action.triggered.connect(self.add_stage)
        self.remove_action = QAction("Remove", self)
        self.remove_action.setShortcut(QKeySequence("Ctrl+Shift+Del"))
        self.remove_action.setToolTip("Remove the selected stage (Ctrl+Shift+Del)")
        self.remove_action.triggered.connect(self.remove_stage)
        self.up_action = QAction("Move up", self)
        self.up_action.setShortcut(QKeySequence("Alt+Up"))
        self.up_action.setToolTip("Move the stage towards the media (Alt+Up)")
        self.up_action.triggered.connect(lambda: self.move_stage(-1))
        self.down_action = QAction("Move down", self)
        self.down_action.setShortcut(QKeySequence("Alt+Down"))
        self.down_action.setToolTip("Move the stage towards the datafiles (Alt+Down)")
        self.down_action.triggered.connect(lambda: self.move_stage(+1))
        for action in (self.add_action, self.remove_action, self.up_action, self.down_action):
            # Window-wide, as the Edit menu shows them: Alt+Up works wherever the focus is.
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self.addAction(action)
            button = QToolButton()
            button.setDefaultAction(action)
            bar.addWidget(button)

        self.catalog_button = QToolButton()
        self.catalog_button.setText("From catalog   ")  # room for the menu arrow, not over "g"
        self.catalog_button.setToolTip(
            "Make the selected stage a catalog item: its rate, derate and compression then "
            "come from the catalog (with their source)."
        )
        self.catalog_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.catalog_menu = QMenu(self)
        self.catalog_menu.aboutToShow.connect(self._fill_catalog_menu)
        self.catalog_button.setMenu(self.catalog_menu)
        bar.addWidget(self.catalog_button)
        layout.addLayout(bar)

        self.view = StageView()
        self.view.setObjectName("stage_table")
        self.view.setModel(self.model)
        delegate = StageDelegate(self.view, doc.set_typing)
        # Leaving a cell ends the typing (and the undo step), as leaving a form field does.
        delegate.closeEditor.connect(lambda *_a: doc.close_edit())
        self.view.setItemDelegate(delegate)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setDefaultSectionSize(24)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        widths = {COL_KIND: 95, COL_NAME: 190, COL_COUNT: 50, COL_RATE: 120,
                  COL_CAPACITY: 175, COL_EFFICIENCY: 70, COL_CARRIES: 62,
                  COL_BINDS_CHANNEL: 95, COL_HW_COMPRESSION: 125, COL_MAX_RATE: 85,
                  COL_BACKUP_RATE: 88, COL_RESTORE_RATE: 88,
                  COL_WRITE_FACTOR: 85}  # fmt: skip
        widths[COL_KIND] = kind_column_width(self.view)
        widths[COL_NAME] = NAME_WIDTH[0]
        widths[COL_RATE] = max(widths[COL_RATE], catalog_rate_width(self.view))
        widths[COL_MAX_RATE] = max(widths[COL_MAX_RATE], catalog_rate_width(self.view))
        for col, width in widths.items():
            self.view.setColumnWidth(col, width)
        self.view.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.model.modelReset.connect(self._fit_names)
        self.model.dataChanged.connect(self._fit_names)
        self._fit_names()
        layout.addWidget(self.view, 1)

        # The compression CPU ceiling is a stage of the plan, not of the file: a line
        # under the table, with the bottleneck marker when it is the one.
        self.cpu_label = QLabel()
        self.cpu_label.setObjectName("path_cpu")
        self.cpu_label.setWordWrap(True)
        self.cpu_label.hide()
        layout.addWidget(self.cpu_label)
        self.model.modelReset.connect(self._show_cpu_stage)
        self.model.dataChanged.connect(self._show_cpu_stage)

        self.error_label = QLabel()
        self.error_label.setObjectName("error:path")
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        layout.addWidget(self.error_label)
        doc.errors_changed.connect(self._on_errors)
        self.model.modelReset.connect(self._update_actions)
        self._update_actions()

    # ------------------------------------------------------------------ actions

    def current_row(self) -> int:
        idx = self.view.currentIndex()
        return idx.row() if idx.isValid() else -1

    def select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.view.setCurrentIndex(self.model.index(row, COL_KIND))
            self.view.selectRow(row)

    @Slot()
    def add_stage(self, stage: dict[str, Any] | None = None) -> int:
        row = self.current_row()
        index = self.doc.add_stage(None if row < 0 else row + 1, stage or None)
        self.select_row(index)
        if not stage:  # the new stage has no rate yet: ask for it where it is typed
            self.view.edit(self.model.index(index, COL_RATE))
        return index

    @Slot()
    def remove_stage(self) -> None:
        row = self.current_row()
        if row >= 0:
            self.doc.remove_stage(row)
            self.select_row(min(row, self.model.rowCount() - 1))

    def move_stage(self, delta: int) -> None:
        row = self.current_row()
        if row >= 0:
            self.select_row(self.doc.move_stage(row, delta))

    def _fill_catalog_menu(self) -> None:
        """Catalog items by kind; the selected stage's kind first."""
        self.catalog_menu.clear()
        row = self.current_row()
        current_kind = None
        if row >= 0:
            current_kind = self.model.index(row, COL_KIND).data(Qt.ItemDataRole.EditRole) or None
        kinds = [k for k in STAGE_KINDS if self.catalog.by_kind(k)]
        if current_kind in kinds:
            kinds.remove(current_kind)
            kinds.insert(0, current_kind)
        # Adding and replacing are two sections, each saying what it does: picking an item
        # never replaces a stage just because a row happened to be selected (issue 23.9).
        self._catalog_section("Add a stage…", kinds, lambda it: self.use_catalog_item(it, -1))
        if row >= 0:
            self.catalog_menu.addSeparator()
            name = self.model.index(row, COL_NAME).data() or stage_kind_words(current_kind or "")
            self._catalog_section(
                f"Replace stage {row + 1} ({name}) with…", kinds,
                lambda it, r=row: self.use_catalog_item(it, r),
            )  # fmt: skip

    def _catalog_section(self, title: str, kinds: list[str], use: Any) -> None:
        header = self.catalog_menu.addAction(title)
        header.setEnabled(False)
        for kind in kinds:
            sub = self.catalog_menu.addMenu(stage_kind_words(kind))
            for item in sorted(self.catalog.by_kind(kind), key=lambda i: i.name):
                rate = (
                    f" — {format_rate(item.rate_Bps, binary=self.model.binary)}"
                    if item.rate_Bps
                    else ""
                )
                action = sub.addAction(item.name + rate)
                action.setToolTip(item.source)
                action.triggered.connect(lambda _c=False, it=item: use(it))
            sub.setToolTipsVisible(True)

    def use_catalog_item(self, item: CatalogItem, row: int | None = None) -> None:
        """Replace stage `row` by the item, or add it where its kind goes (`row` -1; None:
        the selected row, else add)."""
        row = self.current_row() if row is None else row
        if row < 0:
            at = restore_order_index(self.doc.raw.get("path") or [], item.kind)
            row = self.doc.add_stage(at, {"kind": item.kind, "name": item.name})
            self.select_row(row)
            return
        self.doc.apply_catalog_item(row, item)

    # ------------------------------------------------------------------ feedback

    @Slot()
    def _fit_names(self, *_args: object) -> None:
        """Widen the Name column to the longest name (up to NAME_WIDTH[1]); never narrow
        it under the user's hand."""
        metrics = self.view.fontMetrics()
        names = [str(r.get("name") or "") for r in self.model.rows]
        need = max((metrics.horizontalAdvance(n) for n in names), default=0) + CELL_PADDING
        width = min(need, NAME_WIDTH[1])
        if width > self.view.columnWidth(COL_NAME):
            self.view.setColumnWidth(COL_NAME, width)

    @Slot(dict)
    def _on_errors(self, errors: dict[str, str]) -> None:
        lines = []
        for key, message in errors.items():
            if key.startswith("path"):
                lines.append(f"{key_words(key)}: {error_words(message)}")
        self.error_label.setText("\n".join(lines))
        self.error_label.setVisible(bool(lines))

    @Slot()
    def _show_cpu_stage(self, *_args: object) -> None:
        found = self.model.cpu_stage()
        if found is None:
            self.cpu_label.hide()
            return
        st, through, bottleneck = found
        path = self.model.current_path()
        active = path.active_channels if path is not None else st.count
        fmt = lambda v: format_rate(v, binary=self.model.binary)  # noqa: E731
        text = (
            f"{st.label} (from CPU cores for RMAN): min({active} channels, {st.count} cores) "
            f"× {fmt(st.unit_Bps)} = {fmt(through)} of data"
        )
        if bottleneck:
            text = f"<b>{text}  ◀ bottleneck</b>"
        self.cpu_label.setText(text)
        self.cpu_label.show()

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._update_actions()
        self.selection_changed.emit(current.row() if current.isValid() else -1)

    def _update_actions(self) -> None:
        row = self.current_row()
        n = self.model.rowCount()
        self.remove_action.setEnabled(row >= 0 and n > 1)
        self.up_action.setEnabled(row > 0)
        self.down_action.setEnabled(0 <= row < n - 1)
