"""The search's work grows with the options, not with the level pairs squared.

A stage of many tape drives (an estate's shared library: 100) gives ~100 options, and
the breakpoints (restore rate, backup rate) run to tens of thousands of pairs. Working
out each stage's cheapest options once per pair made `What it takes` on such a scenario
take ~50 s (each priority-1 database of a 1,000-database estate that misses alone); the
options reaching a level pair are now worked out once per distinct set of them. This
counts that work (no test asserts a time; bench/bench_fix.py times it)."""

from __future__ import annotations

from pathlib import Path

from rtoplanner.core.fix import search, what_it_takes
from rtoplanner.core.scenario import load_scenario

LIBRARY = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "library_100_drives.toml"


def test_each_stages_choices_are_worked_out_once_per_set_of_options(monkeypatch):
    calls = []
    real = search._cheapest_per_count

    def counted(reaching, counts):
        calls.append(len(reaching))
        return real(reaching, counts)

    monkeypatch.setattr(search, "_cheapest_per_count", counted)
    scenario = load_scenario(LIBRARY)
    result = what_it_takes(scenario)
    assert result.recommended is not None  # a real answer (it misses its RTO today)
    options = 200  # at most ~2 options per drive count of the tape stage
    configs = 6
    assert 0 < len(calls) <= options * configs, len(calls)
