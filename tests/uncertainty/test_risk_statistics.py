"""Statistical properties of the Monte Carlo run, with fixed seeds (DESIGN §7)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import with_values
from rtoplanner.core.uncertainty.analysis import first_order_share, run_risk
from rtoplanner.core.uncertainty.result import risk_to_json
from rtoplanner.core.uncertainty.sampling import default_seed, triangular, uniforms
from rtoplanner.core.uncertainty.words import headline, percent

from .risk_helpers import scenario_with

TRIALS = 2000


def test_no_range_gives_the_deterministic_plan_exactly():
    s = scenario_with('"recovery.redo_apply_rate" = "±0"')
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    r = run_risk(s, trials=500, seed=1)
    assert r.varied == ()
    assert r.deterministic_s == plan.recovery.total_s
    for p, v in r.worst.percentiles_s.items():
        assert v == plan.recovery.total_s, p
    assert r.worst.min_s == r.worst.max_s == plan.recovery.total_s
    expected = {"meets": (1, 0, 0), "at_risk": (0, 1, 0), "misses": (0, 0, 1)}
    assert (r.worst.p_meets, r.worst.p_at_risk, r.worst.p_misses) == expected[plan.recovery.verdict]
    assert r.tornado == ()
    assert "No figure has a range" in headline(r)


def test_a_zero_width_range_is_the_plan_and_the_tornado_is_the_plan_at_each_end():
    s = scenario_with('"recovery.redo_apply_rate" = "-40%..+20%"\n"path.LTO-4.rate" = "±15%"')
    r = run_risk(s, trials=300, seed=3)
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    assert r.deterministic_s == plan.recovery.total_s
    bars = {b.key: b for b in r.tornado}
    for key, low, high in (("recovery.redo_apply_rate", "43.2 MB/s", "86.4 MB/s"),
                           ("path[0].rate", "102 MB/s", "138 MB/s")):  # fmt: skip
        for value, total in ((low, bars[key].low_total_s), (high, bars[key].high_total_s)):
            at_end = with_values(s, {key: value})
            expected = compute_plan(at_end, include_cycle=False, include_growth=False)
            assert total == pytest.approx(expected.recovery.total_s, rel=1e-12)
    assert [b.swing_s for b in r.tornado] == sorted((b.swing_s for b in r.tornado), reverse=True)


@pytest.mark.parametrize("key", ["recovery.redo_apply_rate", "path.LTO-4.rate",
                                 "database.daily_change"])  # fmt: skip
def test_widening_a_range_never_narrows_p10_to_p90(key):
    spreads = []
    for width in (0, 5, 10, 20, 40):
        s = scenario_with(f'"{key}" = "±{width}%"' if width else "")
        r = run_risk(s, trials=TRIALS, seed=11)
        spreads.append(r.worst.percentile(90) - r.worst.percentile(10))
    assert spreads[0] == 0
    assert all(b >= a for a, b in itertools.pairwise(spreads)), spreads
    assert spreads[-1] > 0


def test_p_meets_is_one_when_every_trial_is_under_the_rto():
    s = scenario_with('"recovery.redo_apply_rate" = "-10%..+10%"', {'rto = "16 h"': 'rto = "90 h"'})
    r = run_risk(s, trials=TRIALS, seed=5)
    assert r.worst.max_s < r.rto_s - r.risk_margin_s
    assert (r.worst.p_meets, r.worst.p_at_risk, r.worst.p_misses) == (1.0, 0.0, 0.0)
    assert (r.uniform.p_meets, r.uniform.p_misses) == (1.0, 0.0)
    assert percent(r.worst.p_meets) == "100 %"


def test_p_misses_counts_the_trials_over_the_rto():
    s = scenario_with('"recovery.redo_apply_rate" = "-40%..+40%"')
    total = compute_plan(s, include_cycle=False, include_growth=False).recovery.total_s
    s = with_values(s, {"targets.rto": f"{round(total / 60)} min"})  # the RTO in the middle
    r = run_risk(s, trials=TRIALS, seed=8)
    json_doc = risk_to_json(r)
    worst = json_doc["failure_time"]["worst"]
    assert worst["p_meets"] + worst["p_at_risk"] + worst["p_misses"] == pytest.approx(1.0)
    assert 0 < worst["p_misses"] < 1  # the range straddles the RTO here
    cdf = np.array(worst["cdf_s"])
    share_over = 1 - np.searchsorted(cdf, r.rto_s, side="right") / (len(cdf) - 1)
    assert worst["p_misses"] == pytest.approx(share_over, abs=0.02)


def test_a_seed_repeats_a_run_and_the_default_seed_comes_from_the_scenario():
    s = scenario_with('"path.LTO-4.rate" = "±15%"')
    a = run_risk(s, trials=500)
    b = run_risk(scenario_with('"path.LTO-4.rate" = "±15%"'), trials=500)
    assert a.seed == b.seed == default_seed(s)
    assert a == b
    c = run_risk(s, trials=500, seed=a.seed + 1)
    assert c.worst.percentiles_s != a.worst.percentiles_s
    other = scenario_with('"path.LTO-4.rate" = "±16%"')
    assert default_seed(other) != default_seed(s)


def test_adding_a_range_does_not_reshuffle_the_other_inputs():
    one = uniforms(42, "path[0].rate", 100)
    assert np.array_equal(one, uniforms(42, "path[0].rate", 100))
    assert not np.array_equal(one, uniforms(42, "recovery.redo_apply_rate", 100))


def test_triangular_draws_have_the_triangles_mean_and_ends():
    u = uniforms(7, "x", 200_000)
    x = triangular(u, 10.0, 12.0, 20.0)
    assert x.min() >= 10.0 and x.max() <= 20.0
    assert x.mean() == pytest.approx((10 + 12 + 20) / 3, rel=2e-3)
    assert np.median(x) == pytest.approx(20 - np.sqrt(0.5 * 10 * 8), rel=2e-3)


def test_variance_share_of_a_sole_input_is_nearly_all_and_of_noise_nearly_none():
    rng = np.random.default_rng(0)
    u = rng.random(50_000)
    totals = 100 + 50 * u
    assert first_order_share(u, totals, 40) == pytest.approx(1.0, abs=0.01)
    noise = rng.random(50_000)
    assert first_order_share(noise, totals, 40) < 0.01
    s = scenario_with('"recovery.redo_apply_rate" = "-40%..+20%"')
    r = run_risk(s, trials=TRIALS, seed=2)
    assert r.tornado[0].variance_share > 0.95


def test_uniform_failure_time_is_never_worse_than_the_worst_instant():
    s = scenario_with(
        '"recovery.redo_apply_rate" = "-40%..+20%"\n"database.daily_change" = "3%..9%"'
    )
    r = run_risk(s, trials=TRIALS, seed=4)
    for p in (50, 90, 99):
        assert r.uniform.percentile(p) <= r.worst.percentile(p)
    assert r.uniform.p_meets >= r.worst.p_meets
