"""Units: the one place where quantities are parsed and formatted.

Inside the program every size is a float number of bytes, every rate bytes per second,
every time seconds, every fraction a plain ratio (0.1 for 10 %). Names carry the unit as
a suffix (`size_bytes`, `rate_Bps`, `duration_s`) because a bare number whose unit is
ambiguous must never cross a module boundary. Units appear only at the edges: scenario
files, the command line, the GUI's fields and reports, all of which go through here.

Conventions (as the storage and network trades use them):

* `TB` is 10^12 bytes, `TiB` is 2^40 bytes; the same for k/M/G/P/E.
* A lower-case `b` means bits (`10 Gb/s`, `Gbps`); an upper-case `B` means bytes.
  A size given in bits (`10 Tb`) is refused: nobody sizes a database in bits, so it is a
  typo for `TB` far more often than not.
* Rates are a size over a time (`325 GB/h`, `2.5 GiB/s`, `10 Gb/s`, `100 MB per min`).
* Durations accept compound forms (`2h30m`, `1 d 4 h`), clock forms (`01:30:00`) and the
  usual words (`90 s`, `4 min`, `8 hours`, `7d`, `2w`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TypeAlias

from .errors import UnitError

ByteCount: TypeAlias = float
"""A number of bytes."""
BytesPerSecond: TypeAlias = float
"""A rate in bytes per second."""
Seconds: TypeAlias = float
"""A duration in seconds."""
Fraction: TypeAlias = float
"""A plain ratio: 0.1 stands for 10 %."""

KB = 1000.0
MB = 1000.0**2
GB = 1000.0**3
TB = 1000.0**4
PB = 1000.0**5
KiB = 1024.0
MiB = 1024.0**2
GiB = 1024.0**3
TiB = 1024.0**4
PiB = 1024.0**5

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0
WEEK = 7 * DAY
YEAR = 365.25 * DAY
MONTH = YEAR / 12

_DECIMAL_PREFIX = {"": 1.0, "k": KB, "m": MB, "g": GB, "t": TB, "p": PB, "e": 1000.0**6}
_BINARY_PREFIX = {"ki": KiB, "mi": MiB, "gi": GiB, "ti": TiB, "pi": PiB, "ei": 1024.0**6}

_TIME_UNITS: dict[str, float] = {}
for _names, _factor in (
    (("ms", "msec", "millisecond", "milliseconds"), 0.001),
    (("s", "sec", "secs", "second", "seconds"), 1.0),
    (("m", "min", "mins", "minute", "minutes"), MINUTE),
    (("h", "hr", "hrs", "hour", "hours"), HOUR),
    (("d", "day", "days"), DAY),
    (("w", "wk", "week", "weeks"), WEEK),
):
    for _n in _names:
        _TIME_UNITS[_n] = _factor

# Units of the denominator of a rate or a growth ("per ..."): months and years are
# allowed there but not as durations of a job.
_PER_UNITS = dict(_TIME_UNITS)
for _names, _factor in (
    (("mo", "mon", "month", "months"), MONTH),
    (("y", "yr", "yrs", "year", "years", "a"), YEAR),
):
    for _n in _names:
        _PER_UNITS[_n] = _factor

_NUMBER = (
    r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)(?:\.\d*)?(?:[eE][+-]?\d+)?|[+-]?\.\d+(?:[eE][+-]?\d+)?"
)
_NUMBER_RE = re.compile(rf"\s*({_NUMBER})(.*)", re.DOTALL)

MAX_QUANTITY_CHARS = 100
"""The longest value text read as a quantity ('1,300 GB per hour' is 17): a longer one is
refused before any parsing, which keeps every parser fast whatever it is given."""
_SIZE_UNIT_RE = re.compile(r"^(?P<prefix>[kKmMgGtTpPeE]?)(?P<bin>i?)(?P<b>[bB])$")
_SIZE_WORD = {
    "byte": ("", "B"),
    "bytes": ("", "B"),
    "bit": ("", "b"),
    "bits": ("", "b"),
}


def _check_length(text: str, what: str) -> None:
    if len(text) > MAX_QUANTITY_CHARS:
        raise UnitError(
            f"{text[:30]!r}... is {len(text):,} characters long, not a {what} "
            f"(a value is at most {MAX_QUANTITY_CHARS} characters)"
        )


def _parse_number(text: str, what: str) -> tuple[float, str]:
    _check_length(text, what)
    m = _NUMBER_RE.fullmatch(text)
    if not m:
        raise UnitError(f"{text!r} is not a {what}: it does not start with a number")
    raw, rest = m.group(1), m.group(2).strip()
    value = float(raw.replace(",", "").replace("_", ""))
    if not math.isfinite(value):
        raise UnitError(f"{text!r} is not a finite number")
    return value, rest


def _size_factor(unit: str, text: str) -> tuple[float, bool]:
    """Return (bytes per unit, is_bits) for a size unit such as `GB`, `TiB`, `Gb`."""
    unit = unit.strip()
    lower = unit.lower()
    if lower in _SIZE_WORD:
        prefix, b = _SIZE_WORD[lower]
        return (1.0 if b == "B" else 0.125), b == "b"
    m = _SIZE_UNIT_RE.match(unit)
    if not m:
        raise UnitError(
            f"{text!r}: unknown size unit {unit!r}",
            hint="use B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB",
        )
    prefix = m.group("prefix").lower()
    binary = m.group("bin") == "i"
    bits = m.group("b") == "b"
    if binary:
        if not prefix:
            raise UnitError(f"{text!r}: unknown size unit {unit!r}")
        factor = _BINARY_PREFIX[prefix + "i"]
    else:
        factor = _DECIMAL_PREFIX[prefix]
    if bits:
        factor /= 8.0
    return factor, bits


def parse_size(text: str | float | int) -> ByteCount:
    """Parse a size such as `20 TiB`, `512 GiB`, `1,300 GB` into bytes.

    A bare number is refused: a size without a unit is the most common source of a plan
    that is wrong by a factor of a thousand.
    """
    if isinstance(text, bool) or not isinstance(text, str):
        raise UnitError(f"{text!r} has no unit: write a size such as '20 TiB' or '512 GB'")
    value, unit = _parse_number(text, "size")
    if not unit:
        raise UnitError(f"{text!r} has no unit: write a size such as '20 TiB' or '512 GB'")
    factor, bits = _size_factor(unit, text)
    if bits:
        upper = unit[:-1] + "B"
        raise UnitError(
            f"{text!r} is a number of bits; sizes are given in bytes",
            hint=f"did you mean '{value:g} {upper}'?",
        )
    if value < 0:
        raise UnitError(f"{text!r}: a size cannot be negative")
    return value * factor


def _split_rate_unit(unit: str) -> tuple[str, str] | None:
    """Split `GB/h`, `GB per hour`, `Gbps`, `MBps` into (size unit, time unit)."""
    u = unit.strip()
    if "/" in u:
        left, _, right = u.partition("/")
        return left.strip(), right.strip()
    m = re.match(r"^(.*?)\s+per\s+(.*)$", u, re.IGNORECASE)
    if m:
        return m.group(1).strip(), m.group(2).strip()
    m = re.match(r"^([kKmMgGtTpP]?i?[bB])ps$", u)
    if m:
        return m.group(1), "s"
    return None


def parse_rate(text: str | float | int) -> BytesPerSecond:
    """Parse a rate such as `140 MB/s`, `325 GB/h`, `10 Gb/s`, `18 TiB/h` into bytes/s."""
    if isinstance(text, bool) or not isinstance(text, str):
        raise UnitError(f"{text!r} has no unit: write a rate such as '140 MB/s' or '10 Gb/s'")
    value, unit = _parse_number(text, "rate")
    parts = _split_rate_unit(unit) if unit else None
    if not parts:
        raise UnitError(
            f"{text!r} is not a rate: write a size per time, such as '140 MB/s', "
            "'325 GB/h' or '10 Gb/s'"
        )
    size_unit, time_unit = parts
    factor, _bits = _size_factor(size_unit, text)
    per = _PER_UNITS.get(time_unit.lower().rstrip("."))
    if per is None:
        raise UnitError(f"{text!r}: unknown time unit {time_unit!r} after the '/'")
    if value < 0:
        raise UnitError(f"{text!r}: a rate cannot be negative")
    return value * factor / per


def typed_per_second(text: str) -> bool:
    """Whether a rate as typed is per second (`140 MB/s`, `10 Gbps`), not per hour or
    minute (`500 GB/h`): rates are shown per second, so a figure typed per hour is shown
    with its per-second value beside it (issue 23.6)."""
    try:
        _value, unit = _parse_number(text, "rate")
    except UnitError:
        return True
    parts = _split_rate_unit(unit) if unit else None
    return parts is None or _PER_UNITS.get(parts[1].lower().rstrip(".")) == 1.0


_DURATION_PART_RE = re.compile(
    r"\s*(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)\s*([a-zA-Z]+)\s*,?"
)
_CLOCK_RE = re.compile(r"^\s*(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)\s*$")


def parse_duration(text: str | float | int) -> Seconds:
    """Parse `90 s`, `4 min`, `2h30m`, `1 d 4 h`, `7d`, `01:30:00` into seconds."""
    if isinstance(text, bool) or not isinstance(text, str):
        raise UnitError(f"{text!r} has no unit: write a duration such as '90 s' or '4 h'")
    _check_length(text, "duration")
    s = text.strip()
    neg = s.startswith("-")
    if neg:
        raise UnitError(f"{text!r}: a duration cannot be negative")
    m = _CLOCK_RE.match(s)
    if m:
        h = float(m.group(1) or 0)
        return h * HOUR + float(m.group(2)) * MINUTE + float(m.group(3))
    pos = 0
    total = 0.0
    found = False
    while pos < len(s):
        m = _DURATION_PART_RE.match(s, pos)
        if not m:
            break
        unit = m.group(2).lower()
        factor = _TIME_UNITS.get(unit)
        if factor is None:
            raise UnitError(
                f"{text!r}: unknown time unit {m.group(2)!r}",
                hint="use ms, s, min, h, d or w",
            )
        total += float(m.group(1)) * factor
        found = True
        pos = m.end()
    if not found or s[pos:].strip():
        if re.fullmatch(_NUMBER, s):
            raise UnitError(f"{text!r} has no unit: write a duration such as '90 s' or '4 h'")
        raise UnitError(f"{text!r} is not a duration such as '90 s', '4 min', '2h30m' or '7d'")
    return total


def parse_fraction(text: str | float | int, *, allow_above_one: bool = False) -> Fraction:
    """Parse `10%` (or a plain ratio `0.1`) into a fraction."""
    if isinstance(text, bool):
        raise UnitError(f"{text!r} is not a percentage")
    if isinstance(text, int | float):
        value = float(text)
        if value > 1 and not allow_above_one:
            raise UnitError(f"{text!r} is above 1: write a share as 0.9 or a percentage as '90%'")
    else:
        num, unit = _parse_number(text, "percentage")
        if unit == "%":
            value = num / 100.0
        elif unit == "":
            value = num
            if value > 1 and not allow_above_one:
                raise UnitError(
                    f"{text!r} is above 1: write a percentage with '%' (e.g. '{_fmt_num(value)}%')"
                )
        else:
            raise UnitError(f"{text!r} is not a percentage such as '8%'")
    if value < 0:
        raise UnitError(f"{text!r}: a percentage cannot be negative")
    return value


def parse_ratio(text: str | float | int) -> float:
    """Parse a compression ratio: `4.4`, `4.4:1`, `4.4x`."""
    if isinstance(text, bool):
        raise UnitError(f"{text!r} is not a ratio")
    if isinstance(text, int | float):
        return float(text)
    _check_length(text, "ratio")
    s = text.strip().lower()
    m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)\s*(?::\s*1|x)?", s)
    if not m:
        raise UnitError(f"{text!r} is not a ratio such as '4.4' or '4.4:1'")
    return float(m.group(1))


def parse_growth(text: str) -> tuple[str, float]:
    """Parse a growth rate.

    Returns ("compound", fraction per year) for `25%/y`, `2%/month`, or
    ("linear", bytes per year) for `2 TB/y`, `500 GB/month`. The sensible range is the
    scenario format's to check (core/bounds.py `GROWTH_*`, core/scenario/values.py).
    """
    if not isinstance(text, str):
        raise UnitError(f"{text!r} is not a growth rate such as '25%/y' or '2 TB/month'")
    value, unit = _parse_number(text, "growth rate")
    if "/" not in unit and not re.search(r"\bper\b", unit, re.IGNORECASE):
        raise UnitError(f"{text!r} is not a growth rate such as '25%/y' or '2 TB/month'")
    if "/" in unit:
        left, _, right = unit.partition("/")
    else:
        left, _, right = re.split(r"\s+(per)\s+", unit, maxsplit=1, flags=re.IGNORECASE)
    per = _PER_UNITS.get(right.strip().lower())
    if per is None:
        raise UnitError(f"{text!r}: unknown time unit {right.strip()!r}")
    left = left.strip()
    if value < 0:
        raise UnitError(f"{text!r}: a negative growth is not supported")
    if left == "%":
        # Compound the per-period rate to a yearly one.
        periods_per_year = YEAR / per
        try:
            yearly = (1 + value / 100.0) ** periods_per_year - 1
        except OverflowError:
            yearly = math.inf
        return "compound", yearly
    factor, bits = _size_factor(left, text)
    if bits:
        raise UnitError(f"{text!r}: growth is given in bytes, not bits")
    yearly = value * factor * (YEAR / per)
    return "linear", yearly


# ----------------------------------------------------------------------------- formatting

_DEC_STEPS = (("PB", PB), ("TB", TB), ("GB", GB), ("MB", MB), ("kB", KB))
_BIN_STEPS = (("PiB", PiB), ("TiB", TiB), ("GiB", GiB), ("MiB", MiB), ("KiB", KiB))


def _fmt_num(value: float, sig: int = 3) -> str:
    """Format with `sig` significant figures, never '-0', and in E-notation only below a
    millionth (no figure of a plan is that small; an absurd input such as 5e-324 B/s is
    echoed as such, not as 330 digits)."""
    if value == 0:
        return "0"
    if abs(value) < 1e-6:
        return f"{value:.{sig}g}"
    mag = math.floor(math.log10(abs(value)))
    decimals = max(0, sig - 1 - mag)
    s = f"{value:.{decimals}f}"
    return s


def _pick(value: float, steps: Iterable[tuple[str, float]]) -> tuple[str, float]:
    for name, factor in steps:
        if abs(value) >= factor * 0.9995:
            return name, factor
    return "B", 1.0


def format_size(size_bytes: ByteCount, *, binary: bool = False, sig: int = 3) -> str:
    """`20.0 TiB`, `1.30 TB`, `512 GB` — for people, not for round trips."""
    name, factor = _pick(size_bytes, _BIN_STEPS if binary else _DEC_STEPS)
    return f"{_fmt_num(size_bytes / factor, sig)} {name}"


def format_rate(
    rate_Bps: BytesPerSecond, *, binary: bool = False, per: str = "s", sig: int = 3
) -> str:
    """`1.60 GB/s`, `5.76 TB/h`: a rate per second (default) or per hour/minute."""
    per_factor = {"s": 1.0, "min": MINUTE, "h": HOUR}[per]
    return f"{format_size(rate_Bps * per_factor, binary=binary, sig=sig)}/{per}"


def format_duration(duration_s: Seconds) -> str:
    """`45 s`, `4 min 10 s`, `2 h 05 min`, `3 d 4 h` — what a DBA writes on a whiteboard."""
    if not math.isfinite(duration_s):
        return "∞"
    s = round(duration_s)
    if duration_s < 0:
        return "-" + format_duration(-duration_s)
    if s < 60:
        if duration_s < 10 and duration_s != int(duration_s):
            return f"{duration_s:.1f} s"
        return f"{s} s"
    if s < 3600:
        m, sec = divmod(s, 60)
        return f"{m} min {sec:02d} s" if sec else f"{m} min"
    if s < 2 * 86400:
        h, rem = divmod(s, 3600)
        m = round(rem / 60)
        if m == 60:
            h, m = h + 1, 0
        return f"{h} h {m:02d} min"
    d, rem = divmod(s, 86400)
    h = round(rem / 3600)
    if h == 24:
        d, h = d + 1, 0
    return f"{d} d {h} h" if h else f"{d} d"


def format_percent(value: Fraction, decimals: int | None = None, *, signed: bool = False) -> str:
    """A share as the house writes it everywhere a person reads one (PDF, GUI, terminal):
    the number, a space, `%` — `85 %`, `5 %`, `3.9 %`, `61.9 %`; `signed` gives `+18.8 %`.

    `decimals` fixes the places (`0` for `53 %`); without it, up to three significant
    figures and no trailing zeros (85 %, never 85.0 % beside a 3.9 %). What a user types
    may go without the space (`5%` parses as well as `5 %`); `spaced_percents` writes typed
    text the house way."""
    pct = value * 100
    if decimals is None:
        text = _fmt_num(pct, 3)
        if "." in text and "e" not in text:
            text = text.rstrip("0").rstrip(".")
    else:
        text = f"{pct:.{decimals}f}"
    if float(text) == 0:
        text = "0"  # never "-0 %" nor "0.0 %"
    if signed and not text.startswith("-"):
        text = "+" + text
    return f"{text} %"


def format_fraction(value: Fraction, sig: int = 3) -> str:
    """A fraction as a percentage (`format_percent`), rounded to `sig` figures."""
    return format_percent(float(_fmt_num(value * 100, sig)) / 100 if value else 0.0)


_TYPED_PERCENT = re.compile(r"(?<!\w)(?<!\d\.)(\d+(?:\.\d+)?)[ \u00a0]?%(?![0-9A-Fa-f]{2})")


def spaced_percents(text: str) -> str:
    """Typed text (a range `-40%..+20%`, a growth `30%/y`) with each percentage written
    the house way (`-40 %..+20 %`, `30 %/y`): the same figures, one style on the page."""
    return _TYPED_PERCENT.sub(r"\1 %", text)


# ------------------------------------------------------------ exact (round-trip) formatting

_CANON_SIZE_UNITS = (
    ("PiB", PiB), ("TiB", TiB), ("GiB", GiB), ("MiB", MiB), ("KiB", KiB),
    ("PB", PB), ("TB", TB), ("GB", GB), ("MB", MB), ("kB", KB), ("B", 1.0),
)  # fmt: skip
_CANON_TIME_UNITS = (("h", HOUR), ("s", 1.0), ("min", MINUTE), ("d", DAY))


def _short(v: float) -> str:
    s = repr(float(v))
    if s.endswith(".0"):
        s = s[:-2]
    return s


def _best_exact(candidates: Iterable[str], parse, value: float, fallback: str) -> str:
    best: str | None = None
    for cand in candidates:
        try:
            ok = parse(cand) == value
        except UnitError:
            ok = False
        if ok and (best is None or len(cand) < len(best)):
            best = cand
    return best or fallback


def exact_size(size_bytes: ByteCount) -> str:
    """A size string that parses back to exactly the same float (for saving scenarios)."""
    cands = (f"{_short(size_bytes / f)} {u}" for u, f in _CANON_SIZE_UNITS)
    return _best_exact(cands, parse_size, size_bytes, f"{_short(size_bytes)} B")


def exact_rate(rate_Bps: BytesPerSecond) -> str:
    """A rate string that parses back to exactly the same float."""
    cands = []
    for tu, tf in (("s", 1.0), ("h", HOUR), ("min", MINUTE)):
        for su, sf in _CANON_SIZE_UNITS:
            cands.append(f"{_short(rate_Bps * tf / sf)} {su}/{tu}")
    return _best_exact(cands, parse_rate, rate_Bps, f"{_short(rate_Bps)} B/s")


def exact_duration(duration_s: Seconds) -> str:
    """A duration string that parses back to exactly the same float."""
    cands = (f"{_short(duration_s / f)} {u}" for u, f in _CANON_TIME_UNITS)
    return _best_exact(cands, parse_duration, duration_s, f"{_short(duration_s)} s")


def exact_fraction(value: Fraction) -> str:
    """A percentage string that parses back to exactly the same float."""
    cand = f"{_short(value * 100)}%"
    try:
        if parse_fraction(cand, allow_above_one=True) == value:
            return cand
    except UnitError:
        pass
    return _short(value)
