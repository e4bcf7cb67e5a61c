"""Backups: each job's duration against the window and its effective rate, and the
channel start-up ramp of the level 0 (DESIGN §3.3, §3.5)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from rtoplanner.core.engine.flow import ramp_curve
from rtoplanner.core.result import BackupJob
from rtoplanner.core.units import format_duration, format_rate, format_size
from rtoplanner.core.wording import bottleneck_words, plural

from ..theme import VERDICT_COLORS
from .common import (
    DurationAxis,
    HoverTip,
    PlanPanel,
    alpha,
    axis_title,
    category_axis,
    label_side,
    mkpen,
    rate_unit,
    right_room,
    text_item,
)

BAR = 0.6


class BackupsPanel(PlanPanel):
    title = "Backups"

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.jobs_plot = self.new_plot(bottom=DurationAxis("bottom"))
        jp = self.jobs_plot.getPlotItem()
        jp.getViewBox().invertY(True)
        jp.setLabel("bottom", "Backup duration (channel start-up included)")
        self.job_bars = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR)
        self.jobs_plot.addItem(self.job_bars)
        self.window_line = pg.InfiniteLine(angle=90, movable=False)
        self.jobs_plot.addItem(self.window_line)
        self.window_label = text_item(VERDICT_COLORS["misses"], anchor=(1.05, 0), bold=True)
        self.jobs_plot.addItem(self.window_label)
        self.job_labels = [text_item(self.theme.foreground) for _ in range(3)]
        for label in self.job_labels:
            self.jobs_plot.addItem(label)
        self.jobs: list[BackupJob] = []
        self.longest = 1.0
        jp.getViewBox().sigResized.connect(self._fit_rows)

        self.ramp_plot = self.new_plot(bottom=DurationAxis("bottom"))
        rp = self.ramp_plot.getPlotItem()
        rp.showGrid(x=True, y=True, alpha=self.theme.grid_alpha)
        rp.setLabel("bottom", "Time since the level 0 started")
        self.ramp_fill = pg.PlotDataItem([], [], fillLevel=0)
        self.ramp_curve = pg.PlotDataItem([], [])
        self.steady_line = pg.InfiniteLine(angle=0, movable=False)
        for it in (self.ramp_fill, self.ramp_curve, self.steady_line):
            self.ramp_plot.addItem(it)
        # Under the line, in the ramp's fill: above it the label ran off a short plot.
        self.steady_label = text_item(self.theme.foreground, anchor=(1, 0))
        self.ramp_plot.addItem(self.steady_label)
        self.ramp_points: list[tuple[float, float]] = []

        self.add_plot(self.jobs_plot, 5)
        self.add_plot(self.ramp_plot, 6)
        self.finish_layout()
        self.hover = HoverTip(self.jobs_plot, self.text_at)
        self.ramp_hover = HoverTip(self.ramp_plot, self.ramp_text_at)

    def _fit_rows(self, *_args) -> None:
        """The job rows under a band as tall as the window's label, which sits in it: on
        a short plot (1024 × 700) the label at the top row's edge covered the level 0's
        figures (issue 23)."""
        n = max(len(self.jobs), 1)
        height = self.jobs_plot.getPlotItem().getViewBox().height()
        need = self.window_label.boundingRect().height() if self.window_label.isVisible() else 0
        # The label and the top half of the first row's figures (as tall, centred on
        # the row), in pixels, over the plot's height: the share of the range above row 0.
        k = (1.5 * need + 2) / height if need and height > 0 else 0.0
        band = max(0.0, (k * (n + 0.2) - 0.6) / (1 - k)) if k < 1 else 2.0 * n
        top = -0.6 - min(band, 2.0 * n)
        self.window_label.setPos(self.window_line.value(), top)
        self.jobs_plot.setYRange(top, n - 0.4, padding=0)
        # Room right of each bar for its figures, and the window's label on the side of
        # its line that has room: at 1024 px both ran off the plot (issue 23.7).
        placed = [(label.pos().x(), label) for label in self.job_labels]
        hi = right_room(self.jobs_plot, placed, self.longest * 1.45)
        self.jobs_plot.setXRange(0, hi, padding=0)
        if self.window_label.isVisible():
            label_side(self.window_label, self.jobs_plot, self.window_line.value(), 0.0, hi, 0.0)

    def redraw(self) -> None:
        plan = self.plan
        assert plan is not None
        th = self.theme
        self.jobs = list(plan.jobs)
        n = len(self.jobs)
        window = plan.scenario.targets.backup_window_s

        def color(job: BackupJob) -> str:
            if job.fits_window is None:
                return th.accent
            return VERDICT_COLORS["meets"] if job.fits_window else VERDICT_COLORS["misses"]

        self.job_bars.setOpts(
            x0=np.zeros(n), y=np.arange(n, dtype=float),
            width=[j.duration_s for j in self.jobs], height=BAR,
            brushes=[pg.mkBrush(alpha(color(j), 200)) for j in self.jobs],
            pens=[mkpen(color(j), 1) for j in self.jobs],
        )  # fmt: skip
        category_axis(self.jobs_plot, [j.title for j in self.jobs])
        longest = max([j.duration_s for j in self.jobs] + [window or 0.0, 1.0])
        for i, label in enumerate(self.job_labels):
            if i < n:
                j = self.jobs[i]
                label.setText(
                    f"{format_duration(j.duration_s)}  ·  "
                    f"{format_rate(j.effective_rate_Bps, binary=self.binary)} effective"
                )
                label.setColor(th.foreground)
                label.setPos(j.duration_s + longest * 0.01, i)
                label.show()
            else:
                label.hide()
        self.window_line.setVisible(window is not None)
        self.window_label.setVisible(window is not None)
        if window is not None:
            self.window_line.setPos(window)
            self.window_line.setPen(mkpen(VERDICT_COLORS["misses"], 2, Qt.PenStyle.DashLine))
            self.window_label.setText(f"window {format_duration(window)}")
        self.longest = longest
        self._fit_rows()

        # The ramp of the level 0: one step per channel start (core's ramp_curve).
        l0 = plan.job("level0")
        init = plan.scenario.backup.channel_init_s
        pts = ramp_curve(plan.backup_path, init, l0.duration_s if l0 else 0.0)
        self.ramp_points = pts
        xs = np.repeat([t for t, _ in pts], 2)[1:]
        ys = np.repeat([r for _, r in pts], 2)[:-1]
        top = max([r for _, r in pts] + [1.0])
        unit, factor = rate_unit(top, self.binary)
        self.ramp_curve.setData(xs, ys / factor, pen=mkpen(th.accent, 2))
        self.ramp_fill.setData(xs, ys / factor, pen=None, brush=pg.mkBrush(alpha(th.accent, 50)))
        axis_title(self.ramp_plot, "left", "Rate (data)", "Data rate", "Rate", units=unit)
        steady = l0.steady_rate_Bps if l0 else 0.0
        effective = l0.effective_rate_Bps if l0 else 0.0
        # The x range: the ramp and a good stretch of steady state, not the whole job
        # (the ramp would be a sliver at the start of an hour-long backup).
        ramp_end = pts[-2][0] if len(pts) > 2 else 0.0
        span = min(pts[-1][0], max(ramp_end * 3.0, 60.0)) if pts[-1][0] > 0 else 60.0
        self.ramp_plot.setXRange(0, span, padding=0.02)
        self.ramp_plot.setYRange(0, top / factor * 1.2, padding=0)
        self.steady_line.setPos(steady / factor)
        self.steady_line.setPen(mkpen(th.muted, 1.2, Qt.PenStyle.DashLine))
        self.steady_label.setText(f"steady {format_rate(steady, binary=self.binary)}")
        self.steady_label.setColor(th.muted)
        self.steady_label.setPos(span, steady / factor)

        fits = [j for j in self.jobs if j.fits_window is False]
        if window is None:
            verdict = "no backup window set (targets.backup_window)"
        elif fits:
            verdict = (
                f"<span style='color:{VERDICT_COLORS['misses']}'>"
                + ", ".join(j.title for j in fits)
                + f" overrun{'s' if len(fits) == 1 else ''} the "
                + f"{format_duration(window)} window</span>"
            )
        else:
            verdict = (
                f"<span style='color:{VERDICT_COLORS['meets']}'>every backup fits the "
                f"{format_duration(window)} window</span>"
            )
        self.headline.setText(f"Backups: {verdict}")
        init_total = l0.init_s if l0 else 0.0
        self.note.setText(
            f"Level 0: {format_size(l0.data_bytes if l0 else 0, binary=self.binary)} in "
            f"{format_duration(l0.duration_s if l0 else 0)}, effective "
            f"{format_rate(effective, binary=self.binary)} (steady "
            f"{format_rate(steady, binary=self.binary)}); channels start one after "
            f"another every {format_duration(init)}, the last after {format_duration(init_total)}. "
            "Effective rate = database size ÷ backup time, as vendors quote it."
        )

    def text_at(self, x: float, y: float) -> str:
        row = round(y)
        if not (0 <= row < len(self.jobs)) or abs(y - row) > BAR / 2:
            return ""
        j = self.jobs[row]
        if x > j.duration_s or x < 0:
            return ""
        fits = {True: "fits the window", False: "overruns the window", None: "no window"}
        return "<br>".join(
            [
                f"<b>{j.title}</b>: {format_duration(j.duration_s)} ({fits[j.fits_window]})",
                f"Moves {format_size(j.data_bytes, binary=self.binary)} of data "
                f"({format_size(j.backup_bytes, binary=self.binary)} of backup pieces)",
                f"Effective {format_rate(j.effective_rate_Bps, binary=self.binary)}, "
                f"steady {format_rate(j.steady_rate_Bps, binary=self.binary)}",
                f"Channel start-up: {format_duration(j.init_s)}",
                f"Bottleneck: <b>{bottleneck_words(j.bottleneck)}</b>",
            ]
        )

    def ramp_text_at(self, x: float, _y: float) -> str:
        pts = self.ramp_points
        if len(pts) < 2 or x < 0 or x > pts[-1][0]:
            return ""
        rate = 0.0
        k = 0
        for i, (t, r) in enumerate(pts):
            if t <= x:
                rate, k = r, i
        return (
            f"At {format_duration(x)}: {format_rate(rate, binary=self.binary)} "
            f"({plural(k, 'channel step')} started)"
        )
