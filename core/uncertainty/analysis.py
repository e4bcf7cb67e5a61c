"""How sure is the plan: the Monte Carlo run and its statistics (DESIGN §7).

`run_risk(scenario)` draws every input with a range (one draw per input per trial),
runs the plan's own engine on all trials at once (`batch.recovery_totals`) for a failure
at the worst instant of the cycle and at a uniformly drawn instant, and summarises:
P(meets / at risk / misses), percentiles, histogram and CDF, the tornado (each input at
its low and high end, the others at their mode) and each input's first-order share of
the variance.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields

import numpy as np

from ..catalog import Catalog
from ..errors import CoreError
from ..scenario import Scenario
from .batch import recovery_totals, verdict_codes, whole_plan, whole_plan_in_chunks
from .checks import check_odds, quantiles
from .inputs import UncertainInput, uncertain_inputs
from .result import PERCENTILES, Distribution, InputRow, RiskResult, TornadoBar
from .sampling import default_seed, draw_inputs, failure_times

DEFAULT_TRIALS = 100_000
HIST_BINS = 40
TUKEY_FAR = 3.0
"""The histogram's range ends at quartile ∓ this many interquartile ranges (Tukey's
'far out' fences): a normal distribution's 100,000 trials all fall inside."""
MAX_TRIALS = 10_000_000
CANCEL_CHUNK = 2_500
"""With a `should_cancel`, the trials run this many at a time and the run stops between
two chunks, as between two inputs' draws: a GUI run that a keystroke cancels stops within
a few milliseconds instead of competing with the repaint for the rest of its trials (the
chunks cost about a tenth more CPU; the answer is the same)."""

Progress = Callable[[float, str], None]


class RiskCancelled(CoreError):
    """The caller's `should_cancel()` asked to stop."""


def histogram_range(ordered: np.ndarray) -> tuple[float, float]:
    """The span the histogram covers: the trials' range, cut at Tukey's far-out fences
    (quartile ∓ 3 × the interquartile range) where a long tail would squeeze the body of
    the distribution into a few bars (a redo apply prior −85 %..+55 % gave 1 h..2 years:
    every trial but a few in the first of 40 bars). The trials cut off are counted
    (`Distribution.hist_below`, `hist_beyond`) and the charts state them."""
    lo, hi = float(ordered[0]), float(ordered[-1])
    q1, q3 = (float(v) for v in quantiles(ordered, np.array([0.25, 0.75])))
    iqr = q3 - q1
    if iqr > 0:
        lo, hi = max(lo, q1 - TUKEY_FAR * iqr), min(hi, q3 + TUKEY_FAR * iqr)
    if hi <= lo:
        pad = max(abs(lo) * 1e-3, 1.0)
        lo, hi = lo - pad, hi + pad
    return lo, hi


def histogram(totals: np.ndarray, lo: float, hi: float) -> tuple[np.ndarray, int, int, int]:
    """(counts of HIST_BINS equal bins over [lo, hi], trials below lo, trials beyond hi,
    trials in range); the last bin holds hi itself."""
    inside = (totals >= lo) & (totals <= hi)
    within = totals[inside]
    bins = np.minimum(((within - lo) * (HIST_BINS / (hi - lo))).astype(np.intp), HIST_BINS - 1)
    hist = np.bincount(bins, minlength=HIST_BINS)
    below = int(np.count_nonzero(totals < lo))
    return hist, below, int(totals.size - below - within.size), int(within.size)


def distribution(mode: str, totals: np.ndarray, rto_s: float, risk_s: float) -> Distribution:
    """The statistics of one failure-time mode's recovery totals."""
    codes = verdict_codes(totals, rto_s, risk_s)
    counts = np.bincount(codes, minlength=3) / totals.size
    ordered = np.sort(totals)
    qs = quantiles(ordered, np.linspace(0.0, 1.0, 101))
    lo, hi = histogram_range(ordered)
    edges = np.linspace(lo, hi, HIST_BINS + 1)
    hist, below, beyond, _ = histogram(totals, lo, hi)
    pcts = quantiles(ordered, np.array(PERCENTILES) / 100.0)
    return Distribution(
        mode=mode,
        p_meets=float(counts[0]),
        p_at_risk=float(counts[1]),
        p_misses=float(counts[2]),
        percentiles_s={p: float(v) for p, v in zip(PERCENTILES, pcts, strict=True)},
        mean_s=float(totals.mean()),
        min_s=float(qs[0]),
        max_s=float(qs[-1]),
        hist_edges_s=tuple(float(e) for e in edges),
        hist_counts=tuple(int(c) for c in hist),
        cdf_s=tuple(float(q) for q in qs),
        hist_below=below,
        hist_beyond=beyond,
    )


def first_order_share(u: np.ndarray, totals: np.ndarray, bins: int) -> float:
    """Share of the variance of `totals` explained by one input alone (its first-order
    Sobol index), estimated by binning the input's uniforms: Var(E[T | input]) / Var(T),
    less the sampling noise of the bin means."""
    n = totals.size
    var = float(totals.var())
    if n < 2 * bins or var <= 0:
        return 0.0
    idx = np.minimum((u * bins).astype(np.intp), bins - 1)
    counts = np.bincount(idx, minlength=bins)
    sums = np.bincount(idx, weights=totals, minlength=bins)
    filled = counts > 0
    means = sums[filled] / counts[filled]
    between = float(np.sum(counts[filled] * (means - totals.mean()) ** 2)) / n
    within = max(var - between, 0.0) * n / max(n - bins, 1)
    corrected = between - (bins - 1) / n * within
    return float(min(max(corrected / var, 0.0), 1.0))


def _bins_for(trials: int) -> int:
    return int(min(50, max(4, np.sqrt(trials) / 4)))


def tornado(
    scenario: Scenario, varied: list[UncertainInput], base_s: float
) -> list[tuple[UncertainInput, float, float]]:
    """(input, total at its low end, total at its high end) with the others at their
    mode, as one batch of 2 × inputs evaluations at the worst instant."""
    if not varied:
        return []
    n = 2 * len(varied)
    values = {}
    for j, item in enumerate(varied):
        col = np.full(n, item.value)
        col[2 * j] = item.low
        col[2 * j + 1] = item.high
        values[item.target] = col
    totals = recovery_totals(scenario, values, None)
    return [(item, float(totals[2 * j]), float(totals[2 * j + 1])) for j, item in enumerate(varied)]


def run_risk(
    scenario: Scenario,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    catalog: Catalog | None = None,
    overrides: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    should_cancel: Callable[[], bool] | None = None,
    tornado_too: bool = True,
) -> RiskResult:
    """The Monte Carlo answer to "how likely is the plan to hold?".

    `tornado_too=False` leaves the tornado out (the headline's probability needs only
    the trials)."""
    if not 1 <= trials <= MAX_TRIALS:
        raise CoreError(f"{trials} trials: give between 1 and {MAX_TRIALS:,}")
    report = progress or (lambda f, m: None)
    cancel = should_cancel or (lambda: False)

    def step(fraction: float, message: str) -> None:
        if cancel():
            raise RiskCancelled("the run was cancelled")
        report(fraction, message)

    seed = default_seed(scenario) if seed is None else int(seed)
    inputs = uncertain_inputs(scenario, catalog, overrides)
    varied = [i for i in inputs if not i.is_zero]
    tg = scenario.targets
    rto, risk = tg.rto_s, tg.risk_margin_abs_s
    step(0.0, "drawing the inputs")
    between = None if should_cancel is None else (lambda: step(0.05, "drawing the inputs"))
    draws, us = draw_inputs(varied, trials, seed, between)
    step(0.1, "recovery at the worst moment and at any moment")
    period = scenario.backup.level0_every_s
    failures = failure_times(seed, trials, period)
    if should_cancel is None:
        every = whole_plan(scenario, draws, failures)
    else:
        every = whole_plan_in_chunks(scenario, draws, failures, CANCEL_CHUNK,
                                     lambda done: step(0.1 + 0.7 * done, "trials"))  # fmt: skip
    worst, uniform = every.worst_s, every.at_s
    planned = whole_plan(scenario, {}, np.zeros(1))
    worst_d = distribution("worst", np.asarray(worst, dtype=float), rto, risk)
    checks, p_all = check_odds(scenario, every, planned, {"recovery": worst_d.percentiles_s})
    step(0.8, "tornado")
    base = float(np.atleast_1d(planned.worst_s)[0])
    bars = []
    bins = _bins_for(trials)
    for item, lo, hi in tornado(scenario, varied if tornado_too else [], base):
        share = first_order_share(us[item.key], worst, bins)
        bars.append(TornadoBar(item.key, item.label, lo, hi, abs(hi - lo), share))
    bars.sort(key=lambda b: (-b.swing_s, b.key))
    step(0.9, "statistics")
    result = RiskResult(
        scenario=scenario.name,
        trials=trials,
        seed=seed,
        rto_s=rto,
        risk_margin_s=risk,
        deterministic_s=base,
        worst=worst_d,
        uniform=distribution("uniform", np.asarray(uniform, dtype=float), rto, risk),
        inputs=tuple(_row(i) for i in inputs),
        tornado=tuple(bars),
        checks=checks,
        p_meets_all=p_all,
    )
    report(1.0, "done")
    return result


def _row(i: UncertainInput) -> InputRow:
    """The row a run reports: the input without where it sits in the Scenario."""
    return InputRow(**{f.name: getattr(i, f.name) for f in fields(InputRow)})
