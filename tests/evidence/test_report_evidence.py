"""The PDF plan's Evidence section: each drill, its date, measured vs plan per phase."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from rtoplanner.core.cli import main
from rtoplanner.core.report.sections import PLAN_SECTIONS
from rtoplanner.core.store import Store
from rtoplanner.core.store.drills import drills

from .conftest import EVIDENCE, EXADATA

FULL = [
    str(EVIDENCE / n)
    for n in (
        "drill_prod_iso.log",
        "rman_status_drill.csv",
        "clock/20261012_0120_recovery.csv",
        "preview_prod.txt",
    )
]


def _pages(pdf) -> list[str]:
    """Each page's text with every run of white space one space (cells come apart)."""
    return [" ".join(p.extract_text().split()) for p in PdfReader(str(pdf)).pages]


@pytest.mark.slow
def test_report_prints_each_drill_with_plan_vs_measured(tmp_path, store_path, capsys) -> None:
    db = ["--db", str(store_path)]
    assert main([*db, "drills", "add", str(EXADATA), *FULL]) == 0
    assert (
        main(
            [
                *db,
                "drills",
                "add",
                "Exadata",
                str(EVIDENCE / "drill_prod_default_nls.log"),
                "--label",
                "Q4 DR test",
            ]
        )
        == 0
    )
    out = tmp_path / "plan.pdf"
    assert main([*db, "report", str(EXADATA), "-o", str(out)]) == 0
    pages = _pages(out)
    page = next(p for p in pages if "Evidence: restore tests" in p and "Drill 1" in p)
    assert "Drill 1, 2026-10-11 21:59, against version 1" in page
    assert "Drill 2, 2026-10-11 21:58, against version 1 — Q4 DR test" in page
    assert "last 2 drills: within +9 %..+20 % of the plan" in page
    assert "Restore level 0 55 min 47 s 1 h 06 min +18.8 % wall clock" in page
    assert "Over the phases timed 2 h 47 min 3 h 20 min +19.5 %" in page
    # The drills' notes name figures in words, not file keys (issue 23.6); the ledger's
    # key column keeps the keys for the audit.
    drill_pages = [p for p in pages if "Drill 1" in p or "Drill 2" in p]
    assert "archived logs still on disk" in " ".join(drill_pages).lower()
    assert "recovery.archivelogs_on_disk" not in " ".join(drill_pages)


def test_no_drills_no_section(tmp_path, store_path) -> None:
    from rtoplanner.core.plan import compute_plan
    from rtoplanner.core.report.data import build_report_data
    from rtoplanner.core.scenario import load_scenario

    plan = compute_plan(load_scenario(EXADATA))
    data = build_report_data(plan, advice=())
    assert data.part("evidence") is None
    assert [s.key for s in PLAN_SECTIONS].count("evidence") == 1


def test_section_data_from_stored_drills(store_path, capsys) -> None:
    from rtoplanner.core.plan import compute_plan
    from rtoplanner.core.report.data import build_report_data
    from rtoplanner.core.scenario import load_scenario

    assert main(["--db", str(store_path), "drills", "add", str(EXADATA), *FULL]) == 0
    with Store(store_path) as s:
        found = drills(s)
    data = build_report_data(compute_plan(load_scenario(EXADATA)), advice=(), drills=found)
    part = data.part("evidence")
    (block,) = part.drill_blocks
    assert block.table.rows[-1][0] == "Over the phases timed"
    assert "last drill: +20 % against the plan" in part.evidence_lead
