"""Workload import: AWR / Statspack reports and CSV exports into the store and the scenario.

    ┌ Import workload ─────────────────────────────────────────────────────────┐
    │ Drop reports here…                         [Add files…] [Add folder…]    │
    │ [██████████░░░░░░░░] Reading 12 of 48: prod_0900.html          [Stop]    │
    │ Files:        file · status · database · period · redo rate · notes      │
    │ Per database: database · reports · period · average · p95 · peak · …     │
    │ Apply to the scenario: [PROD ▾]  redo rate (•) p95 ( ) average ( ) peak  │
    │ database.redo_rate 8 MB/s → 3.2 MB/s — p95 of hourly redo over …         │
    │                                          [Apply to scenario]  [Close]    │
    └──────────────────────────────────────────────────────────────────────────┘

Parsing runs in a worker (`read_workload_files`, one `TaskRunner` task): per file it
parses the reports for the preview (`core.importers.parse_paths`) and, when the store is
open, keeps them there (`store_import.import_file`, one transaction per file, duplicates
by content). Each file's outcome reaches the dialog through a queued signal as soon as it
is read, so the preview fills while the work goes on; the bar moves within a large file too
(reading, then rows stored). "Stop" asks the worker to stop at once and return what it has
read: the file being read is rolled back (nothing of it kept) and shown as stopped; closing
the dialog cancels the task the same way and waits for it.

The per-database figures come from core: the store's `database_workload` (everything
imported for that database, the same figures `apply_imports` uses), or without a store
`series_by_database` over the files just read. Applying calls core's `apply_workload` and
writes the changed values and their `[provenance]` texts into the document as one undo
step.
"""

from __future__ import annotations

import html
import logging
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.importers import (
    CsvImportError,
    RedoInterval,
    WorkloadReport,
    iter_report_files,
    parse_paths,
    read_export,
    series_by_database,
)
from rtoplanner.core.importers.apply import ApplyRequest, apply_workload
from rtoplanner.core.importers.store_import import KIND_LABELS, ImportStopped, import_file
from rtoplanner.core.importers.stored import DatabaseWorkload, database_workload
from rtoplanner.core.scenario import label_for_key, spec_for_key
from rtoplanner.core.store import Store
from rtoplanner.core.units import format_duration, format_rate, format_size, parse_rate

from ..models.row_table_model import RIGHT_ALIGNED, RowTableModel
from ..shell.placement import fit_size
from ..tables import read_only_table
from ..workers import TaskRunner

log = logging.getLogger(__name__)  # core/logs.py attaches the log file

REPORT_FILTER = "Reports and exports (*.html *.htm *.txt *.lst *.out *.csv);;All files (*)"
EXPORT_LABELS = {
    "sysstat": "DBA_HIST_SYSSTAT export",
    "rman_jobs": "RMAN job history",
    "recovery_progress": "V$RECOVERY_PROGRESS export",
}
REDO_LABELS = {"p95": "p95 of hourly redo", "avg": "average", "peak": "peak hour"}
APPLIED_WORDS = {"p95": "p95 of hourly redo", "avg": "average redo", "peak": "peak-hour redo"}
"""How the status line names the redo figure applied ("Applied the p95 of hourly redo…")."""
REDO_TIPS = {
    "p95": "The rate 95 % of the hours stay under: redo apply and archived-log volumes "
    "are sized for a busy hour, not an average one (the usual choice).",
    "avg": "The average over the whole period: understates the redo a busy hour leaves to apply.",
    "peak": "The busiest hour seen: the most cautious figure.",
}


# ---------------------------------------------------------------------------- worker


@dataclass(frozen=True)
class FileOutcome:
    """What reading (and storing) one file gave: its reports or intervals, or why not.

    `status`: `read` (parsed, no store), `imported`, `duplicate` (already in the store) or
    `error`. `message` is the store's one-line account, or the error's reason.
    """

    path: Path
    status: str
    reports: tuple[WorkloadReport, ...] = ()
    intervals: tuple[RedoInterval, ...] = ()
    what: str = ""
    message: str = ""
    db_names: tuple[str, ...] = ()
    span: tuple[Any, Any] | None = None  # a CSV export's first and last time (stored)

    @property
    def ok(self) -> bool:
        return self.status not in ("error", "stopped")


@dataclass(frozen=True)
class ImportRun:
    """The whole import: per-file outcomes and the figures of each database found."""

    files: tuple[FileOutcome, ...]
    databases: tuple[DatabaseWorkload, ...]
    total_files: int
    stopped: bool
    stored: bool


def _reason(exc: CoreError) -> str:
    reason = getattr(exc, "reason", None) or str(exc)
    hint = getattr(exc, "hint", None)
    return f"{reason} ({hint})" if hint else reason


def _read_one(
    path: Path, store: Store | None, progress: Callable[[float, str], None] | None = None
) -> FileOutcome:
    outcome = next(iter(parse_paths([path])), None)
    reports = outcome.reports if outcome is not None else ()
    error = outcome.error if outcome is not None else None
    intervals: tuple[RedoInterval, ...] = ()
    what = ""
    if reports:
        kinds = {r.kind for r in reports}
        what = " / ".join(sorted(KIND_LABELS.get(k, k) for k in kinds))
    elif error is not None and store is None:
        # Not a report: perhaps one of the CSV exports (docs/importing.md).
        try:
            export = read_export(path)
        except CsvImportError as csv_error:
            if path.suffix.lower() == ".csv":
                error = csv_error
        else:
            error = None
            intervals = export.redo_intervals
            what = EXPORT_LABELS.get(export.kind, export.kind)
    if store is None:
        if error is not None:
            return FileOutcome(path, "error", message=_reason(error))
        n = len(reports) or len(intervals)
        message = f"{n} {'report' if reports else 'row'}{'s' if n != 1 else ''} read"
        return FileOutcome(path, "read", reports, intervals, what, message)
    stored = import_file(store, path, progress=progress)
    if stored.status == "error":
        err = stored.error
        return FileOutcome(path, "error", reports, what=what,
                           message=_reason(err) if err is not None else stored.message)  # fmt: skip
    if not what and stored.kind:
        what = KIND_LABELS.get(stored.kind, stored.kind)
    return FileOutcome(
        path, stored.status, reports, what=what, message=stored.message,
        db_names=stored.db_names, span=stored.span,
    )  # fmt: skip


def _databases(files: Sequence[FileOutcome], store: Store | None) -> tuple[DatabaseWorkload, ...]:
    """The figures of each database the files name (with a store: all it holds on it)."""
    items: list[WorkloadReport | RedoInterval] = []
    for f in files:
        items.extend(f.reports)
        items.extend(f.intervals)
    found = series_by_database(items)
    if store is not None:
        out: dict[str, DatabaseWorkload] = {}
        names = {str(s.dbid) if s.dbid is not None else s.db_name for s in found}
        for f in files:
            names.update(f.db_names)  # CSV exports: the store knows their database
        for name in sorted(n for n in names if n):
            try:
                w = database_workload(store, name)
            except CoreError:
                continue
            out[w.key] = w
        return tuple(sorted(out.values(), key=lambda w: (w.db_name or "", w.key)))
    result = []
    for s in found:
        counts: dict[str, int] = {}
        seen: set[tuple] = set()  # one report read as HTML and as text counts once
        for f in files:
            for r in f.reports:
                key = str(r.dbid) if r.dbid is not None else (r.db_name or "?").upper()
                snapshots = (key, r.instance, r.begin, r.end)
                if key == s.db and (r.begin is None or snapshots not in seen):
                    seen.add(snapshots)
                    counts[r.kind] = counts.get(r.kind, 0) + 1
            n = sum(1 for iv in f.intervals if iv.db == s.db)
            if n:
                counts["sysstat"] = counts.get("sysstat", 0) + n
        result.append(
            DatabaseWorkload(
                key=s.db,
                db_name=s.db_name,
                dbid=s.dbid,
                counts=counts,
                series=s,
                series_counts=counts,
                block_changes_per_s=None,
                block_change_reports=0,
                backup_rates=(),
                devices=(),
                apply_rates=(),
            )
        )
    return tuple(result)


def read_workload_files(
    paths: Iterable[str | Path],
    store: Store | Callable[[], Store | None] | None = None,
    *,
    on_file: Callable[[FileOutcome], None] | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> ImportRun:
    """Read (and with a store, keep) every file under `paths`, one outcome per file.

    Runs in a worker: `on_file(outcome)` is called after each file (the dialog passes a
    queued signal's `emit`), `progress(fraction, message)` before each, and `stop()` is
    checked between files: when it says so, the files read so far are summarised and
    returned with `stopped=True`. A real cancel comes through `progress` (the worker's
    `Cancelled`), which returns nothing.

    `store` may be a function returning the store: the GUI passes one so that no worker
    holds on to the store's connection after the store is closed.
    """
    if callable(store):
        store = store()
    report = progress or (lambda _f, _m: None)
    paths = [Path(p) for p in paths]
    files = list(iter_report_files(paths))
    empty = [p for p in paths if p.is_dir() and not any(iter_report_files([p]))]
    total = len(files) + len(empty)
    done: list[FileOutcome] = []

    def finish(outcome: FileOutcome) -> None:
        done.append(outcome)
        if on_file is not None:
            on_file(outcome)

    for p in empty:
        finish(FileOutcome(p, "error", message="a folder without files"))
    stopped = False
    for i, f in enumerate(files):
        if stop is not None and stop():
            stopped = True
            break
        where = f"Reading {i + 1} of {len(files)}: {f.name}"
        report(i / max(total, 1), where)
        try:
            finish(_read_one(f, store, _within(report, stop, i, total, where)))
        except ImportStopped:  # rolled back: nothing of this file is in the store
            finish(FileOutcome(f, "stopped", message="stopped: nothing of it was stored"))
            stopped = True
            break
    report(1.0, "Summarising")
    return ImportRun(tuple(done), _databases(done, store), total, stopped, store is not None)


def _within(
    report: Callable[[float, str], None],
    stop: Callable[[], bool] | None,
    i: int,
    total: int,
    where: str,
) -> Callable[[float, str], None]:
    """File i's own progress on the dialog's bar; Stop ends the file (issue 25)."""

    def tell(fraction: float, phase: str) -> None:
        if stop is not None and stop():
            raise ImportStopped
        report((i + fraction) / max(total, 1), f"{where} — {phase}")

    return tell


class _OutcomeSink(QObject):
    """Carries each file's outcome from the worker to the dialog (a queued signal)."""

    outcome = Signal(object)


# ---------------------------------------------------------------------------- models


def _period(begin: Any, end: Any) -> str:
    if begin is None or end is None:
        return ""
    if begin.date() == end.date():
        return f"{begin:%Y-%m-%d %H:%M} → {end:%H:%M}"
    return f"{begin:%Y-%m-%d %H:%M} → {end:%Y-%m-%d %H:%M}"


def _counts_text(counts: dict[str, int]) -> str:
    parts = []
    for kind, n in counts.items():
        label = KIND_LABELS.get(kind, kind)
        parts.append(f"{n} {label}{'s' if n != 1 else ''}")
    return ", ".join(parts)


_ERROR_FG = QColor(200, 50, 50)
_DUP_FG = QColor(128, 128, 128)


class ImportPreviewModel(RowTableModel[tuple[FileOutcome, WorkloadReport | None]]):
    """One row per report found (two for a compare-period report), one per failed file."""

    COL_FILE, COL_STATUS, COL_DATABASE, COL_PERIOD, COL_REDO, COL_NOTES = range(6)
    HEADERS = ("File", "Status", "Database", "Period", "Redo rate", "Notes")
    SortRole = Qt.ItemDataRole.UserRole + 1
    RowRole = Qt.ItemDataRole.UserRole + 2
    """(FileOutcome, WorkloadReport | None)"""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.binary = False

    def clear(self) -> None:
        self.set_rows([])

    def add_outcome(self, outcome: FileOutcome) -> None:
        rows: list[tuple[FileOutcome, WorkloadReport | None]] = [
            (outcome, r) for r in outcome.reports
        ] or [(outcome, None)]
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.endInsertRows()

    def outcomes(self) -> list[FileOutcome]:
        return list(dict.fromkeys(o for o, _ in self._rows))

    def _status(self, outcome: FileOutcome) -> str:
        return {"read": "read", "imported": "imported", "duplicate": "already imported",
                "error": "not read"}.get(outcome.status, outcome.status)  # fmt: skip

    def _text(self, outcome: FileOutcome, report: WorkloadReport | None, col: int) -> str:
        if col == self.COL_FILE:
            return outcome.path.name
        if col == self.COL_STATUS:
            return self._status(outcome)
        if report is None:
            if col == self.COL_NOTES:
                return outcome.message
            if col == self.COL_DATABASE and outcome.intervals:
                names = sorted({iv.db_name or iv.db for iv in outcome.intervals})
                return ", ".join(names)
            if col == self.COL_PERIOD and outcome.intervals:
                return _period(outcome.intervals[0].begin, outcome.intervals[-1].end)
            if col == self.COL_DATABASE:  # a CSV export read into the store
                return ", ".join(outcome.db_names)
            if col == self.COL_PERIOD and outcome.span:
                return _period(*outcome.span)
            return ""
        if col == self.COL_DATABASE:
            inst = f" ({report.instance})" if report.instance else ""
            return f"{report.db_name or report.dbid or '?'}{inst}"
        if col == self.COL_PERIOD:
            return _period(report.begin, report.end)
        if col == self.COL_REDO:
            return format_rate(report.redo_bytes_per_s, binary=self.binary)
        if col == self.COL_NOTES:
            notes = [f"{outcome.what}, {format_duration(report.elapsed_s)}"]
            if outcome.status == "duplicate":
                notes.append(outcome.message)
            notes.extend(report.warnings)
            return "; ".join(n for n in notes if n)
        return ""

    def cell(
        self, item: tuple[FileOutcome, WorkloadReport | None], row: int, col: int, role: int
    ) -> Any:
        outcome, report = item
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(outcome, report, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == self.COL_FILE:
                return str(outcome.path)
            text = self._text(outcome, report, col)
            return text or None
        if role == self.SortRole:
            if col == self.COL_REDO and report is not None:
                return report.redo_bytes_per_s
            if col == self.COL_PERIOD and report is not None and report.begin is not None:
                return report.begin.isoformat()
            return self._text(outcome, report, col)
        if role == Qt.ItemDataRole.ForegroundRole:
            if outcome.status == "error":
                return QBrush(_ERROR_FG)
            if outcome.status == "duplicate":
                return QBrush(_DUP_FG)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == self.COL_REDO:
            return RIGHT_ALIGNED
        if role == self.RowRole:
            return (outcome, report)
        return None


class DatabaseSummaryModel(RowTableModel[DatabaseWorkload]):
    """One row per database: its redo series as core summarises it."""

    COL_DATABASE, COL_REPORTS, COL_PERIOD, COL_AVG, COL_P95, COL_PEAK, COL_DAY, COL_BUSIEST = range(
        8
    )
    HEADERS = ("Database", "From", "Period", "Average", "p95", "Peak hour", "Redo per day",
               "Busiest hour")  # fmt: skip
    RowRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.binary = False

    def set_rows(self, rows: Iterable[DatabaseWorkload]) -> None:
        super().set_rows(w for w in rows if w.series is not None)

    def workload(self, row: int) -> DatabaseWorkload | None:
        return self.row_at(row)

    def cell(self, w: DatabaseWorkload, row: int, col: int, role: int) -> Any:
        s = w.series
        if s is None:  # pragma: no cover - filtered out in set_rows
            return None
        b = self.binary
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                self.COL_DATABASE: w.label,
                self.COL_REPORTS: _counts_text(w.series_counts),
                self.COL_PERIOD: _period(s.first, s.last),
                self.COL_AVG: format_rate(s.avg_Bps, binary=b),
                self.COL_P95: format_rate(s.p95_Bps, binary=b),
                self.COL_PEAK: format_rate(s.peak_Bps, binary=b),
                self.COL_DAY: format_size(s.per_day_bytes, binary=b),
                self.COL_BUSIEST: f"{s.busiest_hour:%Y-%m-%d %H:00}" if s.busiest_hour else "",
            }.get(col, "")
        if role == Qt.ItemDataRole.ToolTipRole and s.warnings:
            return "<br>".join(s.warnings)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (
            self.COL_AVG, self.COL_P95, self.COL_PEAK, self.COL_DAY
        ):  # fmt: skip
            return RIGHT_ALIGNED
        if role == self.RowRole:
            return w
        return None


# ---------------------------------------------------------------------------- dialog


def _table(model: QAbstractTableModel, name: str) -> QTableView:
    """A read-only table whose columns the user can widen, the last one stretched."""
    view = read_only_table(model, name)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view


def _box(title: str, widget: QWidget) -> QWidget:
    """`widget` under a bold title."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 4, 0, 0)
    lay.addWidget(QLabel(f"<b>{title}</b>"))
    lay.addWidget(widget)
    return box


class ImportDialog(QDialog):
    """Import workload files, preview them, and apply a redo rate to the scenario."""

    applied = Signal(object)
    """The core `ApplyResult` after its values went into the document."""

    def __init__(self, window: Any, paths: Sequence[str | Path] = ()) -> None:
        super().__init__(window)
        self.window_ = window
        self.doc = window.doc
        self.service = getattr(window, "store_service", None)
        self.binary = bool(getattr(window, "binary", False))
        self.run: ImportRun | None = None
        self.last_result: Any = None
        self._stop = threading.Event()
        self._expected = 0

        self.setWindowTitle("Import workload")
        self.setObjectName("import_dialog")
        self.setAcceptDrops(True)
        fit_size(self, 1200, 680)

        self.runner = TaskRunner(self)
        self.runner.done.connect(self._on_done)
        self.runner.failed.connect(self._on_failed)
        self.runner.progress.connect(self._on_progress)
        self.runner.busy_changed.connect(self._on_busy)
        self._sink = _OutcomeSink(self)
        self._sink.outcome.connect(self._on_outcome)

        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.hint = QLabel(
            "Drop AWR or Statspack reports (text or HTML), folders of them, or the CSV "
            "exports of <i>docs/importing.md</i> here."
        )
        self.hint.setWordWrap(True)
        top.addWidget(self.hint, 1)
        self.add_files_button = QPushButton("Add files…")
        self.add_files_button.clicked.connect(self.choose_files)
        self.add_folder_button = QPushButton("Add folder…")
        self.add_folder_button.clicked.connect(self.choose_folder)
        top.addWidget(self.add_files_button)
        top.addWidget(self.add_folder_button)
        layout.addLayout(top)

        bar = QHBoxLayout()
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 100)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.setMaximumWidth(260)
        self.progress_bar.hide()  # an empty, unlabelled box until a read starts (23.11)
        self.status_label = QLabel("")
        self.status_label.setObjectName("import_status")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop after the file being read; what was read is kept")
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setEnabled(False)
        bar.addWidget(self.progress_bar)
        bar.addWidget(self.status_label, 1)
        bar.addWidget(self.stop_button)
        layout.addLayout(bar)

        self.preview_model = ImportPreviewModel(self)
        self.preview_model.binary = self.binary
        self.preview = _table(self.preview_model, "import_preview")
        header = self.preview.horizontalHeader()
        for col, width in ((0, 280), (1, 115), (2, 120), (3, 260), (4, 90)):
            self.preview.setColumnWidth(col, width)
        header.setStretchLastSection(True)
        self.db_model = DatabaseSummaryModel(self)
        self.db_model.binary = self.binary
        self.db_view = _table(self.db_model, "import_databases")
        for col, width in ((0, 220), (1, 130), (2, 260), (3, 85), (4, 85), (5, 85), (6, 100)):
            self.db_view.setColumnWidth(col, width)
        self.db_view.selectionModel().currentRowChanged.connect(self._on_db_row)

        files_box = _box("Files", self.preview)
        db_box = _box("Per database", self.db_view)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(files_box)
        split.addWidget(db_box)
        split.setSizes([300, 140])
        layout.addWidget(split, 1)

        apply_box = QGroupBox("Apply to the scenario")
        ab = QVBoxLayout(apply_box)
        row = QHBoxLayout()
        row.addWidget(QLabel("Database"))
        self.db_combo = QComboBox()
        self.db_combo.setMinimumWidth(180)
        self.db_combo.currentIndexChanged.connect(self._on_db_combo)
        row.addWidget(self.db_combo)
        row.addSpacing(16)
        row.addWidget(QLabel("Redo rate"))
        self.redo_group = QButtonGroup(self)
        self.redo_buttons: dict[str, QRadioButton] = {}
        for which in ("p95", "avg", "peak"):
            button = QRadioButton(REDO_LABELS[which])
            button.setToolTip(REDO_TIPS[which])
            self.redo_group.addButton(button)
            self.redo_buttons[which] = button
            row.addWidget(button)
        self.redo_buttons["p95"].setChecked(True)
        row.addStretch(1)
        ab.addLayout(row)
        self.apply_label = QLabel("")
        self.apply_label.setObjectName("apply_preview")
        self.apply_label.setWordWrap(True)
        self.apply_label.setTextFormat(Qt.TextFormat.RichText)
        # Room for the change, its source and a warning: a wrapped line is never cut.
        self.apply_label.setMinimumHeight(self.fontMetrics().lineSpacing() * 5)
        self.apply_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        ab.addWidget(self.apply_label)
        layout.addWidget(apply_box)

        buttons = QHBoxLayout()
        self.store_label = QLabel(self._store_text())
        self.store_label.setObjectName("store_note")
        self.store_label.setWordWrap(True)
        buttons.addWidget(self.store_label, 1)
        self.apply_button = QPushButton("Apply to scenario")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply)
        self.close_button = QPushButton("Close")
        self.close_button.clicked.connect(self.close)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.close_button)
        layout.addLayout(buttons)
        for button in self.redo_buttons.values():
            button.toggled.connect(self._update_apply_preview)
        self._update_apply_preview()
        if paths:
            self.start(paths)

    @property
    def store(self) -> Store | None:
        """The open store, or None (asked each time: the service may close it)."""
        return self.service.store if self.service is not None else None

    def _open_store(self) -> Store | None:
        return self.store

    @property
    def store_error(self) -> str | None:
        return self.service.error if self.service is not None else None

    def _store_text(self) -> str:
        if self.store is not None:
            return f"Imported files are kept in the store ({self.store.path.name})."
        why = f": {self.store_error}" if self.store_error else ""
        return f"Not kept: the store is not available{why}. Figures come from these files only."

    # ------------------------------------------------------------------ work

    @property
    def busy(self) -> bool:
        return self.runner.busy

    def start(self, paths: Sequence[str | Path]) -> bool:
        """Read `paths` (files and folders) in the worker; False while a read runs."""
        if self.runner.busy or not paths:
            return False
        self.preview_model.clear()
        self.db_model.set_rows([])
        self.run = None
        self._stop.clear()
        self._expected = 0
        self.progress_bar.setValue(0)
        self.progress_bar.show()
        self.status_label.setText("Starting…")
        self.runner.submit(
            read_workload_files, [str(p) for p in paths], self._open_store,
            on_file=self._sink.outcome.emit, stop=self._stop.is_set,
        )  # fmt: skip
        self._update_apply_preview()
        return True

    @Slot()
    def stop(self) -> None:
        """Finish the file being read and keep what was read."""
        if self.runner.busy:
            self._stop.set()
            self.status_label.setText("Stopping: the file being read is not kept…")
            self.stop_button.setEnabled(False)

    @Slot()
    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Import workload files", "", REPORT_FILTER)
        if files:
            self.start(files)

    @Slot()
    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Import a folder of reports")
        if folder:
            self.start([folder])

    @Slot(object)
    def _on_outcome(self, outcome: object) -> None:
        if isinstance(outcome, FileOutcome):
            self.preview_model.add_outcome(outcome)

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress_bar.setValue(round(fraction * 100))
        if not self._stop.is_set():
            self.status_label.setText(message)

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        self.stop_button.setEnabled(busy)
        self.add_files_button.setEnabled(not busy)
        self.add_folder_button.setEnabled(not busy)
        self._update_apply_preview()

    @Slot(object)
    def _on_done(self, run: object) -> None:
        if not isinstance(run, ImportRun):
            return
        self.run = run
        self.db_model.set_rows(run.databases)
        self.db_combo.blockSignals(True)
        self.db_combo.clear()
        for w in self.db_model.rows:
            self.db_combo.addItem(w.label, w)
        self.db_combo.blockSignals(False)
        self._select_database(self._default_database())
        text = run_summary(run)
        log.info("import: %s", text)
        if run.stopped:
            text = "Stopped: " + text
        self.progress_bar.setValue(100 if not run.stopped else self.progress_bar.value())
        self.status_label.setText(text)
        self._update_apply_preview()

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        message = str(exc) if isinstance(exc, CoreError) else f"{type(exc).__name__}: {exc}"
        self.status_label.setText(f"The import failed: {message}")
        self._update_apply_preview()

    def _default_database(self) -> int:
        """The database the scenario already came from, else the one with most reports."""
        prov = self.doc.raw.get("provenance") or {}
        wanted = {str(prov.get("workload.dbid", "")), str(prov.get("workload.database", ""))}
        wanted.discard("")
        rows = self.db_model.rows
        for i, w in enumerate(rows):
            if str(w.dbid) in wanted or (w.db_name or "") in wanted:
                return i
        if not rows:
            return -1
        sizes = [w.series.intervals if w.series else 0 for w in rows]
        return sizes.index(max(sizes))

    def _select_database(self, row: int) -> None:
        if row < 0:
            self._update_apply_preview()
            return
        self.db_combo.setCurrentIndex(row)
        self.db_view.selectRow(row)

    @Slot(QModelIndex, QModelIndex)
    def _on_db_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and current.row() != self.db_combo.currentIndex():
            self.db_combo.setCurrentIndex(current.row())

    @Slot(int)
    def _on_db_combo(self, row: int) -> None:
        if row >= 0 and self.db_view.currentIndex().row() != row:
            self.db_view.selectRow(row)
        self._update_apply_preview()

    # ------------------------------------------------------------------ applying

    def select_database(self, name: str) -> bool:
        for i in range(self.db_combo.count()):
            w = self.db_combo.itemData(i)
            if name.upper() in {(w.db_name or "").upper(), str(w.dbid)}:
                self.db_combo.setCurrentIndex(i)
                return True
        return False

    def set_redo_choice(self, which: str) -> None:
        self.redo_buttons[which].setChecked(True)

    def redo_choice(self) -> str:
        return next(k for k, b in self.redo_buttons.items() if b.isChecked())

    def _workload(self) -> DatabaseWorkload | None:
        w = self.db_combo.currentData()
        return w if isinstance(w, DatabaseWorkload) else None

    def _compute(self) -> tuple[Any, str]:
        """(ApplyResult or None, why not) for the current choice."""
        if self.runner.busy:
            return None, "Reading…"
        w = self._workload()
        if w is None:
            return None, "Import reports of a database to apply its redo rate."
        scenario = self.doc.scenario
        if scenario is None:
            return None, "The scenario has input errors and no valid plan yet: fix them first."
        try:
            result = apply_workload(
                scenario, w, ApplyRequest(w.db_name or str(w.dbid), redo=self.redo_choice()),
                catalog=self.doc.catalog,
            )  # fmt: skip
        except CoreError as exc:
            return None, str(exc)
        return result, ""

    @Slot()
    def _update_apply_preview(self, *_args: Any) -> None:
        w = self._workload()
        if w is not None and w.series is not None:
            s = w.series
            figures = {"p95": s.p95_Bps, "avg": s.avg_Bps, "peak": s.peak_Bps}
            single = f" = average ({s.single_figure})" if s.single_figure else ""
            for which, button in self.redo_buttons.items():
                rate = format_rate(figures[which], binary=self.binary)
                button.setText(
                    f"{REDO_LABELS[which]} — {rate}" + (single if which != "avg" else "")
                )
        else:
            for which, button in self.redo_buttons.items():
                button.setText(REDO_LABELS[which])
        result, why = self._compute()
        self.last_result = result
        self.apply_button.setEnabled(result is not None)
        if result is None:
            self.apply_label.setText(f"<i>{why}</i>" if why else "")
            return
        lines = preview_lines(result, self.binary)
        if other := other_database(self.doc.raw, result.workload):
            lines.insert(0, f"<b>⚠ {html.escape(other)}</b>")
        if self.doc.errors:
            lines.append(
                "The scenario has input errors: the values are checked against its last "
                "valid version."
            )
        self.apply_label.setText("<br>".join(lines))

    @Slot()
    def apply(self) -> bool:
        """Write the chosen figures and their provenance into the document (one undo step)."""
        result, why = self._compute()
        if result is None:
            self.apply_label.setText(f"<i>{why}</i>")
            return False
        binary = bool(getattr(self.parent(), "binary", False))
        changes = workload_changes(result, self.doc.raw.get("provenance") or {}, binary)
        name = result.workload.db_name or str(result.workload.dbid)
        self.doc.set_values(changes, f"Apply workload from {name}")
        self.doc.recompute_now()
        self.status_label.setText(
            f"Applied the {APPLIED_WORDS[self.redo_choice()]} of {name} to the scenario "
            "(Edit › Undo takes it back)."
        )
        log.info("applied the workload of %s to the scenario", name)
        self.applied.emit(result)
        self._update_apply_preview()
        return True

    # ------------------------------------------------------------------ drops and close

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and not self.runner.busy:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths and self.start(paths):
            event.acceptProposedAction()

    def shutdown(self, timeout_ms: int = 10000) -> None:
        """Cancel the read and wait for it (closing, or the window closing)."""
        self._stop.set()
        self.runner.wait(timeout_ms)

    def done(self, result: int) -> None:  # close(), Escape, the window's close
        self.shutdown()
        super().done(result)

    def closeEvent(self, event: Any) -> None:
        self.shutdown()
        super().closeEvent(event)


def local_paths(mime: Any) -> list[str]:
    """The local files and folders of a drop (the window's drop handler uses it)."""
    if not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()]


def run_summary(run: ImportRun) -> str:
    """ "3 of 4 files read; 2 imported, 1 already in the store; 1 not read (see Notes)"."""
    failed = sum(1 for f in run.files if f.status == "error")
    cut = sum(1 for f in run.files if f.status == "stopped")
    read = len(run.files) - failed - cut
    parts = [f"{read} of {run.total_files} file{'s' if run.total_files != 1 else ''} read"]
    if run.stored:
        imported = sum(1 for f in run.files if f.status == "imported")
        dups = sum(1 for f in run.files if f.status == "duplicate")
        parts.append(f"{imported} imported, {dups} already in the store")
    if failed:
        parts.append(f"{failed} not read (see Notes)")
    if cut:
        parts.append("the file being read when stopped: nothing of it kept")
    return "; ".join(parts)


def preview_lines(result: Any, binary: bool) -> list[str]:
    """What Apply would change (key: before → after, and where it comes from), and the
    core's notes on it."""
    lines = []
    for v in result.values:
        before = v.previous if v.previous is not None else "not set"
        shown = stored_value(v.key, v.value, binary)  # what Apply writes, as it will show
        label = html.escape(label_for_key(v.key))
        lines.append(f"<b>{label}</b>: {before} → <b>{shown}</b> <i>({v.provenance})</i>")
    return lines + [f"⚠ {n}" for n in result.notes]


def stored_value(key: str, value: Any, binary: bool) -> Any:
    """A rate as the app shows it everywhere (three figures, its unit): stored with more
    figures, "5.215 MB/s" read 5.22 in one place and 5.21 in another (issue 23.11)."""
    spec = spec_for_key(key)
    if spec is not None and spec.kind == "rate" and isinstance(value, str):
        return format_rate(parse_rate(value), binary=binary)
    return value


_DBID = re.compile(r"\(dbid (\d+)\)")


def other_database(raw: dict[str, Any], w: Any) -> str | None:
    """Why the reports may be of another database than the scenario's: the redo rate the
    scenario has came from another DBID, or the scenario's name does not name this one."""
    prov = str((raw.get("provenance") or {}).get("database.redo_rate") or "")
    m = _DBID.search(prov)
    label = w.label
    if m and w.dbid is not None and int(m.group(1)) != w.dbid:
        return (
            f"These reports are of {label}; the scenario's redo rate came from another "
            f"database (dbid {m.group(1)}). Apply only if this is the database of the plan."
        )
    said = " ".join(str(raw.get(k) or "") for k in ("name", "customer", "notes")).lower()
    if w.db_name and w.db_name.lower() not in said:
        return (
            f"These reports are of {label}; the scenario “{raw.get('name', '')}” does not "
            "name it. Apply only if this is the database of the plan."
        )
    return None


def workload_changes(result: Any, old_provenance: dict, binary: bool) -> dict[str, Any]:
    """The document's values that applying `result` sets: the figures, as the user reads
    rates (their units, the three figures shown everywhere, not "1207.6 B/s"), and the
    provenance that changed."""
    changes: dict[str, Any] = {}
    new_raw = result.scenario.raw
    for v in result.values:
        section, _, key = v.key.partition(".")
        value = (new_raw.get(section) or {}).get(key)
        changes[v.key] = stored_value(v.key, value, binary)
    for key, text in (new_raw.get("provenance") or {}).items():
        if old_provenance.get(key) != text:
            changes[f"provenance.{key}"] = text
    return changes
