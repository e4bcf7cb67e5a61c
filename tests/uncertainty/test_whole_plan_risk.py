"""Risk over the whole plan (issue 20.4): each backup against its window, the RPO and the
failover get distributions too, trial by trial the plan's own checks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rtoplanner.core.cli import main
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario, with_values
from rtoplanner.core.uncertainty.analysis import run_risk
from rtoplanner.core.uncertainty.inputs import apply_values, uncertain_inputs
from rtoplanner.core.uncertainty.sampling import draw_inputs

from .test_one_engine import random_scenarios

DEMOS = sorted((Path(__file__).parents[2] / "data" / "scenarios").glob("*.toml"))
TRIALS = 24


def _with_targets(scenario, rng):
    """The scenario with an RPO and a backup window near what its plan needs, so some
    trials meet them and some do not."""
    plan = compute_plan(scenario, include_cycle=False, include_growth=False)
    level0 = plan.job("level0").duration_s
    changes = {
        "targets.rpo": f"{max(plan.rpo.site_loss_s * rng.uniform(0.97, 1.05), 0):.0f} s",
        "targets.backup_window": f"{max(level0 * rng.uniform(0.8, 1.3), 60):.0f} s",
    }
    return with_values(scenario, changes)


def _scalar_checks(scenario, trials: int, seed: int):
    """Each trial's plan computed alone (scalar engine): {check name: met per trial}."""
    varied = [i for i in uncertain_inputs(scenario) if not i.is_zero]
    values, _ = draw_inputs(varied, trials, seed)
    met: dict[str, list[bool]] = {}
    for t in range(trials):
        one = apply_values(scenario, {k: float(v[t]) for k, v in values.items()})
        plan = compute_plan(one, include_cycle=False, include_growth=False)
        for c in plan.checks:
            met.setdefault(c.name, []).append(c.value_s <= c.target_s)
    return met


def test_each_target_is_the_plans_own_check_trial_by_trial():
    """P(window met), P(RPO met) and P(every target) equal the share of trials whose own
    scalar plan meets them — the same engine, the same draws."""
    checked = 0
    for scenario, rng in random_scenarios(12, seed=4242):
        scenario = _with_targets(scenario, rng)
        plan = compute_plan(scenario, include_cycle=False, include_growth=False)
        r = run_risk(scenario, trials=TRIALS, seed=17)
        assert [c.name for c in r.checks] == [c.name for c in plan.checks], scenario.name
        for c, planned in zip(r.checks, plan.checks, strict=True):
            assert c.planned_s == pytest.approx(planned.value_s, rel=1e-9), c.name
            assert c.target_s == planned.target_s
        met = _scalar_checks(scenario, TRIALS, 17)
        for c in r.checks:
            share = np.mean(met[c.name])
            assert c.p_met == pytest.approx(share, abs=1e-12), (scenario.name, c.name)
        every = np.all([met[c.name] for c in r.checks], axis=0)
        assert r.p_meets_all == pytest.approx(every.mean(), abs=1e-12), scenario.name
        checked += sum(0 < c.p_met < 1 for c in r.checks if c.name != "recovery")
    assert checked >= 3, "no window or RPO was met in some trials and missed in others"


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.stem)
def test_every_target_at_once_is_no_more_likely_than_the_least_likely(path):
    r = run_risk(load_scenario(path), trials=4000)
    plan = compute_plan(load_scenario(path), include_cycle=False, include_growth=False)
    assert [c.name for c in r.checks] == [c.name for c in plan.checks]
    assert {c.name for c in r.checks} >= {"recovery", "backup.level0"}
    assert r.p_meets_all <= min(c.p_met for c in r.checks) + 1e-12
    rec = r.check("recovery")
    assert rec.p_met == pytest.approx(r.worst.p_meets + r.worst.p_at_risk)
    assert rec.percentiles_s == r.worst.percentiles_s


def test_risk_json_and_text_state_each_target(capsys, tmp_path):
    demo = DEMOS[0]
    assert main(["risk", str(demo), "--no-store", "--trials", "2000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    names = [c["name"] for c in out["checks"]]
    assert names[0] == "recovery" and "rpo" in names and "backup.level0" in names
    assert 0.0 <= out["p_meets_all"] <= min(c["p_met"] for c in out["checks"])
    assert out["confidence_required"] == 0.9
    assert set(out["checks"][1]["percentiles_s"]) == {"p10", "p50", "p90", "p95", "p99"}
    assert main(["risk", str(demo), "--no-store", "--trials", "2000"]) == 0
    text = capsys.readouterr().out
    assert "Data loss within the RPO" in text
    assert "Level 0 backup within its window" in text
    assert "Every target at once" in text
