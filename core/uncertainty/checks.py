"""Risk over the whole plan (DESIGN §10): every target the plan is held against — the
recovery against the RTO, the failover, the site-loss data loss against the RPO, each
backup against its window — as a distribution over the trials, and the share of trials
in which all of them are met at once (the probability the headline states).

The checks are the plan's own (`core.engine.verdict.plan_checks`): the same names,
titles and targets, in the same order; a value within its target meets it.
"""

from __future__ import annotations

import numpy as np

from ..engine.batch import PlanTrials
from ..engine.verdict import BACKUP_PREFIX, FAILOVER, RECOVERY, RPO
from ..result import JOB_TITLES
from ..scenario import Scenario
from .result import PERCENTILES, CheckOdds


def _first(x: object) -> float:
    return float(np.atleast_1d(np.asarray(x, dtype=float))[0])


def _targets(scenario: Scenario, trials: PlanTrials) -> list[tuple[str, str, str, float, object]]:
    """(name, title, what, target, per-trial values) of every check with a target."""
    tg = scenario.targets
    out: list[tuple[str, str, str, float, object]] = [
        (RECOVERY, "Recovery", "worst-case recovery", tg.rto_s, trials.worst_s)
    ]
    if trials.failover_s is not None:
        out.append((FAILOVER, "Failover", "failover to the standby", tg.rto_s, trials.failover_s))
    if tg.rpo_s is not None:
        out.append((RPO, "RPO", "site-loss data loss", tg.rpo_s, trials.site_loss_s))
    for job, window in trials.windows_s.items():
        title = f"{JOB_TITLES.get(job, job)} backup"
        out.append((BACKUP_PREFIX + job, title, "duration", window, trials.jobs_s[job]))
    return out


def quantiles(ordered: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Quantiles of already sorted values (numpy's default, linear interpolation), so
    one sort serves the CDF and the percentiles."""
    pos = q * (ordered.size - 1)
    below = np.floor(pos).astype(np.intp)
    above = np.minimum(below + 1, ordered.size - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (pos - below)


def _percentiles(x: np.ndarray) -> dict[int, float]:
    if x.size == 0 or x.min() == x.max():  # a figure no range reaches: no sort
        v = float(x[0]) if x.size else float("nan")
        return dict.fromkeys(PERCENTILES, v)
    pcts = quantiles(np.sort(x), np.array(PERCENTILES) / 100.0)
    return {p: float(v) for p, v in zip(PERCENTILES, pcts, strict=True)}


def check_odds(
    scenario: Scenario,
    trials: PlanTrials,
    planned: PlanTrials,
    known: dict[str, dict[int, float]] | None = None,
) -> tuple[tuple[CheckOdds, ...], float]:
    """Each check over the trials, and the share of trials that meet every one.

    `trials` holds one figure per trial (`batch.whole_plan`); `planned` the same with
    every input at its value; `known` percentiles already computed, by check name (the
    recovery's distribution)."""
    plan_values = {name: values for name, *_, values in _targets(scenario, planned)}
    met_all: np.ndarray | None = None
    checks = []
    for name, title, what, target, values in _targets(scenario, trials):
        x = np.asarray(values, dtype=float)
        met = x <= target
        met_all = met if met_all is None else met_all & met
        pcts = (known or {}).get(name) or _percentiles(x)
        checks.append(
            CheckOdds(
                name=name,
                title=title,
                what=what,
                target_s=float(target),
                planned_s=_first(plan_values.get(name, np.nan)),
                p_met=float(met.mean()),
                percentiles_s=dict(pcts),
            )
        )
    p_all = float(met_all.mean()) if met_all is not None and met_all.size else 0.0
    return tuple(checks), p_all
