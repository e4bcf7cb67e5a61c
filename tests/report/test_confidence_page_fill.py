"""The page of the tornado is not left half blank (issue 23.8): the heading "The ranges
used" was kept with the whole table under it, so a table taller than the rest of the
page moved, heading and all, to the next page."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, demo_ids, rendered

MM = 72 / 25.4


def _lowest_text(page) -> float:
    """How far down the page's body text reaches, as a share of the text frame."""
    height = float(page.mediabox.height)
    top, bottom = height - 22 * MM, 18 * MM  # the renderer's margins
    ys: list[float] = []

    def visit(text, cm, tm, font, size):
        y = tm[5] * cm[3] + cm[5] if cm else tm[5]
        if text.strip() and bottom < y < top:
            ys.append(y)

    page.extract_text(visitor_text=visit)
    return (top - min(ys)) / (top - bottom)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_the_ranges_start_under_the_tornado_when_there_is_room(path):
    pages = PdfReader(io.BytesIO(rendered(path).pdf)).pages
    texts = [p.extract_text() for p in pages]
    at = next(i for i, t in enumerate(texts) if "The ranges used" in t)
    if "Each bar is the recovery time" in texts[at]:
        return  # on one page
    # The table began on a new page: the page before it was full.
    assert _lowest_text(pages[at - 1]) > 0.8, (path.stem, at)
