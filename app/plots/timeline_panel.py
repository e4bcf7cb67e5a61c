"""Timeline: a Gantt of the recovery phases against the RTO budget (DESIGN §3.4)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from rtoplanner.core.result import Phase
from rtoplanner.core.units import format_duration, format_rate, format_size
from rtoplanner.core.wording import bottleneck_words, for_reader, plural

from ..theme import PHASE_COLORS, VERDICT_COLORS, VERDICT_WORDS
from .common import DurationAxis, HoverTip, PlanPanel, alpha, category_axis, mkpen, text_item

BAR_HEIGHT = 0.62
MAX_PHASES = 8


ROW_PX = 19
"""The least height of a row: a phase label never reaches into the next bar."""


def min_plot_height(rows: int) -> int:
    """Rows of ROW_PX, two label lines above them and the time axis below."""
    return ROW_PX * rows + 2 * ROW_PX + 45


LEFT, BETWEEN, BELOW = "left", "between", "below"
"""Where the inner line label sits (`TimelinePanel._inner_place`)."""


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
        self.plot.getViewBox().sigResized.connect(self._fit)
        self.labels = [text_item(self.theme.foreground, anchor=(0, 0.5)) for _ in range(MAX_PHASES)]
        for label in (*self.labels, self.rto_label, self.margin_label):
            label.setZValue(20)  # above the lines and the margin band
            label.textItem.document().setDocumentMargin(1)  # one row high, not 22 px
            self.plot.addItem(label)
        self.shown: list[Phase] = []
        self.shared: list[float] = []
        """Seconds each shown phase shares with the one above it (`Phase.shared_with`)."""
        self._inner, self._outer = self.margin_label, self.rto_label
        self._lo = self._hi = 0.0
        self.min_rows = 0
        """At least this many rows (Compare gives both timelines the same rows)."""
        self.plot.setMinimumHeight(min_plot_height(MAX_PHASES // 2))
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
        self.shared = [p.shared_with(self.shown[i - 1] if i else None)
                       for i, p in enumerate(self.shown)]  # fmt: skip
        self._draw_bars()
        category_axis(self.plot, [p.title for p in self.shown])
        self.plot.setMinimumHeight(min_plot_height(max(n, self.min_rows)))

        span = max(rec.total_s, rec.rto_s) or 1.0
        for i, label in enumerate(self.labels):
            if i < n:
                p = self.shown[i]
                label.setColor(th.foreground)
                label.fill = pg.mkBrush(alpha(th.background, 215))  # legible over lines
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
        word = "margin" if rec.margin_s >= 0 else "over by"
        self.margin_label.setText(f"{word} {format_duration(abs(rec.margin_s))}")
        self.margin_label.setColor(color)
        for label in (self.rto_label, self.margin_label):  # the risk line ran through them
            label.fill = pg.mkBrush(alpha(th.background, 215))
        # One line above the rows (a band `_fit` keeps free): each label beside its
        # line on the outer side; `_fit` moves the inner one when it has no room.
        meets = rec.total_s <= rec.rto_s
        self._inner, self._outer = (
            (self.margin_label, self.rto_label) if meets else (self.rto_label, self.margin_label)
        )
        self._lo, self._hi = sorted((rec.total_s, rec.rto_s))

        self._span = span
        self._fit()

        self.headline.setText(
            f"Recovery phases, worst case of the cycle: {format_duration(rec.total_s)} "
            f"against an RTO of {format_duration(rec.rto_s)} "
            f"(<span style='color:{color}'>{VERDICT_WORDS[rec.verdict].lower()}</span>)"
        )
        f = rec.failure
        longest = rec.longest_phase
        self.note.setText(
            f"Worst case: a failure {format_duration(f.since_level0_s)} after the level 0 "
            f"starts ({plural(f.incremental_count, 'incremental backup')} to restore, "
            f"{format_duration(f.redo_since_s)} of redo). Longest phase: "
            f"<b>{longest.title}</b> ({format_duration(longest.duration_s)}). "
            f"At risk below a margin of {format_duration(rec.risk_margin_s)} (dotted line)."
            + self._shared_words()
        )

    def _shared_words(self) -> str:
        """The dashed outline explained: which phase runs while the one above it does."""
        shared = [(p, t) for p, t in zip(self.shown, self.shared, strict=True) if t > 0]
        return "".join(
            f" {p.title}: {format_duration(t)} of its {format_duration(p.duration_s)} run "
            "while the phase above it does (dashed: time shared, not added)."
            for p, t in shared
        )

    def _draw_bars(self) -> None:
        """One bar a phase; the time a phase shares with the one above it (incrementals
        applied as they are restored) drawn as a dashed outline, not a second solid bar."""
        x0, ys, widths, brushes, pens = [], [], [], [], []
        for i, p in enumerate(self.shown):
            colour, shared = PHASE_COLORS[p.name], self.shared[i]
            parts = [(p.start_s, shared, True), (p.start_s + shared, p.duration_s - shared, False)]
            for start, width, outline in parts:
                if width <= 0:
                    continue
                x0.append(start)
                ys.append(float(i))
                widths.append(width)
                if outline:
                    brushes.append(pg.mkBrush(alpha(colour, 40)))
                    pens.append(mkpen(colour, 1.5, Qt.PenStyle.DashLine))
                else:
                    brushes.append(pg.mkBrush(colour))
                    pens.append(mkpen(self.theme.background, 1))
        self.bars.setOpts(x0=x0, y=np.array(ys), width=widths, height=BAR_HEIGHT,
                          brushes=brushes, pens=pens)  # fmt: skip

    def _fit(self) -> None:
        """Fit both axes to the plot's size (called again when it is resized): the time
        axis to the bars, lines and labels, the rows below a band for the line labels."""
        x_max = self.shared_x_max()
        if not x_max:
            return
        self.plot.setXRange(0, x_max, padding=0)
        place = self._inner_place(x_max)
        top = self._fit_y(2 if place == BELOW else 1)
        self._place_line_labels(top, place)

    def shared_x_max(self) -> float:
        """The end of the time axis (Compare makes it cover both of its plans)."""
        return self.x_max_needed()

    def _fit_y(self, lines: int = 1) -> float:
        """The rows, and above them a band `lines` labels high for the RTO and margin
        labels; returns the band's top.

        Labels keep their size in pixels, so the band's height in rows depends on the
        plot's height: with L the band's pixels, H the plot's and n rows, the band is
        h = L·n / (H − L) rows.
        """
        rows = max(len(self.shown), self.min_rows) or 1
        height = self.plot.getViewBox().height()
        label_px = (self.rto_label.boundingRect().height() + 1) * lines
        band = 0.6 * lines
        if height > label_px + 20:
            band = label_px * rows / (height - label_px)
        top = -0.5 - band
        self.plot.setYRange(top, rows - 0.5, padding=0)
        return top

    def _inner_place(self, x_max: float) -> str:
        """Where the inner label goes, always beside its own line: LEFT of it where the
        axis leaves room, else right of it (BETWEEN the two lines) where the outer line is
        far enough, else right of it on a second line (BELOW). It went under the outer
        label, at the other line: on a large overrun "RTO 8 h 00 min" stood by the
        recovery's end at 34 h, far from the RTO's line (issue 23.7)."""
        width = self.plot.getViewBox().width()
        if width <= 50 or not x_max:
            return LEFT
        px_per_s = width / x_max
        need = self._inner.boundingRect().width() + 4
        if self._lo * px_per_s >= need:
            return LEFT
        if (self._hi - self._lo) * px_per_s >= need + 4:
            return BETWEEN
        return BELOW

    def _place_line_labels(self, top: float, place: str) -> None:
        inner, outer = self._inner, self._outer
        outer.setAnchor((0, 0))
        outer.setPos(self._hi, top)
        if place == LEFT:
            inner.setAnchor((1, 0))
            inner.setPos(self._lo, top)
            return
        inner.setAnchor((0, 0))
        if place == BETWEEN:
            inner.setPos(self._lo, top)
            return
        height = self.plot.getViewBox().height()
        y_lo, y_hi = self.plot.getViewBox().viewRange()[1]
        rows_per_px = (y_hi - y_lo) / height if height > 0 else 0.0
        inner.setPos(self._lo, top + (outer.boundingRect().height() + 1) * rows_per_px)

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
        if width <= 50:
            return span * 1.25
        ends = [(lb.pos().x(), lb.boundingRect().width())
                for lb in self.labels if lb.isVisible() and lb.toPlainText()]  # fmt: skip

        def solve(lines: list[tuple[float, float]]) -> float:
            x_max = span * 1.04
            for x, px in [*ends, *lines]:
                x_max = max(x_max, x / (1 - min(0.75, (px + 12) / width)))
            return x_max

        outer = [(self._hi, self._outer.boundingRect().width())]
        x_max = solve(outer)
        if self._inner_place(x_max) != LEFT:  # the inner label reads right of its line
            x_max = solve([*outer, (self._lo, self._inner.boundingRect().width())])
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
            lines.append(f"Rate: {format_rate(p.rate_Bps, binary=self.binary)} effective")
        if p.bottleneck:
            lines.append(f"Bottleneck: <b>{bottleneck_words(p.bottleneck)}</b>")
        if p.detail:
            lines.append(f"<i>{for_reader(p.detail)}</i>")
        return "<br>".join(lines)
