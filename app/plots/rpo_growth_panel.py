"""RPO against its target (DESIGN §3.5) and growth: the date the plan breaks."""

from __future__ import annotations

from datetime import datetime, time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from rtoplanner.core.units import format_duration, format_size

from ..theme import VERDICT_COLORS, VERDICT_WORDS
from .common import (
    DurationAxis,
    HoverTip,
    PlanPanel,
    category_axis,
    label_side,
    mkpen,
    on_background,
    right_room,
    short_duration,
    text_item,
)

PART_COLORS = ("#2f6db5", "#4f93d8", "#7a5cc2", "#a57c52", "#2aa3a3", "#c2558a")
BAR = 0.55


def _epoch(day) -> float:
    """A date as the epoch seconds pyqtgraph's DateAxisItem expects (local midnight)."""
    return datetime.combine(day, time()).timestamp()


class RpoGrowthPanel(PlanPanel):
    title = "RPO and growth"
    needs_full_plan = True

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        row = QHBoxLayout()
        row.setSpacing(8)
        # --- RPO
        self.rpo_plot = self.new_plot(bottom=DurationAxis("bottom"))
        rp = self.rpo_plot.getPlotItem()
        rp.getViewBox().invertY(True)
        rp.setLabel("bottom", "Worst-case data loss")
        self.rpo_bars = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR)
        self.rpo_plot.addItem(self.rpo_bars)
        self.target_line = pg.InfiniteLine(angle=90, movable=False)
        self.rpo_plot.addItem(self.target_line)
        self.target_label = text_item(VERDICT_COLORS["misses"], anchor=(1.05, 0), bold=True)
        self.rpo_plot.addItem(self.target_label)
        self.rpo_labels = [text_item(self.theme.foreground) for _ in range(2)]
        for label in self.rpo_labels:
            self.rpo_plot.addItem(label)
        self.rpo_segments: list[tuple[int, float, float, str]] = []
        self.rpo_values = (0.0, 0.0)
        self.rpo_span = 60.0
        rp.getViewBox().sigResized.connect(self._place_rpo_labels)
        self.rpo_title = QLabel()
        self.rpo_title.setWordWrap(True)
        # --- growth
        self.growth_plot = self.new_plot(
            bottom=pg.DateAxisItem(orientation="bottom"), left=DurationAxis("left")
        )
        gp = self.growth_plot.getPlotItem()
        gp.showGrid(x=True, y=True, alpha=self.theme.grid_alpha)
        gp.setLabel("left", "Duration")
        self.recovery_curve = pg.PlotDataItem([], [], name="worst-case recovery")
        self.backup_curve = pg.PlotDataItem([], [], name="level 0 backup")
        self.growth_plot.addItem(self.recovery_curve)
        self.growth_plot.addItem(self.backup_curve)
        self.g_rto_line = pg.InfiniteLine(angle=0, movable=False)
        self.g_window_line = pg.InfiniteLine(angle=0, movable=False)
        self.break_line = pg.InfiniteLine(angle=90, movable=False)
        for line in (self.g_rto_line, self.g_window_line, self.break_line):
            self.growth_plot.addItem(line)
        self.break_label = text_item(VERDICT_COLORS["misses"], anchor=(-0.05, 0), bold=True)
        self.growth_plot.addItem(self.break_label)
        self.g_rto_label = text_item(VERDICT_COLORS["misses"], anchor=(0, 1))
        self.g_window_label = text_item(self.theme.muted, anchor=(0, 1))
        self.growth_plot.addItem(self.g_rto_label)
        self.growth_plot.addItem(self.g_window_label)
        self.growth_title = QLabel()
        self.growth_title.setWordWrap(True)
        self.growth_points: list = []

        for title, plot, stretch in (
            (self.rpo_title, self.rpo_plot, 4),
            (self.growth_title, self.growth_plot, 5),
        ):
            col = QVBoxLayout()
            col.addWidget(title)
            col.addWidget(plot, 1)
            holder = QWidget()
            holder.setLayout(col)
            col.setContentsMargins(0, 0, 0, 0)
            row.addWidget(holder, stretch)
        self._layout.addLayout(row, 1)
        self.finish_layout()
        self.hover = HoverTip(self.rpo_plot, self.rpo_text_at)
        self.growth_hover = HoverTip(self.growth_plot, self.growth_text_at)

    def _place_rpo_labels(self, *_args) -> None:
        """Each bar's figure inside the bar where the bar holds it and the plot's right
        edge would cut it, else right of the bar with the x range widened to hold it (at
        1024 px "45 min 42 s" was cut, issue 23.7); then the target's label."""
        th = self.theme
        width_px = self.rpo_plot.getPlotItem().getViewBox().width()
        span = self.rpo_span
        outside = []
        for value, label in zip(self.rpo_values, self.rpo_labels, strict=True):
            if width_px > 0:
                need = label.boundingRect().width() * 1.05 + 4
                bar_px, right_px = value / span * width_px, (span - value) / span * width_px
                inside = bar_px >= need and right_px < need
            else:
                inside = value > span * 0.6
            label.setAnchor((1.05, 0.5) if inside else (-0.05, 0.5))
            label.setColor("#ffffff" if inside else th.foreground)
            if not inside:
                outside.append((value, label))
        span = right_room(self.rpo_plot, outside, span)
        if self.target_label.isVisible():
            target = self.target_line.value()
            label_side(self.target_label, self.rpo_plot, target, 0.0, span, 0.0)
        self.rpo_plot.setXRange(0, span, padding=0)

    def redraw(self) -> None:
        for label in (self.break_label, self.g_rto_label, self.g_window_label):
            on_background(label, self.growth_plot)  # follows a theme switch
        plan = self.plan
        assert plan is not None
        th = self.theme
        rpo = plan.rpo
        # Row 0: media failure; row 1: site loss as its parts, stacked.
        segments: list[tuple[int, float, float, str]] = []
        if rpo.media_failure_s > 0:
            segments.append((0, 0.0, rpo.media_failure_s, "media failure"))
        start = 0.0
        for name, seconds in rpo.site_loss_parts:
            if seconds > 0:
                segments.append((1, start, seconds, name))
                start += seconds
        if not rpo.site_loss_parts and rpo.site_loss_s > 0:
            segments.append((1, 0.0, rpo.site_loss_s, "site loss"))
        self.rpo_segments = segments
        self.rpo_bars.setOpts(
            x0=[s[1] for s in segments], y=[s[0] for s in segments],
            width=[s[2] for s in segments], height=BAR,
            brushes=[pg.mkBrush(PART_COLORS[i % len(PART_COLORS)])
                     for i, _ in enumerate(segments)],
            pens=[mkpen(th.background, 1)] * len(segments),
        )  # fmt: skip
        category_axis(self.rpo_plot, ["Media failure", "Site loss"])
        values = (rpo.media_failure_s, rpo.site_loss_s)
        top = max([*values, rpo.target_s or 0.0, 60.0])
        span = top * 1.3
        self.rpo_values, self.rpo_span = values, span
        for i, label in enumerate(self.rpo_labels):
            label.setText(format_duration(values[i]))
            label.setPos(values[i], i)
        has_target = rpo.target_s is not None
        self.target_line.setVisible(has_target)
        self.target_label.setVisible(has_target)
        if rpo.target_s is not None:
            self.target_line.setPos(rpo.target_s)
            self.target_line.setPen(mkpen(VERDICT_COLORS["misses"], 2, Qt.PenStyle.DashLine))
            self.target_label.setText(f"RPO {short_duration(rpo.target_s)}")  # fits 1024 px
            self.target_label.setPos(rpo.target_s, -0.5)
        self._place_rpo_labels()
        self.rpo_plot.setYRange(-0.6, 1.4, padding=0)
        verdict_color = VERDICT_COLORS.get(rpo.verdict, th.foreground)
        verdict = VERDICT_WORDS.get(rpo.verdict, rpo.verdict.upper())
        colors = iter(PART_COLORS)
        parts = " + ".join(
            f"<span style='color:{next(colors) if s > 0 else th.muted}'>■</span> "
            f"{name} {format_duration(s)}"
            for name, s in rpo.site_loss_parts
        )
        self.rpo_title.setText(
            f"<b>RPO: <span style='color:{verdict_color}'>{verdict}</span></b>"
            + (f" the target of {format_duration(rpo.target_s)}" if has_target else "")
            + f"<br><small>Site loss = {parts or format_duration(rpo.site_loss_s)}</small>"
        )

        g = plan.growth
        gp = self.growth_plot
        if g is None or not g.points:
            self.growth_points = []
            self.recovery_curve.setData([], [])
            self.backup_curve.setData([], [])
            self.break_line.hide()
            self.break_label.hide()
            self.g_rto_line.hide()
            self.g_window_line.hide()
            self.g_rto_label.hide()
            self.g_window_label.hide()
            # No empty plot with a bare date axis ("00.250 00.500"): the words alone.
            self.growth_plot.hide()
            self.growth_title.setText(
                "<b>Growth</b>: no growth rate set. Give one on the Database tab "
                "(<i>Growth</i>, e.g. 25%/y) to see on which date the plan breaks."
            )
        else:
            self.growth_plot.show()
            self.growth_points = list(g.points)
            xs = np.array([_epoch(p.on) for p in g.points])
            rec = np.array([p.worst_recovery_s for p in g.points])
            l0 = np.array([p.level0_backup_s for p in g.points])
            self.recovery_curve.setData(
                xs, rec, pen=mkpen(th.accent, 2), symbol="o", symbolSize=5,
                symbolBrush=th.accent, symbolPen=None,
            )  # fmt: skip
            self.backup_curve.setData(
                xs, l0, pen=mkpen(th.muted, 1.5, Qt.PenStyle.DashLine), symbol="s",
                symbolSize=4, symbolBrush=th.muted, symbolPen=None,
            )  # fmt: skip
            rto = plan.scenario.targets.rto_s
            window = plan.scenario.targets.backup_window_s
            self.g_rto_line.setPos(rto)
            self.g_rto_line.setPen(mkpen(VERDICT_COLORS["misses"], 2, Qt.PenStyle.DashLine))
            self.g_rto_line.show()
            self.g_rto_label.setText(f"RTO {format_duration(rto)}")
            self.g_rto_label.setPos(float(xs.min()), rto)
            self.g_rto_label.show()
            self.g_window_line.setVisible(window is not None)
            self.g_window_label.setVisible(window is not None)
            if window is not None:
                self.g_window_line.setPos(window)
                self.g_window_line.setPen(mkpen(th.muted, 1, Qt.PenStyle.DotLine))
                self.g_window_label.setText(f"backup window {format_duration(window)}")
                self.g_window_label.setColor(th.muted)
                self.g_window_label.setPos(float(xs.min()), window)
            ymax = max(float(rec.max()), float(l0.max()), rto, window or 0.0) * 1.1
            if g.breaks_on is not None:
                self.break_line.setPos(_epoch(g.breaks_on))
                self.break_line.setPen(mkpen(VERDICT_COLORS["misses"], 1.5))
                self.break_label.setText(f"breaks {g.breaks_on.isoformat()}")
                self.break_label.setPos(_epoch(g.breaks_on), ymax * 0.8)
                self.break_line.show()
                self.break_label.show()
                size = (
                    f" at {format_size(g.size_at_break_bytes, binary=self.binary)}"
                    if g.size_at_break_bytes
                    else ""
                )
                rate = plan.scenario.database.growth
                self.growth_title.setText(
                    f"<b>Growth ({rate.text if rate else ''}): "
                    f"<span style='color:{VERDICT_COLORS['misses']}'>the plan breaks on "
                    f"{g.breaks_on.isoformat()}</span></b><br><small>{g.reason}{size}"
                    f"<br>{self._key()}</small>"
                )
            else:
                self.break_line.hide()
                self.break_label.hide()
                self.growth_title.setText(
                    f"<b>Growth: <span style='color:{VERDICT_COLORS['meets']}'>the plan "
                    f"holds for {g.horizon_years:g} years</span></b><br><small>{self._key()}"
                    "</small>"
                )
            gp.setXRange(float(xs.min()), float(xs.max()), padding=0.03)
            gp.setYRange(0, ymax * 1.08, padding=0)

        self.headline.setText("Data loss and the years ahead")
        self.note.setText(
            "Left: worst-case data loss; a site loss adds the archived-log backup interval, "
            "its duration, the log switch interval and the off-site delay. Right: the "
            "worst-case recovery and the level 0 backup as the database grows (dashed red: "
            "the RTO; dotted: the backup window)."
        )

    def _key(self) -> str:
        """The curves' key, above the plot: a legend inside it covered the break date's
        label on a small window (issue 23)."""
        th = self.theme
        return (
            f"<span style='color:{th.accent}'>━━ worst-case recovery</span> &nbsp; "
            f"<span style='color:{th.muted}'>╍╍ level 0 backup</span>"
        )

    def rpo_text_at(self, x: float, y: float) -> str:
        row = round(y)
        if abs(y - row) > BAR / 2:
            return ""
        for r, start, width, name in self.rpo_segments:
            if r == row and start <= x <= start + width:
                return f"<b>{name}</b>: {format_duration(width)}"
        return ""

    def growth_text_at(self, x: float, _y: float) -> str:
        if not self.growth_points:
            return ""
        xs = np.array([_epoch(p.on) for p in self.growth_points])
        i = int(np.argmin(np.abs(xs - x)))
        if abs(xs[i] - x) > 60 * 86400:
            return ""
        p = self.growth_points[i]
        return (
            f"<b>{p.on.isoformat()}</b>: database {format_size(p.size_bytes, binary=self.binary)}"
            f"<br>worst-case recovery {format_duration(p.worst_recovery_s)}"
            f"<br>level 0 backup {format_duration(p.level0_backup_s)}"
        )
