"""The page of the tornado is not left half blank (issue 23.8): the heading "The ranges
used" was kept with the whole table under it, so a table taller than the rest of the
page moved, heading and all, to the next page."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, demo_ids, rendered, text_fill


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_the_ranges_start_under_the_tornado_when_there_is_room(path):
    pages = PdfReader(io.BytesIO(rendered(path).pdf)).pages
    texts = [p.extract_text() for p in pages]
    at = next(i for i, t in enumerate(texts) if "The ranges used" in t)
    if "Each bar is the recovery time" in texts[at]:
        return  # on one page
    # The table began on a new page: the page before it was full.
    assert text_fill(pages[at - 1]) > 0.8, (path.stem, at)
