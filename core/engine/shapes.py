"""One engine, two shapes: the primitives that let the formulas compute on floats and on
numpy arrays alike (DESIGN §7).

A plan passes floats; the Monte Carlo run and the cycle scan pass arrays (one value per
trial, or per failure time) and get arrays back, through the same formulas. Each
primitive here takes either: on floats it is plain Python arithmetic (a plan stays as
fast as before), on arrays it is the numpy ufunc. Where a formula has a branch it is
written with `where` (both sides computed, the condition picks per element); a branch
that only decides a label (a bottleneck, a detail text) asks `is_batch` and is skipped
for arrays. Floats in, floats out: a plan's JSON never meets a numpy type.

Semantics follow IEEE/numpy on both shapes: x ÷ 0 is ±inf (0 ÷ 0 is nan), floor and
ceil leave infinities alone, so the side of a `where` that is not taken never raises.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Number = Any
"""A float, or a numpy array of one value per trial."""


_ND = np.ndarray


def _arrays(a: Any, b: Any) -> bool:
    return isinstance(a, _ND) or isinstance(b, _ND)


def is_batch(*values: Any) -> bool:
    """True when any value is an array of several elements (a batch of trials)."""
    for v in values:  # noqa: SIM110 - a plain loop: this runs on every formula of a plan
        if v.__class__ is _ND and v.ndim > 0:
            return True
    return False


def scalar(value: Any) -> Any:
    """A 0-d result as a Python float; arrays as they are."""
    if isinstance(value, np.ndarray):
        return value if value.ndim else value.item()
    if isinstance(value, np.generic):
        return value.item()
    return value


def where(condition: Any, a: Any, b: Any) -> Any:
    """`a` where the condition holds, else `b`, per element."""
    if condition.__class__ is bool and a.__class__ is not _ND and b.__class__ is not _ND:
        return a if condition else b
    if not (isinstance(condition, _ND) or isinstance(a, _ND) or isinstance(b, _ND)):
        return a if condition else b
    with np.errstate(all="ignore"):
        return scalar(np.where(condition, a, b))


def minimum(a: Any, b: Any) -> Any:
    if not (isinstance(a, _ND) or isinstance(b, _ND)):
        return b if b < a else a
    return scalar(np.minimum(a, b))


def maximum(a: Any, b: Any) -> Any:
    if not (isinstance(a, _ND) or isinstance(b, _ND)):
        return b if b > a else a
    return scalar(np.maximum(a, b))


def divide(a: Any, b: Any) -> Any:
    """a ÷ b; a zero divisor gives ±inf (nan for 0 ÷ 0), never an exception."""
    if not (isinstance(a, _ND) or isinstance(b, _ND)):
        return a / b if b else fdivide(a, b)
    with np.errstate(all="ignore"):
        return scalar(np.true_divide(a, b))


def sqrt(x: Any) -> Any:
    if not isinstance(x, _ND):
        return fsqrt(x)
    with np.errstate(all="ignore"):
        return scalar(np.sqrt(x))


def floor(x: Any) -> Any:
    if not isinstance(x, _ND):
        return ffloor(x)
    return scalar(np.floor(x))


def ceil(x: Any) -> Any:
    if not isinstance(x, _ND):
        return fceil(x)
    return scalar(np.ceil(x))


# The float paths of the primitives above, for a formula's float twin (`no_arrays`): the
# same operations, without asking each value whether it is an array.


def no_arrays(*values: Any) -> bool:
    """True when no value is a numpy array (of any shape): each primitive above then takes
    its float path, so a formula may run its float twin instead (`engine/flow.py`), which
    does the same IEEE operations in the same order without the per-call checks."""
    for v in values:  # noqa: SIM110 - a plain loop: this runs on every move of a plan
        if isinstance(v, _ND):
            return False
    return True


def fdivide(a: float, b: float) -> float:
    """`divide` on floats."""
    if b:
        return a / b
    if a == 0 or a != a:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def fsqrt(x: float) -> float:
    """`sqrt` on floats."""
    return math.sqrt(x) if x >= 0 else math.nan


def ffloor(x: float) -> float:
    """`floor` on floats."""
    return float(math.floor(x)) if math.isfinite(x) else x


def fceil(x: float) -> float:
    """`ceil` on floats."""
    return float(math.ceil(x)) if math.isfinite(x) else x


def isfinite(x: Any) -> Any:
    return math.isfinite(x) if not isinstance(x, _ND) else np.isfinite(x)


def either(a: Any, b: Any) -> Any:
    """Logical or, per element."""
    return (a or b) if not _arrays(a, b) else np.logical_or(a, b)


def both(a: Any, b: Any) -> Any:
    """Logical and, per element."""
    return (a and b) if not _arrays(a, b) else np.logical_and(a, b)


def negate(a: Any) -> Any:
    return (not a) if not isinstance(a, _ND) else np.logical_not(a)


def expm1(x: Any) -> Any:
    if not isinstance(x, _ND):
        return math.expm1(x) if x < 700 else math.inf
    with np.errstate(all="ignore"):
        return scalar(np.expm1(x))


def log1p(x: Any) -> Any:
    if not isinstance(x, _ND):
        return math.log1p(x) if x > -1 else -math.inf
    with np.errstate(all="ignore"):
        return scalar(np.log1p(x))


def clip(x: Any, lo: float, hi: float) -> Any:
    if not isinstance(x, _ND):
        return lo if x < lo else hi if x > hi else x
    return scalar(np.clip(x, lo, hi))


def nextafter_down(x: Any) -> Any:
    """The largest float below x (x > 0)."""
    return math.nextafter(x, 0.0) if not isinstance(x, _ND) else scalar(np.nextafter(x, 0.0))


def first(value: Any) -> float:
    """A representative element (the first trial): for labels and ordering only."""
    return float(np.ravel(value)[0]) if isinstance(value, _ND) else float(value)


def all_true(value: Any) -> bool:
    return bool(np.all(value)) if isinstance(value, _ND) else bool(value)


def any_true(value: Any) -> bool:
    return bool(np.any(value)) if isinstance(value, _ND) else bool(value)


__all__ = [
    "Number",
    "all_true",
    "any_true",
    "both",
    "ceil",
    "clip",
    "divide",
    "either",
    "expm1",
    "fceil",
    "fdivide",
    "ffloor",
    "first",
    "floor",
    "fsqrt",
    "is_batch",
    "isfinite",
    "log1p",
    "maximum",
    "minimum",
    "negate",
    "nextafter_down",
    "no_arrays",
    "scalar",
    "sqrt",
    "where",
]
