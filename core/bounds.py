"""Physically sensible ranges for scenario values, and the sizes of what we read.

A value outside its range is not a bold assumption, it is a typo or a hostile file: an
efficiency of 1e-308 prints `Infinity`, an RTO of 1e300 s makes every plan "meet", a
level 0 every 10,000 weeks makes the cycle scan run for minutes. Each key of the scenario
format carries a `Bound` in its field table entry (core/scenario/fields.py); `check`
refuses a value outside it with the reason, so the message tells the user what is
sensible and why. The list of every bound is in docs/scenario-format.md ("Ranges") and
docs/store.md.

Values are in the program's units: bytes, bytes per second, seconds, plain fractions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import UnitError
from .units import format_duration, format_rate, format_size

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0
YEAR_366 = 366 * DAY


@dataclass(frozen=True)
class Bound:
    """`low <= value <= high` (either side optional; `low_open` makes it `low < value`).

    `why` is the reason given when a value is refused; `unit` formats the bounds in the
    message ("s", "B", "B/s", "" for plain numbers, "chars" for text length).
    """

    low: float | None = None
    high: float | None = None
    why: str = ""
    low_open: bool = False
    unit: str = ""

    def check(self, value: float, shown: object) -> None:
        """Raise `UnitError` naming `shown` (what the user wrote) if `value` is outside."""
        if isinstance(value, float) and math.isnan(value):
            raise UnitError(f"{shown!r} is not a number")
        low, high = self.low, self.high
        too_low = low is not None and (value <= low if self.low_open else value < low)
        too_high = high is not None and value > high
        if not (too_low or too_high):
            return
        raise UnitError(f"{shown!r} is out of range: {self.describe()}"
                        + (f" ({self.why})" if self.why else ""))  # fmt: skip

    def check_length(self, text: str) -> None:
        """For text: the bound is on its length in characters."""
        n = len(text)
        why = f" ({self.why})" if self.why else ""
        if self.high is not None and n > self.high:
            raise UnitError(f"is {n:,} characters long; at most {self.high:,.0f} are read{why}")
        if self.low is not None and n < self.low:
            raise UnitError(f"is {n:,} characters long; it needs at least {self.low:,.0f}{why}")

    def describe(self) -> str:
        lo = None if self.low is None else show_bound_value(self.low, self.unit)
        hi = None if self.high is None else show_bound_value(self.high, self.unit)
        if lo is not None and hi is not None:
            return f"it must be {'above' if self.low_open else 'at least'} {lo} and at most {hi}"
        if lo is not None:
            return f"it must be {'above' if self.low_open else 'at least'} {lo}"
        return f"it must be at most {hi}"


def show_bound_value(value: float, unit: str) -> str:
    """One end of a bound in words, in its unit (`7 d`, `141 TB`, `90 %`)."""
    if unit == "s":
        return format_duration(value) if value else "0 s"
    if unit == "B":
        return format_size(value) if value else "0 B"
    if unit == "B/s":
        return format_rate(value) if value else "0 B/s"
    if unit == "%":
        return f"{value * 100:g} %"
    if unit == "chars":
        return f"{value:,.0f} characters"
    return f"{value:g}"


# --------------------------------------------------------------------- shared bounds

ANY_DURATION = Bound(0, 10 * YEAR_366, "ten years is beyond any restore, backup or vaulting",
                     unit="s")  # fmt: skip
SHORT_DURATION = Bound(0, 7 * DAY, "a fixed step of a restore takes minutes or hours, not "
                       "more than a week", unit="s")  # fmt: skip
UNIT_RATE = Bound(1e3, 1e12, "below 1 kB/s a drive, server, link or channel is broken, not "
                  "slow: a 1 GB restore would take 12 days; 1 TB/s is beyond any single one",
                  unit="B/s")  # fmt: skip
DB_SIZE = Bound(0, 8e18, "Oracle's largest possible database is about 8 EB", low_open=True,
                unit="B")  # fmt: skip
FILE_SIZE = Bound(0, 140.8e12, "a bigfile datafile holds at most 128 TiB", low_open=True,
                  unit="B")  # fmt: skip
LOG_SIZE = Bound(0, 1e12, "an archived log is one online redo log's worth: megabytes to a "
                 "few gigabytes, never a terabyte", low_open=True, unit="B")  # fmt: skip
VOLUME = Bound(0, 8e18, "more than the largest possible Oracle database", unit="B")
RATIO = Bound(0.5, 100, "compression does not double the data: incompressible data stays "
              "at about 1:1; none gives more than 100:1 on database blocks")  # fmt: skip
APPLY_FACTOR = Bound(0.01, 100, "an incremental apply 100 times slower or faster than the "
                     "restore it follows is a broken figure, not a slow one")  # fmt: skip
COUNT = Bound(1, 10_000, "no restore runs more units than that in parallel")
NAME_CHARS = Bound(1, 200, "a name is a line on the report's title page", unit="chars")
TEXT_CHARS = Bound(0, 200, "it is printed on one line of the report", unit="chars")
NOTES_CHARS = Bound(0, 100_000, "about thirty pages of notes; attach longer documents "
                    "separately", unit="chars")  # fmt: skip

REDO_RATE = Bound(0, 100e9, "100 GB/s is an order of magnitude above the busiest databases "
                  "measured", unit="B/s")  # fmt: skip
CHANNELS = Bound(1, 1024, "more channels than any RMAN restore allocates")
EFFICIENCY = Bound(0.01, 1, "below 1 % a stage is broken, not slow; above 100 % is past its "
                   "rating", unit="%")  # fmt: skip
WRITE_FACTOR = Bound(1, 10, "ASM high redundancy writes 3 copies; 10 covers any mirroring")
LEVEL0_EVERY = Bound(HOUR, YEAR_366, "a level 0 backup at least once a year; the plan "
                     "evaluates every hour of the cycle", unit="s")  # fmt: skip
LEVEL1_EVERY = Bound(15 * MINUTE, YEAR_366, "an incremental backup cannot run more often "
                     "than it takes; archived log backups cover shorter intervals",
                     unit="s")  # fmt: skip
ARCHIVELOG_EVERY = Bound(MINUTE, YEAR_366, "archived log backups run at most every minute",
                         unit="s")  # fmt: skip
RTO = Bound(MINUTE, YEAR_366, "a restore takes minutes at the very least, and a recovery "
            "objective beyond a year is none", unit="s")  # fmt: skip
RPO = Bound(0, YEAR_366, "a recovery point objective beyond a year is none", unit="s")
BACKUP_WINDOW = Bound(MINUTE, YEAR_366, "a backup window is minutes to days", unit="s")
RISK_MARGIN_FRACTION = Bound(0, 0.9, "a margin of 90 % of the RTO or more would call every "
                             "plan at risk; a negative one none", unit="%")  # fmt: skip
# The top end is a hair above 0.999: '99.9%' parses to 0.9990000000000001.
CONFIDENCE = Bound(0.5, 0.999 + 1e-9, "below 50 % a plan is more likely to miss than to meet (it "
                   "misses); 100 % cannot be shown by any number of trials", unit="%")  # fmt: skip
RISK_MARGIN_DURATION = Bound(0, YEAR_366, "a margin cannot be negative", unit="s")
GROWTH_COMPOUND = Bound(0, 100, "more than 10,000 % a year is not a database's growth",
                        unit="%")  # fmt: skip
GROWTH_LINEAR = Bound(0, 8e18, "more than the largest possible Oracle database per year",
                      unit="B")  # fmt: skip

MAX_STAGES = 32
"""Stages in one restore path: real paths have three to eight; a long path is a paste
error, and the report draws every stage."""

MAX_NESTING = 64
"""Tables and arrays nested in a scenario file; the format itself uses two levels."""

MAX_SCENARIO_BYTES = 2 * 1024 * 1024
"""A scenario file is a few kilobytes; notes included, 2 MiB is far beyond any."""

MAX_ESTATE_BYTES = 16 * 1024 * 1024
"""An estate file is about 100 bytes per database: 10,000 databases take about 1 MB, so
16 MiB is over 100,000 of them."""
