"""ReportData: the figures and words the PDF prints, without reportlab."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from report_helpers import DEMOS, EPOCH, demo_ids, sample_workload

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, report_date, source_date_epoch
from rtoplanner.core.scenario import SECTIONS, load_scenario_text, with_values
from rtoplanner.core.scenario.provenance import estimate_spread, measured_spread
from rtoplanner.core.units import format_duration

AS_OF = date(2026, 1, 1)

SCENARIO = """\
format = 1
name = "Café ERP — Łódź"
customer = "Zoë Ødegård AS"
author = "Jürgen Müller"

[database]
size = "2 TB"
redo_rate = "2 MB/s"
daily_change = "5%"
growth = "20%/y"

[backup]
channels = 4
channel_init = "30 s"
level1 = "cumulative"

[[path]]
kind = "tape_drive"
name = "LTO-9"
count = 4

[[path]]
kind = "network"
name = "10 GbE"
count = 1
rate = "1.1 GB/s"

[recovery]
incremental_apply_rate = "10 TB/h"
detect = "30 min"

[targets]
rto = "6 h"
rpo = "2 h"
backup_window = "8 h"

[provenance]
"database.redo_rate" = "AWR, 168 hourly reports, average"
"""


def data_for(text: str = SCENARIO, **kw):
    plan = compute_plan(load_scenario_text(text), as_of=AS_OF)
    return plan, build_report_data(plan, **kw)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_key_figures_match_the_plan(path):
    from rtoplanner.core.scenario import load_scenario

    plan = compute_plan(load_scenario(path), as_of=AS_OF)
    d = build_report_data(plan)
    rec = plan.recovery
    assert d.total_s == rec.total_s
    assert d.total_text == format_duration(rec.total_s)
    assert d.rto_text == format_duration(rec.rto_s)
    assert d.margin_text == format_duration(rec.margin_s)
    # The headline: the worst of RTO, RPO and windows at the planned figures, and of the
    # probability of meeting them all (issue 20.5), from the run the PDF prints.
    from rtoplanner.core.headline import probability_verdict, worse
    from rtoplanner.core.report.sections.confidence import REPORT_TRIALS
    from rtoplanner.core.uncertainty.analysis import run_risk

    p = run_risk(plan.scenario, trials=REPORT_TRIALS).p_meets_all
    assert d.verdict == worse(plan.verdict, probability_verdict(p, 0.9))
    assert d.decided_by == plan.decided_by
    assert d.verdict_words in ("MEETS", "AT RISK", "MISSES")
    assert d.total_text in d.summary[0]
    assert format_duration(abs(rec.margin_s)) in d.summary[0]
    # The phase table has every phase (a tape recall only when one is needed, issue 23),
    # then total, RTO and margin.
    shown = [p for p in rec.phases if p.name != "tape_recall" or p.duration_s]
    assert len(d.phase_table.rows) == len(shown) + 3
    assert d.phase_table.rows[-3][2] == d.total_text
    # Gantt bars end to end, ending at the total.
    assert d.gantt[-1].start_s + d.gantt[-1].duration_s == pytest.approx(rec.total_s)
    # (applying incrementals overlaps their restore, DESIGN §3.7)
    assert max(b.start_s + b.duration_s for b in d.gantt) == pytest.approx(rec.total_s)
    assert any(c.bottleneck for c in d.capacity)
    assert d.as_of == AS_OF


def test_verdict_words_follow_the_verdict():
    plan, d = data_for()
    assert plan.recovery.verdict in ("meets", "at_risk", "misses")
    missing = SCENARIO.replace('rto = "6 h"', 'rto = "10 min"')
    plan, d = data_for(missing)
    assert d.verdict == "misses"
    assert d.verdict_words == "MISSES"
    assert "misses the RTO" in d.summary[0]
    assert d.key_figures[2].label == "Over the RTO by"


def test_assumption_ledger_lists_every_input_with_its_origin():
    _, d = data_for()
    keys = [
        r[0].split("\n")[-1]  # the input in words, its key below
        for i, r in enumerate(d.assumptions.rows)
        if i not in d.assumptions.group_rows
    ]
    for section, specs in SECTIONS.items():
        for spec in specs:
            assert f"{section}.{spec.key}" in keys
    by_key = {r[0].split("\n")[-1]: r for r in d.assumptions.rows}
    assert by_key["database.redo_rate"][3] == "measured"
    assert by_key["database.redo_rate"][4].startswith("AWR")
    assert by_key["database.redo_rate"][1].endswith("range " + measured_spread().text)
    assert by_key["database.size"][3] == "estimate"  # typed, nobody said how it is known
    assert by_key["database.size"][1] == "2 TB\nrange " + estimate_spread().text
    assert by_key["backup.section_size"][3] == "default"  # a setting left at the default
    assert by_key["backup.channels"][3] == "given"  # a setting: no range
    # A stage named after a catalog item takes its rate from the catalog, with the source
    # and the prior's P10..P90 as its range.
    assert by_key["path[0].rate"][3] == "catalog figure"
    assert by_key["path[0].rate"][4] and "(P10..P90)" in by_key["path[0].rate"][1]
    assert by_key["path[1].rate"][3] == "estimate"
    # The redo apply rate is the workload class's default, with its prior.
    assert by_key["recovery.redo_apply_rate"][3] == "class default"
    assert "(P10..P90)" in by_key["recovery.redo_apply_rate"][1]
    assert "1 measured" in d.assumptions_text
    # Every figure has a provenance and a range (DESIGN §10).
    figures = [r for r in d.assumptions.rows if r[3] in
               ("exact", "measured", "catalog figure", "class default", "estimate")]  # fmt: skip
    assert figures and all("\nrange " in r[1] for r in figures)


def test_workload_evidence_is_optional():
    _, d = data_for()
    assert d.workload is None and d.workload_table is None
    w = sample_workload()
    _, d = data_for(workload=w)
    assert d.workload is w
    assert d.workload_table is not None
    assert any("95th" in r[0] for r in d.workload_table.rows)


def test_what_it_takes_only_when_asked_or_needed():
    plan, d = data_for(advice=())
    assert "what_it_takes" not in d.parts
    assert not any("What it takes" in p for p in d.summary)
    scenario = with_values(plan.scenario, {"targets.rto": "1 h"})
    failing = compute_plan(scenario, as_of=AS_OF)
    assert failing.verdict != "meets"
    d = build_report_data(failing)
    assert "what_it_takes" in d.parts
    assert d.fix_table.rows and d.fix_table.header[1] == "Cost"
    assert any(p.startswith(("What it takes", "No combination")) for p in d.summary)
    assert not any("helps most" in p for p in d.summary)


def test_unicode_names_pass_through():
    _, d = data_for()
    assert d.scenario_name == "Café ERP — Łódź"
    assert d.customer == "Zoë Ødegård AS"
    assert "Café ERP — Łódź" in d.document_title


def test_growth_outlook_points_and_break():
    plan, d = data_for()
    assert d.growth is not None
    assert len(d.growth.points) == len(plan.growth.points)
    if plan.growth.breaks_on:
        assert d.growth.breaks_at_years is not None


def test_source_date_epoch(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert source_date_epoch() is None
    assert report_date() == date.today()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    assert source_date_epoch() == datetime(2026, 1, 1, tzinfo=UTC)
    assert report_date() == date(2026, 1, 1)
    plan = compute_plan(load_scenario_text(SCENARIO), as_of=report_date())
    assert build_report_data(plan, advice=()).generated == datetime(2026, 1, 1, tzinfo=UTC)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert source_date_epoch() is None
