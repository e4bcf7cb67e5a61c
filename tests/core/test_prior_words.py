"""A prior's P10..P90 as the ranges table, the tornado, the ledger and `risk` write it:
per cent for the usual spreads, factors for a thin prior whose per cent would read in
the thousands (issue 23.6: "P10..P90 -94 %..+1559 %" for the apply cost per archived log,
fitted on three published points)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rtoplanner.core.scenario.priors import Prior, shipped_priors

REPO = Path(__file__).resolve().parents[2]


def _prior(median: float, p90: float) -> Prior:
    import math

    from rtoplanner.core.scenario.priors import Z90

    return Prior("rate", "*", median, math.log(p90 / median) / Z90, "test", "test")


def test_usual_spreads_read_as_changes_in_per_cent() -> None:
    assert _prior(1.0, 1.25).text == "-20 %..+25 % (P10..P90)"
    assert _prior(1.0, 3.0).text == "-67 %..+200 % (P10..P90)"


def test_a_spread_beyond_five_times_reads_as_factors() -> None:
    assert _prior(1.0, 16.6).text == "×0.06..×17 (P10..P90)"
    assert _prior(1.0, 12.0).text.startswith("×0.083..×12")


def test_the_thin_log_cost_prior_reads_as_factors_in_risk() -> None:
    log_cost = next(p for p in shipped_priors() if p.figure == "log_cost")
    assert log_cost.points < 5 and log_cost.p90 > 5
    assert log_cost.text.startswith("×0.0") and "%" not in log_cost.text
    out = subprocess.run(
        [sys.executable, "-m", "rtoplanner", "risk", "--no-store",
         str(REPO / "data" / "scenarios" / "small_gige_lto.toml")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    row = next(line for line in out.splitlines() if "apply cost per archived log" in line)
    assert log_cost.text in row and "1559" not in out


def test_a_signed_change_is_written_as_format_percent_writes_it() -> None:
    from rtoplanner.core.scenario.priors import signed_percent

    assert [signed_percent(x) for x in (-0.233, 0.018, 0.0996, 0.0, 15.59)] == [
        "-23 %", "+1.8 %", "+10.0 %", "+0 %", "+1559 %",
    ]  # fmt: skip
    assert signed_percent(-0.0004) == "+0 %"  # it read "+0.0 %": never 0.0 % (house style)
