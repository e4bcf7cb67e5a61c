"""Vector charts of the PDF plan, drawn with `reportlab.graphics` from `ReportData`.

Each function returns a `Drawing` (a flowable) of the width it is given. The charts are
drawn from primitive shapes rather than `reportlab.graphics.charts`, so every label uses
the embedded DejaVu font, and labels are placed (and kept inside the drawing) by hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from ..palette import STYLE_HEX, STYLE_LEGEND
from ..units import DAY, GB, HOUR, MB, TB, GiB, MiB, TiB, format_duration
from .fonts import FONT, FONT_BOLD
from .model import CapacityRow, ReportData

# A restrained palette that prints well in grey too.
INK = colors.HexColor("#1d2733")
MUTED = colors.HexColor("#5c6b7a")
GRID = colors.HexColor("#dfe4ea")
AXIS = colors.HexColor("#8a96a3")
NAVY = colors.HexColor("#1f3a5f")
BLUE = colors.HexColor("#3b73b9")
TEAL = colors.HexColor("#2a9d8f")
ORANGE = colors.HexColor("#e08e2b")
GREY = colors.HexColor("#a7b1bc")
RED = colors.HexColor("#c0392b")
GREEN = colors.HexColor("#2e8b57")
AMBER = colors.HexColor("#d68910")
AMBER_BAND = colors.HexColor("#fbeed5")
RED_BAND = colors.HexColor("#f9e0dd")

PHASE_COLOURS = {style: colors.HexColor(hex_) for style, hex_ in STYLE_HEX.items()}
"""The GUI's timeline uses the same palette (core.palette)."""
PHASE_LEGEND = STYLE_LEGEND
RPO_COLOURS = (BLUE, TEAL, GREY, ORANGE, NAVY)

LABEL = 7.5
SMALL = 6.5


def _drawing(width: float, height: float) -> Drawing:
    """A Drawing whose initial font is the embedded one (its default is Helvetica)."""
    d = Drawing(width, height)
    d.initialFontName = FONT
    d.initialFontSize = LABEL
    return d


def _w(text: str, size: float = LABEL, bold: bool = False) -> float:
    return stringWidth(text, FONT_BOLD if bold else FONT, size)


def _text(
    x: float,
    y: float,
    text: str,
    size: float = LABEL,
    colour=INK,
    anchor: str = "start",
    bold: bool = False,
) -> String:
    return String(
        x,
        y,
        text,
        fontName=FONT_BOLD if bold else FONT,
        fontSize=size,
        fillColor=colour,
        textAnchor=anchor,
    )


def _nice_step(span: float, ticks: int = 6) -> float:
    """A 1-2-2.5-5 step giving about `ticks` intervals over `span`."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / ticks
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _num(v: float) -> str:
    return f"{v:.10g}" if v == int(v) else f"{v:.4g}"


_HOUR_STEPS = (1 / 12, 1 / 6, 0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 24)
"""Steps of an hours axis: 5, 10, 15 and 30 minutes and whole hours, never 2.5 h."""

MINUTES_AXIS_UP_TO_S = 20 * 60.0
"""Only an axis this short reads plain minutes; every longer one reads h:mm (issue 23.6: a
one-hour backup window and a one-hour RPO read "0 10 … 60 (min)" beside "0:30 1:00")."""


def _time_axis(max_s: float) -> tuple[float, str, float]:
    """(unit seconds, unit name, step in that unit) for a time axis up to `max_s`.

    Hours are labelled h:mm ("2:30", never "2.5"); see `_tick`."""
    if max_s <= MINUTES_AXIS_UP_TO_S:
        unit, name = 60.0, "min"
    elif max_s <= 4 * DAY:
        unit, name = HOUR, "h:mm"
    else:
        unit, name = DAY, "days"
    span = max_s / unit
    step = _nice_step(span)
    if name == "min":
        for s in (5, 10, 15, 20, 30, 60):
            if span / s <= 7:
                step = s
                break
    elif name == "h:mm":
        step = next((s for s in _HOUR_STEPS if span / s <= 7), _HOUR_STEPS[-1])
    return unit, name, step


def _tick(v: float, name: str) -> str:
    """A tick label in the axis unit: "2:30" on an h:mm axis, else the number."""
    if name == "h:mm":
        minutes = round(v * 60)
        return f"{minutes // 60}:{minutes % 60:02d}"
    return _num(v)


def _size_unit(max_bytes: float, binary: bool) -> tuple[float, str]:
    steps = (
        ((TiB, "TiB"), (GiB, "GiB"), (MiB, "MiB"))
        if binary
        else ((TB, "TB"), (GB, "GB"), (MB, "MB"))
    )
    for factor, name in steps:
        if max_bytes >= factor:
            return factor, name
    return steps[-1]


def _dashed(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    colour,
    width: float = 1.0,
    dash: Sequence[float] = (3, 2),
) -> Line:
    return Line(x1, y1, x2, y2, strokeColor=colour, strokeWidth=width, strokeDashArray=list(dash))


def _x_grid(
    g: Group,
    x0: float,
    x1: float,
    y0: float,
    y1: float,
    vmax: float,
    unit: float,
    name: str,
    step: float,
    title: str | None = None,
) -> None:
    """Vertical grid lines with tick labels under the plot area [x0, x1] × [y0, y1]."""
    scale = (x1 - x0) / vmax
    v = 0.0
    while v * unit <= vmax * (1 + 1e-9):
        x = x0 + v * unit * scale
        g.add(Line(x, y0, x, y1, strokeColor=GRID, strokeWidth=0.5))
        g.add(_text(x, y0 - 9, _tick(v, name), SMALL, MUTED, "middle"))
        v += step
    g.add(Line(x0, y0, x1, y0, strokeColor=AXIS, strokeWidth=0.7))
    g.add(_text(x1, y0 - 18, title or name, SMALL, MUTED, "end"))


def _y_grid(
    g: Group,
    x0: float,
    x1: float,
    y0: float,
    y1: float,
    vmax: float,
    step: float,
    title: str,
    fmt=_num,
) -> None:
    scale = (y1 - y0) / vmax
    v = 0.0
    while v <= vmax * (1 + 1e-9):
        y = y0 + v * scale
        g.add(Line(x0, y, x1, y, strokeColor=GRID, strokeWidth=0.5))
        g.add(_text(x0 - 4, y - 2.5, fmt(v), SMALL, MUTED, "end"))
        v += step
    g.add(Line(x0, y0, x0, y1, strokeColor=AXIS, strokeWidth=0.7))
    g.add(_text(x0 - 4, y1 + 6, title, SMALL, MUTED, "end"))


def _legend_rows(items: Sequence[tuple[object, str, str]], x: float, max_x: float) -> int:
    """How many rows `_legend` needs between x and max_x."""
    rows, cx = 1, x
    for _, _, label in items:
        w = 14 + _w(label, SMALL) + 12
        if cx + w > max_x and cx > x:
            cx = x
            rows += 1
        cx += w
    return rows


def _legend(
    g: Group, x: float, y: float, items: Sequence[tuple[object, str, str]], max_x: float
) -> float:
    """Swatches ('box' | 'line' | 'dash' | 'band') with labels, wrapping; returns the
    y of the last row."""
    cx = x
    for colour, kind, label in items:
        w = 14 + _w(label, SMALL) + 12
        if cx + w > max_x and cx > x:
            cx = x
            y -= 11
        if kind == "box":
            g.add(Rect(cx, y - 1, 9, 7, fillColor=colour, strokeColor=None))
        elif kind == "band":
            g.add(Rect(cx, y - 1, 9, 7, fillColor=colour, strokeColor=AXIS, strokeWidth=0.3))
        elif kind == "outline":
            g.add(Rect(cx, y - 1, 9, 7, fillColor=colors.white, strokeColor=colour,
                       strokeWidth=0.9, strokeDashArray=[2, 1.5]))  # fmt: skip
        elif kind == "dot":
            g.add(Circle(cx + 5, y + 2.5, 2.6, fillColor=colour, strokeColor=None))
        elif kind == "dash":
            g.add(_dashed(cx, y + 2.5, cx + 10, y + 2.5, colour, 1.2))
        else:
            g.add(Line(cx, y + 2.5, cx + 10, y + 2.5, strokeColor=colour, strokeWidth=1.5))
        g.add(_text(cx + 13, y, label, SMALL, INK))
        cx += w
    return y


# ----------------------------------------------------------------------------- Gantt


@dataclass(frozen=True)
class _Frame:
    """A plot's area in points: x from `x0` to `x1`, y from `y0` to `y1`; `scale`
    points per second of the time axis."""

    x0: float
    x1: float
    y0: float
    y1: float
    scale: float

    def x(self, s: float) -> float:
        return self.x0 + s * self.scale


def gantt_chart(data: ReportData, width: float) -> Drawing:
    """The recovery phases end to end, with the RTO and the at-risk band."""
    bars = data.gantt
    row = 17.0
    x0, x1 = max([_w(b.label) for b in bars] + [40]) + 10, width - 6
    items = _gantt_legend(data)
    extra = 11.0 * (_legend_rows(items, x0, x1) - 1)
    bottom = 44.0 + extra
    vmax = max(data.total_s, data.rto_s) * 1.06
    scale = (x1 - x0) / vmax
    labels = _marker_labels(data, x0, x1, scale)
    top = 18.0 + MARKER_ROW * max(lab.row for lab in labels)
    d = _drawing(width, top + row * len(bars) + bottom)
    f = _Frame(x0, x1, bottom, bottom + row * len(bars), scale)
    g = Group()
    _gantt_bands(g, data, f, vmax)
    unit, name, step = _time_axis(vmax)
    _x_grid(g, x0, x1, f.y0, f.y1, vmax, unit, name, step, f"time from the failure ({name})")
    # The total line goes under the bars and their labels.
    total = next(lab for lab in labels if lab.colour == NAVY)
    g.add(_dashed(total.x, f.y0, total.x, f.y1 + 4 + MARKER_ROW * total.row, NAVY, 1.0))
    for i, b in enumerate(bars):
        _gantt_bar(g, b, f.y1 - (i + 0.5) * row, f)
    _gantt_markers(g, labels, f)
    _legend(g, x0, 8 + extra, items, x1)
    d.add(g)
    return d


MARKER_ROW = 10.0
"""Points between the rows of the RTO and total labels above the Gantt."""


@dataclass(frozen=True)
class _MarkerLabel:
    """A label above the Gantt for the line at `x`: its left edge, width and row (0 just
    above the plot, 1 above that when the two labels would overlap on one row)."""

    x: float
    left: float
    width: float
    row: int
    text: str
    colour: object


def _beside(x: float, w: float, side: str, lo: float, hi: float) -> float:
    """The left edge of a label of width `w` beside the line at `x`: on `side` ('end':
    to its left, 'start': to its right) when it fits in [lo, hi], else on the other side,
    so it stays attached to its line; clamped only when neither side fits."""
    left_of, right_of = x - 3 - w, x + 3
    first, second = (left_of, right_of) if side == "end" else (right_of, left_of)
    for left in (first, second):
        if lo <= left and left + w <= hi:
            return left
    return max(lo, min(first, hi - w))


def _marker_labels(data: ReportData, x0: float, x1: float, scale: float) -> list[_MarkerLabel]:
    """The RTO and total labels, each beside its own line (the earlier one to its left,
    the later to its right), on a second row when they would overlap."""
    xr, xt = x0 + data.rto_s * scale, x0 + data.total_s * scale
    marks = [(xr, f"RTO {data.rto_text}", RED), (xt, f"total {data.total_text}", NAVY)]
    marks.sort(key=lambda m: (m[0], m[2] == RED))
    out = []
    for (x, text, colour), side in zip(marks, ("end", "start"), strict=True):
        w = _w(text, SMALL, True)
        out.append(_MarkerLabel(x, _beside(x, w, side, x0, x1), w, 0, text, colour))
    a, b = out
    if a.left + a.width + 4 > b.left and b.left + b.width + 4 > a.left:
        # Raise a label whose line does not run through the other label (the total's
        # first): its line is drawn up to it.
        order = sorted((0, 1), key=lambda i: out[i].colour != NAVY)
        upper = next((i for i in order if not _spans(out[1 - i], out[i].x)), order[0])
        lab = out[upper]
        out[upper] = _MarkerLabel(lab.x, lab.left, lab.width, 1, lab.text, lab.colour)
    return out


def _spans(lab: _MarkerLabel, x: float) -> bool:
    return lab.left - 1 <= x <= lab.left + lab.width + 1


def _gantt_legend(data: ReportData) -> list[tuple[object, str, str]]:
    items: list[tuple[object, str, str]] = [
        (PHASE_COLOURS[k], "box", label)
        for k, label in PHASE_LEGEND
        if any(b.style == k for b in data.gantt)
    ]
    overlap = [b for b in data.gantt if getattr(b, "overlap_s", 0.0) > 0]
    if overlap:
        items.append((PHASE_COLOURS[overlap[0].style], "outline", "applied while restored"))
    if data.risk_margin_s > 0:
        items.append((AMBER_BAND, "band", "at-risk margin"))
    return items


def _gantt_bands(g: Group, data: ReportData, f: _Frame, vmax: float) -> None:
    """The at-risk band between RTO − risk margin and the RTO; beyond the RTO a red band."""
    risk0 = max(0.0, data.rto_s - data.risk_margin_s)
    h = f.y1 - f.y0
    if data.risk_margin_s > 0:
        width = f.x(data.rto_s) - f.x(risk0)
        g.add(Rect(f.x(risk0), f.y0, width, h, fillColor=AMBER_BAND, strokeColor=None))
    if vmax > data.rto_s:
        width = f.x1 - f.x(data.rto_s)
        g.add(Rect(f.x(data.rto_s), f.y0, width, h, fillColor=RED_BAND, strokeColor=None))


def _gantt_bar(g: Group, b: Any, yc: float, f: _Frame) -> None:
    """One phase (a `GanttBar`): its label, its bar, and its text inside the bar or beside it."""
    g.add(_text(f.x0 - 6, yc - 2.7, b.label, LABEL, INK, "end"))
    bx, bw = f.x(b.start_s), max(b.duration_s * f.scale, 0.8)
    colour = PHASE_COLOURS[b.style]
    g.add(Rect(bx, yc - 5.5, bw, 11, fillColor=colour, strokeColor=None))
    ow = min(getattr(b, "overlap_s", 0.0) * f.scale, bw)
    if ow > 0:
        # Time shared with the phase above: an outline over it, not a second solid bar.
        g.add(Rect(bx, yc - 5.5, ow, 11, fillColor=colors.white, strokeColor=colour,
                   strokeWidth=0.9, strokeDashArray=[2, 1.5]))  # fmt: skip
        g.add(Line(bx, yc + 5.5, bx, yc + 11.5, strokeColor=colour, strokeWidth=0.6))
    tw = _w(b.text, SMALL)
    if bw - ow >= tw + 6 and ow == 0:
        g.add(_text(bx + bw / 2, yc - 2.3, b.text, SMALL, colors.white, "middle"))
        return
    # Beside the bar, on a white ground: the dashed total line never runs through it.
    tx = bx + bw + 3 if bx + bw + 3 + tw <= f.x1 else bx - 3 - tw
    g.add(Rect(tx - 1.5, yc - 4.6, tw + 3, 9.2, fillColor=colors.white, strokeColor=None))
    g.add(_text(tx, yc - 2.3, b.text, SMALL, INK))


def _gantt_markers(g: Group, labels: list[_MarkerLabel], f: _Frame) -> None:
    """The RTO line, and the RTO and total labels, each attached to its own line."""
    rto = next(lab for lab in labels if lab.colour == RED)
    g.add(Line(rto.x, f.y0, rto.x, f.y1 + 4 + MARKER_ROW * rto.row, strokeColor=RED,
               strokeWidth=1.4))  # fmt: skip
    for lab in labels:
        g.add(_text(lab.left, f.y1 + 6 + MARKER_ROW * lab.row, lab.text, SMALL, lab.colour,
                    bold=True))  # fmt: skip


# ----------------------------------------------------------------------------- capacity


def capacity_bar(
    row: CapacityRow, max_Bps: float, rate_Bps: float, width: float, height: float = 9.0
) -> Drawing:
    """A small bar for the path table: the stage's capacity, the path's rate marked."""
    d = _drawing(width, height)
    scale = width / max_Bps if max_Bps > 0 else 0.0
    d.add(Rect(0, 1, width, height - 2, fillColor=colors.HexColor("#f1f3f6"), strokeColor=None))
    colour = RED if row.bottleneck else BLUE
    d.add(
        Rect(
            0, 1, max(0.8, row.capacity_Bps * scale), height - 2, fillColor=colour, strokeColor=None
        )
    )
    x = rate_Bps * scale
    d.add(Line(x, 0, x, height, strokeColor=INK, strokeWidth=1.0))
    return d


def capacity_legend(width: float) -> Drawing:
    d = _drawing(width, 12)
    g = Group()
    g.add(Line(2, 1, 2, 10, strokeColor=INK, strokeWidth=1.0))
    g.add(_text(6, 2.5, "rate the path achieves", SMALL, MUTED))
    x = 6 + _w("rate the path achieves", SMALL) + 14
    g.add(Rect(x, 2, 9, 7, fillColor=RED, strokeColor=None))
    g.add(_text(x + 13, 2.5, "bottleneck", SMALL, MUTED))
    x += 13 + _w("bottleneck", SMALL) + 14
    g.add(Rect(x, 2, 9, 7, fillColor=BLUE, strokeColor=None))
    g.add(_text(x + 13, 2.5, "capacity of the stage (data bytes/s)", SMALL, MUTED))
    d.add(g)
    return d


# ----------------------------------------------------------------------------- jobs


def jobs_chart(data: ReportData, width: float) -> Drawing:
    """Each backup job's duration against its window."""
    jobs = data.jobs
    row = 18.0
    label_w = max([_w(j.label) for j in jobs] + [40]) + 10
    x0, x1 = label_w, width - 6
    bottom_pad, top_pad = 42.0, 8.0
    height = bottom_pad + row * len(jobs) + top_pad
    d = _drawing(width, height)
    g = Group()
    vmax = max([j.duration_s for j in jobs] + [j.window_s or 0 for j in jobs]) * 1.08
    vmax = vmax or 1.0
    unit, name, step = _time_axis(vmax)
    y0, y1 = bottom_pad, bottom_pad + row * len(jobs)
    scale = (x1 - x0) / vmax
    _x_grid(g, x0, x1, y0, y1, vmax, unit, name, step, f"duration ({name})")
    for i, j in enumerate(jobs):
        yc = y1 - (i + 0.5) * row
        g.add(_text(x0 - 6, yc - 2.7, j.label, LABEL, INK, "end"))
        colour = RED if j.fits is False else TEAL
        bw = max(0.8, j.duration_s * scale)
        g.add(Rect(x0, yc - 5.5, bw, 11, fillColor=colour, strokeColor=None))
        text = j.text
        tw = _w(text, SMALL)
        if bw >= tw + 6:
            g.add(_text(x0 + bw / 2, yc - 2.3, text, SMALL, colors.white, "middle"))
        else:
            g.add(_text(min(x0 + bw + 3, x1 - tw), yc - 2.3, text, SMALL, INK))
        if j.window_s:
            xw = x0 + j.window_s * scale
            g.add(Line(xw, yc - 8, xw, yc + 8, strokeColor=RED, strokeWidth=1.6))
    _legend(
        g,
        x0,
        8,
        [
            (TEAL, "box", "fits its window"),
            (RED, "box", "overruns its window"),
            (RED, "line", "window"),
        ],
        x1,
    )
    d.add(g)
    return d


# ----------------------------------------------------------------------------- cycle


def cycle_chart(data: ReportData, width: float, height: float = 170.0) -> Drawing:
    """Total recovery time for a failure at each hour of the level 0 cycle."""
    c = data.cycle
    assert c is not None
    x0, x1 = 40.0, width - 8
    items = [
        (NAVY, "line", "total recovery time"),
        (NAVY, "dot", f"worst case {format_duration(c.worst_s)}"),
        (RED, "line", f"RTO {data.rto_text}"),
    ]
    extra = 11.0 * (_legend_rows(items, x0, x1) - 1)
    height += extra
    d = _drawing(width, height)
    g = Group()
    y0, y1 = 46.0 + extra, height - 16
    ymax_s = max(c.worst_s, data.rto_s) * 1.12
    yunit, yname, ystep = _time_axis(ymax_s)
    xunit = DAY if c.period_s >= 2 * DAY else HOUR
    xname = "days" if xunit == DAY else "h"
    xmax = c.period_s
    xstep = _nice_step(xmax / xunit, 7)
    if xunit == DAY:
        xstep = max(1.0, round(xstep))
    _x_grid(
        g, x0, x1, y0, y1, xmax, xunit, xname, xstep, f"failure time after the level 0 ({xname})"
    )
    _y_grid(g, x0, x1, y0, y1, ymax_s / yunit, ystep, f"recovery ({yname})",
            lambda v: _tick(v, yname))  # fmt: skip
    sx = (x1 - x0) / xmax
    sy = (y1 - y0) / ymax_s

    def P(t: float, v: float) -> tuple[float, float]:
        return x0 + t * sx, y0 + min(v, ymax_s) * sy

    yr = P(0, data.rto_s)[1]
    g.add(Rect(x0, yr, x1 - x0, y1 - yr, fillColor=RED_BAND, strokeColor=None))
    g.add(Line(x0, yr, x1, yr, strokeColor=RED, strokeWidth=1.3))
    pts: list[float] = []
    for t, v in c.points:
        pts.extend(P(t, v))
    g.add(PolyLine(pts, strokeColor=NAVY, strokeWidth=1.3))
    wx, wy = P(c.worst_at_s, c.worst_s)
    g.add(Circle(wx, wy, 2.6, fillColor=NAVY, strokeColor=colors.white, strokeWidth=0.6))
    _legend(g, x0, 8 + extra, items, x1)
    d.add(g)
    return d


# ----------------------------------------------------------------------------- growth


def growth_chart(data: ReportData, width: float, height: float = 180.0) -> Drawing:
    """Worst-case recovery and level 0 backup time as the database grows."""
    gr = data.growth
    assert gr is not None
    x0, x1 = 40.0, width - 8
    window = next((j.window_s for j in data.jobs if j.label == "Level 0"), None)
    items = _growth_legend(data, window)
    extra = 11.0 * (_legend_rows(items, x0, x1) - 1)
    height += extra
    d = _drawing(width, height)
    g = Group()
    y0, y1 = 46.0 + extra, height - 16
    ymax_s = _growth_top(gr.points, max(data.rto_s, window or 0.0))
    yunit, yname, ystep = _time_axis(ymax_s)
    xmax = max(p[0] for p in gr.points) or 1.0
    _x_grid(g, x0, x1, y0, y1, xmax, 1.0, "years", 1.0 if xmax <= 12 else 2.0,
            f"years from {gr.as_of.isoformat()}")  # fmt: skip
    _y_grid(g, x0, x1, y0, y1, ymax_s / yunit, ystep, f"time ({yname})",
            lambda v: _tick(v, yname))  # fmt: skip
    plot = _Plot(x0, y0, y1, (x1 - x0) / xmax, (y1 - y0) / ymax_s, ymax_s)
    _growth_lines(g, data, plot, x1, window)
    if gr.breaks_at_years is not None and gr.breaks_at_years <= xmax:
        xb = x0 + gr.breaks_at_years * plot.sx
        g.add(Line(xb, y0, xb, y1, strokeColor=AMBER, strokeWidth=1.2))
    _legend(g, x0, 8 + extra, items, x1)
    d.add(g)
    return d


def _growth_legend(data: ReportData, window: float | None) -> list[tuple[object, str, str]]:
    gr = data.growth
    assert gr is not None
    items: list[tuple[object, str, str]] = [
        (NAVY, "line", "worst-case recovery"),
        (TEAL, "line", "level 0 backup"),
        (RED, "line", f"RTO {data.rto_text}"),
    ]
    if window:
        items.append((TEAL, "dash", f"backup window {format_duration(window)}"))
    if gr.breaks_at_years is not None:
        items.append((AMBER, "line", f"plan breaks {gr.breaks_on_text}"))
    return items


def _growth_top(points: Sequence[Sequence[float]], limit: float) -> float:
    """The time axis' top: the curves with a little room, the RTO and window in sight,
    and a curve that runs away cut rather than squashing the others."""
    top = max(max(p[2] for p in points), max(p[3] for p in points))
    ymax_s = min(top * 1.08, limit * 2.2) if top > 0 else limit * 1.2
    return max(ymax_s, limit * 1.15)


def _growth_lines(g: Group, data: ReportData, plot: _Plot, x1: float, window: float | None) -> None:
    """The RTO, the backup window, and the recovery and level 0 curves."""
    gr = data.growth
    assert gr is not None
    yr = plot.y0 + data.rto_s * plot.sy
    g.add(Line(plot.x0, yr, x1, yr, strokeColor=RED, strokeWidth=1.1))
    if window:
        yw = plot.y0 + window * plot.sy
        g.add(_dashed(plot.x0, yw, x1, yw, TEAL, 1.1))
    _clipped_line(g, plot, [(p[0], p[2]) for p in gr.points], NAVY)
    _clipped_line(g, plot, [(p[0], p[3]) for p in gr.points], TEAL)


@dataclass(frozen=True)
class _Plot:
    """A line plot's origin (`x0`, `y0`), top `y1`, points per unit (`sx`, `sy`) and the
    highest value shown (`ymax`)."""

    x0: float
    y0: float
    y1: float
    sx: float
    sy: float
    ymax: float


def _clipped_line(g: Group, plot: _Plot, values: list[tuple[float, float]], colour: object,
                  dash: Sequence[float] | None = None) -> None:  # fmt: skip
    """A polyline clipped at the top of the plot."""
    for s in _clip_segments(plot, values):
        if len(s) >= 4:
            kw = {"strokeDashArray": list(dash)} if dash else {}
            g.add(PolyLine(s, strokeColor=colour, strokeWidth=1.4, **kw))


def _clip_segments(plot: _Plot, values: list[tuple[float, float]]) -> list[list[float]]:
    """The line's points in pieces: cut where it leaves the top, resumed where it returns."""
    pts: list[float] = []
    segs: list[list[float]] = []
    prev = None
    for t, v in values:
        if prev is not None:
            (pt, pv) = prev
            if pv <= plot.ymax < v or pv > plot.ymax >= v:
                tc = pt + (t - pt) * (plot.ymax - pv) / (v - pv)
                pts.extend((plot.x0 + tc * plot.sx, plot.y1))
            if pv <= plot.ymax < v:  # leaves the plot: this piece ends at the top
                segs.append(pts)
                pts = []
        if v <= plot.ymax:
            pts.extend((plot.x0 + t * plot.sx, plot.y0 + v * plot.sy))
        prev = (t, v)
    if pts:
        segs.append(pts)
    return segs


# ----------------------------------------------------------------------------- RPO


def rpo_chart(data: ReportData, width: float) -> Drawing:
    """What a site loss loses, part by part, against the RPO target."""
    parts = [p for p in data.rpo_parts if p.duration_s > 0]
    total = sum(p.duration_s for p in parts)
    target = data.rpo_target_s or 0.0
    vmax = max(total, target) * 1.08 or 1.0
    x0, x1 = 8.0, width - 8
    items = [
        (RPO_COLOURS[i % len(RPO_COLOURS)], "box", f"{p.label} ({p.text})")
        for i, p in enumerate(parts)
    ]
    extra = 11.0 * (_legend_rows(items, x0, x1) - 1) if items else 0.0
    height = 84.0 + extra
    d = _drawing(width, height)
    g = Group()
    unit, name, step = _time_axis(vmax)
    y0, y1 = 42.0 + extra, 68.0 + extra
    _x_grid(g, x0, x1, y0, y1, vmax, unit, name, step, f"data lost after a site loss ({name})")
    scale = (x1 - x0) / vmax
    x = x0
    for i, p in enumerate(parts):
        colour = RPO_COLOURS[i % len(RPO_COLOURS)]
        w = p.duration_s * scale
        g.add(Rect(x, y0 + 5, max(w, 0.8), y1 - y0 - 10, fillColor=colour, strokeColor=None))
        if w > _w(p.text, SMALL) + 6:
            g.add(_text(x + w / 2, (y0 + y1) / 2 - 2.3, p.text, SMALL, colors.white, "middle"))
        x += w
    if target:
        xt = x0 + target * scale
        g.add(Line(xt, y0, xt, y1 + 2, strokeColor=RED, strokeWidth=1.6))
        label = f"RPO {format_duration(target)}"
        lw = _w(label, SMALL, True)
        g.add(_text(min(max(xt - lw / 2, x0), x1 - lw), y1 + 5, label, SMALL, RED, bold=True))
    if items:
        _legend(g, x0, 8 + extra, items, x1)
    d.add(g)
    return d


# ----------------------------------------------------------------------------- redo


def redo_chart(data: ReportData, width: float, height: float = 160.0) -> Drawing:
    """The redo rate of each interval of the imported period, with the average and p95,
    in the unit rates are typed in (MB/s), as the workload table prints them."""
    w = data.workload
    assert w is not None and w.series
    d = _drawing(width, height)
    g = Group()
    x0, x1 = 44.0, width - 8
    y0, y1 = 46.0, height - 16
    rates = [s.redo_Bps for s in w.series]
    top = max([*rates, w.redo_p95_Bps, w.redo_avg_Bps]) * 1.1 or 1.0
    factor, uname = _size_unit(top, data.binary)
    ystep = _nice_step(top / factor, 5)
    ymax = top / factor
    _y_grid(g, x0, x1, y0, y1, ymax, ystep, f"redo ({uname}/s)")
    t_start = w.series[0].start
    t_end = w.series[-1].end
    span = max((t_end - t_start).total_seconds(), 1.0)
    sx = (x1 - x0) / span
    sy = (y1 - y0) / ymax
    for s, v in zip(w.series, rates, strict=True):
        bx = x0 + (s.start - t_start).total_seconds() * sx
        bw = max(0.6, (s.end - s.start).total_seconds() * sx - 0.4)
        g.add(Rect(bx, y0, bw, v / factor * sy, fillColor=BLUE, strokeColor=None))
    g.add(Line(x0, y0, x1, y0, strokeColor=AXIS, strokeWidth=0.7))
    # Time ticks: whole days for long periods, else every few hours.
    day = span >= 2 * DAY
    step = (
        timedelta(days=max(1, round(span / DAY / 7)))
        if day
        else timedelta(hours=max(1, int(_nice_step(span / HOUR, 6))))
    )
    if day:
        t = t_start.replace(hour=0, minute=0, second=0, microsecond=0)
        if t < t_start:
            t += timedelta(days=1)
    else:
        t = t_start.replace(minute=0, second=0, microsecond=0)
        if t < t_start:
            t += timedelta(hours=1)
    last_right = -1e9
    while t <= t_end:
        x = x0 + (t - t_start).total_seconds() * sx
        label = f"{t:%d %b}" if day else f"{t:%H:%M}"
        lw = _w(label, SMALL)
        if x - lw / 2 > last_right + 4 and x + lw / 2 <= x1 + 6:
            g.add(Line(x, y0, x, y0 - 3, strokeColor=AXIS, strokeWidth=0.5))
            g.add(_text(x, y0 - 11, label, SMALL, MUTED, "middle"))
            last_right = x + lw / 2
        t += step
    for value, colour, dash in ((w.redo_avg_Bps, NAVY, None), (w.redo_p95_Bps, ORANGE, (3, 2))):
        y = y0 + value / factor * sy
        if dash:
            g.add(_dashed(x0, y, x1, y, colour, 1.1, dash))
        else:
            g.add(Line(x0, y, x1, y, strokeColor=colour, strokeWidth=1.1))
    _legend(
        g,
        x0,
        8,
        [
            (BLUE, "box", "redo rate of each interval"),
            (NAVY, "line", "average"),
            (ORANGE, "dash", "95th percentile"),
        ],
        x1,
    )
    d.add(g)
    return d
