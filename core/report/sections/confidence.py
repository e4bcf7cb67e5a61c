"""How sure is this plan (DESIGN §7): the probability of meeting the RTO in words a
customer reads, the distribution of the recovery time, the tornado of the figures that
decide it, and the ranges used (also printed in the assumptions ledger).

The run is the one `rto-planner risk` makes (same trials, same default seed), so the
PDF and the terminal print the same figures.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.graphics.shapes import Group, Line, PolyLine, Rect
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether

from ...units import format_duration, format_percent, spaced_percents
from .. import charts
from ..charts import AMBER, AXIS, BLUE, GREEN, GREY, GRID, INK, MUTED, NAVY, ORANGE, RED, SMALL
from ..model import ReportContext, Section, Table

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

    from ...uncertainty.result import RiskResult
    from ..model import Renderer as ReportRenderer

REPORT_TRIALS = 100_000
TORNADO_ROWS = 8
CACHE_KEY = "risk"


@dataclass(frozen=True)
class HistBar:
    start_s: float
    end_s: float
    share: float
    """Share of the trials in the bar (0..1)."""
    verdict: str


@dataclass(frozen=True)
class TornadoRow:
    label: str
    low_total_s: float
    high_total_s: float


@dataclass(frozen=True)
class ConfidencePart:
    confidence_text: str
    confidence_table: Table
    confidence_whole_text: str
    """Every target at once (DESIGN §10): the probability the cover states."""
    confidence_checks: Table
    confidence_hist: tuple[HistBar, ...]
    confidence_cdf_s: tuple[float, ...]
    confidence_cdf_any_s: tuple[float, ...]
    confidence_tails: tuple[str, str]
    """What the histogram leaves out at each end, in words (`words.histogram_tails`)."""
    confidence_rto_s: float
    confidence_risk_s: float
    confidence_plan_s: float
    confidence_tornado: tuple[TornadoRow, ...]
    confidence_tornado_text: str
    confidence_ranges: Table
    confidence_method: str


def risk_of(ctx: ReportContext) -> RiskResult:
    """The report's Monte Carlo run, computed once and shared (the ledger prints its
    ranges)."""
    if CACHE_KEY not in ctx.cache:
        from ...uncertainty.analysis import run_risk

        ctx.cache[CACHE_KEY] = run_risk(ctx.scenario, trials=REPORT_TRIALS, catalog=ctx.catalog)
    return ctx.cache[CACHE_KEY]


def _origin(row: Any) -> str:
    """Where a figure's range comes from, in a customer's words: a range the scenario
    states, and what it would be without it (the terminal prints `[uncertainty]`)."""
    from ...uncertainty.words import PROVENANCE_WORDS, origin_words

    if row.origin != "uncertainty":
        return origin_words(row)
    otherwise = row.default_range.split(" (", 1)[0]
    return f"stated in the scenario (else {PROVENANCE_WORDS[row.default_origin]}: {otherwise})"


def _capital(label: str) -> str:
    """A figure's words at the head of a row: 'Redo apply rate', 'LTO-4: rate'."""
    return label[:1].upper() + label[1:]


def _row_label(label: str, range_text: str) -> str:
    """'Database size, P10..P90 -23 %..+29 %': one pair of brackets, never two nested
    ('database size (-23%..+29% (P10..P90))'); a typed range written the house way."""
    text, _, band = range_text.partition(" (")
    band = band.removesuffix(")")
    return spaced_percents(f"{_capital(label)}, {band + ' ' if band else ''}{text}")


def _verdict(total_s: float, rto_s: float, risk_s: float) -> str:
    if total_s > rto_s:
        return "misses"
    return "at_risk" if rto_s - total_s < risk_s else "meets"


def build(ctx: ReportContext) -> ConfidencePart:
    from ...uncertainty.inputs import describe_value
    from ...uncertainty.result import together_words
    from ...uncertainty.words import (
        CHECK_HEADER,
        check_rows,
        headline,
        histogram_tails,
        percent,
        spread,
        whole_plan_sentence,
    )

    r = risk_of(ctx)
    w = r.worst
    text = headline(r)
    if r.varied:
        text += (
            f" For a failure at the worst moment, {spread(w)}; with every figure at its most "
            f"likely value the plan says {format_duration(r.deterministic_s)}."
        )
    rows = []
    for mode, words in (("worst", "Worst moment of the cycle"), ("uniform", "Any moment")):
        d = r.distribution(mode)
        times = (format_duration(d.percentile(p)) for p in (50, 90, 95, 99))
        rows.append((words, percent(d.p_meets), percent(d.p_at_risk), percent(d.p_misses), *times))
    table = Table(
        ("Failure", "Meets", "At risk", "Misses", "P50", "P90", "P95", "P99"),
        tuple(rows),
        "lrrrrrrr",
    )
    whole = whole_plan_sentence(r, ctx.s.targets.confidence)
    checks = Table(CHECK_HEADER, tuple(check_rows(r)), "lrrrrr", bold_rows=(len(r.checks),))
    edges = w.hist_edges_s
    hist = tuple(
        HistBar(edges[i], edges[i + 1], c / r.trials,
                _verdict((edges[i] + edges[i + 1]) / 2, r.rto_s, r.risk_margin_s))
        for i, c in enumerate(w.hist_counts)
    )  # fmt: skip
    by_key = {row.key: row for row in r.inputs}
    bars = [b for b in r.tornado if b.swing_s > 0][:TORNADO_ROWS]
    tornado = tuple(
        TornadoRow(_row_label(b.label, by_key[b.key].range_text), b.low_total_s, b.high_total_s)
        for b in bars
    )
    if bars:
        top = bars[0]
        tornado_text = (
            f"Each bar is the recovery time with one figure at the low (blue) or high (orange) "
            f"end of its range and every other figure at its most likely value. "
            f"{_capital(top.label)} decides most: between "
            f"{format_duration(min(top.low_total_s, top.high_total_s))} and "
            f"{format_duration(max(top.low_total_s, top.high_total_s))}; alone it explains "
            f"{format_percent(top.variance_share, 0)} of the spread of the trials"
            f"{together_words(r)}. Measuring it narrows the answer most."
        )
    else:
        tornado_text = "No figure with a range changes the recovery time."
    order = {b.key: i for i, b in enumerate(r.tornado)}
    ranges = Table(
        ("Figure", "Value", "Range", "Low end", "High end", "Range from"),
        tuple(
            (_capital(row.label), describe_value(row.kind, row.value, ctx.binary),
             row.range_text,
             describe_value(row.kind, row.low, ctx.binary),
             describe_value(row.kind, row.high, ctx.binary), _origin(row))
            for row in sorted(r.varied, key=lambda row: order.get(row.key, len(order)))
        ),
        "lrlrrl",
    )  # fmt: skip
    method = (
        f"{r.trials:,} trials (seed {r.seed}, derived from the scenario: the same scenario "
        "gives the same figures). In each trial every figure with a range is drawn — from a "
        "triangle between its ends with the scenario's value most likely, or, for a catalog "
        "figure or class default, from its prior (a lognormal fitted to cited public "
        "measurements; its P10..P90 shown) — and the plan's own formulas compute the "
        "recovery. Ranges come from the scenario's own table of ranges, else from the "
        "figure's provenance: exact ±0, measured ±10 %, catalog and class defaults their "
        "prior, typed figures estimates ±25 %. "
        "'Worst moment' puts the failure just where the plan's worst case does; 'any moment' "
        "draws it uniformly over the level 0 cycle."
    )
    return ConfidencePart(
        confidence_text=text,
        confidence_table=table,
        confidence_whole_text=whole,
        confidence_checks=checks,
        confidence_hist=hist,
        confidence_cdf_s=w.cdf_s,
        confidence_cdf_any_s=r.uniform.cdf_s,
        confidence_tails=histogram_tails(w, r.trials),
        confidence_rto_s=r.rto_s,
        confidence_risk_s=r.risk_margin_s,
        confidence_plan_s=r.deterministic_s,
        confidence_tornado=tornado,
        confidence_tornado_text=tornado_text,
        confidence_ranges=ranges,
        confidence_method=method,
    )


def render(r: ReportRenderer, part: ConfidencePart) -> list[Flowable]:
    # Shares are short, durations ("13 h 47 min") are not: never wrap one (issue 23).
    # "Worst moment of the cycle" on one line (it wrapped at 38 mm).
    widths = [40 * mm] + [14 * mm] * 3 + [(r.width - 82 * mm) / 4] * 4
    out = r.section(
        "How sure is this plan",
        r.para(part.confidence_text),
        r.table(part.confidence_table, widths),
        distribution_chart(part, r.width),
    )
    check_widths = [62 * mm] + [(r.width - 62 * mm) / 5] * 5
    out.append(KeepTogether([  # the heading and its sentence never apart from the table
        r.heading("Every target of the plan", 1), r.para(part.confidence_whole_text),
        r.table(part.confidence_checks, check_widths),
    ]))  # fmt: skip
    if part.confidence_tornado:
        out.append(KeepTogether([r.para(part.confidence_tornado_text),
                                 tornado_chart(part, r.width)]))  # fmt: skip
    else:
        out.append(r.para(part.confidence_tornado_text))
    if part.confidence_ranges.rows:
        # The heading goes with the table's first rows, not the whole table: kept with
        # all of it, a table taller than what was left of the page left half a page
        # blank under the tornado (issue 23.8).
        heading = r.heading("The ranges used", 1)
        heading.keepWithNext = 0  # type: ignore[attr-defined]
        out += [CondPageBreak(40 * mm), heading]
        cols = [42 * mm, 18 * mm, 25 * mm, 20 * mm, 20 * mm]
        cols.append(r.width - sum(cols))
        out.append(r.table(part.confidence_ranges, cols))
    out.append(r.para(part.confidence_method, "small"))
    return out


# ----------------------------------------------------------------------------- charts

_VERDICT_FILL = {"meets": GREEN, "at_risk": AMBER, "misses": RED}


def _time_axis(
    g: Group, x0: float, x1: float, y0: float, y1: float, lo_s: float, hi_s: float
) -> Callable[[float], float]:
    """A time axis over [lo_s, hi_s] (not from 0: the spread is what matters), with grid
    lines and labels on round hours or minutes; returns the seconds → x mapping."""
    pad = (hi_s - lo_s) * 0.05 or max(hi_s * 0.05, 60.0)
    lo, hi = max(0.0, lo_s - pad), hi_s + pad
    # The times' size picks the unit, as on every other chart (h:mm above 20 min: the
    # tornado read "180 200 220 (min)" and the histogram "20 40 60" on an h:mm axis).
    unit, name, _ = charts._time_axis(hi)
    span = (hi - lo) / unit
    if name == "h:mm":
        step = next((s for s in charts._HOUR_STEPS if span / s <= 7), charts._HOUR_STEPS[-1])
    else:
        step = charts._nice_step(span, 6)
    step *= unit
    scale = (x1 - x0) / (hi - lo)
    t = math.ceil(lo / step) * step
    while t <= hi:
        x = x0 + (t - lo) * scale
        g.add(Line(x, y0, x, y1, strokeColor=GRID, strokeWidth=0.5))
        label = charts._tick(round(t / unit, 6), name)
        g.add(charts._text(x, y0 - 9, label, SMALL, MUTED, "middle"))
        t += step
    g.add(Line(x0, y0, x1, y0, strokeColor=AXIS, strokeWidth=0.7))
    g.add(charts._text(x1, y0 - 18, f"recovery time ({name})", SMALL, MUTED, "end"))
    return lambda s: x0 + (min(max(s, lo), hi) - lo) * scale


def distribution_chart(part: ConfidencePart, width: float, height: float = 170.0) -> Drawing:
    """Histogram of the recovery time (worst moment), its CDF and the RTO line."""
    x0, x1 = 40.0, width - 34
    items = [
        (GREEN, "box", "trials that meet the RTO"),
        (AMBER, "box", "at risk"),
        (RED, "box", "miss it"),
        (INK, "line", "recovered by then (right axis)"),
        (GREY, "dash", "failure at any moment"),
        (RED, "line", f"RTO {format_duration(part.confidence_rto_s)}"),
    ]
    extra = 11.0 * (charts._legend_rows(items, x0, x1) - 1)
    d = charts._drawing(width, height + extra)
    g = Group()
    y0, y1 = 46.0 + extra, height + extra - 14
    bars = part.confidence_hist
    # The bars' span (a long tail cut off and stated), the RTO and the plan; the CDFs
    # run off the right edge, never squeeze the bars (issue 23).
    ends = (bars[0].start_s, bars[-1].end_s, part.confidence_cdf_any_s[0],
            part.confidence_rto_s, part.confidence_plan_s)  # fmt: skip
    X = _time_axis(g, x0, x1, y0, y1, min(ends), max(ends))
    top = max(b.share for b in bars) * 100 * 1.15 or 1.0
    ystep = charts._nice_step(top, 4)
    charts._y_grid(g, x0, x1, y0, y1, top, ystep, "% of trials")
    sy = (y1 - y0) / top

    for b in bars:
        if b.share > 0:
            g.add(Rect(X(b.start_s), y0, max(X(b.end_s) - X(b.start_s) - 0.4, 0.4),
                       b.share * 100 * sy, fillColor=_VERDICT_FILL[b.verdict],
                       strokeColor=None))  # fmt: skip
    # The CDF on a 0..100 % right axis.
    g.add(Line(x1, y0, x1, y1, strokeColor=AXIS, strokeWidth=0.7))
    for p in (0, 25, 50, 75, 100):
        y = y0 + p / 100 * (y1 - y0)
        g.add(charts._text(x1 + 3, y - 2.5, f"{p} %", SMALL, MUTED))
    for cdf, colour, dash in ((part.confidence_cdf_any_s, GREY, True),
                              (part.confidence_cdf_s, INK, False)):  # fmt: skip
        n = len(cdf) - 1
        shown = [(t, i) for i, t in enumerate(cdf) if t <= max(ends)]
        pts = [v for t, i in shown for v in (X(t), y0 + i / n * (y1 - y0))]
        if len(pts) < 4:
            continue
        line = PolyLine(pts, strokeColor=colour, strokeWidth=1.1)
        if dash:
            line.strokeDashArray = [3, 2]
        g.add(line)
    left, right = part.confidence_tails
    if left:
        g.add(charts._text(x0 + 2, y1 + 4, left, SMALL, MUTED))
    if right:
        g.add(charts._text(x1, y1 + 4, right, SMALL, MUTED, "end"))
    xr = X(part.confidence_rto_s)
    g.add(Line(xr, y0, xr, y1, strokeColor=RED, strokeWidth=1.3))
    if part.confidence_risk_s > 0:
        xa = X(part.confidence_rto_s - part.confidence_risk_s)
        g.add(charts._dashed(xa, y0, xa, y1, AMBER, 0.9))
    xp = X(part.confidence_plan_s)
    g.add(charts._dashed(xp, y0, xp, y1, NAVY, 0.9, (1.5, 1.5)))
    charts._legend(g, x0, 8 + extra, items, x1)
    d.add(g)
    return d


def tornado_chart(part: ConfidencePart, width: float) -> Drawing:
    """Recovery time with each figure at its low and high end, largest swing on top."""
    rows = part.confidence_tornado
    row_h = 15.0
    label_w = min(max(charts._w(r.label, SMALL) for r in rows) + 8, width * 0.45)
    x0, x1 = label_w, width - 10
    height = 40.0 + row_h * len(rows) + 14
    d = charts._drawing(width, height)
    g = Group()
    y0, y1 = 36.0, height - 8
    base = part.confidence_plan_s
    ends = [v for r in rows for v in (r.low_total_s, r.high_total_s)]
    ends += [base, part.confidence_rto_s]
    X = _time_axis(g, x0, x1, y0, y1, min(ends), max(ends))

    for i, row in enumerate(rows):
        yc = y1 - (i + 0.5) * row_h
        g.add(charts._text(x0 - 4, yc - 2.5, row.label, SMALL, INK, "end"))
        for value, colour in ((row.low_total_s, BLUE), (row.high_total_s, ORANGE)):
            a, b = sorted((X(base), X(value)))
            if b - a > 0.05:
                g.add(Rect(a, yc - 5, b - a, 10, fillColor=colour, strokeColor=None))
    xb = X(base)
    g.add(charts._dashed(xb, y0, xb, y1, NAVY, 0.9, (1.5, 1.5)))
    xr = X(part.confidence_rto_s)
    g.add(Line(xr, y0, xr, y1, strokeColor=RED, strokeWidth=1.3))
    d.add(g)
    return d


SECTION = Section("confidence", "how sure", build, render)
