"""The headline carries its confidence (DESIGN §10, issue 20.5).

The plan at its figures says `meets`, `at_risk` or `misses` (DESIGN §3.7). A DBA signs a
promise on it, so the headline also states how likely the plan is to hold: the share of
Monte Carlo trials (every uncertain figure drawn from its range) in which every target —
the recovery against the RTO, the data loss against the RPO, each backup against its
window — is met at once. The headline verdict is the worse of the two:

* `misses` when P(meets) < 50 %;
* `at_risk` when P(meets) < `targets.confidence` (default 90 %);
* else the plan's own verdict.

So a cover never says MEETS over a page that says 27 % miss. The terminal, the GUI's
banner and status bar, Compare and the PDF cover all word it here: "MEETS — 93 % sure".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .engine.verdict import SEVERITY, Check, decided_by_words
from .wording import VERDICT_WORDS

if TYPE_CHECKING:
    from .catalog import Catalog
    from .plan import Plan
    from .uncertainty.result import RiskResult

PLAN_TRIALS = 2_000
"""Trials `rto-planner plan` runs for the headline's probability (seeded by the
scenario's text, so the output is deterministic); `risk` and the PDF run 100,000."""

_VERBS = {"meets": "meets", "at_risk": "is at risk", "misses": "misses"}

MISSES_BELOW = 0.5
"""Below this P(meets) the plan is more likely to miss than to meet."""


def probability_verdict(p_meets: float, confidence: float) -> str:
    """`misses` below 50 %, `at_risk` below the confidence required, else `meets`."""
    if p_meets < MISSES_BELOW:
        return "misses"
    return "at_risk" if p_meets < confidence else "meets"


def worse(a: str, b: str) -> str:
    """The worse of two verdicts (`unknown` never wins)."""
    return b if SEVERITY.get(b, -1) > SEVERITY.get(a, -1) else a


def sure_percent(p: float) -> str:
    """A probability as the headline says it: `93 %`, `99.5 %`, `over 99.9 %`, `100 %`
    only when every trial, `under 0.1 %`, `0 %` only when none."""
    from .uncertainty.words import percent

    text = percent(p)
    return text.replace("> ", "over ").replace("< ", "under ")


@dataclass(frozen=True)
class Headline:
    """The plan's verdict at its figures with its probability: what every front end says
    first. `p_meets` is None while the probability is being computed (the GUI shows the
    plan's verdict at once and the probability a moment later)."""

    planned: str
    """The plan's own verdict at its figures (`Plan.verdict`)."""
    deciding: Check
    """The check that sets the plan's own verdict (`Plan.deciding`)."""
    confidence: float
    """`targets.confidence`: the share of trials that must meet every target."""
    p_meets: float | None = None
    trials: int = 0
    seed: int = 0
    weakest: str = ""
    """The check least likely to be met (`recovery`, `rpo`, `backup.level0`, …)."""
    weakest_p: float = 1.0

    @property
    def pending(self) -> bool:
        return self.p_meets is None

    @property
    def by_probability(self) -> str | None:
        """The verdict the probability alone gives (None while pending)."""
        if self.p_meets is None:
            return None
        return probability_verdict(self.p_meets, self.confidence)

    @property
    def verdict(self) -> str:
        """The headline verdict: the worse of the plan at its figures and its probability."""
        by_p = self.by_probability
        return self.planned if by_p is None else worse(self.planned, by_p)

    @property
    def probability_decides(self) -> bool:
        """The probability, not the plan at its figures, sets the headline verdict."""
        by_p = self.by_probability
        return by_p is not None and SEVERITY[by_p] > SEVERITY.get(self.planned, -1)

    @property
    def decided_by(self) -> str:
        """The check that sets the headline verdict: the one least likely to be met when
        the probability decides, else the check that decides the plan at its figures."""
        if self.probability_decides and self.weakest:
            return self.weakest
        return self.deciding.name

    def sure(self) -> str:
        """`93 % sure` (meets), `61 % likely to meet` (otherwise), `probability pending`."""
        if self.p_meets is None:
            return "probability pending"
        pct = sure_percent(self.p_meets)
        return f"{pct} sure" if self.verdict == "meets" else f"{pct} likely to meet"

    def title(self) -> str:
        """The headline in capitals: `MEETS — 93 % sure`."""
        return f"{VERDICT_WORDS[self.verdict]} — {self.sure()}"

    def why(self) -> str:
        """One sentence on how the verdict was reached, for the line under the title."""
        at_figures = _VERBS.get(self.planned, self.planned)
        decided = decided_by_words(self.deciding.name)
        if self.p_meets is None:
            return f"At the planned figures it {at_figures} (decided by {decided}); the "\
                "probability of meeting every target is being computed."  # fmt: skip
        pct = sure_percent(self.p_meets)
        said = (
            f"{pct} of {self.trials:,} trials meet every target at once; "
            f"{sure_percent(self.confidence)} is required"
        )
        said += self.weakest_words()
        lead = f"At the planned figures it {at_figures} (decided by {decided})"
        if self.probability_decides:
            return f"{lead}, but only {said}."
        return f"{lead}; {said}."

    def weakest_words(self) -> str:
        """'; least sure: recovery (61 %)' when a target is missed in some trials."""
        if not self.weakest or self.weakest_p >= 1.0:
            return ""
        return f"; least sure: {decided_by_words(self.weakest)} ({sure_percent(self.weakest_p)})"


def headline_of(plan: Plan, risk: RiskResult | None) -> Headline:
    """The headline of `plan` with the probability of a run on the same scenario (None:
    pending)."""
    weakest = min(risk.checks, key=lambda c: c.p_met) if risk is not None and risk.checks else None
    return Headline(
        planned=plan.verdict,
        deciding=plan.deciding,
        confidence=plan.scenario.targets.confidence,
        p_meets=None if risk is None else risk.p_meets_all,
        trials=0 if risk is None else risk.trials,
        seed=0 if risk is None else risk.seed,
        weakest=weakest.name if weakest is not None else "",
        weakest_p=weakest.p_met if weakest is not None else 1.0,
    )


def plan_headline(
    plan: Plan,
    *,
    trials: int = PLAN_TRIALS,
    seed: int | None = None,
    catalog: Catalog | None = None,
) -> Headline:
    """The headline with its probability from `trials` trials (no tornado: the trials
    alone), seeded by the scenario's text unless `seed` is given."""
    from .uncertainty.analysis import run_risk

    risk = run_risk(plan.scenario, trials=trials, seed=seed, catalog=catalog, tornado_too=False)
    return headline_of(plan, risk)
