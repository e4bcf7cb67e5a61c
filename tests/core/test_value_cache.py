"""Parsed values kept by (spec, type, value) (issue 22.3, `core/scenario/values.py`): the
same answers as parsing afresh — a refused value refused every time, `true` never taken
for `1`, one text under two specs checked against each spec's own bound."""

from __future__ import annotations

import pytest

from rtoplanner.core.errors import UnitError
from rtoplanner.core.scenario import values
from rtoplanner.core.scenario.fields import SECTIONS


def _spec(section: str, key: str):
    return next(s for s in SECTIONS[section] if s.key == key)


def test_a_refused_value_is_refused_every_time():
    channels = _spec("backup", "channels")
    for _ in range(3):
        with pytest.raises(UnitError):
            values.parse_value(channels, 0)
    assert values.parse_value(channels, 4) == 4
    assert values.parse_value(channels, 4) == 4


def test_a_boolean_is_not_taken_for_the_whole_number_it_equals():
    channels = _spec("backup", "channels")
    assert values.parse_value(channels, 1) == 1
    with pytest.raises(UnitError):
        values.parse_value(channels, True)
    tracking = _spec("backup", "block_change_tracking")
    assert values.parse_value(tracking, True) is True
    assert values.parse_value(tracking, "yes") is True


def test_one_text_under_two_specs_is_checked_by_each():
    """'0 s' is a valid detect time and not a valid level 0 interval."""
    detect, level0 = _spec("recovery", "detect"), _spec("backup", "level0_every")
    assert values.parse_value(detect, "0 s") == 0.0
    with pytest.raises(UnitError):
        values.parse_value(level0, "0 s")
    assert values.parse_value(detect, "0 s") == 0.0


def test_kept_values_are_what_parsing_afresh_gives():
    for section, specs in SECTIONS.items():
        for spec in specs:
            for raw in ("2 TB", "140 MB/s", "4 h", "5%", "2.0", "25%/y", "10%", "cumulative",
                        "x", 3, 0):  # fmt: skip
                try:
                    fresh = values._parse_value(spec, raw)
                except (UnitError, ValueError):
                    with pytest.raises((UnitError, ValueError)):
                        values.parse_value(spec, raw)
                    continue
                assert values.parse_value(spec, raw) == fresh, (section, spec.key, raw)
                assert values.parse_value(spec, raw) == fresh
