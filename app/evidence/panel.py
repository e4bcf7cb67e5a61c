"""The Evidence window: the scenario's drills (restore tests) and each one's plan vs actual.

A self-contained panel in a window of its own (registered in `evidence/__init__.py`),
following the plan of the scenario in the main window: the drill history of the
scenario in the window (table, and each drill's error over time), the selected drill's
phases (plan vs actual, table and bars), and the commands: *Add Drill…* (RMAN log and V$
exports, read and recorded off the GUI thread), *Calibrate from Drill…* (the Bayesian
update shown as a diff, applied as one undoable step) and *Delete Drill*. Everything it
computes is `core.evidence`'s.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.plan import Plan
from rtoplanner.core.store.drills import StoredDrill, drills
from rtoplanner.core.wording import fared

from ..plots.common import DurationAxis, category_axis, mkpen
from ..shell.placement import fit_size
from ..tables import read_only_table
from ..theme import PlotTheme
from ..workers import TaskRunner
from .models import DrillTableModel, PhaseRow, PhaseTableModel

EVIDENCE_FILTER = "Restore evidence (*.log *.txt *.lst *.csv *.out);;All files (*)"


def record_from_files(store: Any, text: str, source: str, paths: list[str]) -> StoredDrill:
    """Worker: read the evidence and record a drill against the document's scenario."""
    from rtoplanner.core.evidence.record import read_evidence_paths, record_drill, version_for_text

    evidence = read_evidence_paths(paths)
    name, version, _ = version_for_text(store, text, source, "saved to record a drill")
    return record_drill(store, name, version, evidence).stored


class EvidencePanel(QWidget):
    title = "Evidence"

    def __init__(self, host: Any) -> None:
        super().__init__()
        self.setObjectName("evidence_panel")
        self.doc = host.doc
        self.store_service = host.store_service
        self.theme = PlotTheme.current()
        self.plan: Plan | None = None
        self.scenario_name: str | None = None
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._recorded)
        self.runner.failed.connect(self._failed)
        self._build()
        if self.store_service is not None:
            self.store_service.changed.connect(self._store_changed)

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setObjectName("evidence_heading")
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        bar = QHBoxLayout()
        self.add_button = self._button(
            bar,
            "Add Drill…",
            self.add_drill,
            "Record a restore test from its RMAN log and V$ exports",
        )
        self.calibrate_button = self._button(
            bar,
            "Calibrate from Drill…",
            self.calibrate_selected,
            "Update the figures this drill measured (Bayesian)",
        )
        self.delete_button = self._button(
            bar, "Delete Drill", self.delete_selected, "Remove the selected drill from the history"
        )
        bar.addStretch(1)
        layout.addLayout(bar)
        self.drill_model = DrillTableModel(self)
        self.drill_table = read_only_table(self.drill_model, "drill_table")
        self.drill_table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())
        self.phase_model = PhaseTableModel(self)
        self.phase_table = read_only_table(self.phase_model, "drill_phase_table")
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setObjectName("drill_notes")
        self.bars = self._bar_plot()
        self.history = self._history_plot()
        split = QSplitter(Qt.Orientation.Vertical)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.drill_table)
        top.addWidget(self.history)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.phase_table)
        lv.addWidget(self.notes)
        bottom.addWidget(left)
        bottom.addWidget(self.bars)
        split.addWidget(top)
        split.addWidget(bottom)
        for pair in (top, bottom):  # the tables get most of the width: they carry the figures
            pair.setStretchFactor(0, 3)
            pair.setStretchFactor(1, 2)
            pair.setSizes([660, 440])
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout.addWidget(split, 1)
        self._enable()

    @staticmethod
    def _button(bar: QHBoxLayout, text: str, slot: Any, tip: str) -> QPushButton:
        b = QPushButton(text)
        b.setToolTip(tip)
        b.clicked.connect(lambda _c=False: slot())
        bar.addWidget(b)
        return b

    def _bar_plot(self) -> pg.PlotWidget:
        plot = pg.PlotWidget(axisItems={"bottom": DurationAxis("bottom")})
        plot.setObjectName("drill_bars")
        plot.setBackground(self.theme.background)
        item = plot.getPlotItem()
        item.getViewBox().invertY(True)
        item.setMenuEnabled(False)
        item.hideButtons()
        item.addLegend(offset=(-10, 10))
        self.plan_bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.38, name="plan")
        self.actual_bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.38, name="drill")
        plot.addItem(self.plan_bars)
        plot.addItem(self.actual_bars)
        item.setLabel("bottom", "Phase duration: plan and drill")
        return plot

    def _history_plot(self) -> pg.PlotWidget:
        plot = pg.PlotWidget()
        plot.setObjectName("drill_history")
        plot.setBackground(self.theme.background)
        item = plot.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        item.setLabel("left", "Drill − plan", units="%")
        item.setLabel("bottom", "Drill")
        item.getAxis("left").enableAutoSIPrefix(False)
        self.zero_line = pg.InfiniteLine(pos=0, angle=0, pen=mkpen(self.theme.muted, 1))
        plot.addItem(self.zero_line)
        self.history_curve = pg.PlotDataItem(
            [], [], symbol="o", pen=mkpen(self.theme.accent, 1.5), symbolBrush=self.theme.accent
        )
        plot.addItem(self.history_curve)
        return plot

    # ------------------------------------------------------------------ protocol

    def set_plan(self, plan: Plan) -> None:
        self.plan = plan
        name = plan.scenario.name
        if name != self.scenario_name:
            self.scenario_name = name
            self.reload()

    def set_binary(self, binary: bool) -> None:
        self.phase_model.refresh()

    def apply_theme(self) -> None:
        self.theme = PlotTheme.current()
        for plot in (self.bars, self.history):
            plot.setBackground(self.theme.background)
        self._show_selected()

    def shutdown(self) -> None:
        self.runner.cancel()
        self.runner.wait()

    # ------------------------------------------------------------------ data

    @property
    def store(self) -> Any:
        return getattr(self.store_service, "store", None)

    def reload(self) -> None:
        """The drills of the scenario in the window, from the store."""
        found: list[StoredDrill] = []
        if self.store is not None and self.scenario_name:
            found = drills(self.store, self.scenario_name)
        selected = self.selected()
        self.drill_model.set_rows(found)
        self.drill_table.resizeColumnsToContents()
        self._heading(found)
        self._draw_history(found)
        row = next(
            (i for i, d in enumerate(found) if selected and d.number == selected.number),
            len(found) - 1,
        )
        if found:
            self.drill_table.selectRow(row)
        else:
            self.phase_model.set_rows([])
            self._draw_bars([])
            self.notes.setText("")
        self._enable()

    def _heading(self, found: list[StoredDrill]) -> None:
        if self.store is None:
            why = getattr(self.store_service, "error", None) or "no store"
            self.heading.setText(f"Drills are kept in the store, which is not available ({why}).")
            return
        name = self.scenario_name or "this scenario"
        if not found:
            self.heading.setText(
                f"No drill of <b>{name}</b> yet: <i>Add Drill…</i> reads the RMAN "
                "log of a test restore (and V$RMAN_STATUS, V$RECOVERY_PROGRESS)."
            )
            return
        said = fared([d.comparison for d in found]) or ""
        self.heading.setText(
            f"<b>{len(found)} drill{'s' if len(found) > 1 else ''}</b> of <b>{name}</b> — {said}."
        )

    def selected(self) -> StoredDrill | None:
        return self.drill_model.row_at(self.drill_table.currentIndex())

    def _show_selected(self) -> None:
        d = self.selected()
        rows = (
            [
                PhaseRow(r)
                for r in d.comparison["rows"]
                if not (r["actual_s"] is None and r["plan_s"] == 0)
            ]
            if d
            else []
        )
        self.phase_model.set_rows(rows)
        self.phase_table.resizeColumnsToContents()
        self._draw_bars(rows)
        notes = (list(d.drill.get("notes", [])) + list(d.comparison.get("notes", []))) if d else []
        self.notes.setText("<br>".join(f"• {n}" for n in notes))
        self._enable()

    def _draw_bars(self, rows: list[PhaseRow]) -> None:
        shown = [r for r in rows if r.d["actual_s"] is not None]
        y = list(range(len(shown)))
        plan = [r.d["plan_s"] for r in shown]
        actual = [r.d["actual_s"] for r in shown]
        th = self.theme
        self.plan_bars.setOpts(
            x0=[0] * len(y),
            y=[i - 0.2 for i in y],
            width=plan,
            height=0.38,
            brush=th.backup,
            pen=mkpen(th.backup, 1),
        )
        self.actual_bars.setOpts(
            x0=[0] * len(y),
            y=[i + 0.2 for i in y],
            width=actual,
            height=0.38,
            brush=th.accent,
            pen=mkpen(th.accent, 1),
        )
        category_axis(self.bars, [r.title for r in shown])
        self.bars.getPlotItem().setYRange(-0.6, max(len(y), 1) - 0.4, padding=0)
        if plan:
            self.bars.getPlotItem().setXRange(0, max(plan + actual) * 1.05, padding=0)

    def _draw_history(self, found: list[StoredDrill]) -> None:
        pts = [
            (d.number, d.comparison["error"] * 100)
            for d in found
            if d.comparison.get("error") is not None
        ]
        self.history_curve.setData([p[0] for p in pts], [p[1] for p in pts])
        self.history.getPlotItem().getAxis("bottom").setTicks([[(n, str(n)) for n, _ in pts], []])

    def _enable(self) -> None:
        has_store = self.store is not None
        has_drill = self.selected() is not None
        self.add_button.setEnabled(
            has_store and self.doc.scenario is not None and not self.runner.busy
        )
        self.calibrate_button.setEnabled(has_drill and self.doc.scenario is not None)
        self.delete_button.setEnabled(has_drill)

    # ------------------------------------------------------------------ commands

    def add_drill(self, paths: list[str] | None = None) -> bool:
        """Ask for the evidence files (or take `paths`) and record the drill off the GUI
        thread against the scenario as it is in the window."""
        if self.store is None or self.doc.scenario is None:
            return False
        if paths is None:
            paths, _ = QFileDialog.getOpenFileNames(
                self, "Evidence of a restore test", "", EVIDENCE_FILTER
            )
        if not paths:
            return False
        self.runner.submit(
            record_from_files, self.store, self.doc.text(), self.doc.display_name, list(paths)
        )
        self._enable()
        return True

    @Slot(object)
    def _recorded(self, stored: object) -> None:
        self.reload()
        if isinstance(stored, StoredDrill):
            row = next(
                (i for i, d in enumerate(self.drill_model.rows) if d.number == stored.number), None
            )
            if row is not None:
                self.drill_table.selectRow(row)

    @Slot(object)
    def _failed(self, exc: object) -> None:
        self._enable()
        if isinstance(exc, CoreError):
            QMessageBox.warning(self, "Add Drill", str(exc))
        else:
            raise exc if isinstance(exc, BaseException) else RuntimeError(str(exc))

    def delete_selected(self) -> bool:
        d = self.selected()
        if d is None or self.store is None:
            return False
        from rtoplanner.core.store.drills import delete_drill

        delete_drill(self.store, d.number)
        self.reload()
        return True

    def calibrate_selected(self, apply: bool | None = None) -> bool:
        """Show the calibration from the selected drill; apply it as one undoable step
        when accepted (or when `apply` is given, without asking: for tests)."""
        from .dialogs import CalibrationDialog, calibration_for

        d = self.selected()
        if d is None or self.doc.scenario is None:
            return False
        try:
            cal = calibration_for(self.doc.scenario, d)
        except CoreError as exc:
            QMessageBox.information(self, "Calibrate from Drill", str(exc))
            return False
        if apply is None:
            apply = CalibrationDialog(cal, d, self).exec() == CalibrationDialog.DialogCode.Accepted
        if apply:
            from rtoplanner.core.evidence.edits import raw_edits

            self.doc.set_values(
                raw_edits(self.doc.scenario, cal.scenario), f"Calibrate from drill {d.number}"
            )
        return bool(apply)

    @Slot(object)
    def _store_changed(self, changes: object) -> None:
        if getattr(changes, "drills", False) or getattr(changes, "scenarios", False):
            self.reload()


class EvidenceController:
    """View › Evidence (Drills)…: the window, made the first time, following the
    document's plan, units and theme."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.window: QWidget | None = None
        self.panel: EvidencePanel | None = None

    def show_window(self) -> EvidencePanel:
        if self.window is None:
            self.window = QWidget(None)
            self.window.setWindowFlag(Qt.WindowType.Window, True)
            self.window.setObjectName("evidence_window")
            self.window.setWindowTitle("Evidence: drills — RTO Planner")
            fit_size(self.window, 1100, 720)
            self.panel = EvidencePanel(self.host)
            QVBoxLayout(self.window).addWidget(self.panel)
            self.host.doc.plan_changed.connect(self._plan)
            if self.host.doc.plan is not None:
                self.panel.set_plan(self.host.doc.plan)
        self.window.show()
        self.window.raise_()
        assert self.panel is not None
        return self.panel

    @Slot(object)
    def _plan(self, plan: object) -> None:
        if self.panel is not None and isinstance(plan, Plan):
            self.panel.set_plan(plan)

    def set_binary(self, binary: bool) -> None:
        if self.panel is not None:
            self.panel.set_binary(binary)

    def apply_theme(self) -> None:
        if self.panel is not None:
            self.panel.apply_theme()

    def shutdown(self) -> None:
        if self.panel is not None:
            self.panel.shutdown()
        if self.window is not None:
            self.window.close()


__all__ = ["EvidenceController", "EvidencePanel", "record_from_files"]
