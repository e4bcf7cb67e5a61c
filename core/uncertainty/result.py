"""Plain result data of a Monte Carlo run (DESIGN §7, "Outputs") and its JSON.

Times are seconds, probabilities fractions in 0..1. `risk_to_json` is the stable JSON of
`rto-planner risk --json`, documented in docs/risk.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..units import format_percent

PERCENTILES = (10, 50, 90, 95, 99)
MODES = ("worst", "uniform")
MODE_WORDS = {
    "worst": "at the worst moment of the cycle",
    "uniform": "at any moment of the cycle",
}


@dataclass(frozen=True)
class Distribution:
    """Recovery times of one failure-time mode over all trials."""

    mode: str
    p_meets: float
    p_at_risk: float
    p_misses: float
    percentiles_s: dict[int, float]
    mean_s: float
    min_s: float
    max_s: float
    hist_edges_s: tuple[float, ...]
    hist_counts: tuple[int, ...]
    cdf_s: tuple[float, ...]
    """The recovery time at each whole percent 0..100 (101 points): the CDF's inverse."""
    hist_below: int = 0
    """Trials faster than the histogram's first edge (a long tail is cut, not squeezed
    into the bars: `analysis.histogram_range`)."""
    hist_beyond: int = 0
    """Trials slower than the histogram's last edge."""

    def percentile(self, p: int) -> float:
        return self.percentiles_s[p]


@dataclass(frozen=True)
class InputRow:
    """One input as the run used it (model units) and where its spread came from.

    `origin` is where the spread came from: "uncertainty" (the scenario's table) or the
    figure's provenance — "exact", "measured", "catalog", "default" (a class default)
    or "estimate"; `default_origin`/`default_range` say what the provenance alone
    gives, `source` the provenance in words (an import, a catalog source), `stated`
    whether the scenario's `[provenance]` table states it. `table_key` is the key to
    write in `[uncertainty]` or `[provenance]`: as written there, else a stage by its
    name when the name is unique, else the canonical key.

    `distribution` is "triangular" (between `low` and `high`, the value its mode) or
    "lognormal" (a catalog or class prior: value × `median_factor` × exp(`sigma` × z);
    `low` and `high` are then its P10 and P90). `prior_source` cites the prior's
    evidence and `evidence` says how much there is ("" without a prior).
    """

    key: str
    label: str
    kind: str
    value: float
    low: float
    high: float
    range_text: str
    origin: str
    default_origin: str
    default_range: str
    source: str
    table_key: str
    stated: bool
    distribution: str
    median_factor: float
    sigma: float
    prior_source: str
    evidence: str


@dataclass(frozen=True)
class TornadoBar:
    """Recovery time (worst instant) with one input at its low and at its high end, the
    others at their mode; `variance_share` is that input's first-order share of the
    variance of the trials (0..1; what it explains alone)."""

    key: str
    label: str
    low_total_s: float
    high_total_s: float
    swing_s: float
    variance_share: float


@dataclass(frozen=True)
class CheckOdds:
    """One target of the plan over the trials (a failure at the worst moment): the
    recovery against the RTO, the failover, the site-loss data loss against the RPO, each
    backup against its window (DESIGN §10: risk covers the whole plan). `name` is the
    plan's check name (`recovery`, `failover`, `rpo`, `backup.level0`, …)."""

    name: str
    title: str
    what: str
    """What the figure is, in a DBA's words ('worst-case recovery', 'duration')."""
    target_s: float
    planned_s: float
    """The figure with every input at its value (the plan's own)."""
    p_met: float
    """Share of the trials within the target (value ≤ target)."""
    percentiles_s: dict[int, float]

    def percentile(self, p: int) -> float:
        return self.percentiles_s[p]


@dataclass(frozen=True)
class RiskResult:
    scenario: str
    trials: int
    seed: int
    rto_s: float
    risk_margin_s: float
    deterministic_s: float
    """The plan's own recovery total: every input at its mode, worst instant."""
    worst: Distribution
    uniform: Distribution
    inputs: tuple[InputRow, ...]
    tornado: tuple[TornadoBar, ...]
    """Inputs with a range, largest swing first."""
    checks: tuple[CheckOdds, ...] = ()
    """Every target of the plan, recovery first (as `Plan.checks`)."""
    p_meets_all: float = 0.0
    """Share of the trials in which every target is met at once (worst moment): the
    probability the headline states."""

    def check(self, name: str) -> CheckOdds | None:
        return next((c for c in self.checks if c.name == name), None)

    def distribution(self, mode: str) -> Distribution:
        return self.worst if mode == "worst" else self.uniform

    @property
    def varied(self) -> tuple[InputRow, ...]:
        return tuple(r for r in self.inputs if r.low != r.high)

    @property
    def together_share(self) -> float:
        """The share of the trials' spread no figure explains alone: what figures explain
        acting together (a slow redo apply makes the per-log cost matter more), 1 less the
        sum of the first-order shares (0..1)."""
        if not self.tornado:
            return 0.0
        return min(max(1.0 - sum(b.variance_share for b in self.tornado), 0.0), 1.0)


TOGETHER_WORTH_SAYING = 0.2
"""From this share of the spread left to figures acting together, the tornado says so."""


def together_words(result: RiskResult) -> str:
    """'; figures acting together explain the other 74 %' where the first-order shares
    leave much of the spread unexplained (a figure can decide most by its swing and
    explain little of the spread alone), else ''."""
    rest = result.together_share
    if rest < TOGETHER_WORTH_SAYING:
        return ""
    return f"; figures acting together explain the other {format_percent(rest, 0)}"


def _dist_json(d: Distribution) -> dict[str, Any]:
    return {
        "p_meets": d.p_meets,
        "p_at_risk": d.p_at_risk,
        "p_misses": d.p_misses,
        "percentiles_s": {f"p{p}": v for p, v in d.percentiles_s.items()},
        "mean_s": d.mean_s,
        "min_s": d.min_s,
        "max_s": d.max_s,
        "histogram": {
            "edges_s": list(d.hist_edges_s),
            "counts": list(d.hist_counts),
            "below": d.hist_below,
            "beyond": d.hist_beyond,
        },
        "cdf_s": list(d.cdf_s),
    }


def _check_json(c: CheckOdds) -> dict[str, Any]:
    return {
        "name": c.name,
        "title": c.title,
        "target_s": c.target_s,
        "planned_s": c.planned_s,
        "p_met": c.p_met,
        "percentiles_s": {f"p{p}": v for p, v in c.percentiles_s.items()},
    }


def risk_to_json(result: RiskResult) -> dict[str, Any]:
    """The JSON of `rto-planner risk --json` (keys documented in docs/risk.md)."""
    return {
        "scenario": result.scenario,
        "trials": result.trials,
        "seed": result.seed,
        "units": {
            "time": "s",
            "probability": "fraction 0..1",
            "inputs": "bytes, bytes/s, s, fractions (model units)",
        },
        "rto_s": result.rto_s,
        "risk_margin_s": result.risk_margin_s,
        "deterministic_s": result.deterministic_s,
        "p_meets_all": result.p_meets_all,
        "checks": [_check_json(c) for c in result.checks],
        "failure_time": {mode: _dist_json(result.distribution(mode)) for mode in MODES},
        "tornado": [
            {
                "key": b.key,
                "label": b.label,
                "low_total_s": b.low_total_s,
                "high_total_s": b.high_total_s,
                "swing_s": b.swing_s,
                "variance_share": b.variance_share,
            }
            for b in result.tornado
        ],
        "inputs": [
            {
                "key": r.key,
                "label": r.label,
                "value": r.value,
                "low": r.low,
                "high": r.high,
                "range": r.range_text,
                "origin": r.origin,
                "default_origin": r.default_origin,
                "default_range": r.default_range,
                "source": r.source,
                "table_key": r.table_key,
                "provenance": r.default_origin,
                "stated": r.stated,
                "distribution": r.distribution,
                "median_factor": r.median_factor,
                "sigma": r.sigma,
                "prior_source": r.prior_source,
                "evidence": r.evidence,
            }
            for r in result.inputs
        ],
    }
