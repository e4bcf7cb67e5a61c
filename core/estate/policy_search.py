"""Policy before purchase (DESIGN §12): the runbook that makes priority 1 meet its RTO on
the estate's own hardware, found by search, before any purchase is priced.

The knobs are `policy.Policy`'s: the order within priority 1, units of a tape library
kept for priority 1 until its restores are through, and when the lower tiers' restores
start. Two facts of the model make the search short and its verdicts certain:

* the lower tiers slow priority 1 only through the drives they hold (bandwidth goes by
  strict priority), so priority 1 simulated **alone** is the best any runbook can give
  it with a given order: an order with which priority 1 misses alone is dropped without
  simulating the estate;
* keeping **every** unit of the libraries priority 1 uses for it until its restores are
  through gives it exactly that best (the lower tiers then get no drive before), so an
  order that meets alone meets with that runbook. Less restrictive runbooks — fewer
  units kept, or the lower tiers started at one of priority 1's own milestones — are
  found by bisection, each checked with the estate simulation itself.

Among the runbooks that make priority 1 meet, the one that costs the other databases
least wins: the fewest databases missing their RTO, then the least time late in all,
then the fewest measures, then the earliest last opening.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import CoreError
from ..units import format_duration
from .jobs import JobCache, build_jobs
from .model import FAILOVER, Estate
from .policy import Policy
from .run import DatabaseOutcome, EstateResult, run_estate

MAX_ORDERS = 6
"""Orders within priority 1 tried on a large priority 1 (each first simulated with
priority 1 alone)."""
EVERY_ORDER_UP_TO = 4
"""Up to this many priority-1 databases that restore, every order is tried (each
sequence of them going first, the rest together: 65 for four), so "no runbook makes
priority 1 meet" is then a fact of the model, not of the orders tried."""
MEETING_ORDERS = 2
START_STEP_S = 300.0
"""A lower tier's start is a time an operator can follow: priority 1's milestones are
rounded up to the next 5 minutes."""
"""Orders that meet alone whose least restrictive runbook is searched in the estate."""

Progress = Callable[[float, str], None]

METHOD = (
    "every order within priority 1 (each sequence of its databases first, the rest "
    "together; on more than four: as it is, each tightest first, least slack first, "
    "earliest RTO first), each simulated with priority 1 alone (the best any runbook gives "
    "it); for an order that meets, the fewest library units kept for priority 1 and the "
    "earliest start of the lower tiers with which it still meets, by bisection with the "
    "estate simulation"
)


class PolicyCancelled(CoreError):
    def __init__(self) -> None:
        super().__init__("runbook search: cancelled")


@dataclass(frozen=True)
class PolicyPoint:
    """A runbook and what the estate simulation says of it."""

    policy: Policy
    tier1_meets: bool
    worst_margin_s: float
    """The smallest RTO − open time among priority-1 databases."""
    misses: int
    at_risk: tuple[str, ...]
    """Priority-1 databases at risk (inside their RTO, by less than their margin)."""
    late_s: float
    """Σ of how late every database that misses opens."""
    last_open_s: float

    def key(self) -> tuple[float, ...]:
        """Smaller is better (see the module docstring)."""
        if not self.tier1_meets:
            return (1.0, -self.worst_margin_s, 0.0, 0.0, 0.0, 0.0)
        return (0.0, float(self.misses), float(len(self.at_risk)), self.late_s,
                float(self.policy.measures), self.last_open_s)  # fmt: skip


@dataclass(frozen=True)
class PolicyAnswer:
    method: str
    current: PolicyPoint
    """The estate as given, with its own runbook (none, or its `[policy]`)."""
    best: PolicyPoint
    """The runbook to follow: the least restrictive that makes priority 1 meet, or, when
    none does, the one that gives priority 1 the most (the least hardware is searched on
    top of it)."""
    simulations: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def already_met(self) -> bool:
        return self.current.tier1_meets

    @property
    def found(self) -> bool:
        """A runbook that makes priority 1 meet without buying anything."""
        return self.best.tier1_meets

    @property
    def changed(self) -> bool:
        return self.best.policy != self.current.policy


def point(result: EstateResult, policy: Policy) -> PolicyPoint:
    tier1 = result.tier1
    late = [d.open_s - d.rto_s for d in result.databases if d.verdict == "misses"]
    return PolicyPoint(
        policy,
        tier1_meets=all(d.verdict != "misses" for d in tier1),
        worst_margin_s=min((d.margin_s for d in tier1), default=math.inf),
        misses=len(late),
        at_risk=tuple(d.name for d in tier1 if d.verdict == "at_risk"),
        late_s=sum(late),
        last_open_s=result.last_open_s,
    )


def _every_order(base: tuple[str, ...], tier1: list[DatabaseOutcome]) -> list[tuple[str, ...]]:
    """The current order, then every order of every subset of `tier1` (tightest first)."""
    names = [d.name for d in sorted(tier1, key=lambda d: d.margin_s)]
    every = [p for k in range(len(names) + 1) for p in itertools.permutations(names, k)]
    return [base, *(o for o in every if o != base)]


def _some_orders(base: tuple[str, ...], tier1: list[DatabaseOutcome]) -> list[tuple[str, ...]]:
    """The current order; each database first (the tightest first); least slack first
    (RTO − alone); earliest RTO first: each once, at most `MAX_ORDERS`."""
    tight = sorted(tier1, key=lambda d: d.margin_s)
    out = [base, *((d.name,) for d in tight[: MAX_ORDERS - 3])]
    out.append(tuple(d.name for d in sorted(tier1, key=lambda d: (d.rto_s - d.alone_s, d.name))))
    out.append(tuple(d.name for d in sorted(tier1, key=lambda d: (d.rto_s, d.name))))
    return list(dict.fromkeys(out))[:MAX_ORDERS]


class _Search:
    def __init__(self, estate: Estate, should_cancel: Callable[[], bool] | None,
                 progress: Progress | None) -> None:  # fmt: skip
        self.estate = estate
        self.should_cancel = should_cancel or (lambda: False)
        self.progress = progress or (lambda f, m: None)
        self.simulations = 0
        self.tier1 = estate.with_databases(tuple(d for d in estate.databases if d.priority == 1))
        self.pools = sorted({name for d in self.tier1.databases if d.route != FAILOVER
                             for name in d.shared_names
                             if estate.resource(name).binds_channel})  # fmt: skip
        self.lower = sorted({d.priority for d in estate.databases if d.priority > 1})
        self.jobs = JobCache()
        """The databases' own plans, computed once for every runbook tried."""
        self.alone_runs: dict[tuple[str, ...], EstateResult] = {}
        """Priority 1 alone, by order (`alone`)."""

    def run(self, estate: Estate) -> EstateResult:
        if self.should_cancel():
            raise PolicyCancelled
        self.simulations += 1
        jobs = build_jobs(estate, self.jobs)
        return run_estate(estate, trace=False, should_cancel=self.should_cancel, jobs=jobs)

    def evaluate(self, policy: Policy) -> PolicyPoint:
        return point(self.run(self.estate.with_policy(policy)), policy)

    def alone(self, policy: Policy) -> EstateResult:
        """Priority 1 alone with `policy`'s order: the best any runbook gives it
        (simulated once per order)."""
        if policy.order not in self.alone_runs:
            self.alone_runs[policy.order] = self.run(
                self.tier1.with_policy(Policy(order=policy.order))
            )
        return self.alone_runs[policy.order]

    # ------------------------------------------------------------------ candidates

    def orders(self, result: EstateResult) -> list[tuple[str, ...]]:
        """Every order on a small priority 1 (`EVERY_ORDER_UP_TO`), else: as it is; each
        priority-1 database that misses (then the tightest) first; least slack first
        (RTO − alone); earliest RTO first."""
        base = self.estate.policy.order
        tier1 = self.reorderable(result)
        if len(tier1) <= EVERY_ORDER_UP_TO:
            return _every_order(base, tier1)
        return _some_orders(base, tier1)

    def reorderable(self, result: EstateResult) -> list[DatabaseOutcome]:
        """The priority-1 databases whose place in the order can matter: they share
        something and can meet their RTO alone."""
        return [d for d in result.tier1 if d.alone_s < d.rto_s and self.restores(d.name)]

    def restores(self, name: str) -> bool:
        """Whether the database shares anything (the order matters to it)."""
        db = next(d for d in self.estate.databases if d.name == name)
        return db.route != FAILOVER and bool(db.shared_names)

    def full_reserve(self, policy: Policy) -> Policy:
        """Every unit of the libraries priority 1 uses kept for it."""
        units = {name: self.estate.resource(name).stage.count for name in self.pools}
        return policy.with_reserve(units)

    def milestones(self, alone: EstateResult) -> list[float]:
        """When priority 1's restores end, alone, rounded up to `START_STEP_S` (the lower
        tiers' start candidates)."""
        ends = {p.end_s for d in alone.databases for p in d.phases if p.data_bytes > 0}
        return sorted({math.ceil(t / START_STEP_S) * START_STEP_S for t in ends if t > 0})

    # ------------------------------------------------------------------ bisection

    def least(self, candidates: Sequence[Policy]) -> PolicyPoint | None:
        """The first of `candidates` (ordered from least to most restrictive, the last
        known to meet) with which priority 1 meets, by bisection."""
        lo, hi = -1, len(candidates) - 1
        found: PolicyPoint | None = None
        while hi - lo > 1:
            mid = (lo + hi) // 2
            p = self.evaluate(candidates[mid])
            if p.tier1_meets:
                hi, found = mid, p
            else:
                lo = mid
        return found if found is not None and found.policy == candidates[hi] else \
            self.evaluate(candidates[hi])  # fmt: skip

    def kept(self, share: float) -> dict[str, int]:
        """`share` of the units of each library priority 1 uses (rounded up)."""
        return {n: math.ceil(self.estate.resource(n).stage.count * share) for n in self.pools}

    def relaxed(self, policy: Policy, alone: EstateResult) -> list[PolicyPoint]:
        """The least restrictive runbooks on top of `policy`'s order that still meet: the
        fewest units kept, and the earliest common start of the lower tiers."""
        out = []
        if self.pools:
            top = max(self.estate.resource(n).stage.count for n in self.pools)
            steps = [policy.with_reserve(self.kept(k / top)) for k in range(1, top + 1)]
            out.append(self.least(steps))
            if self.lower:
                times = self.milestones(alone)
                starts = [policy.with_start({t: when for t in self.lower}) for when in times]
                if starts:
                    out.append(self.least(starts))
        return [p for p in out if p is not None and p.tier1_meets]

    # ------------------------------------------------------------------ the search

    def search(self, result: EstateResult) -> tuple[PolicyPoint, list[str]]:
        current = point(result, self.estate.policy)
        orders = self.orders(result)
        meeting: list[tuple[Policy, EstateResult]] = []
        best_alone: tuple[float, Policy] | None = None
        for k, order in enumerate(orders):
            self.progress(k / (len(orders) + 2 * MEETING_ORDERS), "trying recovery orders")
            policy = Policy(order=order)
            alone = self.alone(policy)
            margin = min((d.margin_s for d in alone.databases), default=math.inf)
            if best_alone is None or margin > best_alone[0]:
                best_alone = (margin, policy)
            if all(d.verdict != "misses" for d in alone.databases):
                meeting.append((policy, alone))
        if not meeting:
            assert best_alone is not None
            policy = self.full_reserve(best_alone[1])
            why = self.tightest(best_alone[1], every=self.every_order(result))
            return self.evaluate(policy), [why]
        points = [current]
        for k, (policy, alone) in enumerate(meeting[:MEETING_ORDERS]):
            self.progress((len(orders) + 2 * k) / (len(orders) + 2 * MEETING_ORDERS),
                          "finding the least restrictive runbook")  # fmt: skip
            plain = self.evaluate(policy)
            points.append(plain)
            if not plain.tier1_meets:
                points += self.relaxed(policy, alone)
        return min(points, key=PolicyPoint.key), []

    def every_order(self, result: EstateResult) -> bool:
        return len(self.reorderable(result)) <= EVERY_ORDER_UP_TO

    def tightest(self, policy: Policy, *, every: bool) -> str:
        alone = self.alone(policy)
        worst = min(alone.databases, key=lambda d: d.margin_s)
        late = format_duration(-worst.margin_s)
        which = "in any order" if every else "in the best of the orders tried"
        return (f"even with the lower tiers out of its way, {which}, "
                f"{worst.name} opens {late} after its RTO")  # fmt: skip


def search_policy(
    estate: Estate,
    result: EstateResult | None = None,
    *,
    should_cancel: Callable[[], bool] | None = None,
    progress: Progress | None = None,
) -> PolicyAnswer:
    """The runbook (`Policy`) to follow: see the module docstring."""
    search = _Search(estate, should_cancel, progress)
    if result is None:
        result = search.run(estate)
    current = point(result, estate.policy)
    if current.tier1_meets:
        return PolicyAnswer(METHOD, current, current, search.simulations)
    best, notes = search.search(result)
    return PolicyAnswer(METHOD, current, best, search.simulations, tuple(notes))
