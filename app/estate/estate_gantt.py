"""The estate Gantt: every database's phases on one time axis, with its RTO.

An estate of hundreds of databases does not fit in rows one can read: the Gantt shows
as many rows as fit at `ROW_PX` each and the mouse wheel (or a drag) scrolls through the
rest; the RTO ticks and opening dots are never taller than a row, so that neighbours do
not merge into a block; selecting a database in the table brings its row into view."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics

from rtoplanner.core.estate import DatabaseOutcome, EstateResult
from rtoplanner.core.estate.run import beside_earlier
from rtoplanner.core.result import PHASE_TITLES
from rtoplanner.core.units import format_duration

from ..plots.common import DurationAxis, HoverTip, category_axis, mkpen
from ..theme import PHASE_COLORS, VERDICT_COLORS, VERDICT_WORDS, PlotTheme

BAR_HEIGHT = 0.6
ROW_PX = 16
"""The least height of a row on screen, so that its label can be read: rows beyond what
fits at this height scroll."""
WHEEL_ROWS = 3
"""Rows one notch of the mouse wheel scrolls."""


class _RowsViewBox(pg.ViewBox):
    """Shows as many rows as fit at `ROW_PX` each; the wheel scrolls the rest (instead of
    zooming) and a resize keeps the rows' height."""

    def __init__(self) -> None:
        super().__init__()
        self.rows = 0
        self.sigResized.connect(self._keep_row_height)

    def fit(self) -> int:
        """Rows that fit in the view at `ROW_PX` each (at least 3)."""
        return max(3, int(self.height() // ROW_PX))

    def scrolls(self) -> bool:
        return self.rows > self.fit()

    def show_rows(self, top: float | None = None) -> None:
        """Every row, or as many as fit from row `top` on (clamped), the rest a scroll
        away."""
        if not self.scrolls():
            self.setYRange(-0.6, max(self.rows, 1) - 0.4, padding=0)
            return
        span = float(self.fit())
        top = self.viewRange()[1][0] if top is None else top
        top = min(max(top, -0.6), self.rows - 0.4 - span)
        self.setYRange(top, top + span, padding=0)

    def wheelEvent(self, ev, axis=None) -> None:
        if not self.scrolls():
            super().wheelEvent(ev, axis)
            return
        self.show_rows(self.viewRange()[1][0] - ev.delta() / 120 * WHEEL_ROWS)
        ev.accept()

    def _keep_row_height(self) -> None:
        if self.rows:
            self.show_rows()
            self.setMouseEnabled(x=True, y=self.scrolls())


def _far_text(d: DatabaseOutcome) -> str:
    return f"RTO {format_duration(d.rto_s)} →"


class EstateGantt(pg.PlotWidget):
    """One row per database (recovery order), phases as bars, RTO as a red tick and the
    opening as a dot in the verdict's colour; hover for the phase and its wait."""

    def __init__(self, parent=None) -> None:
        self.view = _RowsViewBox()
        super().__init__(parent, viewBox=self.view, axisItems={"bottom": DurationAxis("bottom")})
        self.theme = PlotTheme.current()
        self.setBackground(self.theme.background)
        item = self.getPlotItem()
        item.getViewBox().invertY(True)
        item.showGrid(x=True, y=False, alpha=self.theme.grid_alpha)
        item.setMenuEnabled(False)
        item.hideButtons()
        item.setLabel("bottom", "Time since the site loss")
        self.setMouseEnabled(x=True, y=False)
        for name in ("left", "bottom"):
            ax = item.getAxis(name)
            ax.setPen(mkpen(self.theme.muted, 1))
            ax.setTextPen(mkpen(self.theme.foreground, 1))
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR_HEIGHT)
        self.addItem(self.bars)
        self.rto_ticks = pg.ScatterPlotItem(
            symbol="|", size=22, pen=mkpen(VERDICT_COLORS["misses"], 2.5)
        )
        self.opens = pg.ScatterPlotItem(symbol="o", size=9)
        self.addItem(self.rto_ticks)
        self.addItem(self.opens)
        self.rows: list[DatabaseOutcome] = []
        self.far: list[pg.TextItem] = []
        """'RTO 3 d →' at the right edge for the rows in view whose RTO is beyond it."""
        self.hover = HoverTip(self, self.text_at)
        self.view.sigResized.connect(self._fit_marks)
        self.view.sigYRangeChanged.connect(self._fit_marks)
        self.view.sigRangeChanged.connect(lambda *_: self.mark_far_rtos())

    def set_result(self, result: EstateResult, rows: list[DatabaseOutcome]) -> None:
        self.rows = rows
        x0, y, w, h, brushes = [], [], [], [], []
        for i, d in enumerate(rows):
            for p, beside in zip(d.phases, beside_earlier(d.phases), strict=True):
                if p.duration_s > 0:
                    # a phase beside an earlier one takes the lower half of the row
                    x0.append(p.start_s)
                    y.append(i + BAR_HEIGHT / 4 if beside else i)
                    w.append(p.duration_s)
                    h.append(BAR_HEIGHT / 2 if beside else BAR_HEIGHT)
                    brushes.append(pg.mkBrush(PHASE_COLORS[p.name]))
        self.bars.setOpts(x0=x0, y=y, width=w, height=h, brushes=brushes,
                          pens=[mkpen(self.theme.background, 1)] * len(x0))  # fmt: skip
        ys = np.arange(len(rows), dtype=float)
        self.rto_ticks.setData(x=[d.rto_s for d in rows], y=ys)
        self.opens.setData(
            x=[d.open_s for d in rows], y=ys,
            brush=[pg.mkBrush(VERDICT_COLORS[d.verdict]) for d in rows],
            pen=[mkpen(self.theme.background, 1)] * len(rows),
        )  # fmt: skip
        category_axis(self, [f"P{d.priority} · {d.name}" for d in rows])
        last = max([d.open_s for d in rows] + [1.0])
        near = [d.rto_s for d in rows if d.rto_s <= 1.5 * last]
        right = max([last, *near]) * 1.05
        self.setXRange(0, right / (1 - self._far_share(rows, right)), padding=0)
        self._show_rows(len(rows))

    def _far_share(self, rows: list[DatabaseOutcome], right: float) -> float:
        """The share of the width kept right of the last opening for 'RTO 2 d →': at the
        edge over the bars, it covered the last database's opening (issue 23)."""
        texts = [_far_text(d) for d in rows if d.rto_s > right]
        if not texts:
            return 0.0
        metrics = QFontMetrics(self.font())
        need = max(metrics.horizontalAdvance(t) for t in texts) + 16
        width = self.view.width()
        return min(need / width, 0.4) if width > need else 0.15

    def _show_rows(self, n: int) -> None:
        """The first rows (all of them if they fit), the rest a scroll away."""
        self.view.rows = n
        self.view.setLimits(yMin=-0.6, yMax=max(n, 1) - 0.4)
        self.view.show_rows(-0.6)
        self.setMouseEnabled(x=True, y=self.view.scrolls())
        self._fit_marks()
        self.mark_far_rtos()

    def mark_far_rtos(self) -> None:
        """An RTO beyond the chart's right edge (3 d when all open within 12 h) is said at
        the edge, as the PDF does, for the rows in view (issue 23.12)."""
        for item in self.far:
            self.removeItem(item)
        self.far = []
        if not self.rows:
            return
        x1 = self.view.viewRange()[0][1]
        first, last = self.visible_rows()
        colour = VERDICT_COLORS["misses"]
        for i in range(first, last + 1):
            d = self.rows[i]
            if d.rto_s > x1:
                item = pg.TextItem(_far_text(d), color=colour,
                                   anchor=(1.0, 0.5))  # fmt: skip
                item.setPos(x1, i)
                self.addItem(item)
                self.far.append(item)

    def visible_rows(self) -> tuple[int, int]:
        """The first and last row in view."""
        y0, y1 = self.view.viewRange()[1]
        return max(0, round(y0 + 0.6)), min(len(self.rows) - 1, round(y1 - 0.4))

    def show_row(self, i: int) -> None:
        """Scroll row `i` into view (the table's selection)."""
        first, last = self.visible_rows()
        if not first <= i <= last:
            self.view.show_rows(i - self.view.fit() / 2)

    def _fit_marks(self) -> None:
        """RTO ticks and opening dots no taller than a row on screen."""
        y0, y1 = self.view.viewRange()[1]
        px_per_row = self.view.height() / max(y1 - y0, 1e-9)
        self.rto_ticks.setSize(min(22.0, max(3.0, 0.9 * px_per_row)))
        self.opens.setSize(min(9.0, max(3.0, 0.45 * px_per_row)))

    def text_at(self, x: float, y: float) -> str:
        i = round(y)
        if not 0 <= i < len(self.rows):
            return ""
        d = self.rows[i]
        for p in d.phases:
            if p.start_s <= x <= p.end_s and p.duration_s > 0:
                wait = f"<br>lost to sharing: {format_duration(p.waited_s)}" if p.waited_s else ""
                return (
                    f"<b>{d.name}</b> — {PHASE_TITLES[p.name]}<br>"
                    f"{format_duration(p.start_s)} → {format_duration(p.end_s)} "
                    f"({format_duration(p.duration_s)}){wait}"
                )
        return (
            f"<b>{d.name}</b>: opens at {format_duration(d.open_s)}, RTO "
            f"{format_duration(d.rto_s)} — {VERDICT_WORDS[d.verdict]}"
        )
