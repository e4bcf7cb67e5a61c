"""Dates and elapsed times as RMAN prints them in its output log.

RMAN prints `Starting restore at …` / `Finished restore at …` in the session's
`NLS_DATE_FORMAT`. The default (`DD-MON-RR`) has no time of day: such a log is timed only
by the elapsed times the channels print (`restore complete, elapsed time: 00:45:12`).
docs/evidence.md says to `export NLS_DATE_FORMAT='YYYY-MM-DD HH24:MI:SS'` before a drill.

Formats met in the field: `12-OCT-26`, `12-OKT-2026 10:00:05` (German month names),
`2026-10-12 10:00:05`, `2026/10/12 10:00:05`, `2014-04-17:12:51:43`, `12.10.2026 10:00:05`,
`08-14-2012:13:09:16` (month first), `12/10/2026 10:00:05`. Numeric day and month are
ambiguous; `DateReader` decides once per log (a first number above 12 is a day, a second
above 12 is a day; otherwise the reading that keeps the log's times in order, day first
when both do). `RMAN-03002: failure of … command at 07/27/2022 11:13:13` is always month
first with a time, whatever the NLS settings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from .numbers import month_number

_TIME = (
    r"(?:[ T:]+(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?(?:\s*(?P<ampm>[AaPp]\.?[Mm]\.?))?)?"
)
_YMD_RE = re.compile(r"^(?P<a>\d{4})[-/.](?P<b>\d{1,2})[-/.](?P<c>\d{1,2})" + _TIME + r"\s*$")
_NUM_RE = re.compile(r"^(?P<a>\d{1,2})[-/.](?P<b>\d{1,2})[-/.](?P<c>\d{2}|\d{4})" + _TIME + r"\s*$")
_MON_RE = re.compile(
    r"^(?P<a>\d{1,2})[-/. ]*(?P<mon>[^\W\d_][^\s\-/.\d]*\.?|\d{1,2}\s*月)[-/. ]*"
    r"(?P<c>\d{2}|\d{4})" + _TIME + r"\s*$"
)
_ELAPSED_RE = re.compile(r"^(?P<h>\d+):(?P<m>\d{2}):(?P<s>\d{2})(?:\.(?P<f>\d+))?$")
_BANNER_RE = re.compile(
    r"on\s+\S+\s+(?P<mon>\S+)\s+(?P<d>\d{1,2})\s+(?P<H>\d{1,2}):(?P<M>\d{2}):(?P<S>\d{2})\s+"
    r"(?P<y>\d{4})"
)


@dataclass(frozen=True)
class LogTime:
    """A time read from a log: `at` (midnight when `timed` is False: a date only)."""

    at: datetime
    timed: bool


def parse_elapsed(text: str) -> float | None:
    """`00:45:12` → 2712.0; `27:08:43` (over a day) → 97723.0; junk → None."""
    m = _ELAPSED_RE.match(text.strip())
    if not m:
        return None
    frac = float("0." + m.group("f")) if m.group("f") else 0.0
    return int(m.group("h")) * 3600 + int(m.group("m")) * 60 + int(m.group("s")) + frac


def parse_banner(text: str) -> datetime | None:
    """The start of the session from `Recovery Manager: Release … Production on Mon Oct 12
    09:58:01 2026` (always with a time), or None."""
    m = _BANNER_RE.search(text)
    if not m:
        return None
    mon = month_number(m.group("mon"))
    if mon is None:
        return None
    try:
        return datetime(
            int(m.group("y")),
            mon,
            int(m.group("d")),
            int(m.group("H")),
            int(m.group("M")),
            int(m.group("S")),
        )
    except ValueError:
        return None


def _year(text: str) -> int:
    y = int(text)
    return y if y >= 100 else (1900 + y if y >= 70 else 2000 + y)


def _clock(m: re.Match[str]) -> tuple[int, int, int] | None:
    if m.group("H") is None:
        return None
    h = int(m.group("H"))
    ampm = (m.group("ampm") or "").replace(".", "").upper()
    if ampm == "PM" and h < 12:
        h += 12
    elif ampm == "AM" and h == 12:
        h = 0
    return h, int(m.group("M")), int(m.group("S") or 0)


def _build(y: int, mon: int, d: int, clock: tuple[int, int, int] | None) -> LogTime | None:
    try:
        return LogTime(datetime(y, mon, d, *(clock or (0, 0, 0))), clock is not None)
    except ValueError:
        return None


class DateReader:
    """Reads one log's dates consistently (see the module docstring for the rules)."""

    def __init__(self, texts: list[str], near: datetime | None = None) -> None:
        self.day_first = _day_first([t.strip() for t in texts], near)

    def read(self, text: str) -> LogTime | None:
        """A date (with its time when printed) in this log's format, or None."""
        t = text.strip()
        m = _YMD_RE.match(t)
        if m:
            return _build(int(m.group("a")), int(m.group("b")), int(m.group("c")), _clock(m))
        m = _MON_RE.match(t)
        if m:
            mon = month_number(m.group("mon"))
            if mon is None:
                return None
            return _build(_year(m.group("c")), mon, int(m.group("a")), _clock(m))
        m = _NUM_RE.match(t)
        if m:
            a, b = int(m.group("a")), int(m.group("b"))
            d, mon = (a, b) if self.day_first else (b, a)
            return _build(_year(m.group("c")), mon, d, _clock(m))
        return None


def read_failure_time(text: str) -> LogTime | None:
    """`07/27/2022 11:13:13` from an RMAN-03002 line: month first, always timed."""
    m = _NUM_RE.match(text.strip())
    if not m:
        return DateReader([]).read(text)
    return _build(_year(m.group("c")), int(m.group("a")), int(m.group("b")), _clock(m))


def _day_first(texts: list[str], near: datetime | None = None) -> bool:
    pairs = []
    for t in texts:
        m = _NUM_RE.match(t)
        if m:
            pairs.append((int(m.group("a")), int(m.group("b")), m))
    if any(a > 12 for a, _, _ in pairs):
        return True
    if any(b > 12 for _, b, _ in pairs):
        return False
    day, month = _in_order(pairs, day_first=True), _in_order(pairs, day_first=False)
    if day and month and near is not None and pairs:
        return _distance(pairs[0], near, True) <= _distance(pairs[0], near, False)
    return day or not month


def _distance(pair: tuple[int, int, re.Match[str]], near: datetime, day_first: bool) -> float:
    """How far a date read one way is from the session's start (the banner's date)."""
    a, b, m = pair
    d, mon = (a, b) if day_first else (b, a)
    t = _build(_year(m.group("c")), mon, d, _clock(m))
    return abs((t.at - near).total_seconds()) if t else float("inf")


def _in_order(pairs: list[tuple[int, int, re.Match[str]]], *, day_first: bool) -> bool:
    last = None
    for a, b, m in pairs:
        d, mon = (a, b) if day_first else (b, a)
        t = _build(_year(m.group("c")), mon, d, _clock(m))
        if t is None:
            return False
        if last is not None and t.at < last - timedelta(hours=1):
            return False
        last = t.at
    return True


__all__ = ["DateReader", "LogTime", "parse_banner", "parse_elapsed", "read_failure_time"]
