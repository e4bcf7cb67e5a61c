"""The estate PDF: `rto-planner report ESTATE.toml` writes it, read back with pypdf."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from rtoplanner.app.__main__ import main
from rtoplanner.core.estate import load_estate, run_estate
from rtoplanner.core.report.estate import build_estate_report_data, estate_gantt_charts

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"


@pytest.fixture(scope="module")
def estate_pdf(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pdf") / "estate.pdf"
    assert main(["report", str(DEMO), "-o", str(out), "-q", "--no-store"]) == 0
    return out


def text_of(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_estate_pdf_has_summary_gantt_and_every_database(estate_pdf):
    reader = PdfReader(estate_pdf)
    assert len(reader.pages) >= 3
    text = text_of(estate_pdf)
    result = run_estate(load_estate(DEMO))
    for d in result.databases:
        assert d.name in text
    for heading in ("Estate recovery plan", "When each database opens", "Shared resources",
                    "Least hardware for priority 1", "Each database"):  # fmt: skip
        assert heading in text
    misses = result.counts["misses"]
    assert f"{misses} of {len(result.databases)} databases MISS their RTO\n" in text
    assert f"decides: {result.deciding}" in text


def test_scenario_report_is_still_the_plan(tmp_path):
    out = tmp_path / "plan.pdf"
    scenario = REPO / "data" / "scenarios" / "small_gige_lto.toml"
    assert main(["report", str(scenario), "-o", str(out), "-q", "--no-store"]) == 0
    text = text_of(out)
    assert "Estate recovery plan" not in text and "Restore and recovery plan" in text


def test_gantt_has_a_row_per_database():
    result = run_estate(load_estate(DEMO))
    part = build_estate_report_data(result).part("estate_gantt")
    assert [r.label.split(" · ", 1)[1] for r in part.gantt_rows] == sorted(
        (d.name for d in result.databases),
        key=lambda n: (result.database(n).priority, result.database(n).open_s, n),
    )
    (drawing,) = estate_gantt_charts(part, 480)  # 8 rows: one page
    assert drawing.height > 18 * len(part.gantt_rows)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) missing")
def test_estate_pdf_renders(estate_pdf, tmp_path):
    subprocess.run(["pdftoppm", "-png", "-r", "30", "-f", "1", "-l", "2", str(estate_pdf),
                    str(tmp_path / "p")], check=True)  # fmt: skip
    assert len(list(tmp_path.glob("p*.png"))) == 2


def test_a_large_estates_gantt_runs_over_pages(tmp_path):
    """80 databases: the Gantt was one drawing taller than a page (reportlab's
    LayoutError, an internal error for the user); it now runs over pages of rows, one
    time axis for all."""
    from rtoplanner.core.report.estate import GANTT_ROWS_PER_PAGE, write_estate_report

    from .estate_helpers import DRIVE, MEDIA, estate, scenario, shared_stage

    path = [shared_stage(DRIVE, "LTO"), shared_stage(MEDIA, "MS")]
    n = 80
    dbs = [(scenario(f"db{i:02d}", size=f"{1 + i % 7} TB", path=path), 1 + i % 3)
           for i in range(n)]  # fmt: skip
    est = estate(dbs, shared=[{**DRIVE, "count": 8}, {**MEDIA, "count": 2}])
    out = write_estate_report(est, tmp_path / "large.pdf")
    pages = [p.extract_text() for p in PdfReader(out).pages]
    gantt_pages = [t for t in pages if "When each database opens" in t or "rows " in t]
    chunks = -(-n // GANTT_ROWS_PER_PAGE)
    assert len(gantt_pages) >= chunks
    text = "\n".join(pages)
    for i in range(n):
        assert f"db{i:02d}" in text
    second = GANTT_ROWS_PER_PAGE + 1
    assert f"rows {second}–{min(n, 2 * GANTT_ROWS_PER_PAGE)} of {n}" in text


def test_each_database_begins_under_its_heading(estate_pdf):
    """Issue 23.8: "Each database" and its intro closed page 2 while every database's
    table began on page 3."""
    pages = [p.extract_text() for p in PdfReader(estate_pdf).pages]
    at = next(i for i, t in enumerate(pages) if "Each database" in t)
    first = load_estate(DEMO)
    first_name = run_estate(first).databases[0].name
    assert first_name in pages[at].split("Each database", 1)[1], pages[at][-300:]


def test_the_runbook_says_which_databases_then_miss(estate_pdf):
    """ "every priority-1 database opens inside its RTO …; 1 database then misses its RTO"
    read as a contradiction: the one that misses is of a lower priority."""
    text = " ".join(text_of(estate_pdf).split())
    assert "1 lower-priority database then misses its RTO" in text
    assert "; 1 database then misses" not in text
