"""The plan's recovery total for many trials at once: `recovery_totals`.

No second engine: the trials' draws go into the scenario as numpy arrays
(`inputs.apply_values`) and the engine's own functions compute on them
(`core.engine.batch.recovery_totals`), exactly as they do on one plan's floats.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..engine.batch import PlanTrials, plan_trials
from ..engine.batch import recovery_totals as engine_totals
from ..engine.batch import worst_and_at as engine_worst_and_at
from ..engine.recovery import VERDICT_CODES, verdict_code
from ..scenario import Scenario
from .inputs import Target, apply_values

VERDICTS = VERDICT_CODES
"""Verdict codes of `verdict_codes`: 0, 1, 2."""


def recovery_totals(
    scenario: Scenario,
    values: Mapping[Target, np.ndarray],
    failure_s: np.ndarray | None = None,
) -> np.ndarray:
    """Recovery total (s) per trial, with the inputs at `values` and the failure at
    `failure_s` since the level 0 (None: the worst instant of the cycle)."""
    trials = apply_values(scenario, values)
    totals = np.asarray(engine_totals(trials, failure_s), dtype=float)
    return _per_trial(totals, values, failure_s)


def _per_trial(
    totals: np.ndarray, values: Mapping[Target, np.ndarray], failure_s: np.ndarray | None
) -> np.ndarray:
    """One total per trial, even when no varied figure reaches the total (the engine
    then gives one number for all of them)."""
    sizes = [np.size(v) for v in values.values()]
    if failure_s is not None:
        sizes.append(np.size(failure_s))
    return np.array(np.broadcast_to(np.atleast_1d(totals), (max(sizes, default=1),)))


def worst_and_uniform(
    scenario: Scenario, values: Mapping[Target, np.ndarray], failure_s: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Totals per trial at the worst instant and at `failure_s`, in one engine pass."""
    worst, at = engine_worst_and_at(apply_values(scenario, values), failure_s)
    return (_per_trial(np.asarray(worst, dtype=float), values, failure_s),
            _per_trial(np.asarray(at, dtype=float), values, failure_s))  # fmt: skip


def whole_plan(
    scenario: Scenario, values: Mapping[Target, np.ndarray], failure_s: np.ndarray
) -> PlanTrials:
    """`worst_and_uniform`, and each backup's duration, the site-loss data loss and the
    failover of the same trials (one engine pass), one figure per trial each."""
    t = plan_trials(apply_values(scenario, values), failure_s)

    def each(x):
        return _per_trial(np.asarray(x, dtype=float), values, failure_s)

    return PlanTrials(
        worst_s=each(t.worst_s),
        at_s=each(t.at_s),
        jobs_s={name: each(d) for name, d in t.jobs_s.items()},
        windows_s=t.windows_s,
        site_loss_s=each(t.site_loss_s),
        failover_s=None if t.failover_s is None else each(t.failover_s),
    )


def whole_plan_in_chunks(
    scenario: Scenario,
    values: Mapping[Target, np.ndarray],
    failure_s: np.ndarray,
    chunk: int,
    between: Callable[[float], None],
) -> PlanTrials:
    """`whole_plan` on `chunk` trials at a time, calling `between(fraction done)` after
    each (which may raise to stop): a run the GUI cancels stops within one chunk instead
    of finishing every trial while the user types. Every figure is computed per trial, so
    the answer is the same as in one pass."""
    n = len(failure_s)
    parts = []
    for start in range(0, n, chunk):
        end = min(start + chunk, n)
        parts.append(whole_plan(scenario, {k: v[start:end] for k, v in values.items()},
                                failure_s[start:end]))  # fmt: skip
        between(end / n)
    if len(parts) == 1:
        return parts[0]

    def joined(pick: Callable[[PlanTrials], Any]) -> np.ndarray:
        return np.concatenate([np.atleast_1d(pick(p)) for p in parts])

    first = parts[0]
    return PlanTrials(
        worst_s=joined(lambda p: p.worst_s),
        at_s=joined(lambda p: p.at_s),
        jobs_s={name: joined(lambda p, name=name: p.jobs_s[name]) for name in first.jobs_s},
        windows_s=first.windows_s,
        site_loss_s=joined(lambda p: p.site_loss_s),
        failover_s=None if first.failover_s is None else joined(lambda p: p.failover_s),
    )


def verdict_codes(totals: np.ndarray, rto_s: float, risk_margin_s: float) -> np.ndarray:
    """0 meets, 1 at risk, 2 misses per trial — the plan's own verdict rule."""
    return np.atleast_1d(verdict_code(totals, rto_s, risk_margin_s))
