"""Ranges of the `[uncertainty]` table (DESIGN §7): how far a figure may be off.

Three spellings, all strings:

* `"±15%"` (or `"+-15%"`, `"+/-15%"`): symmetric, relative to the scenario's value;
* `"-40%..+20%"`: asymmetric, relative; both ends carry a sign (`0%` may go without);
* `"3%..9%"`, `"90 MB/s..140 MB/s"`: absolute ends, in the unit of the key.

The scenario's value is the mode of a triangular distribution between the ends, so it
must lie between them. `"±0"` (or `"0%"`) pins a figure. This module is numpy-free: the
loader validates ranges with it on every scenario load.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import UnitError

_PCT = r"(\d+(?:\.\d*)?|\.\d+)\s*%?"
_SYMMETRIC = re.compile(r"^\s*(?:±|\+\s*/?\s*-)\s*" + _PCT + r"\s*$")
_SIGNED = re.compile(r"^\s*([+\-−])\s*(\d+(?:\.\d*)?|\.\d+)\s*%\s*$")
_ZERO = re.compile(r"^\s*[+\-−]?\s*0+(?:\.0*)?\s*%?\s*$")
_SEPARATOR = re.compile(r"\s*(?:\.\.|…)\s*")

EXAMPLES = '"±15%", "-40%..+20%" (relative) or "3%..9%" (absolute ends)'


@dataclass(frozen=True)
class RangeSpec:
    """A parsed range. `relative`: `low`/`high` are signed fractions of the value
    (−0.4, +0.2); else they are absolute ends in model units (bytes, seconds, …)."""

    text: str
    relative: bool
    low: float
    high: float

    def bounds(self, value: float) -> tuple[float, float]:
        """The (low, high) ends around `value`, in model units."""
        if self.relative:
            return value * (1.0 + self.low), value * (1.0 + self.high)
        return self.low, self.high

    @property
    def is_zero(self) -> bool:
        return self.relative and self.low == 0.0 and self.high == 0.0


ZERO = RangeSpec("±0", True, 0.0, 0.0)


def relative_range(low: float, high: float) -> RangeSpec:
    """A relative range from signed fractions, with its canonical text (`-30%..+0%`)."""
    return RangeSpec(format_relative(low, high), True, low, high)


def _pct(x: float) -> str:
    text = f"{abs(x) * 100:.6g}"
    return text


def format_relative(low: float, high: float) -> str:
    """`±10%` when symmetric, else `-30%..+0%`."""
    if low == 0 and high == 0:
        return "±0"
    if -low == high:
        return f"±{_pct(high)}%"
    return f"-{_pct(low)}%..+{_pct(high)}%"


def parse_range(text: object, parse_end: Callable[[str], float] | None = None) -> RangeSpec:
    """Parse a range text; `parse_end` parses an absolute end in the key's unit (e.g.
    `parse_rate`). Raises UnitError with a message that says what to write."""
    if isinstance(text, bool) or not isinstance(text, str):
        if isinstance(text, int | float) and not isinstance(text, bool) and text == 0:
            return ZERO
        raise UnitError(f"{text!r} is not a range: write it in quotes, e.g. {EXAMPLES}")
    s = text.strip()
    if not s:
        raise UnitError(f"an empty range: write e.g. {EXAMPLES}")
    if _ZERO.match(s) or s in ("±0", "+-0"):
        return RangeSpec(s, True, 0.0, 0.0)
    m = _SYMMETRIC.match(s)
    if m:
        return _symmetric(s, m)
    parts = _SEPARATOR.split(s)
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise UnitError(f"{s!r} is not a range: write e.g. {EXAMPLES}")
    lo_text, hi_text = (p.strip() for p in parts)
    if _signed(lo_text) is not None or _signed(hi_text) is not None:
        return _relative(s, lo_text, hi_text)
    return _absolute(s, lo_text, hi_text, parse_end)


def _symmetric(s: str, m: re.Match[str]) -> RangeSpec:
    """`±15%`: the same share down and up."""
    if not s.rstrip().endswith("%"):
        raise UnitError(f"{s!r}: write the share with '%', e.g. '±15%'")
    frac = float(m.group(1)) / 100.0
    _check_relative(s, -frac, frac)
    return RangeSpec(s, True, -frac, frac)


def _relative(s: str, lo_text: str, hi_text: str) -> RangeSpec:
    """`-40%..+20%`: both ends signed changes of the value (`0%` may go without)."""
    lo_signed, hi_signed = _signed(lo_text), _signed(hi_text)
    lo = lo_signed if lo_signed is not None else _zero_or_none(lo_text)
    hi = hi_signed if hi_signed is not None else _zero_or_none(hi_text)
    if lo is None or hi is None:
        raise UnitError(
            f"{s!r} mixes a relative end (with a sign) and an absolute one",
            hint="write both ends with a sign (-40%..+20%) for a change relative to the "
            "value, or neither (3%..9%) for absolute ends",
        )
    _check_relative(s, lo, hi)
    return RangeSpec(s, True, lo, hi)


def _absolute(
    s: str, lo_text: str, hi_text: str, parse_end: Callable[[str], float] | None
) -> RangeSpec:
    """`3%..9%`, `90 MB/s..140 MB/s`: both ends in the key's unit."""
    if parse_end is None:
        raise UnitError(f"{s!r}: absolute ends are not possible here; write e.g. '-40%..+20%'")
    try:
        lo_abs, hi_abs = parse_end(lo_text), parse_end(hi_text)
    except (UnitError, ValueError) as exc:
        raise UnitError(f"{s!r}: {exc}") from None
    if not (math.isfinite(lo_abs) and math.isfinite(hi_abs)):
        raise UnitError(f"{s!r}: the ends must be finite")
    if lo_abs > hi_abs:
        raise UnitError(f"{s!r}: the low end is above the high end; swap them")
    return RangeSpec(s, False, lo_abs, hi_abs)


def _signed(text: str) -> float | None:
    m = _SIGNED.match(text)
    if not m:
        return None
    value = float(m.group(2)) / 100.0
    return -value if m.group(1) in "-−" else value


def _zero_or_none(text: str) -> float | None:
    return 0.0 if _ZERO.match(text) else None


def _check_relative(text: str, low: float, high: float) -> None:
    if low > 0 or high < 0:
        raise UnitError(
            f"{text!r}: the scenario's value must lie inside its range",
            hint="the low end is a change of 0% or less (-40%), the high end 0% or more (+20%)",
        )
    if low <= -1.0:
        raise UnitError(f"{text!r}: a figure cannot fall by 100 % or more")


def check_contains(spec: RangeSpec, value: float, describe: Callable[[float], str]) -> None:
    """An absolute range must contain the scenario's value (the mode); UnitError if not."""
    if spec.relative:
        return
    if not (spec.low <= value <= spec.high):
        raise UnitError(
            f"{spec.text!r} does not contain the scenario's value {describe(value)}",
            hint="the value is the most likely figure: widen the range, or change the value",
        )
