"""Draws for the Monte Carlo runs (DESIGN §7, §10): one draw per input per trial.

Each input draws from its own stream, seeded by the run's seed and the input's key, so
adding a range to one figure does not reshuffle the draws of the others, and widening a
range moves every trial of that input outward from the mode (the draw is the inverse of
the triangular CDF, or of a prior's lognormal, at a fixed uniform). The default seed is
derived from the scenario's text: the same scenario gives the same answer on every
machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

import numpy as np

from ..scenario import Scenario, dump_mapping
from .inputs import Target, UncertainInput

FAILURE_STREAM = "failure time"


def default_seed(scenario: Scenario) -> int:
    """A seed derived from the scenario's canonical text (stable across runs)."""
    digest = hashlib.sha256(dump_mapping(scenario.raw).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << 63) - 1)


def _stream(seed: int, name: str) -> np.random.Generator:
    key = int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big")
    return np.random.default_rng([seed & ((1 << 64) - 1), key])


def uniforms(seed: int, name: str, trials: int) -> np.ndarray:
    """`trials` uniforms in [0, 1) from the stream named `name`."""
    return _stream(seed, name).random(trials)


def triangular(u: np.ndarray, low: float, mode: float, high: float) -> np.ndarray:
    """The triangular distribution's inverse CDF at `u` (low ≤ mode ≤ high)."""
    width = high - low
    if width <= 0:
        return np.full(u.shape, mode)
    split = (mode - low) / width
    rising = u < split
    x = np.empty(u.shape)
    x[rising] = low + np.sqrt(u[rising] * (width * (mode - low)))
    falling = ~rising
    x[falling] = high - np.sqrt((1.0 - u[falling]) * (width * (high - mode)))
    return x


# Acklam's rational approximation of the standard normal quantile (relative error below
# 1.2e-9 over (0, 1)): P. J. Acklam, "An algorithm for computing the inverse normal
# cumulative distribution function" (2003); numpy has no ndtri and scipy is not needed.
_A = (
    -3.969683028665376e01,
    2.209460984245205e02,
    -2.759285104469687e02,
    1.383577518672690e02,
    -3.066479806614716e01,
    2.506628277459239e00,
)
_B = (
    -5.447609879822406e01,
    1.615858368580409e02,
    -1.556989798598866e02,
    6.680131188771972e01,
    -1.328068155288572e01,
)
_C = (
    -7.784894002430293e-03,
    -3.223964580411365e-01,
    -2.400758277161838e00,
    -2.549732539343734e00,
    4.374664141464968e00,
    2.938163982698783e00,
)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
_P_LOW = 0.02425  # fmt: skip


def _tail(q: np.ndarray) -> np.ndarray:
    c, d = _C, _D
    num = ((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]
    return num / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)


def normal_quantile(u: np.ndarray) -> np.ndarray:
    """The standard normal's inverse CDF at `u` in (0, 1) (0 maps to a large negative
    value, not −∞: draws stay finite)."""
    u = np.clip(np.asarray(u, dtype=float), 1e-300, 1 - 1e-16)
    z = np.empty(u.shape)
    low, high = u < _P_LOW, u > 1 - _P_LOW
    mid = ~(low | high)
    q = u[mid] - 0.5
    r = q * q
    a, b = _A, _B
    num = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
    z[mid] = num / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    z[low] = _tail(np.sqrt(-2 * np.log(u[low])))
    z[high] = -_tail(np.sqrt(-2 * np.log1p(-u[high])))
    return z


def lognormal(u: np.ndarray, value: float, median: float, sigma: float) -> np.ndarray:
    """A lognormal prior's inverse CDF at `u`: value × median × exp(sigma × z)."""
    return value * median * np.exp(sigma * normal_quantile(u))


def draw(item: UncertainInput, u: np.ndarray) -> np.ndarray:
    """One input's figures at the uniforms `u`, held to the key's bounds."""
    if item.distribution == "lognormal":
        x = lognormal(u, item.value, item.median_factor, item.sigma)
    else:
        x = triangular(u, item.low, item.value, item.high)
    return np.clip(x, item.floor, item.ceiling)


def draw_inputs(
    inputs: Iterable[UncertainInput],
    trials: int,
    seed: int,
    between: Callable[[], None] | None = None,
) -> tuple[dict[Target, np.ndarray], dict[str, np.ndarray]]:
    """One draw per input per trial: (values by target, the uniforms by key).

    Every draw is held to its key's bounds (a share within 0..100 %, an efficiency at
    most 100 %). `between()` is called after each input (a cancelled run raises there)."""
    values: dict[Target, np.ndarray] = {}
    us: dict[str, np.ndarray] = {}
    for item in inputs:
        if item.is_zero:
            continue
        u = uniforms(seed, item.key, trials)
        values[item.target] = draw(item, u)
        us[item.key] = u
        if between is not None:
            between()
    return values, us


def failure_times(seed: int, trials: int, period_s: float) -> np.ndarray:
    """Failure instants drawn uniformly over the level 0 cycle [0, period)."""
    return uniforms(seed, FAILURE_STREAM, trials) * period_s
