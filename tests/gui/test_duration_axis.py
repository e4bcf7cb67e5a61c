"""A duration axis counts one way (issue 23): the growth view's axis read
"36 h, 42 h, 2 d, 2 d 6 h"."""

from __future__ import annotations

import pytest

from rtoplanner.app.plots.common import DurationAxis

pytestmark = pytest.mark.gui

H = 3600.0


def test_an_axis_that_reaches_days_reads_days_and_hours_from_one_day_on(qapp):
    axis = DurationAxis("left")
    values = [k * 6 * H for k in range(0, 10)]  # 0 .. 54 h
    ticks = axis.tickStrings(values, 1.0, 6 * H)
    assert ticks[:5] == ["0", "6 h", "12 h", "18 h", "1 d"]
    assert ticks[7] == "1 d 18 h" and ticks[8] == "2 d" and ticks[9] == "2 d 6 h"
    assert not any(t.endswith(" h") and int(t.split()[0]) >= 24 for t in ticks)


def test_an_axis_within_two_days_keeps_hours(qapp):
    axis = DurationAxis("bottom")
    ticks = axis.tickStrings([0, 12 * H, 24 * H, 36 * H], 1.0, 12 * H)
    assert ticks == ["0", "12 h", "24 h", "36 h"]
