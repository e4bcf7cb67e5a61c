"""Issue 23.9: the assumptions ledger names the incremental apply rate's class default
instead of "not set" when level 1 backups are applied without a given rate."""

from __future__ import annotations

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report.model import ReportContext
from rtoplanner.core.report.sections import ledger
from rtoplanner.core.scenario import load_scenario_text

SCENARIO = """\
format = 1
name = "incr"

[database]
size = "2 TB"
redo_rate = "5 MB/s"
daily_change = "5%"

[backup]
level1 = "cumulative"
level1_every = "1d"

[[path]]
kind = "disk"
rate = "500 MB/s"

[recovery]
redo_apply_rate = "50 MB/s"
{rate}
[targets]
rto = "12 h"
"""


def _row(rate: str) -> tuple[str, ...]:
    plan = compute_plan(load_scenario_text(SCENARIO.format(rate=rate)))
    table = ledger.build(ReportContext(plan)).assumptions
    return next(r for r in table.rows if r[0].endswith("\nrecovery.incremental_apply_rate"))


def test_the_ledger_states_the_rule_not_not_set():
    _label, value, _unit, origin, source = _row("")
    assert value.startswith("as fast as restored"), value
    assert origin == "default" and "incremental restore's own rate" in source


def test_a_given_rate_is_shown_as_given():
    _label, value, _unit, _origin, source = _row('incremental_apply_rate = "1 TB/h"')
    assert value.startswith("1 TB/h") and "incremental restore" not in source
