"""What the tornado's figures explain alone and what they explain together (issue 23.6
wording): on the oltp demo the redo apply rate "decides most" by its swing but explains
3 % of the trials' spread alone; the PDF said "…, 3 % of the spread of the trials" and
`risk` printed a Variance column summing to 26 % with nothing said of the other 74 %."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from rtoplanner.core.cli import main
from rtoplanner.core.scenario import load_scenario
from rtoplanner.core.uncertainty.analysis import run_risk
from rtoplanner.core.uncertainty.result import TOGETHER_WORTH_SAYING, together_words

REPO = Path(__file__).resolve().parents[2]
OLTP = REPO / "data" / "scenarios" / "oltp_zfs_nas.toml"


@pytest.fixture(scope="module")
def oltp_risk():
    return run_risk(load_scenario(OLTP), trials=4000, seed=7)


def test_together_is_what_the_first_order_shares_leave(oltp_risk):
    alone = sum(b.variance_share for b in oltp_risk.tornado)
    assert oltp_risk.together_share == pytest.approx(1 - alone)
    assert oltp_risk.together_share >= TOGETHER_WORTH_SAYING
    assert together_words(oltp_risk).startswith("; figures acting together explain the other ")


def test_nothing_is_said_when_the_figures_explain_the_spread_alone(oltp_risk):
    bars = oltp_risk.tornado
    alone = tuple(replace(b, variance_share=1 / len(bars)) for b in bars)
    assert together_words(replace(oltp_risk, tornado=alone)) == ""
    assert replace(oltp_risk, tornado=()).together_share == 0.0


def test_risk_says_what_the_variance_column_leaves_out(capsys):
    assert main(["risk", str(OLTP), "--no-store", "--trials", "4000", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("Variance:"))
    assert "each figure explains alone; figures acting together explain the other" in line


def test_the_pdf_says_the_top_figure_explains_little_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    out = tmp_path / "oltp.pdf"
    assert main(["report", str(OLTP), "-o", str(out), "--no-store", "-q"]) == 0
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(out.read_bytes())).pages)
    text = " ".join(text.split())
    assert "decides most" in text and "alone it explains" in text
    assert "figures acting together explain the other" in text
