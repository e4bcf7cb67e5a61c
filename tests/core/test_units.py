"""Units: parsing, formatting, exact round trips and conversions."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rtoplanner.core.errors import UnitError
from rtoplanner.core.units import (
    TB,
    GiB,
    TiB,
    exact_duration,
    exact_fraction,
    exact_rate,
    exact_size,
    format_duration,
    format_fraction,
    format_percent,
    format_rate,
    format_size,
    parse_duration,
    parse_fraction,
    parse_growth,
    parse_rate,
    parse_ratio,
    parse_size,
    spaced_percents,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10 TB", 10e12),
        ("20 TiB", 20 * 2**40),
        ("512 GiB", 512 * 2**30),
        ("1,300 GB", 1300e9),
        ("1.5e3 GB", 1.5e12),
        ("100 kB", 1e5),
        ("100 KB", 1e5),
        ("7 bytes", 7.0),
        ("0 B", 0.0),
        (" 2.5TB ", 2.5e12),
    ],
)
def test_parse_size(text, expected):
    assert parse_size(text) == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("140 MB/s", 140e6),
        ("2.5 GiB/s", 2.5 * 2**30),
        ("10 Gb/s", 1.25e9),
        ("10 Gbps", 1.25e9),
        ("325 GB/h", 325e9 / 3600),
        ("18 TiB/h", 18 * 2**40 / 3600),
        ("100 MB per min", 100e6 / 60),
        ("1 TB/day", 1e12 / 86400),
        ("120 MBps", 120e6),
    ],
)
def test_parse_rate(text, expected):
    assert parse_rate(text) == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90 s", 90),
        ("4 min", 240),
        ("2h30m", 9000),
        ("2h 30min", 9000),
        ("1 d 4 h", 100800),
        ("7d", 604800),
        ("2w", 1209600),
        ("01:30:00", 5400),
        ("05:30", 330),
        ("8 hours", 28800),
        ("250 ms", 0.25),
    ],
)
def test_parse_duration(text, expected):
    assert parse_duration(text) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("func", "text", "fragment"),
    [
        (parse_size, "10 Tb", "bits"),
        (parse_size, "10", "no unit"),
        (parse_size, 10, "no unit"),
        (parse_size, "-5 GB", "negative"),
        (parse_size, "10 TX", "unknown size unit"),
        (parse_size, "lots", "does not start with a number"),
        (parse_rate, "140 MB", "not a rate"),
        (parse_rate, "140 MB/fortnight", "unknown time unit"),
        (parse_rate, "-1 MB/s", "negative"),
        (parse_duration, "90", "no unit"),
        (parse_duration, "4 parsecs", "unknown time unit"),
        (parse_duration, "-4 min", "negative"),
        (parse_fraction, "8", "above 1"),
        (parse_fraction, "8 TB", "not a percentage"),
        (parse_ratio, "four", "not a ratio"),
    ],
)
def test_bad_quantities_say_what_is_wrong(func, text, fragment):
    with pytest.raises(UnitError) as info:
        func(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_bits_size_suggests_bytes():
    with pytest.raises(UnitError) as info:
        parse_size("10 Tb")
    assert "did you mean '10 TB'" in str(info.value)


def test_fractions_ratios_growth():
    assert parse_fraction("10%") == pytest.approx(0.1)
    assert parse_fraction(0.25) == 0.25
    assert parse_ratio("4.4:1") == 4.4
    assert parse_ratio("3x") == 3.0
    assert parse_ratio(2) == 2.0
    mode, rate = parse_growth("25%/y")
    assert (mode, rate) == ("compound", pytest.approx(0.25))
    mode, rate = parse_growth("1%/month")
    assert mode == "compound"
    assert rate == pytest.approx(1.01**12 - 1)
    mode, rate = parse_growth("2 TB/y")
    assert (mode, rate) == ("linear", pytest.approx(2e12))


def test_formatting_for_people():
    assert format_size(20 * TiB, binary=True) == "20.0 TiB"
    assert format_size(1.3 * TB) == "1.30 TB"
    assert format_size(512e9) == "512 GB"
    assert format_rate(1.6e9) == "1.60 GB/s"
    assert format_rate(1.6e9, per="h") == "5.76 TB/h"
    assert format_duration(45) == "45 s"
    assert format_duration(250) == "4 min 10 s"
    assert format_duration(7530) == "2 h 06 min"
    assert format_duration(3 * 86400 + 4 * 3600) == "3 d 4 h"
    assert format_duration(-600) == "-10 min"
    assert format_duration(math.inf) == "∞"


def test_percent_house_style():
    """Issue 23.6: one form for every percentage a person reads — number, space, `%`, no
    empty decimals (the ledger printed "85.0%" beside the cover's "3.9 %")."""
    assert format_percent(0.85) == "85 %"
    assert format_percent(0.05) == "5 %"
    assert format_percent(0.039) == "3.9 %"
    assert format_percent(0.6192) == "61.9 %"
    assert format_percent(0.0) == "0 %"
    assert format_percent(0.53, 0) == "53 %"
    assert format_percent(0.0004, 1) == "0 %"  # never "0.0 %" nor "-0 %"
    assert format_percent(-0.0004, 0) == "0 %"
    assert format_percent(0.188, 1, signed=True) == "+18.8 %"
    assert format_percent(-0.2, 0, signed=True) == "-20 %"
    assert format_fraction(0.9) == "90 %"
    assert format_fraction(0.12345) == "12.3 %"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("-40%..+20%", "-40 %..+20 %"),
        ("3%..8%", "3 %..8 %"),
        ("85%..95%", "85 %..95 %"),
        ("30%/y", "30 %/y"),
        ("±7.5%", "±7.5 %"),
        ("5 %", "5 %"),
        ("see https://x.org/a%20b and v1%20c", "see https://x.org/a%20b and v1%20c"),
    ],
)
def test_typed_percentages_are_shown_in_the_house_style(typed, shown):
    assert spaced_percents(typed) == shown
    assert parse_range_or_growth_ok(typed)


def parse_range_or_growth_ok(typed: str) -> bool:
    """What is shown still parses as what was typed (the space is allowed in input)."""
    from rtoplanner.core.scenario.ranges import parse_range

    shown = spaced_percents(typed)
    if "/y" in typed:
        return parse_growth(shown) == parse_growth(typed)
    if ".." in typed or "±" in typed:
        return parse_range(shown, parse_fraction).low == parse_range(typed, parse_fraction).low
    return True


finite_pos = st.floats(min_value=1e-3, max_value=1e18, allow_nan=False, allow_infinity=False)


@given(finite_pos)
def test_exact_size_round_trips(x):
    assert parse_size(exact_size(x)) == x


@given(st.floats(min_value=1e-3, max_value=1e14, allow_nan=False))
def test_exact_rate_round_trips(x):
    assert parse_rate(exact_rate(x)) == x


@given(st.floats(min_value=0, max_value=1e9, allow_nan=False))
def test_exact_duration_round_trips(x):
    assert parse_duration(exact_duration(x)) == x


@given(st.floats(min_value=0, max_value=10, allow_nan=False))
def test_exact_fraction_round_trips(x):
    assert parse_fraction(exact_fraction(x), allow_above_one=True) == pytest.approx(x, rel=1e-15)


@given(st.floats(min_value=0.001, max_value=1e6, allow_nan=False))
def test_unit_conversions_are_consistent(v):
    text = f"{v!r}"
    assert parse_size(f"{text} TiB") == pytest.approx(parse_size(f"{text} GiB") * 1024)
    assert parse_size(f"{text} TB") == pytest.approx(parse_size(f"{text} GB") * 1000)
    assert parse_rate(f"{text} Gb/s") == pytest.approx(parse_rate(f"{text} GB/s") / 8)
    assert parse_rate(f"{text} GB/h") == pytest.approx(parse_rate(f"{text} GB/s") / 3600)
    assert parse_rate(f"{text} GiB/min") == pytest.approx(v * GiB / 60)
    assert parse_duration(f"{text} h") == pytest.approx(parse_duration(f"{text} min") * 60)
