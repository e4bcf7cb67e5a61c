"""Scenarios for the uncertainty tests."""

from __future__ import annotations

from rtoplanner.core.scenario import load_scenario_text

BASE = """\
format = 1
name = "risk test"

[database]
size = "10 TB"
largest_file = "200 GB"
redo_rate = "5 MB/s"
daily_change = "5%"

[backup]
channels = 4
channel_init = "30 s"
level0_every = "7d"
level1 = "cumulative"
level1_every = "1d"

[[path]]
kind = "tape_drive"
name = "LTO-4"
count = 4
rate = "120 MB/s"
hw_compression = 2.0

[[path]]
kind = "network"
name = "Media server (IB DDR)"
rate = "1 GB/s"

[recovery]
detect = "15 min"
incremental_apply_rate = "1 TB/h"
redo_apply_rate = "72 MB/s"
open = "5 min"

[targets]
rto = "16 h"
"""


def exact_block(text: str) -> str:
    """A `[provenance]` table marking every typed figure of the scenario text exact, so
    only the ranges a test writes vary (typed figures are estimates by default)."""
    from rtoplanner.core.uncertainty.inputs import uncertain_inputs

    s = load_scenario_text(text, source="test.toml")
    keys = [i.key for i in uncertain_inputs(s) if i.default_origin == "estimate"]
    return "\n[provenance]\n" + "".join(f'"{k}" = "exact: the test"\n' for k in keys)


def scenario_with(table: str = "", replace: dict[str, str] | None = None, *, exact: bool = True):
    """The base scenario with an [uncertainty] table (TOML lines) and text replaced;
    `exact`: every typed figure marked exact (else each is an estimate, ±25 %)."""
    text = BASE
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    if exact:
        text += exact_block(text)
    if table:
        text += "\n[uncertainty]\n" + table + "\n"
    return load_scenario_text(text, source="test.toml")
