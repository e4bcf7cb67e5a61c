"""The Confidence view's two charts (DESIGN §7): the distribution of the recovery time
with its CDF, the RTO and at-risk lines, and the tornado of the figures that decide it.

A mixin of `ConfidencePanel` (its plots live on the panel: `panel.bars`,
`panel.low_bars`, …), kept apart so the panel stays a room: what to run and show there,
how to draw here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Slot

from rtoplanner.core.uncertainty.result import RiskResult
from rtoplanner.core.uncertainty.words import histogram_tails

from ..theme import VERDICT_COLORS
from .common import (
    DurationAxis,
    alpha,
    axis_title,
    category_axis,
    label_side,
    mkpen,
    on_background,
    short_duration,
    text_item,
)

TORNADO_ROWS = 8
LOW_END_COLOR = "#4f93d8"
HIGH_END_COLOR = "#e8793a"


def _short(label: str, width: int = 26) -> str:
    """A tornado row's label, short enough to leave the bars room (the table has it all).
    A stage's figure keeps its last words: "EFS-CG NAS h…: rate" and "…: efficiency"
    both read "EFS-CG NAS head (one GigE…" when cut at the end (issue 23)."""
    if len(label) <= width:
        return label
    stage, sep, figure = label.rpartition(": ")
    room = width - len(figure) - len(sep) - 1
    if stage and room >= 6:
        return stage[:room].rstrip() + "…" + sep + figure
    return label[: width - 1].rstrip() + "…"


class ConfidenceCharts:
    """The plots of the Confidence view; mixed into a `PlanPanel` (`new_plot`, `theme`)."""

    theme: Any
    new_plot: Any

    # ------------------------------------------------------------------ plots

    def _make_distribution_plot(self) -> pg.PlotWidget:
        plot = self.new_plot(bottom=DurationAxis("bottom"))
        item = plot.getPlotItem()
        axis_title(plot, "bottom", "Recovery time (failure at the worst moment)",
                   "Recovery time (worst moment)", "Recovery time")  # fmt: skip
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
        # What a long tail leaves out of the bars, at the ends it is cut (issue 23).
        self.tail_below = text_item(self.theme.muted, anchor=(0, 1))
        self.tail_beyond = text_item(self.theme.muted, anchor=(1, 1))
        for label in (self.tail_below, self.tail_beyond):
            plot.addItem(label)
        return plot

    @Slot()
    def _sync_cdf_box(self) -> None:
        vb = self.dist_plot.getPlotItem().getViewBox()
        self.cdf_box.setGeometry(vb.sceneBoundingRect())
        self.cdf_box.linkedViewChanged(vb, self.cdf_box.XAxis)

    def _make_tornado_plot(self) -> pg.PlotWidget:
        plot = self.new_plot(bottom=DurationAxis("bottom"))
        item = plot.getPlotItem()
        # The colours say which end, in few words: the plot is narrow beside the
        # histogram ("… high end ora" was cut at 1440 px).
        ends = (
            f"<span style='color:{LOW_END_COLOR}'>low</span> / "
            f"<span style='color:{HIGH_END_COLOR}'>high</span>"
        )
        axis_title(plot, "bottom", f"Recovery time at the {ends} end", f"{ends} end", ends)
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
        self.rto_label.setText(f"RTO {short_duration(r.rto_s)}")  # "RTO 4 h": fits a narrow plot
        self.rto_label.setPos(r.rto_s, top * 1.12)
        label_side(self.rto_label, self.dist_plot, r.rto_s, max(0.0, lo - pad), hi + pad, 0.0)
        self._draw_tails(r, max(0.0, lo - pad), hi + pad, top)
        self._sync_cdf_box()

    def _draw_tails(self, r: RiskResult, lo: float, hi: float, top: float) -> None:
        """'4.1 % beyond / 3 d 11 h →' above the axis at the end the histogram cuts
        (the core's words, as the PDF prints them; short: the plot is 170 px wide at
        1024 × 700)."""
        texts = histogram_tails(r.worst, r.trials, short=True)
        labels = (self.tail_below, self.tail_beyond)
        for label, text, x in zip(labels, texts, (lo, hi), strict=True):
            label.setText(text)
            label.setVisible(bool(text))
            label.setPos(x, top * 0.04)
            on_background(label, self.dist_plot)

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
