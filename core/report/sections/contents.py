"""Contents: the sections and their pages, filled in by a second layout pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer
from reportlab.platypus.tableofcontents import TableOfContents

from ..charts import INK
from ..fonts import FONT
from ..model import ReportContext, Section

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class ContentsPart:
    contents_title: str


def build(ctx: ReportContext) -> ContentsPart:
    return ContentsPart("Contents")


def render(r: ReportRenderer, part: ContentsPart) -> list[Flowable]:
    heading = r.heading(part.contents_title, 0)
    heading.in_contents = False  # type: ignore[attr-defined]
    toc = TableOfContents(dotsMinLevel=0)
    toc.tableStyle = r.table_style(
        [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
         ("RIGHTPADDING", (0, 0), (-1, -1), 0)]
    )  # fmt: skip
    toc.levelStyles = [
        ParagraphStyle(
            "toc0",
            fontName=FONT,
            fontSize=9,
            leading=13,
            textColor=INK,
            leftIndent=0,
            firstLineIndent=0,
        )
    ]
    return [heading, toc, Spacer(1, 6 * mm)]


SECTION = Section("contents", "contents", build, render)
