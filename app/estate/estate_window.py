"""The Estate window (DESIGN §9, §12): every database after a site loss on shared hardware.

    ┌ Estate: Site loss – Frankfurt … ───────────────────────────────────┐
    │ [Open Estate…] [Save As…] [Export PDF…] [Open Plan] [Undo] (…)     │
    │ 6 of 8 meet, 1 at risk, 1 miss — deciding resource: Media servers  │
    │ Tier Database   Opens  RTO  Margin Verdict Alone Waited for         │
    │  1   Billing    3 h 31 …                      ← drag / edit tier,RTO│
    │ [When each database opens | Runbook order (free) | Least hardware] │
    │ Priority 1: a runbook order is enough, nothing to buy …            │
    └─────────────────────────────────────────────────────────────────────┘

Everything shown is computed by `core.estate` (`answer_estate`) in a worker. Every edit
(a tier, an RTO, a drag, Apply of the runbook or of the least hardware) is one undoable
step (`estate_edits.py`). With no estate open the window offers to open one, or the demo
estate (`estate_start.py`). Double-clicking a database (or Open Plan) asks the main window
to open that database's own scenario.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QModelIndex, QSettings, Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.catalog import Catalog
from rtoplanner.core.errors import CoreError
from rtoplanner.core.estate import (
    Estate,
    EstateResult,
    LeastHardware,
    answer_estate,
    dump_estate,
    load_estate,
)
from rtoplanner.core.estate.model import ScenarioResolver, read_text_file
from rtoplanner.core.fix.prices import PriceBook
from rtoplanner.core.outfile import check_output_path, write_output_text
from rtoplanner.core.paths import estates_dir
from rtoplanner.core.report.estate import recovery_order, write_estate_report
from rtoplanner.core.toml_edit import merge_edits

from ..shell.placement import fit_size
from ..workers import TaskRunner
from .estate_edits import EstateEdits
from .estate_gantt import EstateGantt
from .estate_start import DEMO_ESTATE, EstateStartPage
from .estate_table_model import COL_NAME, COL_TIER, COL_WAITED, EstateTableModel
from .estate_words import cautions, headline, least_line, phase_legend
from .least_panel import LeastPanel
from .runbook_panel import RunbookPanel

FILE_FILTER = "Estate files (*.toml);;All files (*)"
LAST_FOLDER_KEY = "estate/last_folder"
"""QSettings: the folder of the last estate opened (where Open Estate… starts)."""


class EstateWindow(QMainWindow):
    """A self-contained window over one estate file."""

    open_plan_requested = Signal(str)
    """A database's scenario to open in the main window: a file path or 'store: NAME'."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        catalog: Catalog | None = None,
        resolve: ScenarioResolver | None = None,
        prices: Callable[[], PriceBook] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.catalog = catalog
        self.resolve = resolve
        self.prices = prices
        """Your prices and the catalog's (the store's), asked for at each computation."""
        self.estate: Estate | None = None
        self.path: Path | None = None
        self._on_disk: Estate | None = None  # the estate as opened (see estate_text)
        self._stored: tuple[str, Path | None] | None = None  # (text, folder) of a stored one
        self.result: EstateResult | None = None
        self.least: LeastHardware | None = None
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._on_done)
        self.runner.failed.connect(self._on_failed)
        self.runner.busy_changed.connect(self._on_busy)
        self.runner.progress.connect(self._on_progress)
        self.pdf_runner = TaskRunner(self)
        self.pdf_runner.done.connect(self._on_pdf_done)
        self.pdf_runner.failed.connect(self._on_failed)
        self.undo_stack = QUndoStack(self)
        self.edits = EstateEdits(self, self.undo_stack)
        self._build()
        self.setWindowTitle("Estate")
        fit_size(self, 1100, 760)

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.addLayout(self._buttons())
        self.pages = QStackedWidget()
        self.start = EstateStartPage()
        self.start.open_requested.connect(self.open_dialog)
        self.start.demo_requested.connect(self.open_demo)
        self.pages.addWidget(self.start)
        self.pages.addWidget(self._content())
        layout.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        self._enable()

    def _buttons(self) -> QHBoxLayout:
        buttons = self.button_row = QHBoxLayout()
        self.open_button = QPushButton("Open Estate…")
        self.needs_estate: list[QPushButton] = []
        """Buttons added by others (Keep Version…) that act on the estate shown."""
        self.save_button = QPushButton("Save As…")
        self.pdf_button = QPushButton("Export PDF…")
        self.plan_button = QPushButton("Open Plan")
        self.plan_button.setToolTip("Open the selected database's own scenario in the main window")
        for b, slot in ((self.open_button, self.open_dialog), (self.save_button, self.save_as),
                        (self.pdf_button, self.export_pdf_dialog),
                        (self.plan_button, self.open_selected_plan)):  # fmt: skip
            b.clicked.connect(slot)
            buttons.addWidget(b)
        self.undo_button = QPushButton("Undo")
        self.undo_button.setToolTip("Take back the last change: a tier, an RTO, an Apply (Ctrl+Z)")
        self.undo_button.clicked.connect(self.undo_stack.undo)
        self.undo_button.setEnabled(False)
        self.undo_stack.canUndoChanged.connect(self.undo_button.setEnabled)
        self.undo_stack.undoTextChanged.connect(
            lambda text: self.undo_button.setToolTip(f"Undo: {text} (Ctrl+Z)" if text else "Undo")
        )
        buttons.addWidget(self.undo_button)
        for action, key in (
            (self.undo_stack.createUndoAction(self), QKeySequence.StandardKey.Undo),
            (self.undo_stack.createRedoAction(self), QKeySequence.StandardKey.Redo),
        ):
            action.setShortcut(key)
            self.addAction(action)  # fmt: skip
        buttons.addStretch(1)
        self.busy_label = QLabel("")
        buttons.addWidget(self.busy_label)
        return buttons

    def _content(self) -> QWidget:
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        self.headline = QLabel("")
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        self.headline.setWordWrap(True)
        layout.addWidget(self.headline)
        self._table()
        self.gantt = EstateGantt()
        self.table.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self.gantt.show_row(current.row())
        )
        self.legend = QLabel(phase_legend(held=False))
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setWordWrap(True)
        self.least_label = QLabel("")
        self.least_label.setWordWrap(True)
        self.least_label.setTextFormat(Qt.TextFormat.RichText)
        self.least_panel = LeastPanel()
        self.least_panel.apply_requested.connect(self.edits.apply_least)
        self.runbook_panel = RunbookPanel()
        self.runbook_panel.apply_requested.connect(self.edits.apply_runbook)
        gantt_page = QWidget()
        gantt_layout = QVBoxLayout(gantt_page)
        gantt_layout.setContentsMargins(0, 0, 0, 0)
        gantt_layout.addWidget(self.gantt, 1)
        gantt_layout.addWidget(self.legend)
        self.tabs = QTabWidget()
        self.tabs.addTab(gantt_page, "When each database opens")
        self.tabs.addTab(self.runbook_panel, "Runbook order (free)")
        self.tabs.addTab(self.least_panel, "Least hardware for priority 1")
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.tabs, 1)
        lower_layout.addWidget(self.least_label)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(lower)
        splitter.setSizes([300, 420])
        layout.addWidget(splitter, 1)
        return content

    def _table(self) -> None:
        self.model = EstateTableModel(self)
        self.model.priority_edited.connect(self.edits.set_priority)
        self.model.rto_edited.connect(self.edits.set_rto)
        self.model.edit_refused.connect(lambda msg: self.statusBar().showMessage(msg, 6000))
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.table.setDragEnabled(True)
        self.table.setAcceptDrops(True)
        self.table.setDropIndicatorShown(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_WAITED, QHeaderView.ResizeMode.Stretch)
        # The tier's editor is a spin box: its column is as wide as the editor
        header.setSectionResizeMode(COL_TIER, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(COL_TIER, tier_column_width(self.table))
        self.table.doubleClicked.connect(self._on_double_click)

    def _enable(self) -> None:
        has = self.estate is not None
        for b in (self.save_button, self.pdf_button, self.plan_button, *self.needs_estate):
            b.setEnabled(has)
        self.pages.setCurrentIndex(1 if has else 0)

    # ------------------------------------------------------------------ opening

    def start_folder(self) -> Path:
        """Where Open Estate… starts: the estate's folder, the last one opened, else the
        demo estates."""
        if self.path is not None:
            return self.path.resolve().parent
        last = QSettings().value(LAST_FOLDER_KEY, "", str)
        if last and Path(last).is_dir():
            return Path(last)
        return estates_dir()

    @Slot()
    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open estate", str(self.start_folder()),
                                              FILE_FILTER)  # fmt: skip
        if path:
            self.open_estate(path)

    @Slot()
    def open_demo(self) -> bool:
        return self.open_estate(estates_dir() / DEMO_ESTATE)

    def open_estate(self, path: str | Path) -> bool:
        """Load an estate file and compute it in the background; errors are shown."""
        try:
            self.load_file(path)
        except CoreError as exc:
            QMessageBox.critical(self, "Estate", f"Cannot open the estate:\n\n{exc}")
            return False
        QSettings().setValue(LAST_FOLDER_KEY, str(Path(path).resolve().parent))
        return True

    def load_file(self, path: str | Path) -> None:
        """Load an estate file and compute it in the background; errors are raised
        (`CoreError`), the window unchanged."""
        estate = load_estate(path, catalog=self.catalog, resolve=self.resolve)
        self.path, self._stored = Path(path), None
        self._on_disk = estate
        self.undo_stack.clear()  # an edit belongs to the estate it was made in
        self.set_estate(estate)

    def show_stored(self, estate: Estate, text: str, folder: str | None) -> None:
        """A version kept in the store (its text, the folder it was kept from): Save As
        writes it, with the edits made here, beside its scenario files."""
        self.path, self._stored = None, (text, Path(folder) if folder else None)
        self._on_disk = estate
        self.undo_stack.clear()
        self.set_estate(estate)

    @property
    def folder(self) -> Path | None:
        """Where the estate's relative scenario files are."""
        if self.path is not None:
            return self.path.resolve().parent
        return self._stored[1] if self._stored else None

    def set_estate(self, estate: Estate) -> None:
        self.estate = estate
        self.setWindowTitle(f"Estate: {estate.name}")
        self._enable()
        self.recompute()

    def recompute(self) -> None:
        if self.estate is not None:
            prices = self.prices() if self.prices is not None else None
            self.runner.submit(answer_estate, self.estate, catalog=self.catalog, prices=prices)

    def set_priority(self, name: str, priority: int) -> None:
        """Move a database to another tier (an undoable step)."""
        self.edits.set_priority(name, priority)

    def set_rto(self, name: str, rto_s: float) -> None:
        """Override a database's RTO (an undoable step)."""
        self.edits.set_rto(name, rto_s)

    # ------------------------------------------------------------------ results

    @Slot(object)
    def _on_done(self, value: object) -> None:
        result, least = value  # type: ignore[misc]
        self.result, self.least = result, least
        rows = recovery_order(result)
        self.model.set_rows(rows)
        self.gantt.set_result(result, rows)
        held = any(p.name == "held" for d in result.databases for p in d.phases)
        self.legend.setText(phase_legend(held))
        self.headline.setText(headline(result) + cautions(result))
        self.runbook_panel.set_answer(result.estate, least)
        self.least_panel.set_least(least)
        self.least_label.setText(least_line(least))

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        QMessageBox.warning(self, "Estate", f"The estate could not be computed:\n\n{exc}")

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        self.busy_label.setText("computing…" if busy else "")
        self.least_panel.set_busy(busy)
        self.runbook_panel.set_busy(busy)

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        if self.runner.busy:
            self.busy_label.setText(f"{message}… {fraction * 100:.0f} %")

    # ------------------------------------------------------------------ plans, files

    def selected_database(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        item = self.model.row_at(rows[0]) if rows else None
        return item.source if item is not None else None

    @Slot(QModelIndex)
    def _on_double_click(self, index: QModelIndex) -> None:
        item = self.model.row_at(index)
        if item is not None and not (self.model.flags(index) & Qt.ItemFlag.ItemIsEditable):
            self.open_plan_requested.emit(item.source)

    @Slot()
    def open_selected_plan(self) -> None:
        source = self.selected_database()
        if source is None:
            self.statusBar().showMessage("Select a database first", 4000)
            return
        self.open_plan_requested.emit(source)

    @Slot()
    def save_as(self) -> None:
        if self.estate is None:
            return
        start = str(self.path or (self.folder or Path.home()) / "estate.toml")
        path, _ = QFileDialog.getSaveFileName(self, "Save estate as", start, FILE_FILTER)
        if path:
            self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        """Write the edited estate; scenario references stay relative to the first file."""
        assert self.estate is not None
        try:  # a FIFO, a device, a symlink loop: refused before anything else
            check_output_path(path)
        except OSError as exc:
            QMessageBox.critical(self, "Estate", str(exc))
            return False
        if self.folder is not None and path.resolve().parent != self.folder.resolve():
            QMessageBox.warning(self, "Estate", "Save the estate beside the original: its "
                                "scenario files are named relative to that folder.")  # fmt: skip
            return False
        inputs = {d.source: f"the scenario of {d.name!r}" for d in self.estate.databases
                  if not d.source.startswith("store: ")}  # fmt: skip
        try:  # regular files only, all or nothing, never over a scenario it reads
            write_output_text(path, self.estate_text(), inputs=inputs)
        except OSError as exc:
            QMessageBox.critical(self, "Estate", str(exc))
            return False
        self.path, self._on_disk, self._stored = path, self.estate, None
        self.statusBar().showMessage(f"Saved {path.name}", 4000)
        return True

    def estate_text(self) -> str:
        """The estate as TOML, written into the file (or stored version) it was opened
        from: only the values edited here (tiers, RTOs, purchases, the runbook) change;
        its comments (the sources of the figures), the way it spells durations and names
        stay."""
        assert self.estate is not None
        text = dump_estate(self.estate)
        if self._on_disk is None:
            return text
        if self._stored is not None:
            original = self._stored[0]
        elif self.path is None:
            return text
        else:
            try:
                original = read_text_file(self.path)
            except CoreError:
                return text  # gone or unreadable since it was opened: the canonical form
        return merge_edits(original, dump_estate(self._on_disk), text)

    @Slot()
    def export_pdf_dialog(self) -> None:
        """Export PDF…: asks where (the button's `clicked(bool)` is not a path: it was
        taken for one and the window crashed before any dialog, issue 22.4)."""
        if self.result is None:
            self.statusBar().showMessage("Wait for the estate to be computed", 4000)
            return
        start = str((self.path or Path.home() / "estate").with_suffix(".pdf"))
        path, _ = QFileDialog.getSaveFileName(self, "Export estate PDF", start,
                                              "PDF files (*.pdf)")  # fmt: skip
        if path:
            self.export_pdf(path)

    def export_pdf(self, path: str | Path) -> None:
        """Write the estate PDF to `path` in the background."""
        if self.result is None:
            self.statusBar().showMessage("Wait for the estate to be computed", 4000)
            return
        self.statusBar().showMessage("Writing the estate PDF…")
        self.pdf_runner.submit(write_estate_report, self.result, Path(path), least=self.least)

    @Slot(object)
    def _on_pdf_done(self, out: object) -> None:
        self.statusBar().showMessage(f"Wrote {out}", 6000)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.runner.wait()
        self.pdf_runner.wait()
        super().closeEvent(event)


def tier_column_width(table: QTableView) -> int:
    """Wide enough for the header and the tier's spin-box editor."""
    from PySide6.QtWidgets import QSpinBox

    editor = QSpinBox().sizeHint().width()
    header = table.horizontalHeader().fontMetrics().horizontalAdvance("Tier") + 24
    return max(editor, header)
