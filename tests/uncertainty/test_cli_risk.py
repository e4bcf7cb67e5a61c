"""`rto-planner risk`: readable text, the JSON contract, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtoplanner.core.cli import main

REPO = Path(__file__).resolve().parents[2]
DEMOS = sorted((REPO / "data" / "scenarios").glob("*.toml"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.stem)
def test_each_demo_prints_a_probability_and_a_tornado(capsys, demo):
    rc, out, err = run(capsys, "risk", str(demo), "--trials", "400", "--no-store")
    assert rc == 0, err
    assert "The database is open within the RTO" in out
    assert "% of 400 trials" in out
    assert "What decides it" in out
    table = out.split("What decides it", 1)[1]
    assert "Swing" in table and "[uncertainty]" in table  # the demos' ranges


def test_json_has_the_documented_keys(capsys):
    rc, out, err = run(capsys, "risk", str(DEMOS[0]), "--trials", "300", "--seed", "7",
                       "--json", "--no-store")  # fmt: skip
    assert rc == 0, err
    doc = json.loads(out)
    assert set(doc) == {"scenario", "trials", "seed", "units", "rto_s", "risk_margin_s",
                        "deterministic_s", "failure_time", "tornado", "inputs",
                        "p_meets_all", "checks", "confidence_required"}  # fmt: skip
    assert doc["trials"] == 300 and doc["seed"] == 7
    for mode in ("worst", "uniform"):
        d = doc["failure_time"][mode]
        assert set(d) == {"p_meets", "p_at_risk", "p_misses", "percentiles_s", "mean_s",
                          "min_s", "max_s", "histogram", "cdf_s"}  # fmt: skip
        assert set(d["percentiles_s"]) == {"p10", "p50", "p90", "p95", "p99"}
        h = d["histogram"]
        assert sum(h["counts"]) + h["below"] + h["beyond"] == 300
        assert len(d["histogram"]["edges_s"]) == len(d["histogram"]["counts"]) + 1
        assert len(d["cdf_s"]) == 101 and d["cdf_s"] == sorted(d["cdf_s"])
    bar = doc["tornado"][0]
    assert set(bar) == {"key", "label", "low_total_s", "high_total_s", "swing_s",
                        "variance_share"}  # fmt: skip
    row = doc["inputs"][0]
    assert set(row) == {"key", "label", "value", "low", "high", "range", "origin",
                        "default_origin", "default_range", "source", "table_key",
                        "provenance", "stated", "distribution", "median_factor", "sigma",
                        "prior_source", "evidence"}  # fmt: skip
    assert {r["provenance"] for r in doc["inputs"]} <= {
        "exact", "measured", "catalog", "default", "estimate"}  # fmt: skip


def test_the_same_seed_prints_the_same_answer(capsys):
    args = ("risk", str(DEMOS[-1]), "--trials", "200", "--json", "--no-store")
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    assert first == second


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--trials", "0"), "0 trials: give between 1 and 10,000,000"),
        (("--trials", "many"), "'many' is not a whole number of trials"),
        (("--seed", "-3"), "a seed is 0 or more"),
        (("--seed", "x"), "'x' is not a whole-number seed"),
    ],
)
def test_bad_options_are_one_line_errors(capsys, args, fragment):
    with pytest.raises(SystemExit) as exc:
        main(["risk", str(DEMOS[0]), *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_a_bad_range_names_the_file_line_and_key(capsys, tmp_path):
    text = DEMOS[0].read_text() + '\n"path.LTO-7.rate" = "±10%"\n'
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    rc, out, err = run(capsys, "risk", str(bad), "--no-store")
    line = len(text.rstrip("\n").splitlines())
    assert rc == 2 and out == ""
    assert err == (
        f"rto-planner: error: {bad}:{line}: uncertainty.path.LTO-7.rate: no stage named "
        "'LTO-7' in the path (did you mean 'LTO-4'?)\n"
    )


def test_a_missing_file_is_a_one_line_error(capsys, tmp_path):
    rc, _, err = run(capsys, "risk", str(tmp_path / "nope.toml"), "--no-store")
    assert rc == 2 and "no such file" in err and err.count("\n") == 1
