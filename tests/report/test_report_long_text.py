"""Issue 25 (hangs): notes full of line breaks laid out in linear work, read back whole.

reportlab re-breaks a paragraph's remaining lines every time it splits it across a page,
so one paragraph of 10,000 lines costs ~10,000²/2 line breaks (60 s at 10,000 breaks,
260 s and 4 GB at 20,000). The work is counted (lines broken), not timed.
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, REPO
from reportlab.platypus import Paragraph

from rtoplanner.core.estate import load_estate_text, run_estate
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, render_pdf
from rtoplanner.core.report.estate import ESTATE_SECTIONS, build_estate_report_data
from rtoplanner.core.scenario import load_scenario_text

BREAKS = 10_000


class LineBudget:
    """Counts the lines reportlab breaks and stops the run once past `limit` (so the
    quadratic layout fails in seconds, not minutes)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
        self.lines = 0
        self.limit = limit
        original = Paragraph.breakLines

        def counted(para, width):
            result = original(para, width)
            self.lines += len(result.lines)
            if self.lines > self.limit:
                raise AssertionError(f"over {self.limit:,} lines broken: quadratic layout")
            return result

        monkeypatch.setattr(Paragraph, "breakLines", counted)


def _notes(n: int) -> str:
    body = "\n".join(f"line {i}" if i % 7 else "" for i in range(n))
    return f"first note line\n{body}\nlast note line"


def _text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_scenario_notes_with_many_breaks_are_laid_out_in_linear_work(monkeypatch):
    demo = next(p for p in DEMOS if p.stem == "small_gige_lto")
    text = demo.read_text(encoding="utf-8")
    notes = _notes(BREAKS).replace("\n", "\\n")
    text = text.replace("\n[database]", f'\nnotes = "{notes}"\n\n[database]', 1)
    data = build_report_data(compute_plan(load_scenario_text(text)), advice=())
    budget = LineBudget(monkeypatch, limit=40 * BREAKS)
    pdf = render_pdf(data)
    assert budget.lines > BREAKS  # the notes were laid out
    words = _text_of(pdf)
    assert "first note line" in words and "last note line" in words
    assert f"line {BREAKS - 1}" in words


def test_estate_notes_with_many_breaks_are_laid_out_in_linear_work(monkeypatch):
    demo = REPO / "data" / "estates" / "site_loss.toml"
    text = demo.read_text(encoding="utf-8")
    notes = _notes(BREAKS).replace("\n", "\\n")
    line = 'customer = "Demo customer"'
    text = text.replace(line, f'{line}\nnotes = "{notes}"')
    estate = load_estate_text(text, source=str(demo), base_dir=demo.parent)
    data = build_estate_report_data(run_estate(estate, trace=False))
    budget = LineBudget(monkeypatch, limit=40 * BREAKS)
    pdf = render_pdf(data, None, None, ESTATE_SECTIONS)
    assert budget.lines > BREAKS
    words = _text_of(pdf)
    assert "first note line" in words and "last note line" in words


def test_short_notes_stay_one_paragraph():
    """A few lines of notes keep their one paragraph (and the demo PDFs their bytes)."""
    from rtoplanner.core.report.pdf import ReportRenderer

    demo = next(p for p in DEMOS if p.stem == "small_gige_lto")
    data = build_report_data(compute_plan(load_scenario_text(demo.read_text("utf-8"))))
    r = ReportRenderer(data)
    assert len(r.paras("one\ntwo\n\nthree")) == 1
    long = r.paras("\n".join(f"line {i}" for i in range(100)) + "\n" * 5000 + "end")
    paragraphs = [f for f in long if isinstance(f, Paragraph)]
    assert len(paragraphs) == 6  # 5 × 20 lines, then "end"
    assert all(f.text.count("<br/>") < 20 for f in paragraphs)
    assert len(long) == 6 + 1  # a run of blank lines is one line's space
