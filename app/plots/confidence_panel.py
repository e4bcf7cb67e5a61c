"""Confidence: how likely the plan is to hold (DESIGN §7) — the distribution of the
recovery time with the RTO line, P(meets / at risk / misses), the tornado of the figures
that decide it, and the ranges, editable in place.

The panel is fed a `Plan` like the others. The Monte Carlo run (core's `run_risk`,
`GUI_TRIALS` trials) goes to a worker: the previous answer stays on screen until the new
one lands, a newer plan cancels the run in flight, and Stop cancels it by hand. Editing a
range writes the scenario's `[uncertainty]` table through `set_value` (an undoable edit),
which brings a new plan and so a new run.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.catalog import Catalog
from rtoplanner.core.errors import CoreError
from rtoplanner.core.plan import Plan
from rtoplanner.core.uncertainty.inputs import uncertain_inputs
from rtoplanner.core.uncertainty.result import RiskResult
from rtoplanner.core.uncertainty.words import headline, percent
from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import plural

from ..models.ranges_table_model import COL_FROM, COL_RANGE, RangesTableModel
from ..theme import VERDICT_COLORS
from ..workers import TaskRunner
from .common import (
    DurationAxis,
    PlanPanel,
    alpha,
    category_axis,
    mkpen,
    short_duration,
    text_item,
)

GUI_TRIALS = 20_000
TORNADO_ROWS = 8
LOW_END_COLOR = "#4f93d8"
HIGH_END_COLOR = "#e8793a"

SetValue = Callable[[str, Any], None]


def _risk(scenario, catalog, trials, progress=None, should_cancel=None) -> RiskResult:
    """The worker's job: a plain core call (imported here so the GUI starts without it)."""
    from rtoplanner.core.uncertainty.analysis import run_risk

    return run_risk(
        scenario, trials=trials, catalog=catalog, progress=progress, should_cancel=should_cancel
    )


def _short(label: str, width: int = 26) -> str:
    """A tornado row's label, short enough to leave the bars room (the table has it all)."""
    return label if len(label) <= width else label[: width - 1].rstrip() + "…"


class RangeDelegate(QStyledItemDelegate):
    """A line edit that hands every keystroke to the model (the run follows the typing);
    it is filled once, so a plan arriving mid-typing never resets the text."""

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        line = QLineEdit(parent)
        line.setObjectName("range_editor")
        line.textEdited.connect(lambda _t, w=line: self.commitData.emit(w))
        return line

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QLineEdit) and not editor.property("filled"):
            editor.setText(str(index.data(Qt.ItemDataRole.EditRole) or ""))
            editor.setProperty("filled", True)

    def setModelData(self, editor: QWidget, model, index) -> None:
        if isinstance(editor, QLineEdit):
            model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)


class _WrappingLabel(QLabel):
    """A word-wrapped label that keeps the height its wrapped text needs at its width.

    Qt's layouts do not pass height-for-width through the splitters and tabs around the
    panel, so a plain wrapped label gets one line's height and loses the rest."""

    def _fit(self) -> None:
        # QLabel.heightForWidth over-estimates a wrapped rich-text table by a few lines;
        # lay the text out as the label draws it instead.
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(self.text())
        doc.setTextWidth(max(self.contentsRect().width(), 1))
        m = self.contentsMargins()
        need = math.ceil(doc.size().height()) + m.top() + m.bottom()
        if need != self.minimumHeight():
            self.setFixedHeight(need)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()


def _whole(words: str, p: float) -> str:
    """`meets 38 %` as HTML that never breaks inside."""
    return escape(f"{words} {percent(p)}").replace(" ", "&nbsp;")


def _percentiles(d: Any, *, nbsp: bool = False) -> list[str]:
    """`P50 3 h 44 min`, … — kept whole (non-breaking spaces) when `nbsp`, so a narrow
    label wraps between percentiles, never inside one."""
    items = [f"P{p} {short_duration(d.percentile(p))}" for p in (50, 90, 95, 99)]
    return [escape(i).replace(" ", "&nbsp;") for i in items] if nbsp else items


class ConfidencePanel(PlanPanel):
    title = "Confidence"
    needs_full_plan = False
    readable_height = 600
    """The probabilities, both plots and four rows of ranges: a shorter window scrolls."""
    readable_width = 500

    def __init__(
        self,
        set_value: SetValue | None = None,
        catalog: Catalog | None = None,
        trials: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.trials = trials or GUI_TRIALS
        self.result: RiskResult | None = None
        self.result_count = 0
        self.error = ""
        self._scenario = None
        self._set_value = set_value
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._on_result)
        self.runner.failed.connect(self._on_failed)
        self.runner.busy_changed.connect(self._on_busy)

        self.probabilities = _WrappingLabel()
        self.probabilities.setObjectName("probabilities")
        self.probabilities.setTextFormat(Qt.TextFormat.RichText)
        # Wraps between percentiles on a narrow window rather than being cut off; the
        # tooltip has the whole line too.
        self.probabilities.setWordWrap(True)
        self.probabilities.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.probabilities.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.status = QLabel()
        self.status.setObjectName("risk_status")
        self.stop_button = QToolButton()
        self.stop_button.setText("Stop")
        self.stop_button.setToolTip("Stop the run in progress (the last answer stays)")
        self.stop_button.clicked.connect(self.cancel)
        self.stop_button.setVisible(False)
        self._layout.addWidget(self.probabilities)

        self.dist_plot = self._make_distribution_plot()
        self.tornado_plot = self._make_tornado_plot()
        plots = QSplitter(Qt.Orientation.Horizontal)
        plots.addWidget(self.dist_plot)
        plots.addWidget(self.tornado_plot)
        plots.setSizes([500, 500])

        self.model = RangesTableModel(self._set_range, self)
        self.table = QTableView()
        self.table.setObjectName("ranges_table")
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(COL_RANGE, RangeDelegate(self.table))
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((210, 90, 100, 90, 90)):
            self.table.setColumnWidth(col, width)
        self.model.dataChanged.connect(self._show_table_error)

        self.table.setWordWrap(False)
        table_box = QWidget()
        box = QVBoxLayout(table_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        caption = QHBoxLayout()
        ranges_label = QLabel("<b>Ranges</b> — type in the Range column; empty it for the default")
        ranges_label.setToolTip(
            "±15% or -40%..+20% (relative to the value), 3%..9% or 90 MB/s..140 MB/s "
            "(absolute ends); the value is the most likely figure"
        )
        ranges_label.setTextFormat(Qt.TextFormat.RichText)
        ranges_label.setWordWrap(True)  # lets the view fit a 1024 px window
        caption.addWidget(ranges_label, 1)
        caption.addWidget(self.status)
        caption.addWidget(self.stop_button)
        box.addLayout(caption)
        box.addWidget(self.table, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(plots)
        split.addWidget(table_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([330, 220])
        self._layout.addWidget(split, 1)
        self.finish_layout()

    # ------------------------------------------------------------------ plots

    def _make_distribution_plot(self) -> pg.PlotWidget:
        plot = self.new_plot(bottom=DurationAxis("bottom"))
        item = plot.getPlotItem()
        item.setLabel("bottom", "Recovery time (failure at the worst moment)")
        item.setLabel("left", "Share of trials (%)")
        item.showAxis("right")
        item.getAxis("right").setLabel("Recovered by then (%)")
        self.cdf_box = pg.ViewBox()
        self.cdf_box.setMouseEnabled(x=False, y=False)
        item.scene().addItem(self.cdf_box)
        item.getAxis("right").linkToView(self.cdf_box)
        self.cdf_box.setXLink(item)
        self.cdf_box.setYRange(0, 100, padding=0)
        item.getViewBox().sigResized.connect(self._sync_cdf_box)
        self.bars = pg.BarGraphItem(x0=[], x1=[], height=[], y0=[])
        plot.addItem(self.bars)
        self.cdf_worst = pg.PlotDataItem([], [])
        self.cdf_uniform = pg.PlotDataItem([], [])
        self.cdf_box.addItem(self.cdf_worst)
        self.cdf_box.addItem(self.cdf_uniform)
        self.rto_line = pg.InfiniteLine(angle=90, movable=False)
        self.risk_line = pg.InfiniteLine(angle=90, movable=False)
        self.plan_line = pg.InfiniteLine(angle=90, movable=False)
        for line in (self.rto_line, self.risk_line, self.plan_line):
            plot.addItem(line)
        self.rto_label = text_item(VERDICT_COLORS["misses"], anchor=(1.05, 0), bold=True)
        plot.addItem(self.rto_label)
        return plot

    @Slot()
    def _sync_cdf_box(self) -> None:
        vb = self.dist_plot.getPlotItem().getViewBox()
        self.cdf_box.setGeometry(vb.sceneBoundingRect())
        self.cdf_box.linkedViewChanged(vb, self.cdf_box.XAxis)

    def _make_tornado_plot(self) -> pg.PlotWidget:
        plot = self.new_plot(bottom=DurationAxis("bottom"))
        item = plot.getPlotItem()
        item.setLabel("bottom", "Recovery time: low end blue, high end orange")
        item.getViewBox().invertY(True)
        self.low_bars = pg.BarGraphItem(x0=[], x1=[], y=[], height=0.6)
        self.high_bars = pg.BarGraphItem(x0=[], x1=[], y=[], height=0.6)
        plot.addItem(self.low_bars)
        plot.addItem(self.high_bars)
        self.base_line = pg.InfiniteLine(angle=90, movable=False)
        self.tornado_rto = pg.InfiniteLine(angle=90, movable=False)
        plot.addItem(self.base_line)
        plot.addItem(self.tornado_rto)
        self.tornado_empty = text_item(self.theme.muted, anchor=(0.5, 0.5))
        plot.addItem(self.tornado_empty)
        return plot

    # ------------------------------------------------------------------ plan → run

    def set_plan(self, plan: Plan) -> None:
        self.plan = plan
        self.update_count += 1
        if plan.scenario is self._scenario:
            return  # the full plan of the same scenario: nothing new to run
        self._scenario = plan.scenario
        try:
            rows = uncertain_inputs(plan.scenario, self.catalog)
        except CoreError as exc:
            self.error = str(exc)
            rows = ()
        self.model.show_inputs(plan.scenario, rows)
        self.runner.submit(_risk, plan.scenario, self.catalog, self.trials)
        if self.result is None:
            self.headline.setText("Running the plan on many trials…")

    def set_binary(self, binary: bool) -> None:
        self.binary = binary
        self.model.set_binary(binary)

    def apply_theme(self) -> None:
        super().apply_theme()
        if self.result is not None:
            self.redraw()

    @Slot()
    def cancel(self) -> None:
        """Stop the run in flight; the last answer stays on screen."""
        self.runner.cancel()
        self._on_busy(False)
        self.status.setText("stopped — edit a figure or a range to run again")

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self.runner.wait(timeout_ms)

    def wait_idle(self, timeout_ms: int = 10000) -> bool:
        """Process events until the run in flight has landed (tests, screenshots)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer

        deadline = QDeadlineTimer(timeout_ms)
        while self.runner.busy and not deadline.hasExpired():
            self.runner.pool.waitForDone(10)
            QCoreApplication.processEvents()
        return not self.runner.busy

    @Slot(object)
    def _on_result(self, result: object) -> None:
        if not isinstance(result, RiskResult):
            return
        self.result = result
        self.result_count += 1
        self.error = ""
        self.status.setText(f"{result.trials:,} trials, seed {result.seed}")
        self.redraw()

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self.error = str(exc)
        self.status.setText("")
        self.note.setText(
            f"<span style='color:{VERDICT_COLORS['misses']}'>The run failed: "
            f"{escape(self.error)}</span>"
        )

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        self.stop_button.setVisible(busy)
        if busy:
            self.status.setText(f"running {self.trials:,} trials…")

    def _set_range(self, table_key: str, text: str | None) -> None:
        if self._set_value is not None:
            self._set_value(f"uncertainty.{table_key}", text)

    @Slot()
    def _show_table_error(self) -> None:
        problem = self.model.first_error()
        if problem is not None:
            label, reason = problem
            self.note.setText(
                f"<span style='color:{VERDICT_COLORS['misses']}'>{escape(label)}: "
                f"{escape(reason)}</span> — the last valid range is used"
            )
        elif self.result is not None:
            self.note.setText(self._note_text(self.result))

    # ------------------------------------------------------------------ drawing

    def redraw(self) -> None:
        r = self.result
        if r is None:
            return
        self.headline.setText(escape(headline(r)))
        self.probabilities.setText(self._probabilities_html(r))
        self.probabilities.setToolTip(self._probabilities_plain(r))
        self._draw_distribution(r)
        self._draw_tornado(r)
        self._show_table_error()

    def _probabilities_html(self, r: RiskResult) -> str:
        c = VERDICT_COLORS
        dot = "<td>&nbsp;·&nbsp;</td>"
        rows = []
        for mode, words in (("worst", "Worst moment"), ("uniform", "Any moment")):
            d = r.distribution(mode)
            rows.append(
                f"<tr><td><b>{words.replace(' ', '&nbsp;')}</b>&nbsp;&nbsp;</td>"
                f"<td style='color:{c['meets']}'>{_whole('meets', d.p_meets)}</td>{dot}"
                f"<td style='color:{c['at_risk']}'>{_whole('at risk', d.p_at_risk)}</td>"
                f"{dot}<td style='color:{c['misses']}'>{_whole('misses', d.p_misses)}</td></tr>"
                # The percentiles on a row of their own, across the table: beside the
                # probabilities a 1024 px window left them a column four lines tall.
                f"<tr><td></td><td colspan='5'>{' · '.join(_percentiles(d, nbsp=True))}</td></tr>"
            )  # fmt: skip
        return "<table cellspacing='0'>" + "".join(rows) + "</table>"

    @staticmethod
    def _probabilities_plain(r: RiskResult) -> str:
        """The probabilities line as plain text (the label's tooltip)."""
        lines = []
        for mode, words in (("worst", "Worst moment"), ("uniform", "Any moment")):
            d = r.distribution(mode)
            lines.append(
                f"{words}: meets {percent(d.p_meets)} · at risk {percent(d.p_at_risk)} · "
                f"misses {percent(d.p_misses)} — {' · '.join(_percentiles(d))}"
            )
        return "\n".join(lines)

    def _draw_distribution(self, r: RiskResult) -> None:
        th = self.theme
        d = r.worst
        edges = np.asarray(d.hist_edges_s)
        counts = np.asarray(d.hist_counts, dtype=float) * 100.0 / max(r.trials, 1)
        mids = (edges[:-1] + edges[1:]) / 2
        at_risk = np.where(
            r.rto_s - mids < r.risk_margin_s, VERDICT_COLORS["at_risk"], VERDICT_COLORS["meets"]
        )
        colors = np.where(mids > r.rto_s, VERDICT_COLORS["misses"], at_risk)
        self.bars.setOpts(
            x0=edges[:-1], x1=edges[1:], y0=np.zeros(len(counts)), height=counts,
            brushes=[pg.mkBrush(alpha(col, 150)) for col in colors],
            pens=[mkpen(th.background, 0.5)] * len(counts),
        )  # fmt: skip
        probs = np.linspace(0, 100, len(d.cdf_s))
        self.cdf_worst.setData(np.asarray(d.cdf_s), probs, pen=mkpen(th.foreground, 1.8))
        self.cdf_uniform.setData(
            np.asarray(r.uniform.cdf_s), probs, pen=mkpen(th.muted, 1.4, Qt.PenStyle.DashLine)
        )
        self.rto_line.setPos(r.rto_s)
        self.rto_line.setPen(mkpen(VERDICT_COLORS["misses"], 2, Qt.PenStyle.DashLine))
        self.risk_line.setPos(r.rto_s - r.risk_margin_s)
        self.risk_line.setPen(mkpen(VERDICT_COLORS["at_risk"], 1.2, Qt.PenStyle.DotLine))
        self.risk_line.setVisible(r.risk_margin_s > 0)
        self.plan_line.setPos(r.deterministic_s)
        self.plan_line.setPen(mkpen(th.accent, 1.2, Qt.PenStyle.DotLine))
        lo = min(float(edges[0]), r.uniform.min_s, r.deterministic_s)
        hi = max(float(edges[-1]), r.rto_s, r.deterministic_s)
        pad = (hi - lo) * 0.05 or hi * 0.05 or 1.0
        self.dist_plot.setXRange(max(0.0, lo - pad), hi + pad, padding=0)
        top = float(counts.max()) if counts.size else 1.0
        self.dist_plot.setYRange(0, max(top * 1.15, 1e-6), padding=0)
        self.rto_label.setText(f"RTO {format_duration(r.rto_s)}")
        self.rto_label.setPos(r.rto_s, top * 1.12)
        self._sync_cdf_box()

    def _draw_tornado(self, r: RiskResult) -> None:
        th = self.theme
        bars = [b for b in r.tornado if b.swing_s > 0][:TORNADO_ROWS]
        base = r.deterministic_s
        n = len(bars)
        ys = np.arange(n, dtype=float)
        lows = np.array([b.low_total_s for b in bars])
        highs = np.array([b.high_total_s for b in bars])
        self.low_bars.setOpts(
            x0=np.minimum(lows, base), x1=np.maximum(lows, base), y=ys, height=0.6,
            brush=pg.mkBrush(LOW_END_COLOR), pen=mkpen(th.background, 0.5),
        )  # fmt: skip
        self.high_bars.setOpts(
            x0=np.minimum(highs, base), x1=np.maximum(highs, base), y=ys, height=0.6,
            brush=pg.mkBrush(HIGH_END_COLOR), pen=mkpen(th.background, 0.5),
        )  # fmt: skip
        category_axis(self.tornado_plot, [_short(b.label) for b in bars])
        self.base_line.setPos(base)
        self.base_line.setPen(mkpen(th.accent, 1.2, Qt.PenStyle.DotLine))
        self.tornado_rto.setPos(r.rto_s)
        self.tornado_rto.setPen(mkpen(VERDICT_COLORS["misses"], 2, Qt.PenStyle.DashLine))
        if n:
            lo = min(float(lows.min()), float(highs.min()), base)
            hi = max(float(lows.max()), float(highs.max()), base, r.rto_s)
        else:
            lo, hi = base * 0.9, max(base, r.rto_s) * 1.1
        pad = (hi - lo) * 0.06 or 1.0
        self.tornado_plot.setXRange(max(0.0, lo - pad), hi + pad, padding=0)
        self.tornado_plot.setYRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.tornado_empty.setText(
            ""
            if n
            else "No figure with a range changes the recovery time.\n"
            "Give ranges in the table below."
        )
        self.tornado_empty.setPos((lo + hi) / 2, 0)

    def _note_text(self, r: RiskResult) -> str:
        varied = len(r.varied)
        pinned = len(r.inputs) - varied
        text = (
            f"{plural(varied, 'figure')} {'varies' if varied == 1 else 'vary'} between their "
            "ends (triangular, the scenario's value most likely); "
            f"{plural(pinned, 'typed figure')} {'is' if pinned == 1 else 'are'} held at their "
            "value — give them a range in "
            "the table if they are estimates. Dotted blue line: the plan with every figure at "
            "its value; dashed curve: a failure at any moment of the cycle."
        )
        return escape(text)

    # ------------------------------------------------------------------ for tests

    def range_cell(self, key: str) -> QModelIndex:
        """The Range cell of the row of `key` (canonical, e.g. `path[0].rate`)."""
        for row, item in enumerate(self.model.rows):
            if item.key == key:
                return self.model.index(row, COL_RANGE)
        raise KeyError(key)

    def from_text(self, key: str) -> str:
        return str(self.model.data(self.range_cell(key).siblingAtColumn(COL_FROM)))
