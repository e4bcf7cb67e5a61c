"""A run the GUI cancels stops within a chunk of trials, with the same answer when it is
not cancelled (issue 20.5: the headline's probability must not hold a keystroke up)."""

from __future__ import annotations

import pytest

from rtoplanner.core.paths import scenarios_dir
from rtoplanner.core.scenario import load_scenario
from rtoplanner.core.uncertainty import analysis, batch
from rtoplanner.core.uncertainty.analysis import CANCEL_CHUNK, RiskCancelled, run_risk

TRIALS = 4 * CANCEL_CHUNK + 123  # several chunks and a short last one


@pytest.fixture(scope="module")
def demo():
    return load_scenario(scenarios_dir() / "exadata_tape_infiniband.toml")


@pytest.fixture
def evaluated(monkeypatch) -> list[int]:
    """The trials of each batch the run evaluates (the engine's whole_plan, counted)."""
    counts: list[int] = []
    real = batch.whole_plan

    def counting(scenario, values, failure_s):
        counts.append(len(failure_s))
        return real(scenario, values, failure_s)

    monkeypatch.setattr(batch, "whole_plan", counting)
    monkeypatch.setattr(analysis, "whole_plan", counting)
    return counts


def test_a_run_that_can_be_cancelled_gives_the_same_answer(demo):
    whole = run_risk(demo, trials=TRIALS, tornado_too=False)
    chunked = run_risk(demo, trials=TRIALS, tornado_too=False, should_cancel=lambda: False)
    assert chunked == whole
    assert chunked.trials == TRIALS and 0 < chunked.p_meets_all < 1


def test_a_cancel_during_the_draws_stops_before_the_trials(demo, evaluated):
    asked = []

    def cancel_on_third_ask() -> bool:
        asked.append(1)
        return len(asked) >= 3  # the first two pass: started, then one input drawn

    with pytest.raises(RiskCancelled):
        run_risk(demo, trials=TRIALS, tornado_too=False, should_cancel=cancel_on_third_ask)
    assert sum(evaluated) == 0


def test_a_cancel_during_the_trials_stops_within_one_chunk(demo, evaluated):
    with pytest.raises(RiskCancelled):
        run_risk(demo, trials=TRIALS, tornado_too=False, should_cancel=lambda: bool(evaluated))
    assert evaluated == [CANCEL_CHUNK]
