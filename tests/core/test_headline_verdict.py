"""One verdict for the whole plan and the assumptions that decide it (DESIGN §3.7)."""

from __future__ import annotations

import json

import pypdf
import pytest

from rtoplanner.core.cli import main
from rtoplanner.core.decisive import banner_tooltip, decisive_assumptions
from rtoplanner.core.engine.recovery import redo_apply_s
from rtoplanner.core.paths import data_dir
from rtoplanner.core.plan import compute_plan, plan_to_json
from rtoplanner.core.report.data import build_report_data
from rtoplanner.core.scenario import load_scenario, with_values

DEMOS = data_dir() / "scenarios"


def gige():
    """The GigE/LTO-5 demo: recovery meets its RTO, the site-loss RPO (28.5 h) misses 24 h."""
    return load_scenario(DEMOS / "small_gige_lto.toml")


def test_a_missed_rpo_decides_the_headline_although_recovery_meets():
    plan = compute_plan(gige(), include_growth=False)
    assert plan.recovery.verdict == "meets"
    assert plan.rpo.verdict == "misses"
    assert plan.verdict == "misses"
    assert plan.decided_by == "rpo"


def test_a_backup_over_its_window_decides_the_headline():
    s = with_values(gige(), {"targets.backup_window": "1 h", "targets.rpo": "48 h"})
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    assert plan.recovery.verdict == "meets" and plan.rpo.verdict == "meets"
    assert plan.verdict == "misses"
    assert plan.decided_by == "backup.level0"


def test_when_everything_meets_the_tightest_target_is_named():
    s = with_values(gige(), {"targets.rpo": "30 h"})  # 28.5 h of 30 h; recovery 68 % of RTO
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    assert plan.verdict == "meets"
    assert plan.decided_by == "rpo"


def test_json_has_top_level_verdict_and_keeps_recovery_verdict(capsys):
    assert main(["plan", str(DEMOS / "small_gige_lto.toml"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "misses"
    assert out["decided_by"] == "rpo"
    assert out["recovery"]["verdict"] == "meets"
    assert {c["name"] for c in out["checks"]} >= {"recovery", "rpo", "backup.level0"}
    assert plan_to_json(compute_plan(gige()))["verdict"] == "misses"


def test_plan_text_says_what_decides(capsys):
    assert main(["plan", str(DEMOS / "small_gige_lto.toml")]) == 0
    text = capsys.readouterr().out
    # The headline carries its probability (issue 20.5); what decides it at the planned
    # figures is still named.
    assert "Plan verdict: MISSES — 0 % likely to meet" in text
    assert "At the planned figures: MISSES — decided by RPO" in text
    assert "at the planned figures MISSES — decided by RPO" in text


def test_pdf_cover_shows_the_headline(tmp_path):
    out = tmp_path / "plan.pdf"
    assert main(["report", str(DEMOS / "small_gige_lto.toml"), "-o", str(out)]) == 0
    first = pypdf.PdfReader(out).pages[0].extract_text()
    assert "MISSES the RPO" in first
    assert "Decided by RPO" in first


def test_redo_apply_default_is_named_as_decisive():
    plan = compute_plan(load_scenario(DEMOS / "oltp_zfs_nas.toml"), include_growth=False)
    found = decisive_assumptions(plan)
    # model v3 counts the class's cost per archived log (logs of one 15 min log switch)
    assert [a.key for a in found] == ["recovery.redo_apply_rate", "recovery.redo_log_cost"]
    stream, logs = redo_apply_s(plan.scenario, plan.recovery.phase("redo_apply").data_bytes)
    assert found[0].share == pytest.approx(stream / plan.recovery.total_s)
    assert found[1].share == pytest.approx(logs / plan.recovery.total_s)
    assert "V$RECOVERY_PROGRESS" in banner_tooltip(plan)
    data = build_report_data(plan, advice=())
    assert any("Redo apply rate" in line and "not a measurement" in line for line in data.summary)
    measured = with_values(plan.scenario, {"recovery.redo_apply_rate": "169 GB/h"})
    assert decisive_assumptions(compute_plan(measured, include_cycle=False)) == []


def test_pdf_first_page_names_the_decisive_assumption(tmp_path):
    out = tmp_path / "plan.pdf"
    assert main(["report", str(DEMOS / "oltp_zfs_nas.toml"), "-o", str(out)]) == 0
    first = pypdf.PdfReader(out).pages[0].extract_text()
    assert "Assumptions that decide this plan" in first
    assert "V$RECOVERY_PROGRESS" in first


def test_catalog_decompression_rate_is_named_when_it_decides():
    s = with_values(
        load_scenario(DEMOS / "nas_two_heads.toml"),
        {"backup.compression": "high", "database.cpu_cores": 1},
    )
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    found = {a.key: a for a in decisive_assumptions(plan)}
    assert "backup.compression" in found
    assert "decompression CPU" in found["backup.compression"].title


def test_the_confidence_required_is_a_target_with_its_bounds(tmp_path):
    """targets.confidence (issue 20.5): 50 %..99.9 % (the ends included), else one line
    naming file, line and key."""
    from rtoplanner.core.errors import CoreError
    from rtoplanner.core.headline import probability_verdict

    text = (DEMOS / "small_gige_lto.toml").read_text(encoding="utf-8")
    assert load_scenario(DEMOS / "small_gige_lto.toml").targets.confidence == 0.9
    for given, value in (('"99.9%"', 0.999), ('"50%"', 0.5), ("0.95", 0.95)):
        path = tmp_path / "c.toml"
        path.write_text(text.replace("[targets]", f"[targets]\nconfidence = {given}"), "utf-8")
        assert load_scenario(path).targets.confidence == pytest.approx(value)
    for bad in ('"100%"', '"40%"', '"ninety"'):
        path.write_text(text.replace("[targets]", f"[targets]\nconfidence = {bad}"), "utf-8")
        with pytest.raises(CoreError) as err:
            load_scenario(path)
        assert "c.toml:" in str(err.value) and "targets.confidence" in str(err.value)
    assert probability_verdict(0.49, 0.9) == "misses"
    assert probability_verdict(0.5, 0.9) == "at_risk"
    assert probability_verdict(0.9, 0.9) == "meets"
