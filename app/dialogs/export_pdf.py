"""File › Export PDF…: the plan as a PDF, written by core in a worker, with progress and cancel.

The scenario exported is the document's last valid one (the user is told when the form
has errors). `export_plan` runs in a `TaskRunner` worker: it looks up the workload
evidence of the database the scenario's figures were imported from (when the store is
open) and calls core's `write_report`, which writes atomically and leaves nothing behind
when cancelled. Progress shows in the status bar (a bar and a Cancel button) only when the
export lasts more than 600 ms (STYLE §5); progress signals are throttled to whole
percents. reportlab is not thread-safe: fonts are registered on the GUI thread first and
one export runs at a time (the action is disabled meanwhile).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QToolButton,
    QWidget,
)

from rtoplanner.core.catalog import Catalog
from rtoplanner.core.errors import CoreError
from rtoplanner.core.fix.prices import price_book
from rtoplanner.core.importers.evidence import evidence_for_scenario
from rtoplanner.core.report import register_fonts, write_report
from rtoplanner.core.scenario import Scenario
from rtoplanner.core.store import Store

from ..workers import TaskRunner
from .confirm import confirm

log = logging.getLogger(__name__)  # core/logs.py attaches the log file

APP_NAME = "RTO Planner"
PDF_FILTER = "PDF files (*.pdf)"
SHOW_AFTER_MS = 600


def export_plan(
    scenario: Scenario,
    out_path: str | Path,
    *,
    catalog: Catalog | None = None,
    store: Store | Callable[[], Store | None] | None = None,
    binary: bool = False,
    progress: Callable[[float, str], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> Path:
    """Write the PDF plan of `scenario` (runs in a worker; raises `CoreError`s).

    `store` may be a function returning the store (so that no worker keeps its connection).
    """
    if callable(store):
        store = store()
    workload = None
    drills: tuple = ()
    prices = price_book(None, catalog)
    if store is not None:
        try:
            workload = evidence_for_scenario(store, scenario)
        except CoreError:
            workload = None  # the evidence section is optional; the plan is not
        with contextlib.suppress(CoreError):  # the drills too (the Evidence section)
            from rtoplanner.core.store.drills import drills as stored_drills

            drills = tuple(stored_drills(store, scenario.name))
        with contextlib.suppress(CoreError):  # else the catalog's prices; unpriced say so
            prices = price_book(store, catalog)
    last = -1

    def throttled(fraction: float, message: str) -> None:
        nonlocal last
        percent = int(fraction * 100)
        if progress is not None and percent != last:
            last = percent
            progress(fraction, message)

    return write_report(
        scenario, out_path, catalog=catalog, workload=workload, binary=binary,
        prices=prices, progress=throttled, should_cancel=should_cancel, drills=drills,
    )  # fmt: skip


def default_file_name(scenario_name: str) -> str:
    """`OLTP on RAC – restore from ZFS` → `OLTP_on_RAC_restore_from_ZFS.pdf`."""
    stem = re.sub(r"[^\w.-]+", "_", scenario_name, flags=re.UNICODE).strip("._")
    return f"{stem or 'plan'}.pdf"


class TaskProgress(QWidget):
    """A status-bar progress widget: what is happening, a bar, and Cancel."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("task_progress")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setFixedWidth(160)
        self.bar.setMaximumHeight(16)
        self.cancel_button = QToolButton()
        self.cancel_button.setText("Cancel")
        self.cancel_button.setToolTip("Stop the export; no file is written")
        self.cancel_button.clicked.connect(self.cancel_requested)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)

    def set_progress(self, fraction: float, message: str) -> None:
        self.bar.setValue(round(fraction * 100))
        if message:
            self.label.setText(message[:1].upper() + message[1:])


class PdfExporter(QObject):
    """Owns the export task of one window (File › Export PDF…)."""

    exported = Signal(object)
    """The Path written."""
    failed = Signal(str)

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window_ = window
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._on_done)
        self.runner.failed.connect(self._on_failed)
        self.runner.progress.connect(self._on_progress)
        self.runner.busy_changed.connect(self._on_busy)
        self.progress = TaskProgress()
        self.progress.hide()
        self.progress.cancel_requested.connect(self.cancel)
        window.statusBar().addPermanentWidget(self.progress)
        self._show_timer = QTimer(self)
        self._show_timer.setSingleShot(True)
        self._show_timer.setInterval(SHOW_AFTER_MS)
        self._show_timer.timeout.connect(self.progress.show)
        self.out_path: Path | None = None
        self.action = None  # the window's action, disabled while exporting

    @property
    def busy(self) -> bool:
        return self.runner.busy

    def _store(self) -> Store | None:
        service = getattr(self.window_, "store_service", None)
        return service.store if service is not None else None

    def _default_path(self, scenario: Scenario) -> str:
        doc = self.window_.doc
        folder = None
        if doc.file_path is not None and doc.file_path.parent.is_dir():
            folder = doc.file_path.parent
        else:
            last = self.window_.settings.get("files/last_dir")
            folder = Path(last) if last else Path.home()
        return str(folder / default_file_name(scenario.name))

    @Slot()
    def export(self, path: str | Path | None = None) -> bool:
        """Ask for a file (unless `path`) and start the export; False if nothing started."""
        window = self.window_
        if self.runner.busy:
            return False
        doc = window.doc
        scenario = doc.scenario
        if scenario is None:
            QMessageBox.warning(
                window, APP_NAME,
                "There is no valid plan to export yet: fix the input errors first.",
            )  # fmt: skip
            return False
        if doc.errors:
            n = len(doc.errors)
            if not confirm(
                window, APP_NAME,
                f"The scenario has {n} input error{'s' if n != 1 else ''}. The PDF will show "
                "the last valid plan, not what the form shows now. Export it anyway?",
            ):  # fmt: skip
                return False
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(
                window, "Export the plan as PDF", self._default_path(scenario), PDF_FILTER
            )
            if not chosen:
                return False
            path = chosen if chosen.lower().endswith(".pdf") else chosen + ".pdf"
        out = Path(path)
        try:
            register_fonts()  # on the GUI thread: reportlab's registries are not thread-safe
        except CoreError as exc:
            QMessageBox.critical(window, APP_NAME, f"Cannot export the PDF:\n\n{exc}")
            return False
        self.out_path = out
        self.progress.set_progress(0.0, f"Exporting {out.name}…")
        self.runner.submit(
            export_plan, scenario, out, catalog=doc.catalog, store=self._store,
            binary=bool(getattr(window, "binary", False)),
        )  # fmt: skip
        self._show_timer.start()
        window.statusBar().showMessage(f"Exporting {out.name}…")
        return True

    @Slot()
    def cancel(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            self._hide_progress()
            self.window_.statusBar().showMessage("PDF export cancelled; no file written", 5000)

    def shutdown(self, timeout_ms: int = 10000) -> None:
        self._show_timer.stop()
        self.runner.wait(timeout_ms)

    def _hide_progress(self) -> None:
        self._show_timer.stop()
        self.progress.hide()

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.set_progress(fraction, message)

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        if self.action is not None:
            self.action.setEnabled(not busy)
        if not busy:
            self._hide_progress()

    @Slot(object)
    def _on_done(self, path: object) -> None:
        self._hide_progress()
        window = self.window_
        out = Path(str(path))
        window.statusBar().showMessage(f"Exported {out.name}", 6000)
        log.info("exported the PDF plan %s", out)
        self.exported.emit(out)
        answer = QMessageBox.question(
            window, APP_NAME,
            f"The plan was exported to\n{out}\n\nOpen it now?",
            QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Close,
            QMessageBox.StandardButton.Open,
        )  # fmt: skip
        if answer == QMessageBox.StandardButton.Open:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(out)))

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self._hide_progress()
        window = self.window_
        if isinstance(exc, CoreError):
            message = str(exc)
        else:  # a bug: say what, never a traceback
            message = f"an unexpected error ({type(exc).__name__}: {exc})"
        window.statusBar().showMessage("PDF export failed", 6000)
        log.error(
            "PDF export failed: %s",
            message,
            exc_info=exc
            if isinstance(exc, BaseException) and not isinstance(exc, CoreError)
            else None,
        )
        self.failed.emit(message)
        QMessageBox.critical(window, APP_NAME, f"Cannot export the PDF:\n\n{message}")
