"""The hardware catalog browser: a sortable, filterable table with sources; user items.

    ┌ Hardware catalog ────────────────────────────────────────────────────────────┐
    │ Kind [all ▾]  Filter [lto      ]      [Add item…] [Edit…] [Remove] [Use in path] │
    │ kind · name · rate · derate · practical · compression · compressed · origin · source │
    │ (the store is not available: read-only)                              [Close] │
    └──────────────────────────────────────────────────────────────────────────────┘

User items are kept in the store (`Store.add_catalog_items`) and win over a shipped item
of the same kind and name, so "editing" a shipped item saves a user copy. After a change
the open document takes the store's new catalog and recomputes, so a stage that names the
item moves at once. Without a store the shipped catalog is shown read-only.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Slot,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.catalog import (
    CATALOG_KINDS,
    STAGE_KINDS,
    Catalog,
    CatalogItem,
    item_from_mapping,
    item_to_mapping,
    parse_price,
    shipped_catalog,
)
from rtoplanner.core.errors import CoreError
from rtoplanner.core.fix.prices import PriceBook, price_book
from rtoplanner.core.store import Store
from rtoplanner.core.wording import stage_kind_words

from ..models.catalog_table_model import (
    COL_KIND,
    COL_NAME,
    COL_SOURCE,
    COLUMN_COUNT,
    CatalogRow,
    CatalogTableModel,
    ItemRole,
    RowRole,
    SortRole,
    rows_from_catalog,
)
from ..shell.placement import fit_size
from ..tables import CELL_PADDING, kind_column_width
from .confirm import confirm

APP_NAME = "RTO Planner"
ALL_KINDS = "All kinds"

# (mapping key, label, placeholder): the form's fields, as item_from_mapping reads them.
FORM_FIELDS = (
    ("rate", "Rate", "e.g. 360 MB/s (one unit, restore direction)"),
    ("derate", "Derate", "e.g. 90% (practical share of the rate)"),
    ("hw_compression", "Drive compression", "tape drives: e.g. 2.5 (data bytes per tape byte)"),
    ("compressed_rate", "Compressed rate", "tape drives: e.g. 750 MB/s (host interface)"),
    ("backup_rate", "Backup rate", "if the backup direction differs"),
    ("ratio", "Ratio", "RMAN compression: data bytes per backup byte, e.g. 3"),
)


class CatalogFilterProxy(QSortFilterProxyModel):
    """Filters by kind and by text in the name or the source; sorts by `SortRole`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.kind: str | None = None
        self.text = ""
        self.setSortRole(SortRole)
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def set_kind(self, kind: str | None) -> None:
        self.beginFilterChange()
        self.kind = kind or None
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_text(self, text: str) -> None:
        self.beginFilterChange()
        self.text = text.strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        model = self.sourceModel()
        row = model.index(source_row, 0, source_parent).data(RowRole)
        if not isinstance(row, CatalogRow):
            return False
        if self.kind and row.item.kind != self.kind:
            return False
        if self.text:
            haystack = f"{row.item.name} {row.item.source} {row.item.notes}".lower()
            return all(word in haystack for word in self.text.split())
        return True


class CatalogItemForm(QDialog):
    """Add or edit one user item; the figures are strings with units, parsed by core."""

    def __init__(self, parent: QWidget, item: CatalogItem | None = None, copy: bool = False):
        super().__init__(parent)
        self.original = item
        self.item: CatalogItem | None = None
        if item is None:
            self.setWindowTitle("Add a catalog item")
        elif copy:
            self.setWindowTitle(f"Edit {item.name} (saved as your own copy)")
        else:
            self.setWindowTitle(f"Edit {item.name}")
        self._base: dict[str, Any] = dict(item_to_mapping(item)) if item is not None else {}
        layout = QVBoxLayout(self)
        if copy:
            note = QLabel(
                "This item ships with RTO Planner. Saving keeps your copy in the store; it "
                "replaces the shipped figures in every plan (remove it to go back)."
            )
            note.setWordWrap(True)
            layout.addWidget(note)
        form = QFormLayout()
        self.kind = QComboBox()
        for kind in CATALOG_KINDS:
            self.kind.addItem(stage_kind_words(kind), kind)
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. LTO-9 (as stages will name it)")
        form.addRow("Kind", self.kind)
        form.addRow("Name", self.name)
        self.fields: dict[str, QLineEdit] = {}
        for key, label, placeholder in FORM_FIELDS:
            line = QLineEdit()
            line.setPlaceholderText(placeholder)
            self.fields[key] = line
            form.addRow(label, line)
        self.source = QLineEdit()
        self.source.setPlaceholderText("where the figures come from: datasheet, test restore…")
        form.addRow("Source", self.source)
        self.notes = QPlainTextEdit()
        self.notes.setFixedHeight(60)
        form.addRow("Notes", self.notes)
        layout.addLayout(form)
        self.error_label = QLabel()
        self.error_label.setObjectName("catalog_form_error")
        self.error_label.setStyleSheet("color: #d23c3c;")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        if item is not None:
            self.kind.setCurrentIndex(max(0, self.kind.findData(item.kind)))
            self.name.setText(item.name)
            for key, line in self.fields.items():
                value = self._base.get(key)
                line.setText("" if value is None else str(value))
            self.source.setText(item.source)
            self.notes.setPlainText(item.notes)
        self.resize(520, self.sizeHint().height())

    def mapping(self) -> dict[str, Any]:
        out = dict(self._base)
        out["kind"] = self.kind.currentData()
        out["name"] = self.name.text().strip()
        out["source"] = self.source.text().strip()
        notes = self.notes.toPlainText().strip()
        if notes:
            out["notes"] = notes
        else:
            out.pop("notes", None)
        for key, line in self.fields.items():
            text = line.text().strip()
            if text:
                out[key] = text
            else:
                out.pop(key, None)
        return out

    def accept(self) -> None:
        try:
            self.item = item_from_mapping(
                self.mapping(), where=self.name.text().strip() or "the item", user=True
            )
        except CoreError as exc:
            self.error_label.setText(str(exc))
            self.error_label.show()
            return
        super().accept()


NAME_WIDEST = 300
"""The widest the Name column grows to show whole names."""


class CatalogBrowser(QDialog):
    """The catalog as a table; add, edit and remove user items; use one in the path."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Hardware catalog")
        self.setObjectName("catalog_browser")
        fit_size(self, 1180, 620)
        service = getattr(window, "store_service", None)
        self.service = service
        self.form: CatalogItemForm | None = None

        self.model = CatalogTableModel(self, binary=bool(getattr(window, "binary", False)))
        self.proxy = CatalogFilterProxy(self)
        self.proxy.setSourceModel(self.model)

        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Kind"))
        self.kind_combo = QComboBox()
        self.kind_combo.addItem(ALL_KINDS, None)
        for kind in CATALOG_KINDS:
            self.kind_combo.addItem(stage_kind_words(kind), kind)
        self.kind_combo.currentIndexChanged.connect(self._on_kind)
        bar.addWidget(self.kind_combo)
        bar.addSpacing(8)
        bar.addWidget(QLabel("Filter"))
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("name, source or notes")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.proxy.set_text)
        self.filter_edit.setMinimumWidth(220)
        bar.addWidget(self.filter_edit)
        bar.addStretch(1)
        self.add_button = QPushButton("Add item…")
        self.add_button.clicked.connect(self.add_item)
        self.edit_button = QPushButton("Edit…")
        self.edit_button.clicked.connect(self.edit_item)
        self.remove_button = QPushButton("Remove user item")
        self.remove_button.clicked.connect(self.remove_item)
        self.use_button = QPushButton("Use in path")
        self.use_button.setToolTip(
            "Make the stage selected in the restore path this item (or add a stage): its "
            "rate, derate and compression then come from the catalog"
        )
        self.use_button.clicked.connect(self.use_in_path)
        self.price_button = QPushButton("Set price…")
        self.price_button.setToolTip(
            "Your price for one unit of this item (kept in the store; What it takes uses it)"
        )
        self.price_button.clicked.connect(self.ask_price)
        for b in (self.add_button, self.edit_button, self.remove_button, self.use_button,
                  self.price_button):  # fmt: skip
            bar.addWidget(b)
        layout.addLayout(bar)

        self.view = QTableView()
        self.view.setObjectName("catalog_table")
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(COL_KIND, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(22)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        widths = (kind_column_width(self.view), 190, 90, 60, 105, 95, 125, 95, 90)
        for col, width in enumerate(widths):
            self.view.setColumnWidth(col, width)
        self.view.doubleClicked.connect(lambda _i: self.edit_item())
        self.view.selectionModel().currentRowChanged.connect(self._update_buttons)
        layout.addWidget(self.view, 1)

        bottom = QHBoxLayout()
        self.note = QLabel()
        self.note.setObjectName("catalog_note")
        self.note.setWordWrap(True)
        bottom.addWidget(self.note, 1)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        bottom.addWidget(close)
        layout.addLayout(bottom)

        if service is not None:
            service.changed.connect(self._on_store_changed)
        self.reload()

    # ------------------------------------------------------------------ state

    @property
    def store(self) -> Store | None:
        return self.service.store if self.service is not None else None

    @property
    def read_only(self) -> bool:
        return self.store is None

    def reload(self) -> None:
        """Read the catalog again (the store's, shipped and user, else the shipped one)."""
        current = self.current_row()
        key = (current.item.kind, current.item.name) if current else None
        store = self.store
        if store is not None:
            try:
                rows = [CatalogRow.from_entry(e) for e in store.catalog_entries()]
            except CoreError as exc:
                rows = rows_from_catalog(shipped_catalog())
                self.note.setText(f"Cannot read the store's catalog ({exc}): shipped items.")
            else:
                users = sum(1 for r in rows if r.is_user)
                self.note.setText(
                    f"{len(rows)} items, {users} of them yours (kept in {store.path.name}). "
                    "Hover a row for its full source and notes."
                )
        else:
            rows = rows_from_catalog(shipped_catalog())
            why = self.service.error if self.service is not None and self.service.error else ""
            self.note.setText(
                "The store is not available"
                + (f" ({why})" if why else "")
                + ": showing the shipped catalog, read-only. Your own items need the store."
            )
        self.model.set_rows(rows)
        self.model.set_prices(self._prices())
        self._fit_names(rows)
        if key is not None:
            self.select(*key)
        self._update_buttons()

    def _fit_names(self, rows: list) -> None:
        """The Name column as wide as the longest name (up to NAME_WIDEST): at 190 px the
        generation that tells two items apart was cut ("Exadata storage server HC (…",
        "Recovery Appliance RA23 (Z…", issue 23.3)."""
        metrics = self.view.fontMetrics()
        widest = max((metrics.horizontalAdvance(r.item.name) for r in rows), default=0)
        width = min(widest + CELL_PADDING, NAME_WIDEST)
        if width > self.view.columnWidth(COL_NAME):
            self.view.setColumnWidth(COL_NAME, width)

    def _prices(self) -> PriceBook:
        store = self.store
        if store is not None:
            try:
                return price_book(store)
            except CoreError:
                pass
        return price_book(None)

    def set_price(self, kind: str, name: str, amount: float | None) -> bool:
        """Keep the user's price of one unit in the store (None forgets it)."""
        store = self.store
        if store is None:
            return False
        try:
            store.set_price(kind, name, amount)
        except CoreError as exc:
            QMessageBox.warning(self, "Price", str(exc))
            return False
        self.model.set_prices(self._prices())
        return True

    @Slot()
    def ask_price(self) -> None:
        row = self.current_row()
        if row is None:
            return
        currency = self.model.prices.currency
        current = self.model.prices.money(row.item.kind, row.item.name)
        # a quote in another currency is not offered as an amount in this one
        same = current is not None and current.currency == currency
        text, ok = QInputDialog.getText(
            self,
            "Price of one unit",
            f"{row.item.name}, in {currency}; empty forgets yours:",
            text=f"{current.amount:.0f}" if same and current else "",
        )
        if not ok:
            return
        try:
            amount = parse_price(text) if text.strip() else None
        except CoreError as exc:
            QMessageBox.warning(self, "Price", str(exc))
            return
        self.set_price(row.item.kind, row.item.name, amount)

    def current_row(self) -> CatalogRow | None:
        idx = self.view.currentIndex()
        row = idx.data(RowRole) if idx.isValid() else None
        return row if isinstance(row, CatalogRow) else None

    def select(self, kind: str, name: str) -> bool:
        src = self.model.find(kind, name)
        if src < 0:
            return False
        idx = self.proxy.mapFromSource(self.model.index(src, COL_NAME))
        if not idx.isValid():
            return False
        self.view.setCurrentIndex(idx)
        self.view.selectRow(idx.row())
        self.view.scrollTo(idx)
        return True

    @Slot(int)
    def _on_kind(self, _index: int) -> None:
        self.proxy.set_kind(self.kind_combo.currentData())

    @Slot(object)
    def _on_store_changed(self, changes: object) -> None:
        if getattr(changes, "catalog", False):
            self.reload()

    def _update_buttons(self, *_args: Any) -> None:
        row = self.current_row()
        writable = not self.read_only
        self.add_button.setEnabled(writable)
        self.edit_button.setEnabled(writable and row is not None)
        self.edit_button.setText("Edit…" if row is None or row.is_user else "Edit a copy…")
        self.remove_button.setEnabled(writable and row is not None and row.is_user)
        self.use_button.setEnabled(row is not None and row.item.kind in STAGE_KINDS)
        self.price_button.setEnabled(writable and row is not None)
        tip = "" if writable else "Needs the store (not available)"
        for b in (self.add_button, self.edit_button, self.remove_button):
            b.setToolTip(tip)

    # ------------------------------------------------------------------ commands

    @Slot()
    def add_item(self) -> CatalogItemForm | None:
        if self.read_only:
            return None
        kind = self.kind_combo.currentData()
        form = CatalogItemForm(self)
        if kind:
            form.kind.setCurrentIndex(form.kind.findData(kind))
        return self._open_form(form, None)

    @Slot()
    def edit_item(self) -> CatalogItemForm | None:
        row = self.current_row()
        if self.read_only or row is None:
            return None
        form = CatalogItemForm(self, row.item, copy=not row.is_user)
        return self._open_form(form, row)

    def _open_form(self, form: CatalogItemForm, replacing: CatalogRow | None) -> CatalogItemForm:
        self.form = form
        form.accepted.connect(lambda: self._on_form_saved(form, replacing))
        form.finished.connect(form.deleteLater)
        form.open()  # window-modal, not a nested event loop
        return form

    def _on_form_saved(self, form: CatalogItemForm, replacing: CatalogRow | None) -> None:
        if form.item is not None:
            self.save_item(form.item, replacing)
        if self.form is form:
            self.form = None

    def save_item(self, item: CatalogItem, replacing: CatalogRow | None = None) -> bool:
        """Keep a user item in the store (replacing the row edited, if renamed)."""
        store = self.store
        if store is None:
            return False
        try:
            store.add_catalog_items([item])
            if replacing is not None and replacing.is_user:
                old = replacing.item
                renamed = Catalog([item]).find(old.kind, old.name) is None
                if renamed:
                    store.remove_catalog_item(old.kind, old.name)
        except CoreError as exc:
            QMessageBox.critical(self, APP_NAME, f"Cannot save the catalog item:\n\n{exc}")
            return False
        self.reload()
        self.select(item.kind, item.name)
        self.refresh_document()
        return True

    @Slot()
    def remove_item(self) -> bool:
        row = self.current_row()
        store = self.store
        if store is None or row is None or not row.is_user:
            return False
        after = (
            "The shipped item of that name applies again."
            if row.overrides_shipped
            else "Stages that name it will need a rate of their own."
        )
        question = f"Remove your catalog item “{row.item.name}” ({row.item.kind})? {after}"
        if not confirm(self, APP_NAME, question):
            return False
        try:
            store.remove_catalog_item(row.item.kind, row.item.name)
        except CoreError as exc:
            QMessageBox.critical(self, APP_NAME, f"Cannot remove the item:\n\n{exc}")
            return False
        self.reload()
        self.refresh_document()
        return True

    def refresh_document(self) -> None:
        """The open scenario takes the store's catalog now, so a stage naming the item moves."""
        if self.service is None:
            return
        catalog = self.service.catalog()
        window = self.window_
        window.doc.catalog = catalog
        stages = getattr(window, "stages", None)
        if stages is not None:
            stages.catalog = catalog
        window.doc.recompute_now()

    @Slot()
    def use_in_path(self) -> bool:
        row = self.current_row()
        if row is None or row.item.kind not in STAGE_KINDS:
            return False
        window = self.window_
        stage_row = window.stages.current_row()
        if stage_row >= 0:
            window.doc.apply_catalog_item(stage_row, row.item)
        else:
            window.stages.use_catalog_item(row.item)
        window.statusBar().showMessage(f"{row.item.name} from the catalog is in the path", 4000)
        return True

    def item_at(self, proxy_row: int) -> CatalogItem | None:
        item = self.proxy.index(proxy_row, COL_SOURCE).data(ItemRole)
        return item if isinstance(item, CatalogItem) else None


__all__ = ["COLUMN_COUNT", "CatalogBrowser", "CatalogFilterProxy", "CatalogItemForm"]
