"""The PDF's "How sure is this plan" section and the ranges in the assumptions ledger,
read back from real PDFs."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, demo_ids, rendered

from rtoplanner.core.uncertainty.words import percent


def flat(pdf: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_the_section_says_how_likely_the_plan_holds(path):
    out = rendered(path)
    part = out.data.part("confidence")
    text = flat(out.pdf)
    assert "How sure is this plan" in text
    assert "The database is open within the RTO" in text
    risk = out.data.part("confidence")
    worst = risk.confidence_table.rows[0]
    assert worst[0] == "Worst moment of the cycle"
    assert f"Worst moment of the cycle {worst[1]} {worst[2]} {worst[3]}" in text
    assert "The ranges used" in text and "stated in the scenario" in text  # issue 23
    shown = sum(b.share for b in part.confidence_hist)  # a long tail is cut, and said
    assert shown == pytest.approx(1.0) or (shown < 1.0 and any(part.confidence_tails))
    assert part.confidence_tornado, "the demos give ranges that move the recovery"


def test_the_pdf_and_the_terminal_print_the_same_run():
    from rtoplanner.core.report.sections.confidence import REPORT_TRIALS
    from rtoplanner.core.scenario import load_scenario
    from rtoplanner.core.uncertainty.analysis import run_risk

    out = rendered(DEMOS[0])
    r = run_risk(load_scenario(DEMOS[0]), trials=REPORT_TRIALS)
    row = out.data.part("confidence").confidence_table.rows[0]
    assert row[1] == percent(r.worst.p_meets)
    assert f"seed {r.seed}" in flat(out.pdf)


def test_the_ledger_prints_each_range_under_its_value():
    text = flat(rendered(DEMOS[0]).pdf)
    ledger = text.split("Assumptions ledger", 1)[1]
    assert "72 MB/s range -40 %..+20 %" in ledger  # the house style (issue 23.6)
    assert "1.6 GB/s range -20 %..+10 %" in ledger
