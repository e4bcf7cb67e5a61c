"""Priors with their evidence (DESIGN §10): the shipped tables, the fit, the draws."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rtoplanner.core.catalog import CatalogError, CatalogItem, shipped_catalog_files
from rtoplanner.core.cli import main
from rtoplanner.core.jsonable import NonFiniteError, refuse_nonfinite
from rtoplanner.core.scenario.priors import (
    MIN_SIGMA,
    Z90,
    Point,
    Priors,
    fit_points,
    fit_random_effects,
    fit_spread,
    from_percentiles,
    prior_from_mapping,
    shipped_priors,
    t90,
)
from rtoplanner.core.uncertainty.sampling import lognormal, normal_quantile, uniforms

NORMAL = statistics.NormalDist()


def test_every_shipped_prior_cites_its_evidence_and_how_it_was_fitted():
    priors = list(shipped_priors())
    assert len(priors) >= 10
    for p in priors:
        assert p.source and p.fit, (p.kind, p.figure)
        assert MIN_SIGMA <= p.sigma < 3 and 0.05 < p.median < 5, (p.kind, p.figure)
        assert p.p10 < p.median < p.p90
    figures = {(p.kind, p.figure) for p in priors}
    # Catalog-only figures and class defaults have priors too (issue 20.1).
    for needed in [("tape_drive", "rate"), ("tape_drive", "load_time"),
                   ("tape_drive", "locate_time"), ("redo_apply", "rate"),
                   ("rman_compression", "compress_rate"), ("rman_compression", "decompress_rate"),
                   ("default", "backup.job_overhead"), ("default", "backup.channel_init"),
                   ("*", "rate")]:  # fmt: skip
        assert needed in figures, needed
    assert len(shipped_catalog_files()) >= 7


def _reference_fit(ratios):
    """A deliberately plain second implementation: statistics module, explicit formula."""
    logs = [math.log(r) for r in ratios]
    n = len(logs)
    half_width = statistics.stdev(logs) * math.sqrt(1 + 1 / n) * t90(n - 1)
    return math.exp(statistics.fmean(logs)), half_width


@given(st.lists(st.floats(0.05, 20), min_size=2, max_size=40))
def test_fit_points_is_the_prediction_interval_of_one_more_case(ratios):
    median, sigma = fit_points(ratios)
    ref_median, half = _reference_fit(ratios)
    assert median == pytest.approx(ref_median, rel=1e-9)
    assert sigma * Z90 == pytest.approx(max(half, MIN_SIGMA * Z90), rel=1e-9, abs=1e-12)


@given(st.lists(st.floats(0.05, 20), min_size=2, max_size=40))
def test_fit_spread_is_centred_and_scaled_by_the_median_distance_from_one(ratios):
    """The estimate spread: median 1, and the normal whose quartiles are ± the median
    |ln ratio| (half the points lie inside its interquartile band)."""
    median, sigma = fit_spread(ratios)
    assert median == 1.0
    half = statistics.median(abs(math.log(r)) for r in ratios)
    assert sigma == pytest.approx(max(half / NORMAL.inv_cdf(0.75), MIN_SIGMA), rel=1e-4)


def test_fit_spread_is_robust_to_one_gross_guess():
    typical = [0.9, 1.1, 0.95, 1.05, 1.2, 0.85, 1.0, 1.15]
    assert fit_spread([*typical, 6.2])[1] < 1.5 * fit_spread(typical)[1]
    assert fit_points([*typical, 6.2])[1] > 3 * fit_points(typical)[1]  # the normal fit is not


def test_the_estimate_prior_is_wider_than_the_old_triangle_and_two_sided():
    est = shipped_priors().find("estimate", "any")
    assert est is not None and est.median == pytest.approx(1.0, abs=1e-3)
    # the ±25 % triangle's P10..P90 was about ±14 %: the corpus says wider
    assert est.p10 < 0.86 and est.p90 > 1.16
    assert "fidelity corpus" in est.source and "fit_spread" in est.fit


@given(st.lists(st.floats(0.3, 3), min_size=2, max_size=30))
def test_fit_random_effects_alone_is_the_maximum_likelihood_spread_around_one(ratios):
    """With no other spread and full weight, the ML sigma of N(0, sigma²) on ln ratio is
    the root mean square of the logs (a closed form the search must find)."""
    _, sigma = fit_random_effects([Point(r) for r in ratios])
    rms = math.sqrt(statistics.fmean(math.log(r) ** 2 for r in ratios))
    assert sigma == pytest.approx(max(rms, MIN_SIGMA), rel=1e-6, abs=1e-9)


def test_fit_random_effects_takes_out_what_the_other_figures_already_draw():
    ratios = [0.8, 1.2, 0.9, 1.15, 1.05, 0.85]
    alone = fit_random_effects([Point(r) for r in ratios])[1]
    shared = fit_random_effects([Point(r, other_sigma=0.1) for r in ratios])[1]
    assert shared < alone
    # var = sigma² + 0.1²: the ML sigma is the root of (mean square − 0.1²)
    rms2 = statistics.fmean(math.log(r) ** 2 for r in ratios)
    assert shared == pytest.approx(math.sqrt(rms2 - 0.01), rel=1e-5)


def test_a_point_the_figure_does_not_set_says_nothing_about_it():
    ratios = [0.8, 1.2, 0.9, 1.15]
    base = fit_random_effects([Point(r) for r in ratios])
    assert fit_random_effects([*map(Point, ratios), Point(3.0, 0.4, 0.0)]) == base
    with pytest.raises(ValueError, match="at least two"):
        fit_random_effects([Point(0.8), Point(3.0, 0.4, 0.0)])


def test_the_measured_prior_is_the_random_effects_fit_of_its_points():
    prior = shipped_priors().find("measured", "any")
    assert prior is not None and prior.median == 1.0
    assert "fit_random_effects" in prior.fit and "fidelity corpus" in prior.source
    raw = {"kind": "measured", "figure": "any", "method": "random_effects", "points": [
        {"ratio": 0.8, "source": "a", "other_sigma": 0.05, "weight": 1.0},
        {"ratio": 1.2, "source": "b", "weight": 0.7},
        {"ratio": 5.0, "source": "c", "other_sigma": 0.3, "weight": 0.0}]}  # fmt: skip
    got = prior_from_mapping(raw, where="priors.toml prior 4")
    want = fit_random_effects([Point(0.8, 0.05), Point(1.2, 0.0, 0.7)])
    assert (got.median, got.sigma, got.points) == (*want, 2)  # a weight-0 point is no evidence


def test_few_points_give_a_wider_band_than_many_with_the_same_spread():
    few = fit_points([0.8, 1.25])[1]
    many = fit_points([0.8, 1.25] * 15)[1]
    assert few > 3 * many


def test_t90_matches_the_tables_and_tends_to_the_normal():
    assert t90(1) == pytest.approx(3.078) and t90(10) == pytest.approx(1.372)
    assert t90(30) == pytest.approx(1.310)
    assert t90(200) == pytest.approx(1.286, abs=2e-3)  # the table's ∞ row: 1.282
    assert all(t90(n) > t90(n + 1) for n in range(1, 300))


def test_percentiles_round_trip():
    median, sigma = from_percentiles(0.5, 2.0)
    assert median == pytest.approx(1.0)
    assert math.exp(-sigma * Z90) == pytest.approx(0.5)
    assert from_percentiles(0.99, 1.01)[1] == MIN_SIGMA  # never narrower than ±10 %


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ({"kind": "tape_drive", "figure": "rate", "p10": 1.2, "p90": 0.9, "source": "x"},
         "0 < p10 < p90"),
        ({"kind": "tape_drive", "figure": "rate", "points": [{"ratio": 1.0, "source": "x"}]},
         "at least two"),
        ({"kind": "tape_drive", "figure": "rate", "points": [{"ratio": 1.0}, {"ratio": 2}]},
         "'source' must be text"),
        ({"kind": "tape_drive", "figure": "rate", "p10": 0.9, "p90": 1.1}, "'source'"),
        ({"kind": "tape_drive", "figure": "rate", "p10": 0.9, "p90": 1.1, "source": "x",
          "mean": 1}, "unknown key"),
        ({"figure": "rate", "p10": 0.9, "p90": 1.1, "source": "x"}, "'kind'"),
        ({"kind": "measured", "figure": "any", "method": "bayes",
          "points": [{"ratio": 1.0, "source": "x"}, {"ratio": 2, "source": "y"}]}, "method"),
        ({"kind": "measured", "figure": "any", "method": "random_effects",
          "points": [{"ratio": 1.0, "source": "x", "weight": -1}, {"ratio": 2, "source": "y"}]},
         "cannot be negative"),
        ({"kind": "measured", "figure": "any",
          "points": [{"ratio": 1.0, "source": "x", "sigma": 1}, {"ratio": 2, "source": "y"}]},
         "unknown key"),
    ],
)  # fmt: skip
def test_a_bad_prior_table_is_one_line_naming_it(raw, fragment):
    with pytest.raises(CatalogError) as info:
        prior_from_mapping(raw, where="tape.toml prior 3")
    assert str(info.value).startswith("tape.toml prior 3") and fragment in str(info.value)


def test_item_priors_win_over_the_kinds_and_any_kind_is_the_fallback():
    shipped = shipped_priors()
    own = CatalogItem(
        "tape_drive",
        "My drive",
        "my test",
        rate_Bps=1e8,
        extra={"prior_p10": "0.8", "prior_p90": "1.1", "prior_source": "drill"},
    )
    p = shipped.find("tape_drive", "rate", own)
    assert (p.p10, p.p90, p.source) == (pytest.approx(0.8), pytest.approx(1.1), "drill")
    assert shipped.find("tape_drive", "rate", "LTO-9") is shipped.find("tape_drive", "rate")
    assert shipped.find("disk", "rate").kind == "*"
    assert shipped.find("storage_write", "rate").kind == "storage_write"  # writes: their own
    assert Priors().find("tape_drive", "rate") is None


def test_normal_quantile_matches_the_standard_library():
    u = np.array([1e-10, 1e-4, 0.01, 0.02425, 0.1, 0.3, 0.5, 0.77, 0.975, 0.9999, 1 - 1e-9])
    z = normal_quantile(u)
    expected = [NORMAL.inv_cdf(float(x)) for x in u]
    assert z == pytest.approx(expected, abs=1e-8)


def test_lognormal_draws_have_the_priors_percentiles():
    prior = shipped_priors().find("redo_apply", "rate")
    x = lognormal(uniforms(3, "x", 200_000), 47e6, prior.median, prior.sigma)
    assert np.quantile(x, 0.1) == pytest.approx(47e6 * prior.p10, rel=0.02)
    assert np.quantile(x, 0.9) == pytest.approx(47e6 * prior.p90, rel=0.02)
    assert np.median(x) == pytest.approx(47e6 * prior.median, rel=0.02)


def test_refuse_nonfinite_names_the_path():
    refuse_nonfinite({"a": [1.0, {"b": 2}], "c": "x"})
    with pytest.raises(NonFiniteError, match=r"failure_time\.worst\.max_s is inf"):
        refuse_nonfinite({"failure_time": {"worst": {"max_s": float("inf")}}})
    with pytest.raises(NonFiniteError, match=r"cdf_s\[2\] is nan"):
        refuse_nonfinite({"cdf_s": [1.0, 2.0, float("nan")]})


def test_risk_refuses_a_range_past_the_keys_bounds_in_one_line(tmp_path: Path, capsys):
    """Issue 25.6: "0..4" on the compression ratio printed NaN/Infinity with exit 0."""
    path = tmp_path / "nan.toml"
    path.write_text(
        'format = 1\nname = "nan"\n[database]\nsize = "1 TB"\n[backup]\nchannels = 4\n'
        'compression_ratio = 2\n[[path]]\nkind = "disk"\nrate = "500 MB/s"\n'
        '[targets]\nrto = "4 h"\n[uncertainty]\n"backup.compression_ratio" = "0..4"\n'
    )
    rc = main(["risk", "--json", "--no-store", "--trials", "200", str(path)])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "nan.toml:14: uncertainty.backup.compression_ratio" in err
    path.write_text(path.read_text().replace('"0..4"', '"1.2..4"'))
    assert main(["risk", "--json", "--no-store", "--trials", "200", str(path)]) == 0
    out = capsys.readouterr().out
    json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
