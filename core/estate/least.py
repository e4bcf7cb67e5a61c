"""The least hardware for every priority-1 database to meet its RTO (DESIGN §9 with §8).

The what-it-takes optimiser (§8) prices single scenarios; until it can price an estate,
this answers the estate's question directly and says so: for each shared resource on
its own, the least unit count with which every priority-1 database opens inside its
RTO, found by bisection with the estate simulation itself: the count found meets and
one unit fewer does not (least, as long as more units never slow a tier-1 database).
Resources are tried starting with the deciding one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .model import Estate, with_shared_count
from .run import EstateResult, run_estate

MAX_FACTOR = 64
"""Look no further than this many times the units the estate has."""


@dataclass(frozen=True)
class LeastCount:
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
class LeastHardware:
    method: str
    """How the answer was found (said in every output)."""
    already_met: bool
    misses_alone: tuple[str, ...]
    """Priority-1 databases that miss even with the estate's hardware to themselves: no
    shared count helps them; their own plan must change."""
    counts: tuple[LeastCount, ...]


METHOD = (
    "the least count of one shared resource at a time, found by bisection with the "
    "estate simulation; not priced (What it takes prices the changes of one scenario)"
)


def _tier1_meet(estate: Estate, should_cancel: Callable[[], bool] | None) -> bool:
    return run_estate(estate, trace=False, should_cancel=should_cancel).tier1_all_meet


def _least_count(estate: Estate, name: str, should_cancel: Callable[[], bool] | None) -> int | None:
    current = estate.resource(name).stage.count
    hi = current
    while True:
        hi = hi * 2
        if hi > current * MAX_FACTOR:
            return None
        if _tier1_meet(with_shared_count(estate, name, hi), should_cancel):
            break
    lo = max(current, hi // 2)  # lo fails, hi meets
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _tier1_meet(with_shared_count(estate, name, mid), should_cancel):
            hi = mid
        else:
            lo = mid
    return hi


def least_hardware(
    estate: Estate,
    result: EstateResult | None = None,
    *,
    should_cancel: Callable[[], bool] | None = None,
) -> LeastHardware:
    result = result or run_estate(estate, trace=False, should_cancel=should_cancel)
    tier1 = [d for d in result.databases if d.priority == 1]
    alone = tuple(d.name for d in tier1 if d.alone_s > d.rto_s)
    if result.tier1_all_meet:
        return LeastHardware(METHOD, True, alone, ())
    order = sorted(estate.shared, key=lambda r: (r.name != result.deciding, r.name))
    counts = []
    if not alone:
        for res in order:
            needed = _least_count(estate, res.name, should_cancel)
            counts.append(LeastCount(res.name, res.stage.kind, res.stage.count, needed))
    return LeastHardware(METHOD, False, alone, tuple(counts))


def least_to_json(least: LeastHardware) -> dict[str, object]:
    return {
        "method": least.method,
        "already_met": least.already_met,
        "misses_alone": list(least.misses_alone),
        "counts": [
            {"resource": c.resource, "kind": c.kind, "current": c.current, "needed": c.needed}
            for c in least.counts
        ],
    }


def answer_estate(
    estate: Estate, *, should_cancel: Callable[[], bool] | None = None
) -> tuple[EstateResult, LeastHardware]:
    """Everything the Estate window and the PDF show: the recovery and the least hardware."""
    result = run_estate(estate, should_cancel=should_cancel)
    return result, least_hardware(estate, result, should_cancel=should_cancel)
