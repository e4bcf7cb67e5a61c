"""Issue 23 item 9: a level 1 backup without `recovery.incremental_apply_rate` is not
refused; the apply keeps pace with the incremental restore (a class default, named)."""

from __future__ import annotations

import pytest

from rtoplanner.core.engine.recovery import INCREMENTAL_APPLY_DEFAULT
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.plan import compute_core
from rtoplanner.core.scenario import load_scenario_text
from rtoplanner.core.scenario.docs import default_text
from rtoplanner.core.scenario.fields import spec_for_key

BASE = """\
format = 1
name = "incr"

[database]
size = "10 TB"
redo_rate = "10 MB/s"
daily_change = "5%"

[backup]
channels = 8
level0_every = "7d"
level1 = "cumulative"
level1_every = "1d"
block_change_tracking = true

[[path]]
kind = "media_server"
count = 1
rate = "1.6 GB/s"

[recovery]
redo_apply_rate = "100 MB/s"
incremental_overhead = "90 s"
{rate}
[targets]
rto = "24 h"
"""


def _phases(rate: str = ""):
    s = load_scenario_text(BASE.format(rate=rate))
    rec = compute_core(s)[2]
    return rec.phase("restore_incremental"), rec.phase("apply_incremental")


def test_level1_without_an_apply_rate_loads_and_applies_at_the_restore_rate():
    restore, apply = _phases()  # refused before: "is needed with level 1 backups"
    assert restore.count > 0 and restore.data_bytes > 0
    assert apply.start_s == restore.start_s
    # volume ÷ (the restore's own rate) + the overhead per backup
    assert apply.duration_s == pytest.approx(restore.duration_s + 90.0 * restore.count)
    assert apply.bottleneck == "incremental_apply_rate"
    assert INCREMENTAL_APPLY_DEFAULT in apply.detail and "class default" in apply.detail


def test_a_given_apply_rate_still_decides():
    restore, apply = _phases('incremental_apply_rate = "100 GB/h"')
    slow = restore.data_bytes / (100e9 / 3600) + 90.0 * restore.count
    assert apply.duration_s == pytest.approx(max(slow, restore.duration_s))
    assert "class default" not in apply.detail


def test_a_zero_apply_rate_is_still_refused_in_one_line():
    with pytest.raises(ScenarioError, match="incremental_apply_rate"):
        load_scenario_text(BASE.format(rate='incremental_apply_rate = "0 MB/s"'))


def test_the_field_table_states_the_default():
    spec = spec_for_key("recovery.incremental_apply_rate")
    assert not spec.required
    assert "incremental restore's own rate" in default_text(spec)


def test_the_plan_notes_say_the_default_and_how_to_replace_it():
    from rtoplanner.core.plan import compute_plan

    noted = [n for n in compute_plan(load_scenario_text(BASE.format(rate=""))).notes
             if "incremental_apply_rate is not given" in n]  # fmt: skip
    assert len(noted) == 1 and "as fast as they are restored" in noted[0]
    given = compute_plan(load_scenario_text(BASE.format(rate='incremental_apply_rate = "1 TB/h"')))
    assert not any("incremental_apply_rate is not given" in n for n in given.notes)
