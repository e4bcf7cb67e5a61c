"""The PDF renderer: lays `ReportData` out with reportlab platypus (STYLE §14).

Pretix-style: page settings on the class, `_stylesheet()`, `_first_page` and
`_later_pages` canvas hooks, `_story()` built from the registered sections
(`core.report.sections`: each lays out its own part with the helpers here), a
`NumberedCanvas` for "Page x of y", output to bytes. The renderer does no arithmetic on
the plan: every figure arrives formatted in `ReportData`.

reportlab keeps global state (font registry, `rl_config`) and is not thread-safe: one
module lock renders one PDF at a time.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Sequence
from io import BytesIO
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from ..units import spaced_percents
from .charts import AMBER, GREEN, GRID, INK, MUTED, NAVY, RED
from .fonts import (
    FONT,
    FONT_BOLD,
    ReportCancelled,
    draw_text,
    fit,
    markup,
    register_fonts,
    text_width,
)
from .model import ReportData, Section
from .model import Table as DataTable
from .sections import PLAN_SECTIONS

Progress = Callable[[float, str], None]
ShouldCancel = Callable[[], bool]

_RENDER_LOCK = threading.Lock()

VERDICT_COLOURS = {"meets": GREEN, "at_risk": AMBER, "misses": RED, "unknown": MUTED}
ROW_SHADE = colors.HexColor("#f4f6f9")
GROUP_SHADE = colors.HexColor("#e6ebf1")


def _noop_progress(fraction: float, message: str) -> None:
    pass


def _never() -> bool:
    return False


class _Table(Table):
    """A Table that splits at a page foot only with `min_rows` of its rows above the
    split (else it moves whole to the next page): a frontier's first row stood alone at
    the foot of a page (issue 23.8)."""

    min_rows = 0

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        if self.min_rows and parts:
            above = len(parts[0]._cellvalues) - 1  # the header is the first part's row 0
            if above < self.min_rows:
                return []
        return parts


def _style(commands: list[Any]) -> TableStyle:
    """A TableStyle whose plain-string cells also use the embedded font (reportlab's
    default is Helvetica, which would add a non-embedded base-14 font)."""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), *commands])


MAX_PARAGRAPH_LINES = 20
"""Free text of more lines is laid out in paragraphs of this many (`ReportRenderer.paras`)."""


NBSP = "\u00a0"
_QUANTITY = re.compile(
    r"\d+(?:[.,]\d+)? (?:d|h|min|s|ms|%(?:/\w+)?|[kMGTP]i?B(?:/(?:s|min|h))?)(?![\w/])"
    r"(?: \d+ (?:h|min|s)(?![\w/]))?"
)
"""A quantity a line must not break: "10 h 08 min", "4 min 10 s", "2.5 TB", "1.60 GB/s"."""


def glue(text: str) -> str:
    """Non-breaking spaces inside each duration and quantity (issue 23: "10 h 08 / min"),
    and a percentage the user typed (`-40%..+20%`, `30%/y`) written the house way."""
    return _QUANTITY.sub(lambda m: m.group(0).replace(" ", NBSP), spaced_percents(text))


def _p(text: str) -> str:
    """Plain text to paragraph markup (escape, CJK in the fallback font, line breaks);
    a duration or quantity is never broken across lines."""
    return markup(glue(text)).replace("\n", "<br/>")


def _blocks(lines: list[str]) -> list[list[str]]:
    """Lines in runs of at most MAX_PARAGRAPH_LINES non-blank ones; a run of blank lines
    is one empty block."""
    out: list[list[str]] = []
    for line in lines:
        if not line.strip():
            if out and out[-1]:
                out.append([])
        elif out and out[-1] and len(out[-1]) < MAX_PARAGRAPH_LINES:
            out[-1].append(line)
        else:
            out.append([line])
    while out and not out[-1]:
        out.pop()
    return out


class NumberedCanvas(Canvas):
    """A canvas that knows the page count: pages are kept until `save()` and then
    written with "Page x of y" in the footer.

    Bookmarks made while a page is held are replayed when it is written, so outline
    entries point at the right page (reportlab names pages by the running page count).
    """

    footer_right: float = 0.0
    footer_y: float = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._saved_page_states: list[dict[str, Any]] = []
        self._held_bookmarks: list[tuple[str, dict[str, Any]]] = []

    def bookmarkPage(self, key: str, **kwargs: Any) -> None:
        self._held_bookmarks.append((key, kwargs))

    def showPage(self) -> None:
        self._saved_page_states.append(dict(self.__dict__))
        self._held_bookmarks = []
        self._startPage()

    def save(self) -> None:
        total = len(self._saved_page_states)
        for number, state in enumerate(self._saved_page_states, start=1):
            self.__dict__.update(state)
            for key, kwargs in self._held_bookmarks:
                Canvas.bookmarkPage(self, key, **kwargs)
            if number > 1:
                self.setFont(FONT, 7.5)
                self.setFillColor(MUTED)
                self.drawRightString(self.footer_right, self.footer_y, f"Page {number} of {total}")
            Canvas.showPage(self)
        Canvas.save(self)


class _Doc(BaseDocTemplate):
    """Adds outline entries (PDF bookmarks) for headings and reports progress."""

    def __init__(self, buf: BytesIO, renderer: ReportRenderer, **kwargs: Any) -> None:
        super().__init__(buf, **kwargs)
        self.renderer = renderer
        self._heading = 0
        self._done = 0
        self.last_page, self.last_y = 0, 0.0

    def beforeDocument(self) -> None:
        # Each layout pass (the contents need two) names its bookmarks h1, h2… afresh.
        self._heading = 0

    def afterFlowable(self, flowable: Flowable) -> None:
        r = self.renderer
        self._done += 1
        if self.frame is not None:
            self.last_page, self.last_y = self.page, self.frame._y
        if r.should_cancel():
            raise ReportCancelled("the report was cancelled")
        if self._done % 8 == 0 and r.total_flowables:
            frac = 0.2 + 0.7 * min(1.0, self._done / r.total_flowables)
            r.progress(frac, f"laying out page {self.page}")
        level = getattr(flowable, "outline_level", None)
        if level is None:
            return
        self._heading += 1
        key = f"h{self._heading}"
        top = self.frame._y + flowable.height + 6  # the heading's top on the page
        self.canv.bookmarkPage(key, fit="XYZ", left=0, top=top)
        self.canv.addOutlineEntry(flowable.outline_text, key, level=level, closed=False)
        if level == 0 and getattr(flowable, "in_contents", True):
            self.notify("TOCEntry", (0, flowable.outline_text, self.page, key))


_STYLES: dict[str, dict[str, Any]] = {
    "small": {"fontSize": 7.5, "leading": 10, "textColor": "muted"},
    "cell": {"fontSize": 7.5, "leading": 9.5, "spaceAfter": 0},
    "cell_r": {"fontSize": 7.5, "leading": 9.5, "spaceAfter": 0, "alignment": TA_RIGHT},
    "cell_b": {"fontName": "bold", "fontSize": 7.5, "leading": 9.5, "spaceAfter": 0},
    "cell_help": {"fontSize": 6.3, "leading": 7.8, "spaceAfter": 0, "textColor": "muted"},
    "h1": {"fontName": "bold", "fontSize": 15, "leading": 19, "textColor": "navy",
           "spaceBefore": 4, "spaceAfter": 8, "keepWithNext": 1},
    "h2": {"fontName": "bold", "fontSize": 11, "leading": 14, "textColor": "navy",
           "spaceBefore": 8, "spaceAfter": 4, "keepWithNext": 1},
    "cover_title": {"fontName": "bold", "fontSize": 26, "leading": 32, "textColor": "navy",
                    "spaceAfter": 10},
    "cover_name": {"fontSize": 15, "leading": 20, "spaceAfter": 18},
    "cover_meta": {"fontSize": 10, "leading": 15, "spaceAfter": 0},
    "verdict": {"fontName": "bold", "fontSize": 24, "leading": 28, "textColor": "white",
                "spaceAfter": 0},
    "verdict_line": {"fontSize": 10.5, "leading": 14, "textColor": "white", "spaceAfter": 0},
    "fig_label": {"fontSize": 7.5, "leading": 9, "textColor": "muted", "spaceAfter": 0},
    "fig_value": {"fontName": "bold", "fontSize": 14, "leading": 18, "spaceAfter": 0},
    "formula": {"fontName": "bold", "fontSize": 8.5, "leading": 12, "leftIndent": 10,
                "textColor": "navy", "spaceAfter": 2},
}  # fmt: skip
"""The report's paragraph styles: what each changes from the body text."""


def _style_changes(changes: dict[str, Any]) -> dict[str, Any]:
    """A style's changes with the palette's colours and the bold font by name."""
    names = {"bold": FONT_BOLD, "muted": MUTED, "navy": NAVY, "white": colors.white}
    return {k: names.get(v, v) if isinstance(v, str) else v for k, v in changes.items()}


LAST_PAGE_MIN = 0.35
"""A last page filled less than this is laid out again with `compact` appendices."""

_TABLE_STYLE = (
    ("BACKGROUND", (0, 0), (-1, 0), NAVY),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("TOPPADDING", (0, 0), (-1, -1), 2.2),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.6),
    ("LEFTPADDING", (0, 0), (-1, -1), 4),
    ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ("LINEBELOW", (0, -1), (-1, -1), 0.6, GRID),
)
"""Every data table's style: navy header, padding, a rule below."""


class ReportRenderer:
    """Renders one `ReportData` to PDF bytes."""

    pagesize = A4
    left_margin = 18 * mm
    right_margin = 18 * mm
    top_margin = 22 * mm
    bottom_margin = 18 * mm

    def __init__(
        self,
        data: ReportData,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
        sections: Sequence[Section] = PLAN_SECTIONS,
    ) -> None:
        self.data = data
        self.sections = tuple(sections)
        self.compact = False
        self.progress = _monotonic(progress or _noop_progress)
        self.should_cancel = should_cancel or _never
        self.width = self.pagesize[0] - self.left_margin - self.right_margin
        self.styles = self._stylesheet()
        self.total_flowables = 0

    # ---------------------------------------------------------------- styles

    def _stylesheet(self) -> dict[str, ParagraphStyle]:
        # allowWidows=0: a paragraph never leaves its last line alone atop the next page.
        base = ParagraphStyle(
            "body", fontName=FONT, fontSize=9, leading=12.5, textColor=INK, spaceAfter=5,
            allowWidows=0,
        )  # fmt: skip
        styles = {"body": base}
        for name, changes in _STYLES.items():
            styles[name] = ParagraphStyle(name, base, **_style_changes(changes))
        return styles

    # ---------------------------------------------------------------- page hooks

    def _first_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        w, h = self.pagesize
        canvas.saveState()
        canvas.setFillColor(NAVY)
        canvas.rect(0, h - 14 * mm, w, 14 * mm, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        canvas.setFont(FONT_BOLD, 10)
        canvas.drawString(self.left_margin, h - 9 * mm, "RTO Planner")
        canvas.setFont(FONT, 8)
        draw_text(canvas, w - self.right_margin, h - 9 * mm, self.data.title, FONT, 8, right=True)
        canvas.setFillColor(MUTED)
        canvas.setFont(FONT, 7)
        canvas.drawString(self.left_margin, 10 * mm, self.data.units_note)
        canvas.restoreState()

    def _later_pages(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        w, h = self.pagesize
        d = self.data
        canvas.saveState()
        y = h - 13 * mm
        canvas.setFont(FONT_BOLD, 7.5)
        canvas.setFillColor(NAVY)
        left = f"{d.title} — "
        draw_text(canvas, self.left_margin, y, left, FONT_BOLD, 7.5)
        x = self.left_margin + text_width(left, FONT_BOLD, 7.5)
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(INK)
        right = d.customer or ""
        room = w - self.right_margin - x - text_width(right, FONT, 7.5) - 12
        draw_text(canvas, x, y, _fit(d.scenario_name, FONT, 7.5, room), FONT, 7.5)
        canvas.setFillColor(MUTED)
        draw_text(canvas, w - self.right_margin, y, right, FONT, 7.5, right=True)
        canvas.setStrokeColor(GRID)
        canvas.setLineWidth(0.6)
        canvas.line(self.left_margin, y - 3 * mm, w - self.right_margin, y - 3 * mm)
        canvas.line(self.left_margin, 13 * mm, w - self.right_margin, 13 * mm)
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(MUTED)
        canvas.drawString(self.left_margin, 9 * mm, f"As of {d.as_of_text} · {d.producer}")
        canvas.restoreState()

    # ---------------------------------------------------------------- building blocks

    @staticmethod
    def p(text: str) -> str:
        """Plain text to paragraph markup (escape, keep line breaks)."""
        return _p(text)

    @staticmethod
    def table_style(commands: list[Any]) -> TableStyle:
        """A TableStyle whose plain-string cells use the embedded font."""
        return _style(commands)

    @staticmethod
    def verdict_colour(verdict: str) -> colors.Color:
        return VERDICT_COLOURS.get(verdict, MUTED)

    def heading(self, text: str, level: int) -> Paragraph:
        """A heading with a PDF bookmark: level 0 for a section, 1 below it."""
        para = Paragraph(_p(text), self.styles["h1" if level == 0 else "h2"])
        para.outline_level = level  # type: ignore[attr-defined]
        para.outline_text = text  # type: ignore[attr-defined]
        return para

    def section(self, text: str, *lead: Flowable) -> list[Flowable]:
        """A section heading kept on one page with its lead (intro text, main chart)."""
        return [CondPageBreak(45 * mm), KeepTogether([self.heading(text, 0), *lead])]

    def para(self, text: str, style: str = "body") -> Paragraph:
        return Paragraph(_p(text), self.styles[style])

    def paras(self, text: str, style: str = "body") -> list[Flowable]:
        """Free text of any length (notes, a file's comment) as flowables.

        A few lines stay one paragraph. Longer text becomes paragraphs of at most
        `MAX_PARAGRAPH_LINES` lines, a run of blank lines one line's space: reportlab
        re-breaks a paragraph's remaining lines at every page it splits, so one
        paragraph of 10,000 lines took a minute and 4 GB at 20,000 (issue 25).
        """
        lines = text.split("\n")
        if len(lines) <= MAX_PARAGRAPH_LINES:
            return [self.para(text, style)]
        base = self.styles[style]
        tight = ParagraphStyle(f"{style}_lines", base, spaceBefore=0, spaceAfter=0)
        blocks = _blocks(lines)
        out: list[Flowable] = [
            Paragraph("<br/>".join(map(_p, block)), base if n == len(blocks) else tight)
            if block
            else Spacer(1, base.leading)
            for n, block in enumerate(blocks, start=1)
        ]  # the last keeps the style's space after it: no spacer at a page's foot
        return out

    def table(
        self,
        t: DataTable,
        widths: list[float],
        *,
        extra: list[Any] | None = None,
        repeat: bool = True,
        min_rows: int = 0,
    ) -> Table:
        """A data table: header row, zebra rows, bold and group rows, wrapped cells;
        split at a page foot only with at least `min_rows` of its rows above the split."""
        rows: list[list[Any]] = [self._head(t)]
        style = list(_TABLE_STYLE)
        for i, r in enumerate(t.rows):
            ri = i + 1
            if i in t.group_rows:
                rows.append([Paragraph(_p(r[0]), self.styles["cell_b"])] + [""] * (len(r) - 1))
                style += [
                    ("SPAN", (0, ri), (-1, ri)),
                    ("BACKGROUND", (0, ri), (-1, ri), GROUP_SHADE),
                ]
                continue
            out = self._cells(r, t.align, i in t.bold_rows)
            if extra is not None:
                out.append(extra[i])
            rows.append(out)
            if i % 2 == 1:
                style.append(("BACKGROUND", (0, ri), (-1, ri), ROW_SHADE))
        if extra is not None:
            rows[0].append("")
        tbl = _Table(rows, colWidths=widths, repeatRows=1 if repeat else 0, hAlign="LEFT")
        tbl.min_rows = min_rows
        tbl.setStyle(_style(style))
        return tbl

    def _head(self, t: DataTable) -> list[Paragraph]:
        return [
            Paragraph(_p(h), ParagraphStyle("th", self.styles["cell_b"], textColor=colors.white,
                                            alignment=TA_RIGHT if a == "r" else TA_LEFT))
            for h, a in zip(t.header, t.align, strict=True)
        ]  # fmt: skip

    def _cells(self, row: Sequence[str], align: str, bold: bool) -> list[Any]:
        """A row's cells; a second line of a cell in small grey (a kind, a help text)."""
        cell, cell_r, cell_b = self.styles["cell"], self.styles["cell_r"], self.styles["cell_b"]
        out: list[Any] = []
        for c, a in zip(row, align, strict=True):
            st = cell_b if bold else (cell_r if a == "r" else cell)
            if bold and a == "r":
                st = ParagraphStyle("b_r", cell_b, alignment=TA_RIGHT)
            if "\n" in c:
                first, rest = c.split("\n", 1)
                out.append(
                    [Paragraph(_p(first), st), Paragraph(_p(rest), self.styles["cell_help"])]
                )
            else:
                out.append(Paragraph(_p(c), st))
        return out

    # ---------------------------------------------------------------- sections

    def _story(self) -> list[Flowable]:
        story: list[Flowable] = []
        for i, section in enumerate(self.sections):
            if self.should_cancel():
                raise ReportCancelled("the report was cancelled")
            self.progress(0.2 * i / len(self.sections), f"preparing the {section.name} section")
            part = self.data.part(section.key)
            if part is not None:
                story += section.render(self, part)
        return story

    # ---------------------------------------------------------------- output

    def render(self) -> bytes:
        register_fonts()
        with _RENDER_LOCK:
            pdf, fill, pages = self._build()
            if fill < LAST_PAGE_MIN and pages > 2 and not self.compact:
                # A last page of a few lines: lay the appendices out tighter (issue 23),
                # and keep that layout if its last page is fuller.
                self.compact = True
                tight, tight_fill, _ = self._build()
                if tight_fill > fill:
                    pdf = tight
                else:
                    self.compact = False
            self.progress(1.0, "done")
            return pdf

    def _build(self) -> tuple[bytes, float, int]:
        """The PDF, the share of its last page's frame in use, and its page count."""
        story = self._story()
        self.total_flowables = len(story)
        buf = BytesIO()
        doc = self._document(buf)
        # Two passes (or more): the contents learn the pages of the sections.
        doc.multiBuild(story, canvasmaker=_canvas_maker(self))
        frame_h = self.pagesize[1] - self.top_margin - self.bottom_margin
        fill = (self.bottom_margin + frame_h - doc.last_y) / frame_h
        return buf.getvalue(), fill, doc.last_page

    def _document(self, buf: BytesIO) -> _Doc:
        """The document: A4, its metadata, a cover page template and a body one."""
        d = self.data
        doc = _Doc(
            buf, self, pagesize=self.pagesize, leftMargin=self.left_margin,
            rightMargin=self.right_margin, topMargin=self.top_margin,
            bottomMargin=self.bottom_margin, title=d.document_title,
            author=d.author or d.producer, subject=d.subject, creator=d.producer,
            keywords=["RTO", "RPO", "Oracle", "RMAN", "restore", "recovery"], lang="en",
            invariant=1 if _reproducible() else None, initialFontName=FONT, initialFontSize=9,
        )  # fmt: skip
        frame = Frame(
            self.left_margin, self.bottom_margin, self.width,
            self.pagesize[1] - self.top_margin - self.bottom_margin, id="body",
            leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
        )  # fmt: skip
        doc.addPageTemplates([PageTemplate("cover", [frame], onPage=self._first_page),
                              PageTemplate("body", [frame], onPage=self._later_pages)])  # fmt: skip
        return doc


def _canvas_maker(renderer: ReportRenderer) -> type[NumberedCanvas]:
    class _Canvas(NumberedCanvas):
        footer_right = renderer.pagesize[0] - renderer.right_margin
        footer_y = 9 * mm

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.showOutline()

    return _Canvas


def _monotonic(progress: Progress) -> Progress:
    """Progress that never goes back (a second layout pass reports from its start)."""
    last = [0.0]

    def report(fraction: float, message: str) -> None:
        if fraction >= last[0]:
            last[0] = fraction
            progress(fraction, message)

    return report


def _reproducible() -> bool:
    return bool(os.environ.get("SOURCE_DATE_EPOCH", "").strip())


def _fit(text: str, font: str, size: float, width: float) -> str:
    """Shorten text with an ellipsis to fit `width` points (fonts.fit: O(n log n))."""
    return fit(text, font, size, width)


def render_pdf(
    data: ReportData,
    progress: Progress | None = None,
    should_cancel: ShouldCancel | None = None,
    sections: Sequence[Section] = PLAN_SECTIONS,
) -> bytes:
    """The PDF plan as bytes. Safe to call from a worker thread (renders are serialised);
    raises `ReportCancelled` when `should_cancel()` returns True. `sections` lays out
    the data of those sections, in that order (the plan's by default)."""
    return ReportRenderer(data, progress, should_cancel, sections).render()
