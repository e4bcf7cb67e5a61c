"""The plan's recovery total for many trials at once: `recovery_totals`.

TEMPORARY: a loop over the scalar engine, one `apply_values` scenario per trial, while
the v2 engine lands; it is replaced by one call of the engine on arrays.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..engine.path import build_path_model
from ..engine.recovery import recovery_total_s, worst_failure_offset
from ..scenario import Scenario
from .inputs import Target, apply_values

VERDICTS = ("meets", "at_risk", "misses")
"""Verdict codes of `verdict_codes`: 0, 1, 2."""


def _trials(values: Mapping[Target, np.ndarray], failure_s: np.ndarray | None) -> int:
    sizes = {np.size(v) for v in values.values()}
    if failure_s is not None:
        sizes.add(np.size(failure_s))
    sizes.discard(1)
    if len(sizes) > 1:
        raise ValueError(f"trial arrays of different lengths: {sorted(sizes)}")
    return sizes.pop() if sizes else 1


def recovery_totals(
    scenario: Scenario,
    values: Mapping[Target, np.ndarray],
    failure_s: np.ndarray | None = None,
) -> np.ndarray:
    """Recovery total (s) per trial, with the inputs at `values` and the failure at
    `failure_s` since the level 0 (None: the worst instant of the cycle)."""
    n = _trials(values, failure_s)
    out = np.empty(n)
    for i in range(n):
        trial = {t: float(np.broadcast_to(v, (n,))[i]) for t, v in values.items()}
        sc = apply_values(scenario, trial)
        restore = build_path_model(sc)
        t = worst_failure_offset(sc) if failure_s is None else float(failure_s[i])
        out[i] = recovery_total_s(sc, restore, t)
    return out


def verdict_codes(totals: np.ndarray, rto_s: float, risk_margin_s: float) -> np.ndarray:
    """0 meets, 1 at risk, 2 misses per trial — the rule of the plan's verdict."""
    codes = np.where(rto_s - totals < risk_margin_s, 1, 0)
    return np.where(totals > rto_s, 2, codes).astype(np.int8)
