"""The histogram's range (issue 23): a long tail is cut and counted, never squeezes the
body of the distribution into a few bars; GUI and PDF draw these bins."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rtoplanner.core.scenario import load_scenario
from rtoplanner.core.uncertainty.analysis import HIST_BINS, distribution, run_risk
from rtoplanner.core.uncertainty.words import histogram_tails

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


def test_a_long_tail_is_cut_and_counted():
    rng = np.random.default_rng(7)
    totals = 3600 * np.exp(rng.normal(2.0, 1.2, 50_000))  # a lognormal: hours to months
    d = distribution("worst", totals, 4 * 3600.0, 0.0)
    assert d.hist_edges_s[-1] < d.max_s
    assert d.hist_beyond == int(np.count_nonzero(totals > d.hist_edges_s[-1])) > 0
    assert d.hist_below == int(np.count_nonzero(totals < d.hist_edges_s[0]))
    assert sum(d.hist_counts) + d.hist_below + d.hist_beyond == totals.size
    # The body is spread over the bars: no bar holds more than a fifth of the trials.
    assert max(d.hist_counts) < 0.2 * totals.size
    right = histogram_tails(d, totals.size)[1]
    assert right.startswith(f"{d.hist_beyond:,} trials (") and right.endswith(" →")
    assert "beyond " in right


def test_a_normal_spread_keeps_every_trial_in_the_bars():
    rng = np.random.default_rng(8)
    totals = rng.normal(3 * 3600.0, 600.0, 100_000)
    d = distribution("worst", totals, 4 * 3600.0, 0.0)
    assert (d.hist_edges_s[0], d.hist_edges_s[-1]) == (d.min_s, d.max_s)
    assert d.hist_below == d.hist_beyond == 0
    assert sum(d.hist_counts) == totals.size and len(d.hist_counts) == HIST_BINS
    assert histogram_tails(d, totals.size) == ("", "")


def test_every_trial_equal_gives_one_readable_bar():
    d = distribution("worst", np.full(100, 7200.0), 4 * 3600.0, 0.0)
    assert d.hist_edges_s[0] < 7200.0 < d.hist_edges_s[-1]
    assert sum(d.hist_counts) == 100 and d.hist_below == d.hist_beyond == 0


@pytest.mark.parametrize("demo", ["oltp_zfs_nas", "nas_two_heads"])
def test_the_demos_long_tails_leave_the_body_readable(demo):
    """On these demos one bar held 97 % of the trials: the tail ran to two years."""
    r = run_risk(load_scenario(DEMOS / f"{demo}.toml"), trials=20_000)
    d = r.worst
    assert d.max_s > 50 * d.percentile(50)  # the tail the bars once spanned
    assert d.hist_beyond > 0
    assert max(d.hist_counts) < 0.25 * r.trials
    assert d.hist_edges_s[-1] >= d.percentile(90)  # the body, P90 included, is drawn
