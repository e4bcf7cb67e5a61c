"""The search's work grows with the options, not with the level pairs squared.

A stage of many tape drives (an estate's shared library: 100) gives ~100 options, and
the breakpoints (restore rate, backup rate) run to tens of thousands of pairs. Working
out each stage's cheapest options once per pair made `What it takes` on such a scenario
take ~50 s (each priority-1 database of a 1,000-database estate that misses alone); the
options reaching a level pair are now worked out once per distinct set of them. This
counts that work (no test asserts a time; bench/bench_fix.py times it)."""

from __future__ import annotations

from rtoplanner.core.fix import search, what_it_takes
from rtoplanner.core.scenario import load_scenario_text

MANY_DRIVES = """
format = 1
name = "many drives"

[database]
size = "13.29 TB"
redo_rate = "8 MB/s"
daily_change = "3%"

[backup]
channels = 3
channel_init = "30 s"
level1 = "cumulative"

[[path]]
kind = "tape_drive"
count = 60
rate = "360 MB/s"

[[path]]
kind = "media_server"
count = 1
rate = "1.6 GB/s"

[[path]]
kind = "network"
count = 1
rate = "10 Gb/s"

[recovery]
detect = "30 min"
open = "10 min"
incremental_apply_rate = "2 TB/h"
archivelogs_on_disk = false

[targets]
rto = "8 h"
"""


def test_each_stages_choices_are_worked_out_once_per_set_of_options(monkeypatch):
    calls = []
    real = search._cheapest_per_count

    def counted(reaching, counts):
        calls.append(len(reaching))
        return real(reaching, counts)

    monkeypatch.setattr(search, "_cheapest_per_count", counted)
    scenario = load_scenario_text(MANY_DRIVES, source="many_drives.toml")
    result = what_it_takes(scenario)
    assert result.recommended is not None  # a real answer (it misses its RTO today)
    options = 200  # at most ~2 options per drive count of the tape stage
    configs = 6
    assert 0 < len(calls) <= options * configs, len(calls)
