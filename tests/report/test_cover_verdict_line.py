"""The cover's verdict title stays on one line where it fits at a readable size (issue
23.8: "MISSES the RTO — 3.9 % likely to" over a lone "meet" on the oltp demo's cover)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, demo_ids, rendered

from rtoplanner.core.report.sections.cover import SMALLEST_ONE_LINE_VERDICT, verdict_style


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_every_demo_cover_title_reads_on_one_line(path):
    r = rendered(path)
    first = PdfReader(io.BytesIO(r.pdf)).pages[0].extract_text()
    title = r.data.verdict_title or r.data.verdict_words
    assert f"\n{title}\n" in first, (title, first[:400])


def test_a_title_shrinks_to_fit_and_a_short_one_keeps_its_size():
    from reportlab.lib.styles import ParagraphStyle

    style = ParagraphStyle("verdict", fontName="Helvetica-Bold", fontSize=24, leading=28)
    assert verdict_style(style, "MEETS the RTO", 400) is style
    fitted = verdict_style(style, "MISSES the RTO — 3.9 % likely to meet", 400)
    assert SMALLEST_ONE_LINE_VERDICT <= fitted.fontSize < style.fontSize
    assert fitted.leading / fitted.fontSize == pytest.approx(style.leading / style.fontSize)
    very_long = "MISSES the RTO — " + "very " * 30 + "long"
    assert verdict_style(style, very_long, 400) is style  # wraps at its own size
