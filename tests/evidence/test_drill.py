"""Drills measured from evidence, and plan vs actual with the plan's own engine."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rtoplanner.core.evidence.compare import compare_drill, plan_for_drill
from rtoplanner.core.evidence.drill import DrillError, drill_from_dict, drill_from_evidence
from rtoplanner.core.importers.restore_evidence import read_evidence
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario_text

from .conftest import EVIDENCE, EXADATA


def _drill(*names: str, **kw):
    return drill_from_evidence([read_evidence(EVIDENCE / n) for n in names], **kw)


def test_timed_log_measures_each_phase_as_it_happened(truth) -> None:
    d, t = truth
    drill = _drill("drill_prod_iso.log")
    level0 = drill.phase("restore_level0")
    assert (level0.how, level0.duration_s) == (
        "wall",
        (t["restore_end"] - t["restore_start"]).total_seconds(),
    )
    inc = [x for x in d.schedule if x[0] == "incremental"]
    busiest = max(
        sum((b - a).total_seconds() for k, c, a, b, _, _ in inc if c == ch)
        for ch in {x[1] for x in inc}
    )
    assert drill.phase("apply_incremental").duration_s == pytest.approx(busiest, abs=14)
    applied = sum((b - a).total_seconds() for a, b, _ in d.applies)
    # media recovery less its archived-log restores ≈ the time spent applying redo
    assert drill.phase("redo_apply").duration_s == pytest.approx(applied, rel=0.01)
    assert drill.incremental_count == 1 and drill.channels == 14
    assert drill.started == t["controlfile_start"] and drill.ended == t["recover_end"]
    assert drill.phase("open") is None  # a log alone does not time the open


def test_default_nls_log_is_timed_by_channels_and_says_so() -> None:
    drill = _drill("drill_prod_default_nls.log")
    assert drill.phase("restore_level0").how == "channels"
    assert any("NLS_DATE_FORMAT" in n for n in drill.notes)
    assert drill.started is not None  # from the session banner, which always has a time


def test_status_preview_and_recovery_progress_add_volumes_and_the_open(truth) -> None:
    _, t = truth
    drill = _drill(
        "drill_prod_iso.log",
        "rman_status_drill.csv",
        "clock/20261012_0120_recovery.csv",
        "preview_prod.txt",
    )
    assert drill.level0_bytes == 10e12 and drill.phase("restore_level0").data_bytes == 10e12
    assert drill.incremental_bytes == pytest.approx(2.4e12, rel=1e-3)
    assert drill.redo_bytes > 380e9
    assert drill.phase("open").duration_s == (t["open_end"] - t["recover_end"]).total_seconds()


def test_cut_off_and_failed_logs_time_what_finished_and_say_what_did_not() -> None:
    cut = _drill("drill_prod_truncated.log")
    assert cut.phase("restore_level0") and cut.phase("redo_apply") is None
    assert any("ends before it completes" in n for n in cut.notes)
    failed = _drill("drill_prod_failed.log")
    assert failed.failed and "RMAN-06054" in failed.failed and failed.phase("redo_apply") is None


def test_typed_phases_fill_what_no_log_times_but_never_beat_a_measurement() -> None:
    drill = _drill("drill_prod_iso.log", typed={"open": 240.0, "restore_level0": 1.0})
    assert drill.phase("open").how == "typed" and drill.phase("open").duration_s == 240
    assert drill.phase("restore_level0").how == "wall"


def test_evidence_without_a_timed_phase_is_refused() -> None:
    with pytest.raises(DrillError, match="nothing in the evidence times a phase"):
        _drill("preview_prod.txt")


def test_drill_round_trips_through_its_dict() -> None:
    drill = _drill("drill_prod_iso.log", "rman_status_drill.csv")
    assert drill_from_dict(drill.to_dict()) == drill


def test_plan_for_a_drill_without_volumes_is_the_plans_worst_case(exadata) -> None:
    """An independent path: the drill's plan is compute_plan's own when nothing differs."""
    drill = replace(_drill("drill_prod_iso.log"), incremental_count=None)
    rec, jobs, _ = plan_for_drill(exadata, drill)
    plan = compute_plan(exadata, include_cycle=False, include_growth=False)
    assert [(p.name, p.duration_s) for p in rec.phases] == [
        (p.name, p.duration_s) for p in plan.recovery.phases
    ]
    assert jobs == {f"backup.{j.name}": j.duration_s for j in plan.jobs}


def test_plan_for_a_drill_uses_its_volumes_as_a_scenario_with_them_would(exadata) -> None:
    """Level 0 and redo volumes measured: the same phases as a scenario that states them."""
    drill = _drill(
        "drill_prod_iso.log", "rman_status_drill.csv", "clock/20261012_0120_recovery.csv"
    )
    drill = replace(drill, level0_bytes=8e12, redo_bytes=300e9)
    rec, _, _ = plan_for_drill(exadata, drill)
    text = (
        EXADATA.read_text()
        .replace('size = "10 TB"', 'size = "8 TB"')
        .replace("archivelogs_on_disk = true", 'archivelogs_on_disk = true\nredo_volume = "300 GB"')
    )
    other = compute_plan(load_scenario_text(text, "8TB"), include_cycle=False, include_growth=False)
    for name in ("restore_level0", "redo_apply"):
        assert rec.phase(name).duration_s == pytest.approx(other.recovery.phase(name).duration_s)


def test_comparison_errors_and_totals(exadata) -> None:
    drill = _drill(
        "drill_prod_iso.log",
        "rman_status_drill.csv",
        "clock/20261012_0120_recovery.csv",
        "preview_prod.txt",
    )
    c = compare_drill(exadata, drill)
    row = {r.name: r for r in c.rows}
    lvl0 = row["restore_level0"]
    assert lvl0.error == pytest.approx((lvl0.actual_s - lvl0.plan_s) / lvl0.plan_s)
    assert lvl0.error > 0.1  # the drill restored at 2.6 GB/s against the plan's 2.99 GB/s
    assert lvl0.actual_rate_Bps == pytest.approx(10e12 / lvl0.actual_s)
    # the archived-log restore the plan does not have is shown but left out of the totals
    assert row["restore_archivelogs"].plan_s == 0 and row["restore_archivelogs"].error is None
    timed = [
        r
        for r in c.rows
        if r.actual_s is not None and r.plan_s > 0 and r.name != "restore_incremental"
    ]
    assert c.actual_s == pytest.approx(sum(r.actual_s for r in timed))
    assert c.plan_s == pytest.approx(sum(r.plan_s for r in timed))
    assert any("archived logs that the plan keeps on disk" in n for n in c.notes)
