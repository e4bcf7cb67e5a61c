"""Cycle: recovery time against the failure hour across the level 0 cycle, the worst
case marked (DESIGN §3.5, question 3)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import plural

from ..theme import VERDICT_COLORS
from .common import (
    DurationAxis,
    HoverTip,
    PlanPanel,
    alpha,
    label_side,
    mkpen,
    short_duration,
    text_item,
)


class CyclePanel(PlanPanel):
    title = "Cycle"
    needs_full_plan = True

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.plot = self.new_plot(bottom=DurationAxis("bottom"), left=DurationAxis("left"))
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=True, alpha=self.theme.grid_alpha)
        item.setLabel("bottom", "Failure time, since the level 0 backup started")
        item.setLabel("left", "Recovery time")
        self.miss_region = pg.LinearRegionItem(
            values=(0, 1), orientation="horizontal", movable=False
        )
        self.miss_region.setZValue(-10)
        for line in self.miss_region.lines:
            line.setPen(pg.mkPen(None))
        self.plot.addItem(self.miss_region)
        self.level1_lines = pg.PlotDataItem([], [], connect="pairs")
        self.plot.addItem(self.level1_lines)
        self.curve = pg.PlotDataItem([], [])
        self.plot.addItem(self.curve)
        self.rto_line = pg.InfiniteLine(angle=0, movable=False)
        self.risk_line = pg.InfiniteLine(angle=0, movable=False)
        self.plot.addItem(self.rto_line)
        self.plot.addItem(self.risk_line)
        self.worst = pg.ScatterPlotItem([], [], size=11)
        self.plot.addItem(self.worst)
        self.worst_label = text_item(self.theme.foreground, anchor=(1, 1.2), bold=True)
        self.rto_label = text_item(VERDICT_COLORS["misses"], anchor=(0, 1.1), bold=True)
        self.plot.addItem(self.worst_label)
        self.plot.addItem(self.rto_label)
        self.xs = np.zeros(0)
        self.ys = np.zeros(0)
        self.add_plot(self.plot)
        self.finish_layout()
        self.hover = HoverTip(self.plot, self.text_at)

    def redraw(self) -> None:
        plan = self.plan
        assert plan is not None and plan.cycle is not None
        th = self.theme
        cyc = plan.cycle
        rec = plan.recovery
        self.xs = np.array([p.since_level0_s for p in cyc.points])
        self.ys = np.array([p.total_s for p in cyc.points])
        worst_color = VERDICT_COLORS["misses"] if cyc.worst_s > cyc.rto_s else (
            VERDICT_COLORS["at_risk"] if cyc.rto_s - cyc.worst_s < rec.risk_margin_s
            else VERDICT_COLORS["meets"])  # fmt: skip
        self.curve.setData(self.xs, self.ys, pen=mkpen(th.accent, 2))
        self.rto_line.setPos(cyc.rto_s)
        self.rto_line.setPen(mkpen(VERDICT_COLORS["misses"], 2, Qt.PenStyle.DashLine))
        self.risk_line.setPos(cyc.rto_s - rec.risk_margin_s)
        self.risk_line.setPen(mkpen(VERDICT_COLORS["at_risk"], 1.2, Qt.PenStyle.DotLine))
        self.risk_line.setVisible(rec.risk_margin_s > 0)
        top = max(float(self.ys.max()) if self.ys.size else 0.0, cyc.rto_s) * 1.2
        self.miss_region.setRegion((cyc.rto_s, max(top, cyc.rto_s * 2)))
        self.miss_region.setBrush(pg.mkBrush(alpha(VERDICT_COLORS["misses"], 28)))
        self.worst.setData(
            [cyc.worst_at_s], [cyc.worst_s], brush=pg.mkBrush(worst_color),
            pen=mkpen(th.background, 1.5),
        )  # fmt: skip
        self.worst_label.setText(
            f"worst {format_duration(cyc.worst_s)} at {format_duration(cyc.worst_at_s)}"
        )
        self.worst_label.setColor(worst_color)
        # Beside the dot on the side with room: near the cycle's start a label ending at
        # the dot ran off the plot ("…nin", issue 23.7).
        self.worst_label.setPos(cyc.worst_at_s, cyc.worst_s)
        x_end = float(self.xs.max()) if self.xs.size else plan.scenario.backup.level0_every_s
        label_side(self.worst_label, self.plot, cyc.worst_at_s, 0.0, x_end, 1.2)
        self.rto_label.setText(f"RTO {format_duration(cyc.rto_s)}")
        self.rto_label.setPos(0, cyc.rto_s)

        # Level 1 backups reset the redo to apply: faint vertical marks where they run.
        b = plan.scenario.backup
        period = b.level0_every_s
        marks: list[float] = []
        if b.level1 != "none" and b.level1_every_s > 0:
            t = b.level1_every_s
            while t < period - 1e-6 and len(marks) < 400:
                marks.append(t)
                t += b.level1_every_s
        mx = np.repeat(marks, 2)
        my = np.tile([0.0, top], len(marks))
        self.level1_lines.setData(mx, my, pen=mkpen(th.muted, 1, Qt.PenStyle.DotLine))

        x_end = float(self.xs.max()) if self.xs.size else period
        self.plot.setXRange(0, x_end, padding=0.02)
        self.plot.setYRange(0, top, padding=0)
        if cyc.hours_missing:
            tail = (
                f"<span style='color:{VERDICT_COLORS['misses']}'>a failure in "
                f"{plural(cyc.hours_missing, 'hour')} of the cycle would miss the RTO</span>"
            )
        else:
            tail = (
                f"<span style='color:{VERDICT_COLORS['meets']}'>every hour of the cycle "
                "meets the RTO</span>"
            )
        self.headline.setText(
            f"Worst case {format_duration(cyc.worst_s)} for a failure "
            f"{format_duration(cyc.worst_at_s)} after the level 0 "
            f"(best {format_duration(cyc.best_s)}); {tail}"
        )
        self.note.setText(
            f"Level 0 every {short_duration(period)}"  # "every 24 h", not "24 h 00 min"
            + (
                f", {b.level1} level 1 every {short_duration(b.level1_every_s)} (dotted lines)"
                if b.level1 != "none"
                else ", no level 1"
            )
            + ". Recovery grows with the incrementals and redo to apply since the last backup."
        )

    def text_at(self, x: float, y: float) -> str:
        if self.xs.size == 0 or x < 0 or x > self.xs.max():
            return ""
        i = int(np.argmin(np.abs(self.xs - x)))
        return (
            f"Failure {format_duration(self.xs[i])} after the level 0 started:<br>"
            f"recovery takes <b>{format_duration(self.ys[i])}</b>"
        )
