"""The least hardware for every priority-1 database to meet its RTO (DESIGN §9 with §8).

The candidates are What it takes' (§8) hardware changes for each `[[shared]]` resource —
more units (those there are owned: n more cost n × price) or another catalog item of the
same kind (all its units bought) — priced with §8's `PriceBook` (catalog prices, the
user's quotes win; "unpriced" when nobody gave a price, compared as §8's `Cost`).

The search is exact for that candidate set without assuming that more hardware never
slows a database: every combination of one option per resource is costed (no simulation
needed), then simulated with the estate simulation itself in ascending cost order; the
first combination with which every priority-1 database opens inside its RTO is the
cheapest. The number of simulations is capped (`MAX_SIMULATIONS`); when the cap stops
the search before an answer, the answer says so.

"More units" reaches beyond §8's ×2 / +4: for each resource on its own, a bisection with
the estate simulation finds a count that suffices (it meets and one unit fewer does
not), and the candidates go at least that far — so whenever more units of one resource
would do, the search finds an answer no dearer than that.

Priority-1 databases that miss their RTO even with the estate's shared hardware to
themselves are not helped by sharing less: each gets its own §8 answer
(`what_it_takes` on its scenario as the estate runs it).

**Policy before purchase** (DESIGN §12): before anything is priced, `policy_search`
looks for a runbook (the order within priority 1, library units kept for it, the lower
tiers' start) that makes priority 1 meet on the estate's hardware; when one does, nothing
is bought. Otherwise the hardware is searched on top of the runbook that gives priority
1 the most — its best order, with every unit of its libraries kept for it until its
restores are through — under which priority 1 gets exactly what it gets alone: each
candidate is simulated with priority 1 alone (the lower tiers cannot change its
answer), which is also what makes the search fast on large estates. The runbook to
follow with the purchase is then the least restrictive that still meets (searched again
on the bought hardware).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..catalog import DEFAULT_CURRENCY, Catalog, shipped_catalog
from ..errors import CoreError
from ..fix.model import FREE, Change, Cost, merged_edits
from ..fix.prices import PriceBook
from ..scenario import Stage
from .bound import tier1_cannot_meet, urgency
from .jobs import JobCache, build_jobs
from .least_candidates import SharedDimension, shared_dimensions, with_shared_stages
from .least_limits import MAX_SIMULATIONS, MIN_SIMULATIONS, WORK_BUDGET
from .model import Estate, EstateDatabase, with_shared_count
from .policy import Policy
from .policy_search import PolicyAnswer, PolicyCancelled, search_policy
from .run import EstateResult, run_estate

MAX_FACTOR = 64
"""The bisection looks no further than this many times the units the estate has."""
MAX_COMBINATIONS = 200_000
"""Combinations costed at most; beyond, each resource keeps only its cheapest options."""
MAX_POINTS = 10
"""Frontier points shown, as §8."""
MAX_ALONE_FIXES = 5
"""Databases missing alone whose own What it takes answer is computed here (the others
are named with the command that computes it)."""
FRONTIER_EXTRA = 40
"""Simulations spent beyond the answer on dearer combinations, for the frontier."""

Progress = Callable[[float, str], None]


def default_max_simulations(n_databases: int) -> int:
    """The search's cap for an estate of `n_databases`: 1,500, fewer on large estates
    (`WORK_BUDGET`), never below `MIN_SIMULATIONS`."""
    return max(MIN_SIMULATIONS, min(MAX_SIMULATIONS, WORK_BUDGET // max(1, n_databases)))


class LeastCancelled(CoreError):
    """The caller's `should_cancel` said stop."""

    def __init__(self) -> None:
        super().__init__("least hardware: cancelled")


@dataclass(frozen=True)
class LeastCount:
    """One resource on its own: the least count with which priority 1 meets."""

    resource: str
    kind: str
    current: int
    needed: int | None
    """Least count for all priority-1 databases to meet their RTO; None when even
    MAX_FACTOR × current is not enough (something else decides)."""

    @property
    def added(self) -> int | None:
        return None if self.needed is None else self.needed - self.current


@dataclass(frozen=True)
class EstatePoint:
    """A set of shared purchases, what it costs and what the estate simulation says."""

    changes: tuple[Change, ...]
    cost: Cost
    meets: bool
    """Every priority-1 database opens inside its RTO."""
    tier1_last_open_s: float
    worst_margin_s: float
    """The smallest RTO − open time among priority-1 databases (negative: a miss)."""

    @property
    def edits(self) -> dict[str, object]:
        return merged_edits(self.changes)


@dataclass(frozen=True)
class AloneFix:
    """A priority-1 database that misses with the shared hardware to itself, and its own
    cheapest fix by What it takes (§8)."""

    database: str
    source: str
    changes: tuple[Change, ...] = ()
    cost: Cost | None = None
    """None: What it takes found no set of changes that makes its plan meet."""
    searched: bool = True
    """False: not computed here (more than MAX_ALONE_FIXES such databases)."""

    @property
    def command(self) -> str:
        where = self.source if not self.source.startswith("store: ") else self.database
        return f'rto-planner fix "{where}"'


@dataclass(frozen=True)
class LeastHardware:
    method: str
    """How the answer was found (said in every output)."""
    already_met: bool
    misses_alone: tuple[str, ...]
    """Priority-1 databases that miss even with the estate's hardware to themselves."""
    counts: tuple[LeastCount, ...]
    """Each resource on its own (the bisection that bounds "more units")."""
    currency: str = DEFAULT_CURRENCY
    answer: EstatePoint | None = None
    """The cheapest combination that meets (None: none found, see `cap_hit`)."""
    proven: bool = True
    """The answer is the cheapest of the candidate set (False when the cap stopped the
    search and the answer is the cheapest one-resource count the bisection verified)."""
    frontier: tuple[EstatePoint, ...] = ()
    """Cost against the worst priority-1 margin, cheapest first (≤ MAX_POINTS)."""
    alone_fixes: tuple[AloneFix, ...] = ()
    simulations: int = 0
    combinations: int = 0
    ruled_out: int = 0
    """Candidates the bound proved to miss without simulating (`bound.tier1_cannot_meet`)."""
    cap_hit: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)
    policy: PolicyAnswer | None = None
    """Policy before purchase: the runbook searched first (None when priority 1 already
    meets, or misses alone)."""
    runbook: Policy | None = None
    """The runbook to follow with the answer's purchase."""
    at_risk: tuple[str, ...] = ()
    """Priority-1 databases at risk in the estate as it is (inside their RTO by less than
    their margin): "already met" does not hide them."""

    @property
    def purchase_needed(self) -> bool:
        return not self.already_met and not (self.policy is not None and self.policy.found)


METHOD = (
    "every combination of What it takes' hardware changes for the shared resources "
    "(more units, another catalog item of the same kind), priced and simulated with the "
    "estate simulation in ascending cost order; the first that meets is the cheapest"
)


# ----------------------------------------------------------------------------- bisection


def tier1_view(estate: Estate) -> Estate:
    """Priority 1 alone, in its runbook's order: what it gets in the estate when every
    unit of its libraries is kept for it until its restores are through (the lower tiers
    change nothing for it then), and the least hardware's question."""
    tier1 = tuple(d for d in estate.databases if d.priority == 1)
    return estate.with_databases(tier1).with_policy(Policy(order=estate.policy.order))


class _Trials:
    """Candidates simulated with priority 1 alone (`tier1_view`), unless the bound
    (`bound.tier1_cannot_meet`) proves without simulating that priority 1 misses:
    counts both."""

    def __init__(self, should_cancel: Callable[[], bool] | None) -> None:
        self.should_cancel = should_cancel or (lambda: False)
        self.simulations = 0
        self.ruled_out = 0
        self.jobs = JobCache()
        """The databases' own plans, computed once across the candidates."""
        self.urgency: dict[str, float] = {}
        """Each priority-1 database's `bound.urgency` on the first estate tried: the
        order in which the bound takes them."""

    def tier1(
        self, estate: Estate, stages: Mapping[str, Stage] | None = None
    ) -> EstateResult | None:
        """`estate`'s priority 1 alone with the shared `stages` bought, simulated; None
        when proven to miss. The bound is tried on the sixteenth of priority 1 that
        presses hardest on the hardware (`bound.urgency`), then such a quarter, then
        all (the bound holds for any part of priority 1: a part's bytes are some of the
        whole's), so that a candidate far short of what priority 1 needs is ruled out
        after planning a few of its databases."""
        if self.should_cancel():
            raise LeastCancelled
        view = tier1_view(estate)
        if not self.urgency:
            self.urgency = urgency(build_jobs(view, self.jobs))
        first = sorted(view.databases, key=lambda d: -self.urgency.get(d.name, 0.0))
        for size in _parts(len(first)):
            part = tuple(first[:size]) if size < len(first) else view.databases
            trial = with_shared_stages(view.with_databases(part), stages or {})
            jobs = build_jobs(trial, self.jobs)
            if tier1_cannot_meet(jobs, [r.stage.count for r in trial.shared]):
                self.ruled_out += 1
                return None
        self.simulations += 1
        return run_estate(trial, trace=False, should_cancel=self.should_cancel, jobs=jobs)


def _parts(n: int) -> list[int]:
    """How many of priority 1's databases the bound is tried on, in turn (the last: all)."""
    return sorted({k for k in (n // 16, n // 4) if k >= 8} | {n})


class _Bisection:
    """Each resource on its own: the least count that meets, by bisection."""

    def __init__(self, estate: Estate, trials: _Trials) -> None:
        self.estate = estate
        self.trials = trials

    def meets(self, name: str, count: int) -> bool:
        result = self.trials.tier1(with_shared_count(self.estate, name, count))
        return result is not None and result.tier1_all_meet

    def least_count(self, name: str) -> int | None:
        return _least_count(self.estate, name, self.meets)


def _least_count(estate: Estate, name: str, meets: Callable[[str, int], bool]) -> int | None:
    current = estate.resource(name).stage.count
    hi = current
    while True:
        hi = hi * 2
        if hi > current * MAX_FACTOR:
            return None
        if meets(name, hi):
            break
    lo = max(current, hi // 2)  # lo fails, hi meets
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if meets(name, mid):
            hi = mid
        else:
            lo = mid
    return hi


# ----------------------------------------------------------------------------- search


def _total(changes: Sequence[Change]) -> Cost:
    total = FREE
    for c in changes:
        total = total + c.cost
    return total


class _Search:
    def __init__(
        self,
        estate: Estate,
        dims: list[SharedDimension],
        trials: _Trials,
        progress: Progress | None,
        max_simulations: int,
    ) -> None:
        self.estate = estate
        self.dims = dims
        self.trials = trials
        self.progress = progress
        self.max_simulations = max_simulations
        self.simulations = 0
        self.points: list[EstatePoint] = []

    def changes(self, combo: tuple[int, ...]) -> tuple[Change, ...]:
        opts = (d.options[i] for d, i in zip(self.dims, combo, strict=True))
        return tuple(o.change for o in opts if o.change is not None)

    def evaluate(self, combo: tuple[int, ...]) -> EstatePoint | None:
        """The combination's point, simulated; None when the bound proves it misses (no
        point: its margin is not known, and it is not on the frontier)."""
        stages: dict[str, Stage] = {}
        for d, i in zip(self.dims, combo, strict=True):
            opt = d.options[i]
            if opt.change is not None and opt.stage is not None:
                stages[d.resource] = opt.stage
        result = self.trials.tier1(self.estate, stages)
        if result is None:
            return None
        self.simulations += 1
        changes = self.changes(combo)
        point = _point(result, changes, _total(changes))
        self.points.append(point)
        return point

    def ordered(self) -> list[tuple[int, ...]]:
        """Every combination but "as it is", cheapest first (then fewest changes)."""
        ranges = [range(len(d.options)) for d in self.dims]
        combos = itertools.product(*ranges)
        next(combos)  # all zeros: the estate as it is
        costed = [(_total(ch := self.changes(c)).key, len(ch), c) for c in combos]
        costed.sort()
        return [c for _, _, c in costed]

    def run(self) -> tuple[EstatePoint | None, bool, int]:
        """(the cheapest point that meets, whether the cap stopped the search, combinations)."""
        order = self.ordered()
        for n, combo in enumerate(order):
            if self.simulations >= self.max_simulations:
                return None, True, len(order)
            if self.progress is not None:
                done = max(n / len(order), self.simulations / self.max_simulations)
                self.progress(min(1.0, done), "searching the cheapest combination")
            point = self.evaluate(combo)
            if point is not None and point.meets:
                self.beyond(order[n + 1 :])
                return point, False, len(order)
        return None, False, len(order)

    def beyond(self, dearer: list[tuple[int, ...]]) -> None:
        """For the frontier: the most of every resource, and the next dearer combinations."""
        top = _most_of_every(self.dims)
        room = self.max_simulations - self.simulations
        picks = [top, *(c for c in dearer[:FRONTIER_EXTRA] if c != top)]
        for combo in picks[: max(0, room)]:
            self.evaluate(combo)


def _most_of_every(dims: list[SharedDimension]) -> tuple[int, ...]:
    """The combination with each resource's fastest option (the cheaper of equals)."""
    return tuple(
        max(range(len(d.options)), key=lambda i, d=d: (d.options[i].restore_Bps, -i)) for d in dims
    )


def _point(result: EstateResult, changes: tuple[Change, ...], cost: Cost) -> EstatePoint:
    tier1 = result.tier1
    return EstatePoint(
        changes=changes,
        cost=cost,
        meets=result.tier1_all_meet,
        tier1_last_open_s=max((d.open_s for d in tier1), default=0.0),
        worst_margin_s=min((d.margin_s for d in tier1), default=0.0),
    )


def _trim(dims: list[SharedDimension], limit: int) -> tuple[list[SharedDimension], bool]:
    """Keep each resource's cheapest options until the combinations fit `limit`."""
    if _combinations(dims) <= limit:
        return dims, False
    out = list(dims)
    while _combinations(out) > limit:
        widest = max(range(len(out)), key=lambda k: len(out[k].options))
        out[widest] = _narrowed(out[widest])
    return out, True


def _combinations(dims: list[SharedDimension]) -> int:
    """How many combinations of the resources' options there are."""
    return math.prod(len(d.options) for d in dims)


def _narrowed(d: SharedDimension) -> SharedDimension:
    """`d` with its dearest quarter of options dropped (today's option always kept)."""
    ordered = sorted(d.options[1:], key=lambda o: o.cost.key)
    keep = (d.options[0], *ordered[: max(1, (len(d.options) - 1) * 3 // 4)])
    return replace(d, dim=replace(d.dim, options=keep))


def frontier(points: Sequence[EstatePoint], answer: EstatePoint | None) -> tuple[EstatePoint, ...]:
    """Cost against the worst priority-1 margin: each point cheaper or safer than every
    other (a point must gain at least a minute), at most MAX_POINTS, answer kept."""
    ordered = sorted(points, key=lambda p: (p.cost.key, -p.worst_margin_s, len(p.changes)))
    out: list[EstatePoint] = []
    best = float("-inf")
    for p in ordered:
        if p.worst_margin_s > best + 60.0 or p is answer:
            out.append(p)
            best = max(best, p.worst_margin_s)
    if len(out) <= MAX_POINTS:
        return tuple(out)
    keep = {0, len(out) - 1}
    if answer is not None and answer in out:
        keep.add(out.index(answer))
    step = (len(out) - 1) / (MAX_POINTS - 1)
    for k in range(MAX_POINTS):
        if len(keep) >= MAX_POINTS:
            break
        keep.add(round(k * step))
    return tuple(out[i] for i in sorted(keep))


# ----------------------------------------------------------------------------- answer


def _alone_fixes(
    estate: Estate,
    names: Sequence[str],
    catalog: Catalog,
    prices: PriceBook,
    should_cancel: Callable[[], bool] | None,
    progress: Progress | None = None,
) -> tuple[AloneFix, ...]:
    out = []
    searched = min(len(names), MAX_ALONE_FIXES)
    for db in estate.databases:
        if db.name not in names:
            continue
        if len(out) >= MAX_ALONE_FIXES:
            out.append(AloneFix(db.name, db.source, searched=False))
            continue
        if progress is not None:
            progress(len(out) / searched, f"What it takes for {db.name}")
        out.append(_alone_fix(db, catalog, prices, should_cancel))
    return tuple(out)


def _alone_fix(
    db: EstateDatabase, catalog: Catalog, prices: PriceBook, cancel: Callable[[], bool] | None
) -> AloneFix:
    """One database's own cheapest fix: What it takes on its scenario as the estate runs it."""
    from ..fix.answer import what_it_takes

    fix = what_it_takes(db.estate_scenario, catalog=catalog, prices=prices, should_cancel=cancel,
                        odds=False)  # fmt: skip
    rec = fix.recommended
    if rec is None:
        return AloneFix(db.name, db.source)
    return AloneFix(db.name, db.source, rec.changes, rec.cost)


def least_hardware(
    estate: Estate,
    result: EstateResult | None = None,
    *,
    catalog: Catalog | None = None,
    prices: PriceBook | None = None,
    should_cancel: Callable[[], bool] | None = None,
    progress: Progress | None = None,
    max_simulations: int | None = None,
) -> LeastHardware:
    """The runbook, then the cheapest shared purchases on top of it, that make every
    priority-1 database meet its RTO (see the module docstring)."""
    catalog = shipped_catalog() if catalog is None else catalog
    prices = PriceBook.from_catalog(catalog) if prices is None else prices
    result = result or run_estate(estate, trace=False, should_cancel=should_cancel)
    tier1 = result.tier1
    alone = tuple(d.name for d in tier1 if d.alone_s > d.rto_s)
    at_risk = tuple(d.name for d in tier1 if d.verdict == "at_risk")
    base = LeastHardware(METHOD, result.tier1_all_meet, alone, (), prices.currency,
                         at_risk=at_risk)  # fmt: skip
    if result.tier1_all_meet:
        return base
    prices.require_one_currency()
    if alone:
        fixes = _alone_fixes(estate, alone, catalog, prices, should_cancel, progress)
        return LeastHardware(METHOD, False, alone, (), prices.currency, alone_fixes=fixes)
    report = progress or (lambda f, m: None)
    try:
        policy = search_policy(estate, result, should_cancel=should_cancel,
                               progress=lambda f, m: report(0.2 * f, m))  # fmt: skip
    except PolicyCancelled:
        raise LeastCancelled from None
    if policy.found:
        return replace(base, policy=policy, runbook=policy.best.policy)
    on_top = estate.with_policy(policy.best.policy)
    if max_simulations is None:
        max_simulations = default_max_simulations(len(tier1))
    hardware = _hardware(on_top, result, catalog, prices, should_cancel,
                         lambda f, m: report(0.2 + 0.7 * f, m), max_simulations)  # fmt: skip
    hardware = replace(hardware, policy=policy)
    if hardware.answer is None:
        return hardware
    report(0.9, "the runbook with the purchase")
    return replace(hardware, runbook=_runbook_with(on_top, hardware.answer, catalog,
                                                   should_cancel))  # fmt: skip


def _hardware(
    estate: Estate,
    result: EstateResult,
    catalog: Catalog,
    prices: PriceBook,
    should_cancel: Callable[[], bool] | None,
    report: Progress,
    max_simulations: int,
) -> LeastHardware:
    """The least hardware on top of the estate's runbook (`tier1_view`)."""
    report(0.0, "bounding each shared resource")
    trials = _Trials(should_cancel)
    counts = _least_counts(estate, result, trials)
    at_least = {c.resource: c.needed for c in counts if c.needed is not None}
    dims, trimmed = _trim(shared_dimensions(estate, catalog, prices, at_least), MAX_COMBINATIONS)
    search = _Search(estate, dims, trials, lambda f, m: report(0.1 + 0.9 * f, m),
                     max_simulations)  # fmt: skip
    answer, cap_hit, combos = search.run()
    today = _point(run_estate(tier1_view(estate), trace=False), (), FREE)
    notes = [TRIMMED_NOTE] if trimmed else []
    proven = answer is not None and not trimmed
    if answer is None and cap_hit:
        stopped_after = search.simulations
        answer = _cheapest_verified(search, counts)
        notes.append(_cap_note(stopped_after, max_simulations, answer is not None))
    return LeastHardware(
        METHOD,
        False,
        (),
        tuple(counts),
        prices.currency,
        answer=answer,
        proven=proven,
        frontier=frontier([today, *search.points], answer),
        simulations=trials.simulations + 1,
        combinations=combos,
        ruled_out=trials.ruled_out,
        cap_hit=cap_hit,
        notes=tuple(notes),
    )


def _least_counts(estate: Estate, result: EstateResult, trials: _Trials) -> list[LeastCount]:
    """Each shared resource's least count on its own, by bisection (the deciding one first)."""
    order = sorted(estate.shared, key=lambda r: (r.name != result.deciding, r.name))
    bisection = _Bisection(estate, trials)
    return [
        LeastCount(r.name, r.stage.kind, r.stage.count, bisection.least_count(r.name))
        for r in order
    ]


TRIMMED_NOTE = (
    f"only the cheapest options of each resource were combined (at most "
    f"{MAX_COMBINATIONS:,} combinations)"
)


def _cap_note(stopped_after: int, max_simulations: int, shown: bool) -> str:
    return (
        f"the search stopped after {stopped_after:,} simulations (the cap"
        + (" for an estate this size" if max_simulations < MAX_SIMULATIONS else "")
        + "; rto-planner estate --max-simulations N raises it) before it reached an answer"
        + ("; shown: the cheapest count of one resource found by bisection" if shown else "")
    )


def _runbook_with(
    estate: Estate,
    answer: EstatePoint,
    catalog: Catalog,
    should_cancel: Callable[[], bool] | None,
) -> Policy:
    """The least restrictive runbook with the purchase made: searched again on the
    bought hardware, from the order the purchase was searched with."""
    from .least_candidates import with_shared_edits

    bought = with_shared_edits(estate, answer.edits, catalog)
    start = bought.with_policy(Policy(order=estate.policy.order))
    try:
        found = search_policy(start, should_cancel=should_cancel)
    except PolicyCancelled:
        raise LeastCancelled from None
    return found.best.policy if found.best.tier1_meets else estate.policy


def _cheapest_verified(search: _Search, counts: Sequence[LeastCount]) -> EstatePoint | None:
    """When the cap stops the search: the cheapest one-resource count the bisection
    verified, evaluated as a point of the candidate set."""
    best: EstatePoint | None = None
    for c in counts:
        if c.needed is None:
            continue
        k = next((k for k, d in enumerate(search.dims) if d.resource == c.resource), None)
        if k is None:
            continue
        dim = search.dims[k]
        idx = next(
            (i for i, o in enumerate(dim.options)
             if o.stage is not None and o.change is not None
             and o.change.edits.get(f"shared[{dim.index}].count") == c.needed
             and len(o.change.edits) == 1),
            None,
        )  # fmt: skip
        if idx is None:
            continue
        combo = tuple(idx if j == k else 0 for j in range(len(search.dims)))
        point = search.evaluate(combo)
        if point is None:
            continue
        if point.meets and (best is None or point.cost.key < best.cost.key):
            best = point
    return best


# ----------------------------------------------------------------------------- output


def _change_json(c: Change, currency: str) -> dict[str, object]:
    return {
        "words": c.words,
        "edits": dict(c.edits),
        "cost": c.cost.amount,
        "cost_text": c.cost.text(currency),
        "priced": c.cost.priced,
        "unpriced": [{"what": w, "units": n} for w, n in c.cost.unpriced],
    }


def _point_json(p: EstatePoint, currency: str) -> dict[str, object]:
    return {
        "changes": [_change_json(c, currency) for c in p.changes],
        "cost": p.cost.amount,
        "cost_text": p.cost.text(currency),
        "priced": p.cost.priced,
        "meets": p.meets,
        "tier1_last_open_s": p.tier1_last_open_s,
        "worst_margin_s": p.worst_margin_s,
    }


def least_to_json(least: LeastHardware) -> dict[str, object]:
    from .policy_words import policy_json

    cur = least.currency
    return {
        "method": least.method,
        "already_met": least.already_met,
        "at_risk": list(least.at_risk),
        "misses_alone": list(least.misses_alone),
        "currency": cur,
        "answer": None if least.answer is None else _point_json(least.answer, cur),
        "total": None if least.answer is None else least.answer.cost.amount,
        "total_text": None if least.answer is None else least.answer.cost.text(cur),
        "priced": None if least.answer is None else least.answer.cost.priced,
        "proven_cheapest": least.proven if least.answer is not None else None,
        "frontier": [_point_json(p, cur) for p in least.frontier],
        "alone_fixes": [
            {
                "database": f.database,
                "searched": f.searched,
                "found": f.cost is not None,
                "changes": [_change_json(c, cur) for c in f.changes],
                "cost": None if f.cost is None else f.cost.amount,
                "cost_text": None if f.cost is None else f.cost.text(cur),
                "command": f.command,
            }
            for f in least.alone_fixes
        ],
        "purchase_needed": least.purchase_needed,
        "runbook": None if least.runbook is None else policy_json(least.runbook),
        "simulations": least.simulations,
        "combinations": least.combinations,
        "ruled_out": least.ruled_out,
        "cap_hit": least.cap_hit,
        "notes": list(least.notes),
        "counts": [
            {"resource": c.resource, "kind": c.kind, "current": c.current, "needed": c.needed}
            for c in least.counts
        ],
    }


def answer_estate(
    estate: Estate,
    *,
    catalog: Catalog | None = None,
    prices: PriceBook | None = None,
    should_cancel: Callable[[], bool] | None = None,
    progress: Progress | None = None,
) -> tuple[EstateResult, LeastHardware]:
    """Everything the Estate window and the PDF show: the recovery and the least hardware."""
    result = run_estate(estate, should_cancel=should_cancel)
    least = least_hardware(
        estate, result, catalog=catalog, prices=prices, should_cancel=should_cancel,
        progress=progress,
    )  # fmt: skip
    return result, least
