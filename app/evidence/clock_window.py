"""Recovery in Progress: the recovery clock in a window of its own.

During a real recovery the DBA drops the V$SESSION_LONGOPS and V$RECOVERY_PROGRESS
snapshots (files, or text pasted from SQL*Plus) and the RESTORE PREVIEW on the window; each
addition re-forecasts, off the GUI thread, when the database opens (P50, P90) with the
plan of the scenario in the main window (`core.evidence.clock`). It shows the headline,
the chance to open before the RTO runs out, the phases done, running and to come, and the
forecast after each snapshot against the deadline; *Status PDF…* writes the one-page
status for management.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QDateTime, Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDateTimeEdit,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.evidence.clock import RecoveryClock, recovery_clock
from rtoplanner.core.importers.restore_evidence import EvidenceFile, read_evidence_bytes
from rtoplanner.core.result import PHASE_TITLES
from rtoplanner.core.units import format_percent

from ..plots.common import mkpen
from ..shell.placement import fit_size
from ..theme import VERDICT_COLORS, PlotTheme
from ..workers import TaskRunner
from .panel import EVIDENCE_FILTER


def _epoch(t: datetime) -> float:
    return QDateTime(t).toSecsSinceEpoch()


class ClockWindow(QWidget):
    """The window: evidence on the left, the forecast on the right."""

    def __init__(self, host: Any) -> None:
        super().__init__(None)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setObjectName("clock_window")
        self.setWindowTitle("Recovery in Progress — RTO Planner")
        fit_size(self, 1100, 700)
        self.setAcceptDrops(True)
        self.doc = host.doc
        self.files: list[EvidenceFile] = []
        self.clock: RecoveryClock | None = None
        self.error = ""
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._show)
        self.runner.failed.connect(self._failed)
        self._build()
        self.doc.raw_changed.connect(lambda *_: self.reforecast())

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        split = QSplitter(Qt.Orientation.Horizontal, self)
        QVBoxLayout(self).addWidget(split)
        split.addWidget(self._left())
        split.addWidget(self._right())
        split.setSizes([320, 780])

    def _left(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        v.addWidget(QLabel("<b>Snapshots and PREVIEW</b> (drop files here)"))
        self.file_list = QListWidget()
        self.file_list.setObjectName("clock_files")
        v.addWidget(self.file_list, 1)
        row = QHBoxLayout()
        for text, slot in (
            ("Add Files…", self.add_files),
            ("Paste…", self.paste),
            ("Clear", self.clear),
        ):
            b = QPushButton(text)
            b.clicked.connect(lambda _c=False, s=slot: s())
            row.addWidget(b)
        v.addLayout(row)
        self.failed_check = QCheckBox("Failure at")
        self.failed_edit = QDateTimeEdit()
        self.failed_edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.failed_edit.setCalendarPopup(True)
        self.failed_edit.setEnabled(False)
        self.failed_check.toggled.connect(self.failed_edit.setEnabled)
        self.failed_check.toggled.connect(lambda _t: self.reforecast())
        self.failed_edit.dateTimeChanged.connect(lambda _d: self.reforecast())
        fr = QHBoxLayout()
        fr.addWidget(self.failed_check)
        fr.addWidget(self.failed_edit, 1)
        v.addLayout(fr)
        return w

    def _right(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        self.headline = QLabel("Drop V$SESSION_LONGOPS / V$RECOVERY_PROGRESS snapshots to start.")
        self.headline.setObjectName("clock_headline")
        self.headline.setWordWrap(True)
        f = self.headline.font()
        f.setPointSizeF(f.pointSizeF() * 1.4)
        f.setBold(True)
        self.headline.setFont(f)
        self.deadline = QLabel()
        self.deadline.setWordWrap(True)
        v.addWidget(self.headline)
        v.addWidget(self.deadline)
        self.phases = QTableWidget(0, 4)
        self.phases.setObjectName("clock_phases")
        self.phases.setHorizontalHeaderLabels(["Phase", "Status", "Start", "End"])
        self.phases.verticalHeader().hide()
        self.phases.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        v.addWidget(self.phases, 2)
        v.addWidget(self._plot(), 3)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        v.addWidget(self.notes)
        self.pdf_button = QPushButton("Status PDF…")
        self.pdf_button.setEnabled(False)
        self.pdf_button.clicked.connect(lambda _c=False: self.export_pdf())
        v.addWidget(self.pdf_button, 0, Qt.AlignmentFlag.AlignRight)
        return w

    def _plot(self) -> pg.PlotWidget:
        th = PlotTheme.current()
        axes = {"bottom": pg.DateAxisItem("bottom"), "left": pg.DateAxisItem("left")}
        self.plot = pg.PlotWidget(axisItems=axes)
        self.plot.setObjectName("clock_plot")
        self.plot.setBackground(th.background)
        item = self.plot.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        item.showGrid(x=True, y=True, alpha=th.grid_alpha)
        item.setLabel("bottom", "Snapshot")
        item.setLabel("left", "Forecast open")
        item.addLegend(offset=(10, 10))
        self.p50_curve = pg.PlotDataItem(
            [],
            [],
            pen=mkpen(th.accent, 2),
            symbol="o",
            symbolSize=5,
            symbolBrush=th.accent,
            name="P50",
        )
        self.p90_curve = pg.PlotDataItem([], [], pen=mkpen(th.bottleneck, 1.5), name="P90")
        self.deadline_line = pg.InfiniteLine(
            angle=0, movable=False, pen=mkpen(VERDICT_COLORS["misses"], 1.5, Qt.PenStyle.DashLine)
        )
        for it in (self.p90_curve, self.p50_curve, self.deadline_line):
            self.plot.addItem(it)
        return self.plot

    # ------------------------------------------------------------------ evidence

    def add_files(self, paths: list[str] | None = None) -> None:
        if paths is None:
            paths, _ = QFileDialog.getOpenFileNames(
                self, "Snapshots of the recovery", "", EVIDENCE_FILTER
            )
        for p in paths:
            try:
                with open(p, "rb") as fh:
                    self.add_bytes(fh.read(64 * 1024 * 1024 + 1), p)
            except OSError as exc:
                QMessageBox.warning(self, "Recovery in Progress", f"{p}: {exc.strerror or exc}")

    def add_bytes(self, data: bytes, source: str) -> bool:
        """Read one piece of evidence (a file's bytes or pasted text) and re-forecast."""
        try:
            ev = read_evidence_bytes(data, source)
        except CoreError as exc:
            QMessageBox.warning(self, "Recovery in Progress", str(exc))
            return False
        self.files.append(ev)
        self.file_list.addItem(f"{source.rsplit('/', 1)[-1]} — {ev.kind}")
        self.reforecast()
        return True

    def paste(self, text: str | None = None) -> bool:
        if text is None:
            text, ok = QInputDialog.getMultiLineText(
                self, "Paste a snapshot", "SQL*Plus output or CSV of the queries in the user guide:"
            )
            if not ok:
                return False
        return self.add_bytes(text.encode("utf-8"), f"pasted {datetime.now():%H:%M:%S}")

    def clear(self) -> None:
        self.files.clear()
        self.file_list.clear()
        self.clock = None
        self.headline.setText("Drop V$SESSION_LONGOPS / V$RECOVERY_PROGRESS snapshots to start.")
        self.pdf_button.setEnabled(False)

    def dragEnterEvent(self, event: Any) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: Any) -> None:
        self.add_files([u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()])

    # ------------------------------------------------------------------ forecast

    def failed_at(self) -> datetime | None:
        if not self.failed_check.isChecked():
            return None
        return self.failed_edit.dateTime().toPython()

    def reforecast(self) -> None:
        scenario = self.doc.scenario
        if not self.files or scenario is None:
            return
        self.runner.submit(recovery_clock, scenario, list(self.files), failed_at=self.failed_at())

    @Slot(object)
    def _show(self, clock: object) -> None:
        assert isinstance(clock, RecoveryClock)
        self.clock = clock
        h = clock.headline()
        self.headline.setText(h[0].upper() + h[1:])
        p = clock.now.p_by_deadline
        chance = "" if p is None else f" — {format_percent(p, 0)} likely to open by then"
        self.deadline.setText(
            f"RTO runs out at {clock.deadline:%Y-%m-%d %H:%M} (failure "
            f"{clock.failed_at:%H:%M}){chance}. As of {clock.now.at:%H:%M:%S}."
        )
        if not self.failed_check.isChecked():
            self.failed_edit.blockSignals(True)
            self.failed_edit.setDateTime(QDateTime(clock.failed_at))
            self.failed_edit.blockSignals(False)
        self._fill_phases(clock)
        self._draw(clock)
        self.notes.setText("<br>".join(f"• {n}" for n in clock.notes))
        self.pdf_button.setEnabled(True)

    def _fill_phases(self, clock: RecoveryClock) -> None:
        rows = [p for p in clock.phases if p.start or p.end]
        self.phases.setRowCount(len(rows))
        for r, p in enumerate(rows):
            end = "" if p.end is None else ("≈ " if p.status != "done" else "") + f"{p.end:%H:%M}"
            cells = [PHASE_TITLES[p.name], p.status, f"{p.start:%H:%M}" if p.start else "", end]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if p.status == "running":
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                self.phases.setItem(r, c, item)
        self.phases.resizeColumnsToContents()

    def _draw(self, clock: RecoveryClock) -> None:
        xs = [_epoch(f.at) for f in clock.history]
        self.p50_curve.setData(xs, [_epoch(f.open_p50) for f in clock.history])
        self.p90_curve.setData(xs, [_epoch(f.open_p90) for f in clock.history])
        self.deadline_line.setPos(_epoch(clock.deadline))

    @Slot(object)
    def _failed(self, exc: object) -> None:
        self.error = str(exc)
        if isinstance(exc, CoreError):
            self.headline.setText(str(exc))
        else:
            raise exc if isinstance(exc, BaseException) else RuntimeError(str(exc))

    def export_pdf(self, path: str | None = None) -> bool:
        if self.clock is None:
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, "Status PDF", "recovery_status.pdf", "PDF (*.pdf)"
            )
        if not path:
            return False
        from rtoplanner.core.evidence.status_pdf import render_status_pdf
        from rtoplanner.core.outfile import write_output_bytes

        try:
            write_output_bytes(path, render_status_pdf(self.clock))
        except CoreError as exc:
            QMessageBox.warning(self, "Status PDF", str(exc))
            return False
        return True

    def shutdown(self) -> None:
        self.runner.cancel()
        self.runner.wait()

    def closeEvent(self, event: Any) -> None:
        self.runner.cancel()
        super().closeEvent(event)


class ClockController:
    """View › Recovery in Progress…: the window, made the first time it is asked for."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.window: ClockWindow | None = None

    def show_window(self) -> ClockWindow:
        if self.window is None:
            self.window = ClockWindow(self.host)
        self.window.show()
        self.window.raise_()
        return self.window

    def shutdown(self) -> None:
        if self.window is not None:
            self.window.shutdown()
            self.window.close()


__all__ = ["ClockController", "ClockWindow"]
