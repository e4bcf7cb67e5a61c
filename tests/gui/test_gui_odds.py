"""The banner and the status bar state the headline's probability (issue 20.5): the plan's
verdict at once with the probability visibly pending, the probability from a worker a
moment later, the headline the worse of the two, stale runs dropped."""

from __future__ import annotations

import shutil

import pytest

from rtoplanner.app.shell.odds import ODDS_TRIALS
from rtoplanner.core.headline import headline_of
from rtoplanner.core.paths import data_dir
from rtoplanner.core.uncertainty.analysis import run_risk

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui


@pytest.fixture
def exadata(qtbot, tmp_path):
    """The Exadata demo: meets at its planned figures, far less sure than 90 %."""
    path = tmp_path / "exadata.toml"
    shutil.copy(data_dir() / "scenarios" / "exadata_tape_infiniband.toml", path)
    win = show_window(qtbot, path=path)
    assert win.doc.wait_idle()
    yield win
    close_window(win)


def _expected(win):
    plan = win.doc.plan
    return headline_of(plan, run_risk(plan.scenario, trials=ODDS_TRIALS))


def test_the_probability_follows_the_plan_and_decides_the_headline(exadata):
    win = exadata
    assert win.doc.plan.verdict == "meets"
    # At once: the plan's verdict, its probability visibly pending (no worker has run).
    assert win.odds.pending
    assert "probability pending" in win.banner.text()
    assert "probability pending" in win.verdict_label.text()
    assert win.banner.verdict == "meets"
    assert win.odds.wait_idle()
    expected = _expected(win)
    assert expected.verdict == "at_risk" and expected.probability_decides
    assert win.odds.headline.p_meets == expected.p_meets
    assert win.banner.verdict == "at_risk"
    text = win.banner.text()
    assert "probability pending" not in text
    assert "AT RISK</b> — <b style='color:" in text
    assert expected.sure() in text and "likely to meet" in text
    assert "at the planned figures MEETS, decided by RPO" in text
    assert "least sure: <b>recovery</b>" in text
    assert expected.sure() in win.verdict_label.text()
    assert "AT RISK" in win.verdict_label.text()
    # The status bar names what the headline is decided by: the probability of the
    # recovery here, not the RPO that decides the plan at its figures.
    assert "(RPO)" not in win.verdict_label.text()
    assert "trials meet every target at once" in win.banner.toolTip()


def test_a_new_scenario_makes_the_probability_pending_and_stale_runs_are_dropped(exadata):
    win = exadata
    assert win.odds.wait_idle()
    old = win.odds.headline.p_meets
    win.doc.set_value("targets.rto", "6 h")
    win.doc.recompute_now()
    assert win.odds.pending and "probability pending" in win.banner.text()
    win.odds.wait_idle()  # a run starts (and is superseded below)
    win.doc.set_value("targets.rto", "8 h")
    win.doc.recompute_now()
    assert win.doc.wait_idle() and win.odds.wait_idle()
    expected = _expected(win)
    assert win.doc.plan.scenario.targets.rto_s == 8 * 3600
    assert win.odds.headline.p_meets == expected.p_meets != old
    assert win.banner.verdict == expected.verdict


def test_the_confidence_required_is_a_target_that_moves_the_headline(exadata):
    """A wide RTO makes the plan likely to hold; the confidence required then decides
    between MEETS and AT RISK, as the rule says."""
    win = exadata
    win.doc.set_values({"targets.rto": "5 h 30 min", "targets.confidence": "50%"}, "targets")
    win.doc.recompute_now()
    assert win.doc.wait_idle() and win.odds.wait_idle()
    expected = _expected(win)
    assert 0.5 <= expected.p_meets < 0.999
    assert win.banner.verdict == expected.verdict == "meets"
    assert "MEETS</b> — <b style='color:" in win.banner.text()
    assert expected.sure() in win.banner.text() and "sure" in expected.sure()
    win.doc.set_value("targets.confidence", "99.9%")
    win.doc.recompute_now()
    assert win.doc.wait_idle() and win.odds.wait_idle()
    again = _expected(win)  # the seed follows the scenario's text: other trials
    assert win.odds.headline.p_meets == again.p_meets < 0.999
    assert win.banner.verdict == again.verdict == "at_risk"
    assert "AT RISK</b> — <b style='color:" in win.banner.text()


def test_the_confidence_view_shows_every_target_with_the_banners_probability(exadata):
    """Issue 20.4 in the Confidence view: each target's P(met) and every target at once,
    from a run with the banner's trials and seed (the two say the same)."""
    from rtoplanner.core.uncertainty.words import percent

    win = exadata
    win.show_view("confidence")
    panel = win.results.panel("confidence")
    assert panel.wait_idle() and win.odds.wait_idle()
    r = panel.result
    assert r.p_meets_all == win.odds.headline.p_meets
    text = panel.probabilities.text()
    assert f"all&nbsp;at&nbsp;once&nbsp;{percent(r.p_meets_all)}".replace(" ", "&nbsp;") in text
    for words in ("recovery", "RPO", "Level 0 window", "Level 1 window", "Archived logs window"):
        assert words.replace(" ", "&nbsp;") in text or words in text
    assert "Every target at once" in panel.probabilities.toolTip()


def test_an_edit_stops_the_run_in_flight_before_the_new_plan_is_computed(exadata):
    """Issue 20.5: the keystroke's own recompute and repaint do not share the UI thread's
    turn with a run whose plan the edit has just made stale."""
    win = exadata
    assert win.odds.wait_idle()
    win.doc.set_value("targets.rto", "6 h")
    win.doc.recompute_now()
    win.odds._timer.stop()
    win.odds._start()  # a run in flight, as a moment after the typing paused
    in_flight = win.odds.runner._current
    assert in_flight is not None and not in_flight.cancelled
    win.doc.set_value("targets.rto", "8 h")  # the keystroke, before its recompute
    assert in_flight.cancelled
    win.doc.recompute_now()
    assert win.doc.wait_idle() and win.odds.wait_idle()
    assert win.odds.headline.p_meets == _expected(win).p_meets


def test_an_edit_that_leaves_an_error_still_gets_the_plans_probability(exadata):
    win = exadata
    assert win.odds.wait_idle()
    win.doc.set_value("targets.rto", "6 h")
    win.doc.recompute_now()
    win.odds._timer.stop()
    win.odds._start()
    win.doc.set_value("targets.rto", "six hours")  # refused: the plan stays the 6 h one
    win.doc.recompute_now()
    assert win.doc.errors
    assert win.odds.wait_idle()  # the held run starts again for the same plan
    assert not win.odds.pending
    assert win.odds.headline.p_meets == _expected(win).p_meets
