"""Shared pieces of the plot panels: the panel protocol, axes that speak durations and
data rates, and hover tooltips.

Panels are thin: they receive a `Plan` (core result data), create their pyqtgraph items
once and update them with setData/setOpts. All formatting of quantities goes through
`rtoplanner.core.units`; the only arithmetic here is choosing a display unit, and even
that asks core (`format_rate` picks the unit, `parse_rate` gives its size in bytes).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPointF, Qt, Slot
from PySide6.QtGui import QColor, QCursor, QFont, QHelpEvent
from PySide6.QtWidgets import QLabel, QToolTip, QVBoxLayout, QWidget

from rtoplanner.core.plan import Plan
from rtoplanner.core.units import format_duration, format_rate, format_size, parse_rate, parse_size

from ..theme import PlotTheme

_STEPS_S = (
    1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 21600,
    43200, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400, 91 * 86400, 182 * 86400,
    365 * 86400,
)  # fmt: skip


def short_duration(seconds: float) -> str:
    """core's `format_duration` without the zero tails a tick label does not need."""
    text = format_duration(seconds)
    for tail in (" 00 min", " 0 h"):
        if text.endswith(tail):
            text = text[: -len(tail)]
    return text


class DurationAxis(pg.AxisItem):
    """An axis in seconds whose ticks fall on round durations and read `1 h 30 min`."""

    def __init__(self, orientation: str, **kwargs) -> None:
        super().__init__(orientation, **kwargs)
        self.enableAutoSIPrefix(False)

    def tickSpacing(self, minVal: float, maxVal: float, size: float):
        span = abs(maxVal - minVal)
        if span <= 0 or not math.isfinite(span):
            return [(1.0, 0.0)]
        room = 110 if self.orientation in ("top", "bottom") else 40
        wanted = max(2, size / room)
        major = next((s for s in _STEPS_S if span / s <= wanted), _STEPS_S[-1])
        i = _STEPS_S.index(major)
        minor = _STEPS_S[max(0, i - 2)]
        return [(float(major), 0.0), (float(minor), 0.0)]

    def tickStrings(self, values, scale, spacing):
        # One way of counting per axis: "42 h" under "2 d" read as two units (issue 23).
        days = any(v >= 2 * 86400 for v in values)
        return [
            ("0" if v == 0 else _days_hours(v) if days and v >= 86400 else short_duration(v))
            if v >= 0
            else ""
            for v in values
        ]


def _days_hours(seconds: float) -> str:
    """`1 d 18 h`, `2 d`: a tick of an axis that reaches days."""
    d, rem = divmod(round(seconds), 86400)
    h = round(rem / 3600)
    if h == 24:
        d, h = d + 1, 0
    return f"{d} d {h} h" if h else f"{d} d"


def rate_unit(max_Bps: float, binary: bool) -> tuple[str, float]:
    """The display unit core would pick for rates up to `max_Bps`, and its bytes/s."""
    text = format_rate(max(max_Bps, 1.0), binary=binary)
    unit = text.split()[-1]
    return unit, parse_rate(f"1 {unit}")


def size_unit(max_bytes: float, binary: bool) -> tuple[str, float]:
    text = format_size(max(max_bytes, 1.0), binary=binary)
    unit = text.split()[-1]
    return unit, parse_size(f"1 {unit}")


def mkpen(color: str, width: float = 1.5, style: Qt.PenStyle = Qt.PenStyle.SolidLine):
    pen = pg.mkPen(color, width=width, style=style)
    pen.setCosmetic(True)
    return pen


def alpha(color: str, a: int) -> QColor:
    c = QColor(color)
    c.setAlpha(a)
    return c


class HoverTip(QObject):
    """Shows a tooltip for whatever the mouse is over; `text_at(x, y)` maps view
    coordinates to HTML (or "" for nothing) and is what tests call.

    The tip follows the mouse, and it stays when the mouse rests: Qt then sends the
    view a ToolTip event, which the graphics scene would answer by hiding the tip (no
    item has a tooltip of its own), so this filter answers it instead.
    """

    def __init__(self, plot: pg.PlotWidget, text_at: Callable[[float, float], str]) -> None:
        super().__init__(plot)
        self.plot = plot
        self.text_at = text_at
        self._last = ""
        plot.scene().sigMouseMoved.connect(self._on_move)
        plot.viewport().installEventFilter(self)

    def text_at_scene(self, pos: QPointF) -> str:
        """The tooltip for a point of the scene ("" outside the plot area)."""
        vb = self.plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(pos):
            return ""
        p = vb.mapSceneToView(pos)
        return self.text_at(p.x(), p.y())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
            return False
        text = self.text_at_scene(self.plot.mapToScene(event.pos()))
        self._show(text, event.globalPos())
        return True

    @Slot(object)
    def _on_move(self, pos: QPointF) -> None:
        text = self.text_at_scene(pos)
        if text != self._last or text:
            self._show(text, QCursor.pos())

    def _show(self, text: str, global_pos) -> None:
        self._last = text
        if text:
            QToolTip.showText(global_pos, text, self.plot.viewport())
        else:
            QToolTip.hideText()


class PlanPanel(QWidget):
    """Base of the result views: a title line, a note line and one or more plots.

    Protocol: `set_plan(plan)` draws a plan (a fast plan has `cycle is None`; panels that
    need the cycle or growth keep their last picture until the full plan arrives),
    `set_binary(bool)` switches decimal/binary units, `apply_theme()` recolours.
    """

    title = ""
    needs_full_plan = False

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plan: Plan | None = None
        self.binary = False
        self.theme = PlotTheme.current()
        self.update_count = 0
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self._layout.setSpacing(4)
        self.headline = QLabel()
        self.headline.setObjectName("headline")
        font = QFont(self.headline.font())
        font.setPointSizeF(font.pointSizeF() * 1.1)
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        self._layout.addWidget(self.headline)
        self.note = QLabel()
        self.note.setObjectName("note")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.RichText)

    def add_plot(self, plot: pg.PlotWidget, stretch: int = 1) -> None:
        self._layout.addWidget(plot, stretch)

    def finish_layout(self) -> None:
        self._layout.addWidget(self.note)

    def new_plot(self, **axes) -> pg.PlotWidget:
        plot = pg.PlotWidget(axisItems=axes or None)
        plot.setBackground(self.theme.background)
        item = plot.getPlotItem()
        item.showGrid(x=True, y=False, alpha=self.theme.grid_alpha)
        item.setMenuEnabled(False)
        item.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        for name in ("left", "bottom"):
            ax = item.getAxis(name)
            ax.setPen(mkpen(self.theme.muted, 1))
            ax.setTextPen(mkpen(self.theme.foreground, 1))
        return plot

    def set_plan(self, plan: Plan) -> None:
        if self.needs_full_plan and plan.cycle is None:
            return  # keep the last cycle/growth picture until the worker brings the new one
        self.plan = plan
        self.update_count += 1
        self.redraw()

    def set_binary(self, binary: bool) -> None:
        self.binary = binary
        if self.plan is not None:
            self.redraw()

    def apply_theme(self) -> None:
        self.theme = PlotTheme.current()
        for plot in self.findChildren(pg.PlotWidget):
            plot.setBackground(self.theme.background)
            for name in ("left", "bottom"):
                ax = plot.getPlotItem().getAxis(name)
                ax.setPen(mkpen(self.theme.muted, 1))
                ax.setTextPen(mkpen(self.theme.foreground, 1))
        if self.plan is not None:
            self.redraw()

    def redraw(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def label_side(
    label: pg.TextItem, plot: pg.PlotWidget, x: float, lo: float, hi: float,
    y_anchor: float, gap: float = 0.05,
) -> None:  # fmt: skip
    """Put a label beside a point or line at `x` on the side with room: to the left when
    the label fits between the axis and `x` (in pixels, once the plot has a size; else in
    the right two thirds of `lo..hi`), to the right otherwise. A label left of a point
    near the axis was cut to its last letters (the cycle's "…min" read "nin", issue 23.7)."""
    span = hi - lo
    width_px = plot.getPlotItem().getViewBox().width()
    if span <= 0:
        right = True
    elif width_px > 0:
        need = label.boundingRect().width() * (1 + gap) + 4
        left_px = (x - lo) / span * width_px
        right = left_px < need and width_px - left_px > left_px  # the roomier side
    else:
        right = (x - lo) / span < 0.35
    label.setAnchor((-gap if right else 1 + gap, y_anchor))
    on_background(label, plot)


def right_room(
    plot: pg.PlotWidget, placed: list[tuple[float, pg.TextItem]], least_hi: float,
    lo: float = 0.0, most: float = 0.7,
) -> float:  # fmt: skip
    """The upper end of the x range that leaves room, right of each point x, for the
    label placed there (left-anchored): at 1024 px "1.40 GB/s ◀ bottleneck" and "31 h
    11 min · 705 GB/h effective" ran off the plot (issue 23.7). At least `least_hi`; a
    label takes at most `most` of the plot's width. Before the plot has a size (or for a
    point off the chart) it is `least_hi`."""
    width_px = plot.getPlotItem().getViewBox().width()
    hi = least_hi
    if width_px <= 0:
        return hi
    for x, label in placed:
        if not label.isVisible() or not np.isfinite(x) or x <= lo:
            continue
        share = min(most, (label.boundingRect().width() + 6) / width_px)
        hi = max(hi, lo + (x - lo) / (1 - share))
    return hi


def axis_title(plot: pg.PlotWidget, side: str, *titles: str, units: str | None = None) -> None:
    """Title an axis with the first of `titles` that fits along it, again whenever the
    plot is resized: at 1024 px the Confidence view's read "covery time (failure at the
    worst moment)" and the ramp's "Rate (data) (MB/s" (issue 23.4). The last title is
    the shortest; it stands when none fits."""
    axis = plot.getPlotItem().getAxis(side)
    first = not hasattr(axis, "rto_titles")
    axis.rto_titles = (titles, units)
    if first:
        vb = plot.getPlotItem().getViewBox()
        vb.sigResized.connect(lambda *_a, ax=axis: _fit_axis_title(ax))
    _fit_axis_title(axis)


def _fit_axis_title(axis: pg.AxisItem) -> None:
    titles, units = axis.rto_titles
    box = axis.boundingRect()
    along = box.height() if axis.orientation in ("left", "right") else box.width()
    for title in titles:
        axis.setLabel(title, units=units)
        if along <= 0 or axis.label.boundingRect().width() <= along:
            break


def on_background(label: pg.TextItem, plot: pg.PlotWidget) -> None:
    """Draw a label over the curves, on the plot's background: a curve no longer strikes
    it through (the growth view's labels, the confidence RTO label; issue 23.7)."""
    background = QColor(plot.backgroundBrush().color())
    background.setAlpha(210)
    label.fill = pg.mkBrush(background)
    label.setZValue(20)


def category_axis(plot: pg.PlotWidget, labels: list[str]) -> None:
    """Label rows 0..n-1 of the left axis (rows grow downwards)."""
    ax = plot.getPlotItem().getAxis("left")
    ax.setTicks([[(i, text) for i, text in enumerate(labels)], []])


def text_item(color: str, anchor: tuple[float, float] = (0, 0.5), bold: bool = False):
    item = pg.TextItem(color=color, anchor=anchor)
    if bold:
        f = QFont()
        f.setBold(True)
        item.setFont(f)
    return item
