"""The estate PDF (DESIGN §9): `rto-planner report ESTATE.toml -o PLAN.pdf`.

The same renderer as the plan (`pdf.ReportRenderer`), fed an estate's `ReportData` and
the estate's own sections, each a build (from the `EstateResult`) and a render:

- cover: the estate's verdict, key figures and the summary table of every database;
- Gantt: every database's phases on one time axis with its RTO, in recovery order;
- databases: per database, its phases in the estate against its plan alone, and what
  it waited for; the shared resources and the least hardware for tier 1.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.graphics.shapes import Drawing, Group, Line, Rect
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    Paragraph,
    Spacer,
)

from .. import __version__
from ..clock import source_date_epoch
from ..clock import today as report_date
from ..estate import EstateResult, LeastHardware, least_hardware, run_estate
from ..estate.least_words import least_summary
from ..estate.run import NOTHING, DatabaseOutcome, beside_earlier, later_than_alone
from ..fix.prices import PriceBook
from ..palette import ESTATE_STYLE_LEGEND
from ..result import PHASE_TITLES
from ..units import format_duration, format_percent
from ..wording import VERDICT_WORDS
from .charts import (
    INK,
    MUTED,
    PHASE_COLOURS,
    PHASE_LEGEND,
    RED,
    _drawing,
    _legend,
    _legend_rows,
    _text,
    _time_axis,
    _w,
    _x_grid,
)
from .estate_least import EstateLeastPart, build_least, render_least
from .estate_runbook import EstateRunbookPart, build_runbook, render_runbook
from .model import ReportData, Section, Table, freeze_parts, long_date
from .pdf import render_pdf
from .sections.cover import KeyFigure, _figures, _meta_table, _verdict_box
from .sections.recovery import PHASE_STYLE

if TYPE_CHECKING:
    from .pdf import ReportRenderer

ESTATE_TITLE = "Estate recovery plan"
SEVERITY = {"meets": 0, "at_risk": 1, "misses": 2}


def _dur(s: float) -> str:
    return format_duration(s)


def _margin(s: float) -> str:
    return ("−" if s < 0 else "") + format_duration(abs(s))


def _waited(d: DatabaseOutcome) -> str:
    return NOTHING if d.waited_s <= 0 else f"{d.waited_for} ({_dur(d.waited_s)})"


def _source(source: str) -> str:
    """A scenario file by its name (the folder is the estate's), a stored one as is."""
    return source if source.startswith("store:") else Path(source).name


def recovery_order(result: EstateResult) -> list[DatabaseOutcome]:
    return sorted(result.databases, key=lambda d: (d.priority, d.open_s, d.name))


# ----------------------------------------------------------------------------- cover


@dataclass(frozen=True)
class EstateCoverPart:
    estate_figures: tuple[KeyFigure, ...]
    estate_table: Table
    cautions: tuple[str, ...] = ()
    """What the estate computes differently from the databases' own plans."""


def summary_table(result: EstateResult) -> Table:
    rows = tuple(
        (
            d.name,
            str(d.priority),
            _dur(d.open_s),
            _dur(d.rto_s),
            _margin(d.margin_s),
            VERDICT_WORDS[d.verdict],
            _dur(d.alone_s),
            _waited(d),
        )
        for d in recovery_order(result)
    )
    header = ("Database", "Tier", "Opens", "RTO", "Margin", "Verdict", "Alone", "Waited for")
    return Table(header, rows, "lrrrrlrl")


def build_cover(result: EstateResult) -> EstateCoverPart:
    counts = result.counts
    n = len(result.databases)
    tier1 = [d for d in result.databases if d.priority == 1]
    figs = [
        KeyFigure(
            "Databases meeting the RTO",
            f"{counts['meets']} of {n}",
            f"{counts['at_risk']} at risk, {counts['misses']} miss",
            counts["misses"] == 0,
        ),
        KeyFigure(
            "Priority 1",
            f"{sum(d.verdict != 'misses' for d in tier1)} of {len(tier1)}",
            "open inside their RTO",
            result.tier1_all_meet,
        ),
        KeyFigure("Last database open", _dur(result.last_open_s), "after the site loss"),
        KeyFigure(
            "Deciding resource",
            result.deciding or "none",
            "what the databases lost most time to" if result.deciding else "sharing costs no time",
        ),
    ]
    return EstateCoverPart(tuple(figs), summary_table(result), result.estate.cautions)


def render_cover(r: ReportRenderer, part: EstateCoverPart) -> list[Flowable]:
    d = r.data
    st = r.styles
    title = Paragraph(r.p(d.title), st["cover_title"])
    title.outline_level = 0  # type: ignore[attr-defined]
    title.outline_text = "Cover"  # type: ignore[attr-defined]
    out: list[Flowable] = [Spacer(1, 14 * mm), title]
    out.append(Paragraph(r.p(d.scenario_name), st["cover_name"]))
    out += [_meta_table(r), Spacer(1, 8 * mm), _verdict_box(r), Spacer(1, 6 * mm)]
    out += [_figures(r, _as_cover(part)), Spacer(1, 6 * mm)]
    out += [Paragraph(f"<b>Caution:</b> {r.p(c)}", st["small"]) for c in part.cautions]
    out.append(r.heading("Every database after the site loss", 1))
    out.append(
        r.para(
            "All databases are recovered at once from time 0; priority 1 goes first and "
            "databases of one tier share the drives and bandwidth fairly. 'Alone' is the "
            "database's own plan with the shared hardware to itself; 'Waited for' is the "
            "shared resource it lost most time to.",
            "small",
        )
    )
    w = r.width
    widths = [w * f for f in (0.18, 0.05, 0.11, 0.11, 0.12, 0.09, 0.11, 0.23)]
    out.append(r.table(part.estate_table, widths))
    if d.notes:
        out += [Paragraph("Notes", st["h2"]), *r.paras(d.notes)]
    out += [NextPageTemplate("body"), PageBreak()]
    return out


@dataclass(frozen=True)
class _Figures:
    key_figures: tuple[KeyFigure, ...]


def _as_cover(part: EstateCoverPart) -> Any:
    return _Figures(part.estate_figures)


# ----------------------------------------------------------------------------- Gantt


@dataclass(frozen=True)
class EstateBar:
    start_s: float
    duration_s: float
    style: str
    beside: bool = False
    """Runs beside an earlier phase: drawn in the lower half of the row."""


@dataclass(frozen=True)
class EstateRow:
    label: str
    bars: tuple[EstateBar, ...]
    open_s: float
    rto_s: float
    verdict: str


@dataclass(frozen=True)
class EstateGanttPart:
    gantt_rows: tuple[EstateRow, ...]
    gantt_text: str


def build_gantt(result: EstateResult) -> EstateGanttPart:
    rows = tuple(
        EstateRow(
            f"P{d.priority} · {d.name}",
            tuple(
                EstateBar(p.start_s, p.duration_s, PHASE_STYLE[p.name], beside)
                for p, beside in zip(d.phases, beside_earlier(d.phases), strict=True)
                if p.duration_s > 0
            ),
            d.open_s,
            d.rto_s,
            d.verdict,
        )
        for d in recovery_order(result)
    )
    text = (
        "Each row is one database, in recovery order (tier, then opening time): its phases "
        "as they run in the estate. The red tick is its RTO; the dot at the end of the bar is "
        "when it opens, in the colour of its verdict."
    )
    return EstateGanttPart(rows, text)


GANTT_ROWS_PER_PAGE = 32
"""Rows of the Gantt on one page (18 pt each, with the axis, the legend and the section's
heading and text): a larger estate's Gantt runs over pages, one time axis for all."""
_ROW_PT = 18.0
_VERDICT_COLOUR = {"meets": colors.HexColor("#2e8b57"), "at_risk": colors.HexColor("#d68910"),
                   "misses": RED}  # fmt: skip


@dataclass(frozen=True)
class _GanttFrame:
    """What every page of the Gantt shares: the label column, the time axis, the legend."""

    x0: float
    x1: float
    x_end: float
    vmax: float
    legend: list[tuple[object, str, str]]
    legend_extra: float


def _gantt_frame(rows: tuple[EstateRow, ...], width: float) -> _GanttFrame:
    """The axis fits the opening times and the RTOs near them; a far RTO (72 h when all
    open within 12 h) is marked at the right edge rather than squeezing every bar."""
    label_w = min(max([_w(r.label, 7.0) for r in rows] + [40]) + 10, width * 0.4)
    x0, x1 = label_w, width - 6
    held = any(b.style == "held" for r in rows for b in r.bars)
    legend = ESTATE_STYLE_LEGEND if held else PHASE_LEGEND
    items: list[tuple[object, str, str]] = [
        (PHASE_COLOURS[k], "box", label) for k, label in legend
    ] + [(RED, "line", "RTO")]
    extra = 11.0 * (_legend_rows(items, x0, x1) - 1)
    last = max([r.open_s for r in rows] + [1.0])
    vmax = max([last] + [r.rto_s for r in rows if r.rto_s <= 1.5 * last]) * 1.06
    far = [r for r in rows if r.rto_s > vmax]
    x_end = x1
    if far:  # room at the right for 'RTO 3 d →'
        x1 -= max(_w(f"RTO {_dur(r.rto_s)} →", 6.5) for r in far) + 8
    return _GanttFrame(x0, x1, x_end, vmax, items, extra)


def estate_gantt_charts(part: EstateGanttPart, width: float) -> list[Drawing]:
    """The Gantt, `GANTT_ROWS_PER_PAGE` rows per drawing, on one time axis."""
    rows = part.gantt_rows
    frame = _gantt_frame(rows, width)
    step = GANTT_ROWS_PER_PAGE
    return [_gantt_drawing(rows[i : i + step], width, frame) for i in range(0, len(rows), step)]


def _gantt_drawing(rows: tuple[EstateRow, ...], width: float, f: _GanttFrame) -> Drawing:
    bottom = 44.0 + f.legend_extra
    height = 10.0 + _ROW_PT * len(rows) + bottom
    d = _drawing(width, height)
    g = Group()
    unit, name, step = _time_axis(f.vmax)
    y0, y1 = bottom, bottom + _ROW_PT * len(rows)
    _x_grid(g, f.x0, f.x1, y0, y1, f.vmax, unit, name, step, f"time from the site loss ({name})")
    for i, r in enumerate(rows):
        _gantt_row(g, r, y1 - (i + 0.5) * _ROW_PT, f)
    _legend(g, f.x0, 8 + f.legend_extra, f.legend, f.x1)
    d.add(g)
    return d


def _gantt_row(g: Group, r: EstateRow, yc: float, f: _GanttFrame) -> None:
    """One database: its label, its phases, its RTO tick and its opening dot."""
    x0, scale = f.x0, (f.x1 - f.x0) / f.vmax
    g.add(_text(x0 - 6, yc - 2.7, _fit_label(r.label, x0 - 10), 7.0, INK, "end"))
    for b in r.bars:
        y, h = (yc - 4.5, 4.5) if b.beside else (yc - 4.5, 9)
        g.add(Rect(x0 + b.start_s * scale, y, max(b.duration_s * scale, 0.6), h,
                   fillColor=PHASE_COLOURS[b.style], strokeColor=None))  # fmt: skip
    if r.rto_s <= f.vmax:
        xr = x0 + r.rto_s * scale
        g.add(Line(xr, yc - 6.5, xr, yc + 6.5, strokeColor=RED, strokeWidth=1.4))
    else:
        g.add(_text(f.x_end, yc - 2.5, f"RTO {_dur(r.rto_s)} →", 6.5, RED, "end"))
    xo = x0 + r.open_s * scale
    g.add(Rect(xo - 2, yc - 2, 4, 4, fillColor=_VERDICT_COLOUR.get(r.verdict, MUTED),
               strokeColor=colors.white, strokeWidth=0.5))  # fmt: skip


def _fit_label(text: str, width: float) -> str:
    if _w(text, 7.0) <= width:
        return text
    while text and _w(text + "…", 7.0) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def render_gantt(r: ReportRenderer, part: EstateGanttPart) -> list[Flowable]:
    charts = estate_gantt_charts(part, r.width)
    n = len(part.gantt_rows)
    step = GANTT_ROWS_PER_PAGE
    first = [r.para(part.gantt_text), charts[0]]
    if len(charts) > 1:
        first.insert(1, r.para(f"Rows 1–{step} of {n:,}.", "small"))
    out = r.section("When each database opens", *first)
    for k, chart in enumerate(charts[1:], start=1):
        rows = f"rows {k * step + 1}–{min(n, (k + 1) * step)} of {n:,}"
        out += [PageBreak(), KeepTogether([r.para(f"When each database opens, {rows}.",
                                                  "small"), chart])]  # fmt: skip
    return out


# ----------------------------------------------------------------------------- databases


@dataclass(frozen=True)
class EstateDatabasesPart:
    database_tables: tuple[tuple[str, str, Table], ...]
    """(heading, one-line summary, phase table) per database, in recovery order."""
    resource_table: Table
    least: EstateLeastPart | None
    runbook: EstateRunbookPart | None = None


def _later(s: float) -> str:
    """A phase's delay against its own plan: `+5 min 14 s`, `−1 min` (taken back)."""
    if abs(s) < 0.5:
        return NOTHING
    return ("+" if s > 0 else "−") + _dur(abs(s))


def _phase_table(d: DatabaseOutcome, alone: dict[str, float]) -> Table:
    """Each phase in the estate and alone, and how much later than alone it leaves the
    database; the last row is the sum: how much later it opens."""
    # Whole seconds of the running sum, so that the figures printed add up too
    running = [round(x) for x in itertools.accumulate(later_than_alone(d))]
    later = [b - a for a, b in zip([0, *running], running, strict=False)]
    rows = [
        (PHASE_TITLES[p.name], _dur(p.start_s), _dur(p.duration_s),
         _dur(alone.get(p.name, 0.0)), _later(s))
        for p, s in zip(d.phases, later, strict=True)
        # no recall row when none is needed (issue 23), as in the plan's phase table
        if p.name != "tape_recall" or p.duration_s or alone.get(p.name) or s
    ]  # fmt: skip
    rows.append(("Opens", _dur(d.open_s), "", _dur(d.alone_s), _later(d.open_s - d.alone_s)))
    header = ("Phase", "Starts", "Takes", "Alone", "Later than alone")
    return Table(header, tuple(rows), "lrrrr", bold_rows=(len(rows) - 1,))


def _resource_table(result: EstateResult) -> Table:
    rows = tuple(
        (
            r.name,
            r.kind.replace("_", " "),
            str(r.count),
            _dur(r.waited_s) if r.waited_s > 0 else NOTHING,
            _dur(r.tier1_waited_s) if r.tier1_waited_s > 0 else NOTHING,
            "—" if r.peak_use is None else format_percent(r.peak_use, 0),
        )
        for r in result.resources
    )
    header = ("Shared resource", "Kind", "Units", "Time lost to it", "by priority 1", "Peak use")
    bold = tuple(i for i, r in enumerate(result.resources) if r.name == result.deciding)
    return Table(header, rows, "llrrrr", bold_rows=bold)


def least_sentences(least: LeastHardware | None) -> tuple[str, ...]:
    """The least hardware in sentences (the Estate window's caption uses them too)."""
    return () if least is None else least_summary(least)


def build_databases(result: EstateResult, least: LeastHardware | None) -> EstateDatabasesPart:
    tables = []
    for d in recovery_order(result):
        alone = {p.name: p.duration_s for p in d.alone_phases}
        line = (
            f"Priority {d.priority} · {_source(d.source)} · opens {_dur(d.open_s)} "
            f"against an RTO of {_dur(d.rto_s)}: {VERDICT_WORDS[d.verdict]} "
            f"(alone {_dur(d.alone_s)}, {VERDICT_WORDS[d.alone_verdict]}); "
            + (f"waited for {_waited(d)}." if d.waited_s > 0 else "sharing cost it no time.")
        )
        tables.append((d.name, line, _phase_table(d, alone)))
    return EstateDatabasesPart(tuple(tables), _resource_table(result), build_least(least),
                               build_runbook(result.estate, least))  # fmt: skip


def render_databases(r: ReportRenderer, part: EstateDatabasesPart) -> list[Flowable]:
    w = r.width
    out = r.section(
        "Shared resources",
        r.para(
            "Time lost is counted in equivalent seconds: how much longer each database's "
            "transfers ran than with the resource to itself, summed over the databases."
        ),
        r.table(part.resource_table, [w * f for f in (0.28, 0.16, 0.08, 0.18, 0.16, 0.14)]),
    )
    out += render_runbook(r, part.runbook)
    out += render_least(r, part.least)
    widths = [w * f for f in (0.36, 0.16, 0.16, 0.16, 0.16)]
    blocks = [[r.heading(name, 1), r.para(line, "small"), r.table(table, widths)]
              for name, line, table in part.database_tables]  # fmt: skip
    # The first database goes with the heading: alone with its intro, the heading closed
    # a page whose databases all began on the next (issue 23.8).
    out += r.section("Each database", r.para(
        "Its phases in the estate and in its own plan alone. 'Later than alone' is how much "
        "later each phase leaves the database than its plan does; the column adds up to how "
        "much later it opens (a phase beside another, such as applying incrementals, can "
        "take some of it back)."), *(blocks[0] if blocks else []))  # fmt: skip
    out += [KeepTogether(block) for block in blocks[1:]]
    return out


ESTATE_SECTIONS: tuple[Section, ...] = (
    Section("estate_cover", "cover", build_cover, render_cover),  # type: ignore[arg-type]
    Section("estate_gantt", "Gantt", build_gantt, render_gantt),  # type: ignore[arg-type]
    Section("estate_databases", "databases", build_databases, render_databases),  # type: ignore[arg-type]
)
"""The estate PDF's sections in print order; each `build` takes the `EstateResult`."""


# ----------------------------------------------------------------------------- document


def miss_title(misses: int, n: int) -> str:
    """`1 of 8 databases MISSES its RTO`, `2 of 8 databases MISS their RTO`: the verdict
    in capitals, the rest as the scenario's cover writes it ("MISSES the RTO — …"); it
    said "1 OF 8 DATABASES MISS" (issue 22.4), then "2 OF 8 DATABASES MISS their" with
    "RTO" alone on a second line (issue 23.6)."""
    if misses == 1:
        return f"1 of {n} databases MISSES its RTO" if n > 1 else "The database MISSES its RTO"
    return f"{misses} of {n} databases MISS their RTO"


def _header(result: EstateResult, generated: datetime) -> dict[str, Any]:
    est = result.estate
    worst = max((d.verdict for d in result.databases), key=SEVERITY.__getitem__)
    counts = result.counts
    n = len(result.databases)
    title_words = {
        "meets": "Every database MEETS its RTO",
        "at_risk": "AT RISK: some databases open close to their RTO",
        "misses": miss_title(counts["misses"], n),
    }[worst]
    line = (
        f"After a site loss, {n} databases recovered at once on shared hardware; the last "
        f"opens at {_dur(result.last_open_s)}."
    )
    if result.deciding:
        line += f" The shared resource that decides: {result.deciding}."
    as_of = report_date()
    return {
        "title": ESTATE_TITLE,
        "scenario_name": est.name,
        "customer": est.customer,
        "author": "",
        "notes": est.notes,
        "as_of": as_of,
        "as_of_text": long_date(as_of),
        "generated": generated,
        "producer": f"RTO Planner {__version__}",
        "units_note": "Times from the site loss; sizes in decimal units (TB = 10¹² bytes).",
        "binary": False,
        "verdict": worst,
        "verdict_words": VERDICT_WORDS[worst],
        "verdict_line": line,
        "verdict_title": title_words,
        "decided_by": "recovery",
        "total_s": result.last_open_s,
        "rto_s": max((d.rto_s for d in result.databases), default=0.0),
        "margin_s": min((d.margin_s for d in result.databases), default=0.0),
        "risk_margin_s": 0.0,
        "total_text": _dur(result.last_open_s),
        "rto_text": "",
        "margin_text": "",
    }


def build_estate_report_data(
    result: EstateResult, least: LeastHardware | None = None, generated: datetime | None = None
) -> ReportData:
    generated = generated or source_date_epoch() or datetime.now(tz=UTC).replace(microsecond=0)
    header = _header(result, generated)
    parts = {
        "estate_cover": build_cover(result),
        "estate_gantt": build_gantt(result),
        "estate_databases": build_databases(result, least),
    }
    return ReportData(**header, parts=freeze_parts(header, parts))


def write_estate_report(
    result: EstateResult | Any,
    out_path: str | Path,
    *,
    progress: Callable[[float, str], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
    least: LeastHardware | None = None,
    catalog: Any = None,
    prices: PriceBook | None = None,
) -> Path:
    """Simulate (if given an Estate), find the least hardware (unless given), build and
    write the estate PDF atomically."""
    from . import _check_target, write_bytes_atomically

    out = Path(out_path)
    _check_target(out)
    report = progress or (lambda f, m: None)
    if not isinstance(result, EstateResult):
        report(0.0, "recovering the estate")
        result = run_estate(result, should_cancel=should_cancel)
    if least is None:
        report(0.1, "finding the least hardware")
        least = least_hardware(result.estate, result, catalog=catalog, prices=prices,
                               should_cancel=should_cancel)  # fmt: skip
    data = build_estate_report_data(result, least)
    scaled = None if progress is None else (lambda f, m: progress(0.3 + 0.65 * f, m))
    pdf = render_pdf(data, scaled, should_cancel, ESTATE_SECTIONS)
    write_bytes_atomically(out, pdf)
    report(1.0, "done")
    return out
