"""Draws for the Monte Carlo runs (DESIGN §7): one draw per input per trial.

Each input draws from its own stream, seeded by the run's seed and the input's key, so
adding a range to one figure does not reshuffle the draws of the others, and widening a
range moves every trial of that input outward from the mode (the draw is the inverse of
the triangular CDF at a fixed uniform). The default seed is derived from the scenario's
text: the same scenario gives the same answer on every machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

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


def draw_inputs(
    inputs: Iterable[UncertainInput], trials: int, seed: int
) -> tuple[dict[Target, np.ndarray], dict[str, np.ndarray]]:
    """One draw per input per trial: (values by target, the uniforms by key).

    Shares (efficiency, daily change) are kept within 0..100 %.
    """
    values: dict[Target, np.ndarray] = {}
    us: dict[str, np.ndarray] = {}
    for item in inputs:
        if item.is_zero:
            continue
        u = uniforms(seed, item.key, trials)
        x = triangular(u, item.low, item.value, item.high)
        if item.kind == "fraction":
            x = np.clip(x, 0.0, 1.0)
        values[item.target] = x
        us[item.key] = u
    return values, us


def failure_times(seed: int, trials: int, period_s: float) -> np.ndarray:
    """Failure instants drawn uniformly over the level 0 cycle [0, period)."""
    return uniforms(seed, FAILURE_STREAM, trials) * period_s
