"""The recovery clock's one-page status PDF, for management during an incident.

One A4 page: the headline ("expected open 01:28, 90 % by 01:40; redo apply 62 % done at
64 MB/s"), the RTO deadline and the chance to make it, the phases (done, running, to
come) with their times, and the forecast after each snapshot (P50 and P90 of the open
against the deadline). Drawn with reportlab from `RecoveryClock`, with the report's
embedded fonts, so it is Qt-free and thread-safe like the plan's PDF.
"""

from __future__ import annotations

import os
from datetime import datetime
from io import BytesIO
from typing import TYPE_CHECKING

from reportlab.graphics.shapes import Line, PolyLine, String
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ..report.charts import AMBER, BLUE, GRID, INK, MUTED, NAVY, RED, _drawing, _text
from ..report.fonts import FONT, FONT_BOLD, markup, register_fonts
from ..result import PHASE_TITLES
from ..units import format_percent

if TYPE_CHECKING:
    from .clock import ClockPhase, RecoveryClock

_STATUS_WORDS = {"done": "done", "running": "running", "to come": "to come"}


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=FONT, fontSize=9.5, leading=13, textColor=INK)
    return {
        "body": base,
        "title": ParagraphStyle("title", base, fontName=FONT_BOLD, fontSize=16, leading=20),
        "head": ParagraphStyle(
            "head",
            base,
            fontName=FONT_BOLD,
            fontSize=13,
            leading=17,
            textColor=NAVY,
            spaceBefore=4,
            spaceAfter=4,
        ),
        "small": ParagraphStyle("small", base, fontSize=7.5, leading=10, textColor=MUTED),
    }


def _when(t: datetime | None, today: datetime) -> str:
    if t is None:
        return "—"
    return f"{t:%H:%M}" if t.date() == today.date() else f"{t:%a %H:%M}"


def _phase_rows(clock: RecoveryClock) -> list[list[str]]:
    rows = [["Phase", "Status", "Start", "End"]]
    for p in clock.phases:
        if p.start is None and p.end is None and p.status == "done":
            continue
        rows.append(_phase_row(p, clock.now.at))
    return rows


def _phase_row(p: ClockPhase, now: datetime) -> list[str]:
    """Phase, status, start, end (≈ for a forecast end)."""
    end = _when(p.end, now)
    if p.status != "done" and p.end is not None:
        end = f"≈ {end}"
    return [PHASE_TITLES[p.name], _STATUS_WORDS[p.status], _when(p.start, now), end]


def _table(rows: list[list[str]], widths: list[float], running: int | None) -> Table:
    t = Table(rows, colWidths=widths, hAlign="LEFT")
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("FONT", (0, 0), (-1, 0), FONT_BOLD, 9),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
    ]
    if running is not None:
        style.append(("FONT", (0, running), (-1, running), FONT_BOLD, 9))
    t.setStyle(TableStyle(style))
    return t


def _label(
    x: float,
    y: float,
    text: str,
    colour,
    anchor: str = "start",
    bold: bool = False,
    size: float = 7,
) -> String:
    return _text(x, y, text, size=size, colour=colour, anchor=anchor, bold=bold)


class _Frame:
    """The chart's mapping of times (snapshots across, forecasts up) to points."""

    def __init__(self, clock: RecoveryClock, width: float, height: float) -> None:
        h = clock.history
        self.left, self.bottom, self.right, self.top = 34, 22, width - 8, height - 10
        self.t0, self.t1 = h[0].at, h[-1].at
        ys = [f.open_p50 for f in h] + [f.open_p90 for f in h] + [clock.deadline]
        self.y0, self.y1 = min(ys), max(ys)
        self.span_x = max((self.t1 - self.t0).total_seconds(), 1.0)
        self.span_y = max((self.y1 - self.y0).total_seconds(), 60.0)

    def x(self, t: datetime) -> float:
        return self.left + (self.right - self.left) * (t - self.t0).total_seconds() / self.span_x

    def y(self, t: datetime) -> float:
        return self.bottom + (self.top - self.bottom) * (t - self.y0).total_seconds() / self.span_y


def _axes(d, f: _Frame) -> None:
    for t in (f.y0, f.y0 + (f.y1 - f.y0) / 2, f.y1):
        d.add(Line(f.left, f.y(t), f.right, f.y(t), strokeColor=GRID, strokeWidth=0.5))
        d.add(_label(f.left - 3, f.y(t) - 2.5, f"{t:%H:%M}", MUTED, "end"))
    for t in (f.t0, f.t0 + (f.t1 - f.t0) / 2, f.t1):
        d.add(_label(f.x(t), f.bottom - 10, f"{t:%H:%M}", MUTED, "middle"))


def forecast_chart(clock: RecoveryClock, width: float, height: float = 58 * mm):
    """P50 and P90 of the open after each snapshot, the deadline as a red line."""
    d = _drawing(width, height)
    f = _Frame(clock, width, height)
    h = clock.history
    _axes(d, f)
    yd = f.y(clock.deadline)
    d.add(Line(f.left, yd, f.right, yd, strokeColor=RED, strokeWidth=1, strokeDashArray=[3, 2]))
    d.add(_label(f.right, yd + 2, "RTO deadline", RED, "end"))
    for attr, colour, label, dy in (("open_p90", AMBER, "P90", 4), ("open_p50", BLUE, "P50", -9)):
        pts = [v for s in h for v in (f.x(s.at), f.y(getattr(s, attr)))]
        if len(pts) >= 4:
            d.add(PolyLine(pts, strokeColor=colour, strokeWidth=1.4))
        d.add(_label(f.x(h[-1].at) - 2, f.y(getattr(h[-1], attr)) + dy, label, colour, "end", True))
    d.add(_label(f.left, height - 8, "Forecast open after each snapshot", INK, bold=True, size=8))
    return d


def _story(clock: RecoveryClock) -> list:
    s = _styles()
    n = clock.now
    p = n.p_by_deadline
    chance = "" if p is None else f" — {format_percent(p, 0)} likely to open by then"
    story = [
        Paragraph(markup(f"Recovery status: {clock.scenario}"), s["title"]),
        Paragraph(markup(f"As of {n.at:%Y-%m-%d %H:%M} (the latest snapshot)"), s["small"]),
        Spacer(1, 4 * mm),
        Paragraph(markup(clock.headline()[0].upper() + clock.headline()[1:] + "."), s["head"]),
        Paragraph(
            markup(
                f"Failure at {clock.failed_at:%Y-%m-%d %H:%M}; the RTO runs out at "
                f"{clock.deadline:%Y-%m-%d %H:%M}{chance}."
            ),
            s["body"],
        ),
        Spacer(1, 4 * mm),
    ]
    rows = _phase_rows(clock)
    running = next((i for i, r in enumerate(rows) if r[1] == "running"), None)
    story += [_table(rows, [60 * mm, 28 * mm, 30 * mm, 30 * mm], running), Spacer(1, 5 * mm)]
    if len(clock.history) > 1:
        story += [forecast_chart(clock, 170 * mm), Spacer(1, 3 * mm)]
    how = (
        f"The running phase ends at the rate measured between the last snapshots; what "
        f"follows is the plan's own timeline ({clock.trials:,} trials of its uncertain "
        "figures). Each snapshot moves the forecast."
    )
    story.append(Paragraph(markup(how), s["small"]))
    for note in clock.notes:
        story.append(Paragraph(markup(f"Note: {note}"), s["small"]))
    return story


def render_status_pdf(clock: RecoveryClock) -> bytes:
    """The one-page status PDF as bytes."""
    register_fonts()
    buf = BytesIO()
    doc = SimpleDocTemplate(
        buf,
        pagesize=A4,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=18 * mm,
        bottomMargin=16 * mm,
        title=f"Recovery status: {clock.scenario}",
        author="RTO Planner",
        creator="RTO Planner",
        initialFontName=FONT,
        invariant=1 if os.environ.get("SOURCE_DATE_EPOCH", "").strip() else None,
    )
    doc.build(_story(clock))
    return buf.getvalue()


__all__ = ["forecast_chart", "render_status_pdf"]
