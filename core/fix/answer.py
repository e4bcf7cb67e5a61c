"""From the evaluated variants to the answer: frontier, recommended point, budget, notes."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..catalog import Catalog, shipped_catalog
from ..errors import CoreError
from ..scenario import Scenario, Stage
from ..units import format_rate
from .candidates import has_key
from .engine import Deltas, apply_edits, outcome, outcome_of_edits, variant
from .model import HARDWARE, Change, Cost, FixPoint, FixResult, Outcome, significant
from .prices import PriceBook, format_money
from .search import (
    MAX_POINTS,
    Progress,
    _Eval,
    _meets_but_rpo,
    _parsed,
    _Search,
    _select,
    _total,
    pareto,
)

MIN_SAVING_S = 1.0
MEASURE_FIRST = "Measure the redo apply rate first"


def _parts_of(
    search: _Search, changes: tuple[Change, ...]
) -> tuple[dict[int, Stage], list[Deltas]]:
    """Stages and parsed deltas that make these changes (each change knows its own)."""
    stages: dict[int, Stage] = {}
    deltas: list[Deltas] = []
    by_id = search.parts_by_change
    if not by_id:
        for dim in search.hw:
            for opt in dim.options:
                if opt.change is not None:
                    by_id[id(opt.change)] = ("stage", dim.stage_index, opt.stage)
        for opt in (*search.free, *search.level1, *search.compression, *search.on_disk):
            if opt is not None and opt.change is not None:
                by_id[id(opt.change)] = ("deltas", None, opt.deltas)
        for ropt in search.rpo:
            for c, part in zip(ropt.changes, ropt.parts, strict=True):
                by_id[id(c)] = ("deltas", None, part)
    for c in changes:
        kind, idx, what = by_id.get(id(c), ("dynamic", None, None))
        if kind == "stage":
            stages[idx] = what  # type: ignore[index]
        elif kind == "deltas":
            deltas.append(what)  # type: ignore[arg-type]
        else:
            deltas.append(_parsed(c))
    return stages, deltas


def _outcome_of(search: _Search, changes: tuple[Change, ...]) -> Outcome | None:
    """The outcome of the base with these changes; each set computed once (dropping
    changes one by one and trying the fewest ask for many sets twice). The changes are
    the search's own, alive as long as it is: keyed by their ids."""
    key = tuple(map(id, changes))
    if key not in search.outcome_of_changes:
        stages, deltas = _parts_of(search, changes)
        try:
            result: Outcome | None = outcome(variant(search.base, stages, deltas))
        except CoreError:
            result = None
        else:
            search.count += 1
        search.outcome_of_changes[key] = result
    return search.outcome_of_changes[key]


def _minimal(search: _Search, ev: _Eval) -> _Eval:
    """Drop every change that makes no difference to this point's outcome."""
    changes = list(ev.changes)
    # Free changes first, hardware last: keep the money where it matters.
    order = sorted(range(len(changes)), key=lambda i: changes[i].cost.key)
    for i in order:
        c = ev.changes[i]
        if c not in changes or c.category == "rpo":
            continue
        trial = tuple(x for x in changes if x is not c)
        result = _outcome_of(search, trial)
        if result is not None and result.same_as(ev.outcome):
            changes.remove(c)
    kept = tuple(changes)
    return _Eval(ev.config, ev.hardware, kept, _total(kept), ev.outcome)


MAX_FEWEST = 10
"""Changes of a point beyond which `_fewest` drops them one at a time instead."""


def _fewest(search: _Search, ev: _Eval) -> _Eval:
    """The recommended point with only what it needs: the fewest of its changes that still
    meet every target at no higher cost (DESIGN §12: among equal costs, the fewest changes;
    a free change only if the point needs it). One change that meets alone is the point."""
    changes = ev.changes
    if len(changes) > MAX_FEWEST:
        return _dropped_one_by_one(search, ev)
    for k in range(len(changes)):
        best: tuple | None = None
        for subset in itertools.combinations(changes, k):
            cost = _total(subset)
            if cost.key > ev.cost.key:
                continue
            result = _outcome_of(search, subset)
            if result is None or result.verdict != "meets":
                continue
            rank = (cost.key, result.recovery_s)
            if best is None or rank < best[0]:
                best = (rank, subset, cost, result)
        if best is not None:
            return _Eval(ev.config, ev.hardware, best[1], best[2], best[3])
    return ev


def _dropped_one_by_one(search: _Search, ev: _Eval) -> _Eval:
    """Drop each change, cheapest first, whose removal still meets at no higher cost."""
    kept, result = list(ev.changes), ev.outcome
    for c in sorted(ev.changes, key=lambda c: c.cost.key):
        trial = tuple(x for x in kept if x is not c)
        after = _outcome_of(search, trial)
        if after is not None and after.verdict == "meets" and _total(trial).key <= ev.cost.key:
            kept, result = list(trial), after
    return _Eval(ev.config, ev.hardware, tuple(kept), _total(kept), result)


def _alternatives(search: _Search, ev: _Eval) -> tuple[Change, ...]:
    """Note the dearer hardware that gives the identical outcome (merged, not shown)."""
    out = []
    for c in ev.changes:
        if c.category != HARDWARE:
            out.append(c)
            continue
        dim = next(d for d in search.hw if any(o.change is c for o in d.options))
        chosen = next(o for o in dim.options if o.change is c)
        same: list[str] = []
        items: set[tuple[str, str] | None] = set()
        trials = 0
        for opt in sorted(dim.options, key=lambda o: o.cost.key):
            if trials >= 10:
                break
            if opt.change is None or opt.change is c or opt.restore_Bps < chosen.restore_Bps:
                continue
            if opt.change.cost.key < c.cost.key or len(same) >= 3:
                continue
            if _same_item(opt.change, c) or opt.change.item in items:
                continue  # more units of an item already named: dearer, not another way
            trial = tuple(opt.change if x is c else x for x in ev.changes)
            trials += 1
            result = _outcome_of(search, trial)
            if result is not None and result.same_as(ev.outcome):
                same.append(opt.change.words)
                items.add(opt.change.item)
        out.append(replace(c, alternatives=tuple(same)))
    return tuple(out)


def _same_item(a: Change, b: Change) -> bool:
    """Both buy the same item (they differ only in how many units)."""
    return (
        a.item == b.item
        and any(k.endswith(".count") for k in a.edits)
        and (
            {k for k in a.edits if not k.endswith(".count")}
            == {k for k in b.edits if not k.endswith(".count")}
        )
    )


def _checked(search: _Search, changes: tuple[Change, ...], fast: Outcome) -> Outcome:
    """The outcome of the edited scenario, validated as a file would be."""
    edits: dict = {}
    for c in changes:
        edits.update(c.edits)
    try:
        return outcome_of_edits(search.base, edits, search.catalog)
    except CoreError:
        return fast


def _notes(search: _Search, result_points: list[FixPoint]) -> tuple[str, ...]:
    s = search.base
    notes: list[str] = []
    if s.recovery.redo_apply_source != "scenario":
        rate = s.recovery.redo_apply_rate_Bps
        notes.append(
            f"{MEASURE_FIRST}: the plan uses a default "
            f"({format_rate(rate) if rate else 'unknown'}, "
            f"{s.recovery.redo_apply_source}). Read 'Average Apply Rate' in "
            "V$RECOVERY_PROGRESS after a test recovery, or time one; a measured rate "
            "may change every answer below."
        )
    if has_key("backup.compression") and not getattr(s.database, "cpu_cores", None):
        notes.append(
            "RMAN compression levels were not considered: without database.cpu_cores (the "
            "cores RMAN may use) the plan cannot weigh compression's CPU cost."
        )
    for note in dict.fromkeys(n for p in result_points for c in p.changes for n in c.notes):
        notes.append(note)
    unpriced = sorted({w for p in result_points for w, _ in p.cost.unpriced})
    if unpriced:
        notes.append(
            "No price for: " + ", ".join(unpriced) + ". Their cost is shown as unpriced, "
            "never guessed; give your quote with `rto-planner catalog price ITEM AMOUNT` "
            "or in the catalog browser."
        )
    return tuple(notes)


def _completed(search: _Search, found: list[_Eval]) -> list[_Eval]:
    """The points that can be on the frontier or be the cheapest that meets once their
    RPO is completed, completed. The RPO fix changes a point's cost, so a point the
    frontier drops before it may belong there after it: one whose faster backups need no
    fix where a cheaper one needs a dear one. So the candidates are the frontier of every
    point, the frontier of the points that need no fix (their cost is final), and the
    cheapest points that meet but for the RPO, completed in order of their cost until
    the cheapest that meets is found."""
    final = [e for e in found if search.rpo_cost_known(e) is e.cost]
    pool = {id(e): e for e in (*pareto(found), *pareto(final))}
    done = {i: search.complete_rpo(e) for i, e in pool.items()}
    best: Cost | None = min(
        (c.cost for c in done.values() if c.outcome.verdict == "meets"),
        key=lambda c: c.key,
        default=None,
    )
    for e in sorted((e for e in found if _meets_but_rpo(e.outcome)), key=lambda e: e.cost.key):
        if best is not None and e.cost.key > best.key:
            break
        c = done.get(id(e)) or search.complete_rpo(e)
        done[id(e)] = c
        if c.outcome.verdict == "meets" and (best is None or c.cost.key < best.key):
            best = c.cost
    return list(done.values())


def build_result(
    search: _Search,
    today: Outcome,
    found: list[_Eval],
    budget: float | None,
    max_points: int,
    progress: Progress | None,
) -> FixResult:
    if progress:
        progress(0.9, "checking the answer")
    completed = _completed(search, found)
    frontier = pareto(completed)
    meets = sorted(
        (e for e in completed if e.outcome.verdict == "meets"),
        key=lambda e: (e.cost.key, e.outcome.recovery_s),
    )
    # A plan that meets every target needs nothing: the frontier then only shows what
    # faster recovery would cost.
    recommended = None
    if meets and today.verdict != "meets":
        tied = [e for e in meets if e.cost.key == meets[0].cost.key][:8]
        recommended = min(
            (_fewest(search, e) for e in tied),
            key=lambda e: (e.cost.key, len(e.changes), e.outcome.recovery_s),
        )
    if recommended is not None and recommended not in frontier:
        frontier = sorted([*frontier, recommended], key=lambda e: e.cost.key)
    frontier = [e for e in frontier if e.changes or not today.same_as(e.outcome)] or frontier
    chosen_points = _select(frontier, recommended, max_points)
    points = []
    for e in chosen_points:
        is_rec = e is recommended
        e = _minimal(search, e)
        changes = _alternatives(search, e) if is_rec else e.changes
        checked = _checked(search, changes, e.outcome)
        points.append(FixPoint(changes, e.cost, checked, recommended=is_rec))
    points = significant(_merged(points))
    rec_point = next((p for p in points if p.recommended), None)
    chosen = _within_budget(points, budget) if budget is not None else rec_point
    if budget is None and chosen is None and points:
        chosen = min(points, key=lambda p: p.recovery_s)
    return FixResult(
        scenario=search.base.name,
        currency=search.prices.currency,
        today=today,
        frontier=tuple(points),
        recommended=rec_point,
        chosen=chosen,
        budget=budget,
        notes=_notes(search, points),
        evaluated=search.count,
        considered=_considered(search),
    )


def _merged(points: list[FixPoint]) -> list[FixPoint]:
    """Points that became identical once stripped to what matters: keep the first."""
    out: list[FixPoint] = []
    for p in points:
        same = next(
            (q for q in out if q.cost.key == p.cost.key and q.outcome.same_as(p.outcome)), None
        )
        if same is None:
            out.append(p)
        elif p.recommended:
            out[out.index(same)] = p
    # At one cost the recommended point (the fewest changes) comes before faster ones.
    return sorted(out, key=lambda p: (p.cost.key, not p.recommended, p.recovery_s))


def _within_budget(points: list[FixPoint], budget: float) -> FixPoint | None:
    """The fastest point whose known cost fits the budget (unpriced ones cannot)."""
    fits = [p for p in points if p.cost.priced and p.cost.amount <= budget + 1e-9]
    if not fits:
        return None
    return min(fits, key=lambda p: (p.recovery_s, p.cost.key))


def _considered(search: _Search) -> tuple[str, ...]:
    out = [f"{len(d.options) - 1} hardware options for {d.name}" for d in search.hw]
    out += [c.words for o in search.free if (c := o.change) is not None]
    out += [o.change.words for o in search.level1 if o is not None and o.change is not None]
    out += [o.change.words for o in search.compression if o is not None and o.change is not None]
    out += [o.change.words for o in search.on_disk if o is not None and o.change is not None]
    out += ["; ".join(c.words for c in o.changes) for o in search.rpo]
    return tuple(out)


def budget_text(budget: float | None, currency: str) -> str:
    return "" if budget is None else format_money(budget, currency)


def what_it_takes(
    scenario: Scenario,
    *,
    catalog: Catalog | None = None,
    prices: PriceBook | None = None,
    budget: float | None = None,
    max_points: int = MAX_POINTS,
    progress: Progress | None = None,
    should_cancel: Callable[[], bool] | None = None,
    odds: bool = True,
) -> FixResult:
    """The cheapest changes that make the plan meet, and the cost/recovery-time frontier.

    The search works at the planned figures; with `odds` the recommended point's
    probability of meeting every target is worked out too (a seeded run of the headline's
    trials on the point applied) and said plainly when it falls short."""
    catalog = shipped_catalog() if catalog is None else catalog
    prices = PriceBook.from_catalog(catalog) if prices is None else prices
    prices.require_one_currency()
    today = outcome(scenario)
    search = _Search(scenario, catalog, prices, should_cancel)
    found = search.run(progress)
    result = build_result(search, today, found, budget, max_points, progress)
    if odds and result.recommended is not None:
        headline = odds_of(scenario, result.recommended, catalog)
        if headline is not None:
            # The first advice stays "measure the redo apply rate" (it may change all).
            notes = list(result.notes)
            at = 1 if notes and notes[0].startswith(MEASURE_FIRST) else 0
            notes.insert(at, odds_words(headline))
            result = replace(result, odds=headline, notes=tuple(notes))
    return result


def odds_of(scenario: Scenario, point: FixPoint, catalog: Catalog) -> Any:
    """The headline of the scenario with the point's changes made (None: cannot run)."""
    from ..headline import plan_headline
    from ..plan import compute_plan

    try:
        changed = apply_edits(scenario, point.edits, catalog)
        plan = compute_plan(changed, include_cycle=False, include_growth=False)
        return plan_headline(plan, catalog=catalog)
    except CoreError:
        return None


def odds_words(headline: Any) -> str:
    """'The recommended point meets at its figures; 26 % likely to meet every target —
    below the 90 % required (…).' or '… and is 96 % sure to meet every target.'"""
    from ..headline import sure_percent

    pct, need = sure_percent(headline.p_meets), sure_percent(headline.confidence)
    if headline.verdict == "meets":
        return (
            f"The recommended point meets at its figures and is {pct} sure to meet every "
            f"target ({headline.trials:,} trials; {need} required)."
        )
    return (
        f"The recommended point meets at its figures but is only {pct} likely to meet every "
        f"target ({headline.trials:,} trials) — below the {need} required: its headline "
        f"verdict is {headline.verdict.replace('_', ' ')}. Look further along the frontier "
        "or narrow the ranges by measuring the figures that decide it."
    )
