"""The PDF's histogram of the recovery time (issue 23): on a long-tailed demo the bars
were squeezed into the first few millimetres of a two-year axis."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, rendered
from reportlab.graphics.shapes import PolyLine, Rect, String

from rtoplanner.core.report import register_fonts
from rtoplanner.core.report.sections.confidence import distribution_chart

LONG_TAILED = [p for p in DEMOS if p.stem in ("oltp_zfs_nas", "nas_two_heads")]


def _items(node, out):
    for item in getattr(node, "contents", []):
        _items(item, out)
    out.append(node)
    return out


@pytest.mark.parametrize("path", LONG_TAILED, ids=[p.stem for p in LONG_TAILED])
def test_a_long_tail_is_stated_and_the_bars_are_readable(path):
    register_fonts()
    out = rendered(path)
    part = out.data.part("confidence")
    drawing = distribution_chart(part, 480)
    items = _items(drawing, [])
    bars = [i for i in items if isinstance(i, Rect) and i.fillColor is not None and i.width < 40]
    plot_w = 480 - 40 - 34
    # The bars span most of the plot, not a sliver at its left end.
    assert max(b.x + b.width for b in bars) - min(b.x for b in bars) > 0.5 * plot_w
    assert max(s.share for s in part.confidence_hist) < 0.25
    # The CDFs stop at the chart's edge (no vertical line up the right axis).
    right = max(b.x + b.width for b in bars)
    for line in (i for i in items if isinstance(i, PolyLine)):
        assert max(line.points[0::2]) <= 480 - 34 + 0.01
    assert right <= 480 - 34
    # What is cut off is said, on the chart and so in the PDF.
    beyond = part.confidence_tails[1]
    assert re.fullmatch(r"[\d,]+ trials \([\d.]+ %\) beyond \d.* →", beyond), beyond
    assert beyond in [s.text for s in items if isinstance(s, String)]
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(out.pdf)).pages)
    assert beyond in re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("path", DEMOS, ids=[p.stem for p in DEMOS])
def test_the_failure_column_reads_on_one_line(path):
    """ "Worst moment of the / cycle" wrapped in its 38 mm column on every demo."""
    pages = PdfReader(io.BytesIO(rendered(path).pdf)).pages
    text = "\n".join(p.extract_text() for p in pages)
    assert "Worst moment of the cycle" in text
