"""Timeline: a Gantt of the recovery phases against the RTO budget (DESIGN §3.4)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from rtoplanner.core.result import Phase
from rtoplanner.core.units import format_duration, format_rate, format_size

from ..theme import PHASE_COLORS, VERDICT_COLORS, VERDICT_WORDS
from .common import DurationAxis, HoverTip, PlanPanel, alpha, category_axis, mkpen, text_item

BAR_HEIGHT = 0.62
MAX_PHASES = 8


class TimelinePanel(PlanPanel):
    title = "Timeline"

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.plot = self.new_plot(bottom=DurationAxis("bottom"))
        item = self.plot.getPlotItem()
        item.getViewBox().invertY(True)
        item.setLabel("bottom", "Time since the failure")
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR_HEIGHT)
        self.plot.addItem(self.bars)
        self.margin_region = pg.LinearRegionItem(values=(0, 0), movable=False)
        self.margin_region.setZValue(-10)
        for line in self.margin_region.lines:
            line.setPen(pg.mkPen(None))
        self.plot.addItem(self.margin_region)
        self.rto_line = pg.InfiniteLine(angle=90, movable=False)
        self.risk_line = pg.InfiniteLine(angle=90, movable=False)
        self.total_line = pg.InfiniteLine(angle=90, movable=False)
        for line in (self.rto_line, self.risk_line, self.total_line):
            self.plot.addItem(line)
        self.rto_label = text_item(VERDICT_COLORS["misses"], anchor=(0, 0), bold=True)
        self.margin_label = text_item(VERDICT_COLORS["meets"], anchor=(0, 0), bold=True)
        self.plot.getViewBox().sigResized.connect(self._fit_x)
        self.plot.addItem(self.rto_label)
        self.plot.addItem(self.margin_label)
        self.labels = [text_item(self.theme.foreground, anchor=(0, 0.5)) for _ in range(MAX_PHASES)]
        for label in self.labels:
            self.plot.addItem(label)
        self.shown: list[Phase] = []
        self.add_plot(self.plot)
        self.finish_layout()
        self.hover = HoverTip(self.plot, self.text_at)

    def redraw(self) -> None:
        plan = self.plan
        assert plan is not None
        rec = plan.recovery
        th = self.theme
        self.shown = [p for p in rec.phases if p.duration_s > 0]
        n = len(self.shown)
        ys = np.arange(n, dtype=float)
        self.bars.setOpts(
            x0=[p.start_s for p in self.shown],
            y=ys,
            width=[p.duration_s for p in self.shown],
            height=BAR_HEIGHT,
            brushes=[pg.mkBrush(PHASE_COLORS[p.name]) for p in self.shown],
            pens=[mkpen(th.background, 1) for _ in self.shown],
        )
        category_axis(self.plot, [p.title for p in self.shown])

        span = max(rec.total_s, rec.rto_s) or 1.0
        for i, label in enumerate(self.labels):
            if i < n:
                p = self.shown[i]
                label.setColor(th.foreground)
                text = format_duration(p.duration_s)
                if p.data_bytes:
                    text += f"  ·  {format_size(p.data_bytes, binary=self.binary)}"
                label.setText(text)
                label.setPos(p.end_s + span * 0.006, i)
                label.show()
            else:
                label.hide()

        color = VERDICT_COLORS[rec.verdict]
        self.rto_line.setPos(rec.rto_s)
        self.rto_line.setPen(mkpen(VERDICT_COLORS["misses"], 2, Qt.PenStyle.DashLine))
        risk_at = rec.rto_s - rec.risk_margin_s
        self.risk_line.setPos(risk_at)
        self.risk_line.setPen(mkpen(VERDICT_COLORS["at_risk"], 1.2, Qt.PenStyle.DotLine))
        self.risk_line.setVisible(0 < risk_at < rec.rto_s)
        self.total_line.setPos(rec.total_s)
        self.total_line.setPen(mkpen(color, 2))
        lo, hi = sorted((rec.total_s, rec.rto_s))
        self.margin_region.setRegion((lo, hi))
        self.margin_region.setBrush(pg.mkBrush(alpha(color, 60)))
        self.margin_region.setVisible(hi > lo)

        self.rto_label.setText(f"RTO {format_duration(rec.rto_s)}")
        self.rto_label.setColor(VERDICT_COLORS["misses"])
        # Labels to the right of the RTO line (or of the total when it overruns), at the
        # top where the short first phases leave room.
        self.rto_label.setPos(rec.rto_s, -0.68)
        word = "margin" if rec.margin_s >= 0 else "over by"
        self.margin_label.setText(f"{word} {format_duration(abs(rec.margin_s))}")
        self.margin_label.setColor(color)
        self.margin_label.setPos(max(rec.rto_s, rec.total_s), -0.3)

        self._span = span
        self._fit_x()
        self.plot.setYRange(-0.7, n - 0.3, padding=0)

        self.headline.setText(
            f"Recovery phases, worst case of the cycle: {format_duration(rec.total_s)} "
            f"against an RTO of {format_duration(rec.rto_s)} "
            f"(<span style='color:{color}'>{VERDICT_WORDS[rec.verdict].lower()}</span>)"
        )
        f = rec.failure
        longest = rec.longest_phase
        self.note.setText(
            f"Worst case: a failure {format_duration(f.since_level0_s)} after the level 0 "
            f"starts ({f.incremental_count} incremental backup(s) to restore, "
            f"{format_duration(f.redo_since_s)} of redo). Longest phase: "
            f"<b>{longest.title}</b> ({format_duration(longest.duration_s)}). "
            f"At risk below a margin of {format_duration(rec.risk_margin_s)} (dotted line)."
        )

    def _fit_x(self) -> None:
        """Fit the time axis to the bars, the lines and their labels; called again when
        the plot is resized."""
        x_max = self.x_max_needed()
        if x_max:
            self.plot.setXRange(0, x_max, padding=0)

    def x_max_needed(self) -> float:
        """The end of the time axis that shows every bar, line and label (0: no plan).

        The labels keep their size in pixels whatever the zoom, so the time range needed
        depends on the plot's width: solve x_max = end + label_px × x_max / width for
        each label.
        """
        span = getattr(self, "_span", 0.0)
        if not span:
            return 0.0
        width = self.plot.getViewBox().width()
        x_max = span * 1.25
        if width > 50:
            x_max = span * 1.04
            items = [lb for lb in (*self.labels, self.margin_label, self.rto_label)
                     if lb.isVisible() and lb.toPlainText()]  # fmt: skip
            for lb in items:
                share = min(0.75, (lb.boundingRect().width() + 12) / width)
                x_max = max(x_max, lb.pos().x() / (1 - share))
        return x_max

    def text_at(self, x: float, y: float) -> str:
        """The hover text for a point of the plot: the phase under it, if any."""
        row = round(y)
        if not (0 <= row < len(self.shown)) or abs(y - row) > BAR_HEIGHT / 2:
            return ""
        p = self.shown[row]
        if not (p.start_s <= x <= p.end_s):
            return ""
        lines = [
            f"<b>{p.title}</b>",
            f"{format_duration(p.start_s)} → {format_duration(p.end_s)} "
            f"({format_duration(p.duration_s)})",
        ]
        if p.data_bytes:
            lines.append(f"Volume: {format_size(p.data_bytes, binary=self.binary)} of data")
        if p.rate_Bps:
            lines.append(
                f"Rate: {format_rate(p.rate_Bps, binary=self.binary)} "
                f"({format_rate(p.rate_Bps, binary=self.binary, per='h')}) effective"
            )
        if p.bottleneck:
            lines.append(f"Bottleneck: <b>{p.bottleneck}</b>")
        if p.detail:
            lines.append(f"<i>{p.detail}</i>")
        return "<br>".join(lines)
