"""Calibration from a drill: the Bayesian update, checked against brute force, narrows the
band and moves the plan toward the measurement."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtoplanner.core.cli import main
from rtoplanner.core.evidence.calibrate import (
    CalibrationError,
    calibrate,
    log_moments_of_triangle,
    posterior,
    solve,
)
from rtoplanner.core.evidence.drill import drill_from_evidence
from rtoplanner.core.importers.restore_evidence import read_evidence
from rtoplanner.core.uncertainty.analysis import run_risk
from rtoplanner.core.uncertainty.inputs import uncertain_inputs
from rtoplanner.core.wording import fared

from .conftest import EVIDENCE, EXADATA

FULL = [
    "drill_prod_iso.log",
    "rman_status_drill.csv",
    "clock/20261012_0120_recovery.csv",
    "preview_prod.txt",
]


@pytest.fixture(scope="module")
def drill():
    return drill_from_evidence([read_evidence(EVIDENCE / n) for n in FULL])


@settings(max_examples=60)
@given(st.floats(-2, 2), st.floats(0.02, 1.0), st.floats(-2, 2), st.floats(0.02, 1.0))
def test_posterior_matches_a_brute_force_product_of_densities(m0, s0, m1, s1) -> None:
    """Normal × normal in log space, against the product evaluated on a grid."""
    x = np.linspace(min(m0, m1) - 6 * max(s0, s1), max(m0, m1) + 6 * max(s0, s1), 40001)
    logd = -0.5 * ((x - m0) / s0) ** 2 - 0.5 * ((x - m1) / s1) ** 2
    dens = np.exp(logd - logd.max())
    dens /= dens.sum()
    mean = float((x * dens).sum())
    sd = math.sqrt(float(((x - mean) ** 2 * dens).sum()))
    mu, s = posterior(m0, s0, m1, s1)
    assert mu == pytest.approx(mean, abs=1e-3 * max(s0, s1) + 1e-9)
    assert s == pytest.approx(sd, rel=1e-3)
    assert s <= min(s0, s1) + 1e-12  # narrower than both


def test_triangle_moments_against_sampling() -> None:
    rng = np.random.default_rng(3)
    x = rng.triangular(0.6, 1.0, 1.3, 400_000)
    mu, s = log_moments_of_triangle(0.6, 1.0, 1.3)
    assert mu == pytest.approx(np.log(x).mean(), abs=2e-3)
    assert s == pytest.approx(np.log(x).std(), rel=1e-2)


@settings(max_examples=40)
@given(st.floats(0.001, 1000), st.floats(0.01, 100))
def test_solve_inverts_a_monotonic_phase_time(volume, rate) -> None:
    """A phase of volume ÷ rate: solving for the rate that gives its time returns it."""
    v = solve(lambda r: volume / r, volume / rate, start=1.0)
    assert v == pytest.approx(rate, rel=1e-6)
    assert solve(lambda r: 5.0, 7.0, start=1.0) is None  # out of reach


def test_calibration_moves_the_plan_toward_the_drill_and_narrows_the_band(exadata, drill) -> None:
    cal = calibrate(exadata, drill, 1)
    by = {u.key: u for u in cal.updates}
    assert set(by) == {"path[1].rate", "recovery.redo_apply_rate", "recovery.open"}
    for u in cal.updates:  # the posterior lies between the prior and the drill
        assert min(u.prior, u.measured) <= u.posterior <= max(u.prior, u.measured)
        assert u.posterior_sigma < u.prior_sigma
    # the plan for the drill's restore moves from 2 h 47 to near the drill's 3 h 20
    assert cal.plan_before_s < cal.plan_after_s < cal.actual_s
    assert abs(cal.actual_s - cal.plan_after_s) < abs(cal.actual_s - cal.plan_before_s) / 3
    new = cal.scenario
    assert new.provenance["recovery.redo_apply_rate"].startswith(
        "measured ±10%: drill 1, 2026-10-11"
    )
    before = {i.key: i for i in uncertain_inputs(exadata)}
    after = {i.key: i for i in uncertain_inputs(new)}
    for key in by:
        assert after[key].origin == "measured"
        assert after[key].high / after[key].low < before[key].high / before[key].low


def test_the_confidence_band_narrows(exadata, drill) -> None:
    """What the Confidence view shows: P90 ÷ P10 of the recovery, before and after."""
    cal = calibrate(exadata, drill, 1)
    runs = [run_risk(s, trials=2000, seed=7) for s in (exadata, cal.scenario)]
    widths = [r.worst.percentile(90) / r.worst.percentile(10) for r in runs]
    assert widths[1] < widths[0]


def test_an_exact_figure_is_not_calibrated(exadata, drill) -> None:
    lines = [
        x
        for x in EXADATA.read_text().splitlines()
        if not x.startswith('"recovery.redo_apply_rate"')
    ]  # its [uncertainty] range goes
    text = "\n".join(lines) + '\n[provenance]\n"recovery.redo_apply_rate" = "exact: vendor test"\n'
    from rtoplanner.core.scenario import load_scenario_text

    cal = calibrate(load_scenario_text(text, "x"), drill, 1)
    assert "recovery.redo_apply_rate" not in {u.key for u in cal.updates}
    assert any("exact" in n for n in cal.notes)


def test_a_drill_without_a_timed_phase_cannot_calibrate(exadata, drill) -> None:
    from dataclasses import replace

    typed_only = replace(drill, phases=tuple(replace(p, how="typed") for p in drill.phases))
    with pytest.raises(CalibrationError):
        calibrate(exadata, typed_only, 1)


def test_fared_sentence() -> None:
    assert fared([]) is None
    assert fared([{"error": 0.2}]) == "last drill: +20 % against the plan"
    comps = [{"error": 0.5}, {"error": -0.08}, {"error": 0.12}, {"error": 0.03}]
    assert fared(comps) == "last 3 drills: within −8 %..+12 % of the plan"


def test_cli_calibrate_shows_the_diff_and_applies_a_version(store_path, capsys) -> None:
    db = ["--db", str(store_path)]
    assert main([*db, "drills", "add", str(EXADATA), *(str(EVIDENCE / n) for n in FULL)]) == 0
    capsys.readouterr()
    assert main([*db, "drills", "calibrate", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["saved_version"] is None and len(doc["updates"]) == 3
    assert main([*db, "drills", "calibrate", "1", "--apply"]) == 0
    out = capsys.readouterr().out
    assert "redo apply rate" in out and "version 2: calibrated from drill 1" in out
    assert main([*db, "drills", "list", "Exadata"]) == 0
    assert "last drill: +20 % against the plan" in capsys.readouterr().out
