"""Parsing one raw value (from TOML or a form) per its field spec, with its checks:
the unit, positive, finite and the key's bound (core/bounds.py)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from ..bounds import GROWTH_COMPOUND, GROWTH_LINEAR, RISK_MARGIN_DURATION, RISK_MARGIN_FRACTION
from ..errors import UnitError
from ..units import (
    parse_duration,
    parse_fraction,
    parse_growth,
    parse_rate,
    parse_ratio,
    parse_size,
)
from .fields import FieldSpec


def _parse_margin(value: Any) -> tuple[float | None, float | None]:
    """`10%` → (0.1, None); `30 min` → (None, 1800)."""
    if isinstance(value, str) and value.strip().endswith("%"):
        frac = parse_fraction(value)
        RISK_MARGIN_FRACTION.check(frac, value)
        return frac, None
    if isinstance(value, int | float) and not isinstance(value, bool) and value <= 1:
        RISK_MARGIN_FRACTION.check(float(value), value)
        return float(value), None
    secs = parse_duration(value)
    RISK_MARGIN_DURATION.check(secs, value)
    return None, secs


def _parse_growth(value: Any) -> tuple[str, float]:
    """`25%/y` → ("compound", 0.25); `2 TB/y` → ("linear", 2e12), within its bound."""
    mode, yearly = parse_growth(value)
    (GROWTH_COMPOUND if mode == "compound" else GROWTH_LINEAR).check(yearly, value)
    return mode, yearly


_EXAMPLES = {
    "size": "'20 TiB'", "rate": "'140 MB/s'", "duration": "'4 h'", "fraction": "'5%'",
    "ratio": "2.0", "growth": "'25%/y'", "margin": "'10%' or '30 min'",
}  # fmt: skip


def _short(value: Any) -> str:
    """`repr` of a value, cut to a readable length for a one-line message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "size": parse_size,
    "rate": parse_rate,
    "duration": parse_duration,
    "fraction": parse_fraction,
    "ratio": parse_ratio,
    "growth": _parse_growth,
    "margin": _parse_margin,
}


_PARSED: dict[tuple[str, str], Any] = {}
"""Texts already parsed, by (kind, text): an estate's scenario files repeat their
values ('360 MB/s', '30 s') thousands of times. The parsers are pure; the spec's checks
(positive, finite, bound) still run on every value."""
_PARSED_MAX = 4096


def _parse_text(kind: str, value: Any) -> Any:
    if value.__class__ is not str:
        return _PARSERS[kind](value)
    key = (kind, value)
    parsed = _PARSED.get(key, _PARSED)
    if parsed is _PARSED:
        parsed = _PARSERS[kind](value)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = parsed
    return parsed


_CHECKED: dict[tuple[int, type, Any], tuple[FieldSpec, Any]] = {}
"""Values already parsed and checked, by (the spec, the value's type, the value), for
texts and whole numbers: an estate's thousands of scenario files repeat them ("360
MB/s", `channels = 4`), and parsing and checking are pure in the two. The spec is kept
with its result, so its `id` is never another's. A refused value is never kept; floats
are not kept (0.0 and -0.0 are equal keys)."""
_CHECKED_MAX = 8192


def parse_value(spec: FieldSpec, value: Any) -> Any:
    """Parse one raw value (from TOML or a form) per its spec; raises UnitError/ValueError."""
    cls = value.__class__
    if cls is not str and cls is not int:
        return _parse_value(spec, value)
    key = (id(spec), cls, value)
    hit = _CHECKED.get(key)
    if hit is not None and hit[0] is spec:
        return hit[1]
    parsed = _parse_value(spec, value)
    if len(_CHECKED) >= _CHECKED_MAX:
        _CHECKED.clear()
    _CHECKED[key] = (spec, parsed)
    return parsed


def _parse_value(spec: FieldSpec, value: Any) -> Any:
    if spec.kind in _PARSERS:
        return _parse_quantity(spec, value)
    parse = _BY_KIND.get(spec.kind)
    if parse is None:
        raise AssertionError(spec.kind)
    return parse(spec, value)


def _parse_quantity(spec: FieldSpec, value: Any) -> Any:
    """A value with a unit (size, rate, duration, share, ratio, growth, margin)."""
    if isinstance(value, bool):
        raise UnitError(f"{value!r} is not a number")
    if not isinstance(value, str | int | float):
        what = {list: "a list", dict: "a table"}.get(type(value), type(value).__name__)
        example = _EXAMPLES.get(spec.kind, "'10 GB'")
        raise UnitError(f"{_short(value)} is {what}, not a value such as {example}")
    parsed = _parse_text(spec.kind, value)
    if spec.positive and isinstance(parsed, float) and parsed <= 0:
        raise UnitError(f"{_short(value)}: must be greater than zero")
    if isinstance(parsed, float) and not math.isfinite(parsed):
        raise UnitError(f"{_short(value)} is not a finite number")
    if spec.bound is not None and isinstance(parsed, float):
        spec.bound.check(parsed, value)
    return parsed


def _parse_int(spec: FieldSpec, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and re.fullmatch(r"\s*\d{1,30}\s*", value):
            value = int(value)
        elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
            raise UnitError(f"{_short(value)} has {len(value.strip()):,} digits: far beyond "
                            "any count")  # fmt: skip
        else:
            raise UnitError(f"{_short(value)} is not a whole number")
    if value < 0 or (spec.positive and value == 0):
        raise UnitError(f"{_short(value)}: must be {'at least 1' if spec.positive else '>= 0'}")
    if spec.bound is not None:
        spec.bound.check(value, value)
    return int(value)


def _parse_float(spec: FieldSpec, value: Any) -> float:
    if isinstance(value, bool):
        raise UnitError(f"{_short(value)} is not a number")
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise UnitError(f"{_short(value)} is not a number") from None
    if not math.isfinite(f) or f < 0 or (spec.positive and f == 0):
        raise UnitError(f"{_short(value)}: must be a number greater than zero")
    if spec.bound is not None:
        spec.bound.check(f, value)
    return f


def _parse_bool(spec: FieldSpec, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    raise UnitError(f"{_short(value)} is not true or false")


def _parse_choice(spec: FieldSpec, value: Any) -> str:
    if not isinstance(value, str) or value.strip().lower() not in spec.choices:
        raise UnitError(f"{_short(value)} is not one of: {', '.join(spec.choices)}")
    return value.strip().lower()


def _parse_str(spec: FieldSpec, value: Any) -> str:
    if not isinstance(value, str):
        raise UnitError(f"{_short(value)} is not text; put it in quotes")
    if spec.required and not value.strip():
        raise UnitError("is empty: give it a name")
    if spec.bound is not None:
        spec.bound.check_length(value)
    return value


_BY_KIND: dict[str, Callable[[FieldSpec, Any], Any]] = {
    "int": _parse_int,
    "float": _parse_float,
    "bool": _parse_bool,
    "choice": _parse_choice,
    "str": _parse_str,
}
