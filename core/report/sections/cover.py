"""Cover: title, scenario, customer, author, date, the verdict in colour and six key
figures."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, NextPageTemplate, PageBreak, Paragraph, Spacer, Table

from ...decisive import decisive_assumptions
from ...units import format_duration, format_percent
from ...wording import bottleneck_words, for_reader
from ..charts import GREEN, GRID, INK, MUTED, RED
from ..model import ReportContext, Section, pct

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class KeyFigure:
    label: str
    value: str
    note: str = ""
    ok: bool | None = None
    """True/False colours the figure green/red; None leaves it neutral."""


@dataclass(frozen=True)
class CoverPart:
    key_figures: tuple[KeyFigure, ...]
    decisive: tuple[tuple[str, str, str, str, str], ...] = ()
    """(figure, value, share of the recovery, source, how to measure) for each default
    that sets more than 10 % of the recovery time (DESIGN §3.7)."""


def build(ctx: ReportContext) -> CoverPart:
    decisive = tuple(
        (
            a.title,
            a.value,
            format_percent(a.share, 0),
            for_reader(a.source),
            for_reader(a.how_to_measure),
        )
        for a in decisive_assumptions(ctx.plan)
    )
    return CoverPart(key_figures(ctx), decisive)


def key_figures(ctx: ReportContext) -> tuple[KeyFigure, ...]:
    plan = ctx.plan
    rec = plan.recovery
    figs = [
        KeyFigure(
            "Worst-case recovery",
            format_duration(rec.total_s),
            "failure just before the next level 0 finishes",
            rec.verdict != "misses",
        ),
        KeyFigure("RTO", format_duration(rec.rto_s), "recovery time objective"),
        KeyFigure(
            "Margin" if rec.margin_s >= 0 else "Over the RTO by",
            format_duration(abs(rec.margin_s)),
            f"{pct(abs(rec.margin_s) / rec.rto_s)} of the RTO" if rec.rto_s else "",
            rec.verdict == "meets",
        ),
    ]
    r = plan.rpo
    figs.append(
        KeyFigure(
            "Data loss, site",
            format_duration(r.site_loss_s),
            f"RPO {format_duration(r.target_s)}" if r.target_s is not None else "no RPO given",
            None if r.verdict == "unknown" else r.verdict == "meets",
        )
    )
    figs.append(
        KeyFigure(
            "Restore rate",
            ctx.level0_rate_text(),
            "level 0, limited by " + bottleneck_words(plan.restore_path.bottleneck),
        )
    )
    l0 = plan.job("level0")
    if l0 is not None:
        window = ctx.s.targets.backup_window_s
        figs.append(
            KeyFigure(
                "Level 0 backup",
                format_duration(l0.duration_s),
                f"window {format_duration(window)}" if window else "no window given",
                l0.fits_window,
            )
        )
    return tuple(figs)


def render(r: ReportRenderer, part: CoverPart) -> list[Flowable]:
    d = r.data
    st = r.styles
    out: list[Flowable] = [Spacer(1, 22 * mm)]
    title = Paragraph(r.p(d.title), st["cover_title"])
    title.outline_level = 0  # type: ignore[attr-defined]
    title.outline_text = "Cover"  # type: ignore[attr-defined]
    title.in_contents = False  # type: ignore[attr-defined]
    out.append(title)
    out.append(Paragraph(r.p(d.scenario_name), st["cover_name"]))
    out += [_meta_table(r), Spacer(1, 14 * mm)]
    out += [_verdict_box(r), Spacer(1, 8 * mm), _figures(r, part), Spacer(1, 10 * mm)]
    out += _decisive(r, part)
    if d.notes:
        # the space goes before what follows, never at the page's foot: a trailing
        # spacer that does not fit pushed the page break onto an empty second page
        gap = [Spacer(1, 6 * mm)] if part.decisive else []
        out += [*gap, Paragraph("Notes", st["h2"]), *r.paras(d.notes)]
    out += [NextPageTemplate("body"), PageBreak()]
    return out


def _meta_table(r: ReportRenderer) -> Table:
    d = r.data
    st = r.styles
    meta = []
    if d.customer:
        meta.append(("Customer", d.customer))
    if d.author:
        meta.append(("Prepared by", d.author))
    meta.append(("Date", d.as_of_text))
    mt = Table(
        [
            [
                Paragraph(r.p(k), ParagraphStyle("mk", st["cover_meta"], textColor=MUTED)),
                Paragraph(r.p(v), st["cover_meta"]),
            ]
            for k, v in meta
        ],
        colWidths=[32 * mm, r.width - 32 * mm],
        hAlign="LEFT",
    )
    mt.setStyle(
        r.table_style(
            [("LEFTPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]
        )
    )
    return mt


VERDICT_PADDING = 14
"""Left and right padding of the verdict box (points)."""

SMALLEST_ONE_LINE_VERDICT = 18.0
"""The verdict's title shrinks from its style's size down to this to stay on one line."""


def verdict_style(style: ParagraphStyle, text: str, width: float) -> ParagraphStyle:
    """The verdict title's style: its own size when the title fits one line of `width`,
    else the largest size down to SMALLEST_ONE_LINE_VERDICT that fits it on one line
    ("MISSES the RTO — 3.9 % likely to" over a lone "meet" before, issue 23.8), else its
    own size, wrapped."""
    at_size = stringWidth(text, style.fontName, style.fontSize)
    if at_size <= width:
        return style
    size = style.fontSize * width / at_size
    if size < SMALLEST_ONE_LINE_VERDICT:
        return style
    size = math.floor(size * 2) / 2  # half points, a little room to spare
    return ParagraphStyle(
        f"{style.name}_fit", parent=style, fontSize=size,
        leading=style.leading * size / style.fontSize,
    )  # fmt: skip


def _verdict_box(r: ReportRenderer) -> Table:
    d = r.data
    st = r.styles
    colour = r.verdict_colour(d.verdict)
    title = d.verdict_title or d.verdict_words
    title_style = verdict_style(st["verdict"], title, r.width - 2 * VERDICT_PADDING)
    box = Table(
        [
            [Paragraph(r.p(title), title_style)],
            [Paragraph(r.p(d.verdict_line), st["verdict_line"])],
        ],
        colWidths=[r.width],
        hAlign="LEFT",
    )
    box.setStyle(
        r.table_style(
            [
                ("BACKGROUND", (0, 0), (-1, -1), colour),
                ("LEFTPADDING", (0, 0), (-1, -1), VERDICT_PADDING),
                ("RIGHTPADDING", (0, 0), (-1, -1), VERDICT_PADDING),
                ("TOPPADDING", (0, 0), (-1, 0), 12),
                ("BOTTOMPADDING", (0, -1), (-1, -1), 12),
            ]
        )
    )
    return box


def _decisive(r: ReportRenderer, part: CoverPart) -> list[Flowable]:
    """Defaults that set more than 10 % of the recovery time, on the first page."""
    if not part.decisive:
        return []
    out: list[Flowable] = [Paragraph("Assumptions that decide this plan", r.styles["h2"])]
    for title, value, share, source, how in part.decisive:
        out.append(
            Paragraph(
                f"<b>{r.p(title)} {r.p(value)}</b> sets {r.p(share)} of the recovery time "
                f"and is not a measurement. Source: {r.p(source)}. To replace it, {r.p(how)}.",
                r.styles["body"],
            )
        )
    return out


def _figures(r: ReportRenderer, part: CoverPart) -> Table:
    st = r.styles
    cells = []
    for f in part.key_figures:
        colour = INK if f.ok is None else (GREEN if f.ok else RED)
        cells.append(
            [
                Paragraph(r.p(f.label), st["fig_label"]),
                Paragraph(r.p(f.value), ParagraphStyle("fv", st["fig_value"], textColor=colour)),
                Paragraph(r.p(f.note), st["fig_label"]),
            ]
        )
    cols = 3
    grid = [cells[i : i + cols] for i in range(0, len(cells), cols)]
    while len(grid[-1]) < cols:
        grid[-1].append("")
    t = Table(grid, colWidths=[r.width / cols] * cols, hAlign="LEFT")
    t.setStyle(
        r.table_style(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEABOVE", (0, 0), (-1, -1), 0.8, GRID),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 9),
            ]
        )
    )
    return t


SECTION = Section("cover", "cover", build, render)
