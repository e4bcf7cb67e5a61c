"""What a keystroke does, and no more (issue 14): the fast plan on the next event-loop
turn, the full plan a moment later in a worker, the stage table left alone by edits
outside the path."""

from __future__ import annotations

import pytest

from rtoplanner.app.document import DEBOUNCE_MS, FULL_PLAN_DELAY_MS

pytestmark = pytest.mark.gui


def test_the_fast_plan_comes_first_and_the_full_plan_after(qtbot, window):
    assert DEBOUNCE_MS == 0 and FULL_PLAN_DELAY_MS > 0
    doc = window.doc
    doc.set_value("backup.channels", 5)
    doc.recompute_now()  # what the next event-loop turn does
    assert doc.plan.scenario.backup.channels == 5
    assert doc.plan.cycle is None  # the fast plan is on screen ...
    assert not doc._runner.busy  # ... and no worker competes with its repaint yet
    assert doc.wait_idle()
    assert doc.plan.cycle is not None and doc.plan.scenario.backup.channels == 5


def test_typing_outside_the_path_does_not_refresh_the_stage_table(qtbot, window):
    model = window.stages.model
    changed = []
    model.dataChanged.connect(lambda *a: changed.append(a))
    window.doc.set_value("database.redo_rate", "7 MB/s")
    assert changed == []  # raw_changed has been handled (the plan comes on the next turn)
    window.doc.set_value("path[0].count", 3)
    assert changed  # a stage edit does refresh it
    window.doc.wait_idle()
