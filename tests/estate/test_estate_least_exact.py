"""The least hardware for priority 1 (§9 with §8): exact against brute force, priced from
the catalog and from the user's quotes in a real store, unpriced, cancel, the cap."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from rtoplanner.core.catalog import Catalog, CatalogItem
from rtoplanner.core.errors import CoreError
from rtoplanner.core.estate import Estate, run_estate
from rtoplanner.core.estate import least as least_module
from rtoplanner.core.estate.least import LeastCancelled, answer_estate, least_hardware
from rtoplanner.core.estate.least_candidates import shared_dimensions, with_shared_stages
from rtoplanner.core.estate.model import estate_from_mapping
from rtoplanner.core.estate.policy import Policy
from rtoplanner.core.fix.prices import PriceBook, price_book

from .estate_helpers import DRIVE, MEDIA, estate, scenario, shared_stage, with_shared_edits

LINK = {"kind": "network", "name": "WAN", "count": 1, "rate": "1.2 GB/s"}


def contended(*, link: bool = False, rto_a: str = "8 h 15 min", rto_b: str = "7 h 20 min"):
    """Two priority-1 databases and a priority-2 one behind a library, media servers and
    (optionally) a link; sharing makes both priority-1 databases miss."""
    stages = [shared_stage(DRIVE, "LIB"), shared_stage(MEDIA, "MS")]
    shared = [{**DRIVE, "name": "LIB"}, {**MEDIA, "name": "MS"}]
    if link:
        stages.append(shared_stage(LINK, "WAN"))
        shared.append({**LINK, "name": "WAN"})
    a = scenario("a", path=stages, size="6 TB", rto=rto_a, channels=8)
    b = scenario("b", path=stages, size="3 TB", rto=rto_b, channels=8)
    c = scenario("c", path=stages, size="2 TB", rto="3 d", channels=8)
    return estate([(a, 1), (b, 1), (c, 2)], shared=shared)


def small_catalog(fast_price: float | None = 30000.0, *, priced: bool = True) -> Catalog:
    """One other drive, media server and link each, so the candidates stay few."""
    return Catalog(
        [
            CatalogItem("tape_drive", "FAST", "test", rate_Bps=500e6, price=fast_price),
            CatalogItem("media_server", "BIG MS", "test", rate_Bps=2.5e9,
                        price=40000.0 if priced else None),
            CatalogItem("network", "FAT PIPE", "test", rate_Bps=5e9,
                        price=25000.0 if priced else None),
        ]
    )  # fmt: skip


def book(catalog: Catalog, quotes: dict[tuple[str, str], float]) -> PriceBook:
    return PriceBook.from_catalog(catalog, quotes)


def brute_force(est: Estate, least, catalog: Catalog, prices: PriceBook):
    """Every combination of the same candidates simulated, with the runbook the search is
    on top of (every unit of priority 1's libraries kept for it: the full estate, not
    `tier1_view`): the cheapest that meets."""
    bounds = {c.resource: c.needed for c in least.counts if c.needed is not None}
    dims = shared_dimensions(est, catalog, prices, bounds)
    order = least.policy.best.policy.order
    best = None
    for combo in itertools.product(*(range(len(d.options)) for d in dims)):
        opts = [d.options[i] for d, i in zip(dims, combo, strict=True)]
        stages = {d.resource: o.stage for d, o in zip(dims, opts, strict=True) if o.change}
        trial = with_shared_stages(est, stages)
        kept = Policy(order, tuple((r.name, r.stage.count) for r in trial.shared
                                   if r.binds_channel))  # fmt: skip
        if not run_estate(trial.with_policy(kept), trace=False).tier1_all_meet:
            continue
        cost = sum((o.change.cost for o in opts if o.change), start=type(opts[0].cost)())
        if best is None or cost.key < best.key:
            best = cost
    return best


PRICES = {
    "drives cheap": {("tape_drive", "LIB"): 5000.0, ("media_server", "MS"): 12000.0,
                     ("network", "WAN"): 8000.0},
    "media cheap": {("tape_drive", "LIB"): 20000.0, ("media_server", "MS"): 3000.0,
                    ("network", "WAN"): 30000.0},
    "unpriced": {},
}  # fmt: skip


@pytest.mark.parametrize("link", [False, True], ids=["2 resources", "3 resources"])
@pytest.mark.parametrize("quotes", list(PRICES.values()), ids=list(PRICES))
def test_the_answer_is_the_cheapest_by_brute_force(link, quotes):
    est = contended(link=link)
    catalog = small_catalog()
    prices = book(catalog, quotes)
    least = least_hardware(est, catalog=catalog, prices=prices)
    assert not least.already_met and not least.misses_alone
    assert least.answer is not None and least.proven and not least.cap_hit
    assert least.answer.meets
    best = brute_force(est, least, catalog, prices)
    assert best is not None
    assert least.answer.cost.key == best.key


def test_two_resources_together_are_cheaper_than_a_lot_of_one():
    est = contended()
    catalog = small_catalog()
    least = least_hardware(est, catalog=catalog, prices=book(catalog, PRICES["drives cheap"]))
    dims = {c.dim for c in least.answer.changes}
    assert dims == {"shared[0]", "shared[1]"}  # drives and media servers
    assert least.answer.cost.priced
    # Each change is n units × the quote (the units there are owned).
    for c in least.answer.changes:
        (key, count), = c.edits.items()  # fmt: skip
        index = int(key[len("shared[") : key.index("]")])
        res = est.shared[index]
        price = PRICES["drives cheap"][(res.stage.kind, res.name)]
        assert c.cost.amount == pytest.approx((count - res.stage.count) * price)
    assert least.answer.cost.amount == pytest.approx(
        sum(c.cost.amount for c in least.answer.changes)
    )


def edited_estate(est: Estate, edits: dict[str, Any], catalog: Catalog | None = None) -> Estate:
    """The estate file with the answer's edits made, loaded as a file is (with the
    catalog its `item`s are in)."""
    doc = with_shared_edits(dict(est.raw), edits)
    by_name = {d.scenario.name: d.scenario for d in est.databases}
    return estate_from_mapping(doc, source="edited.toml", resolve=by_name.__getitem__,
                               catalog=catalog or small_catalog())  # fmt: skip


def test_a_catalog_price_and_a_user_quote_from_the_store(store):
    """The catalog prices FAST at 30,000; the user's quote in the store (100) wins, so
    replacing the drives with FAST becomes the answer; its edits load and meet."""
    est = contended()
    catalog = small_catalog()
    store.set_currency("EUR")  # before the quotes: each keeps the currency it was given in
    store.set_price("tape_drive", "LIB", 5000.0)
    store.set_price("media_server", "MS", 12000.0)
    catalog_only = least_hardware(est, catalog=catalog, prices=price_book(store, catalog))
    assert catalog_only.currency == "EUR"
    assert all(c.item[1] != "FAST" for c in catalog_only.answer.changes)
    store.set_price("tape_drive", "FAST", 100.0)
    quoted = least_hardware(est, catalog=catalog, prices=price_book(store, catalog))
    fast = [c for c in quoted.answer.changes if c.item == ("tape_drive", "FAST")]
    assert len(fast) == 1
    assert fast[0].cost.amount == pytest.approx(100.0 * fast[0].edits["shared[0].count"])
    assert quoted.answer.cost.key < catalog_only.answer.cost.key
    edited = edited_estate(est, quoted.answer.edits).with_policy(quoted.runbook)
    assert run_estate(edited, trace=False).tier1_all_meet
    assert edited.shared[0].stage.rate_Bps == 500e6


def test_unpriced_purchases_are_never_money_and_priced_ones_come_first():
    est = contended()
    catalog = small_catalog(fast_price=None)
    # Only the media servers have a price: a priced answer is preferred if one meets.
    prices = book(catalog, {("media_server", "MS"): 12000.0})
    least = least_hardware(est, catalog=catalog, prices=prices)
    unpriced = [c for c in least.answer.changes if not c.cost.priced]
    for c in unpriced:
        assert c.cost.amount == 0 and "unpriced" in c.cost.text("USD")
    best = brute_force(est, least, catalog, prices)
    assert least.answer.cost.key == best.key
    bare = small_catalog(None, priced=False)
    nothing = least_hardware(est, catalog=bare, prices=book(bare, {}))
    assert not nothing.answer.cost.priced
    assert nothing.answer.cost.text("USD").startswith("unpriced: ")


def test_already_met_searches_nothing():
    est = contended(rto_a="2 d", rto_b="2 d")
    least = least_hardware(est, catalog=small_catalog())
    assert least.already_met and least.answer is None and least.simulations == 0


def test_a_database_missing_alone_gets_its_own_fix_not_a_shared_purchase():
    slow = scenario("slow", path=[shared_stage(DRIVE, "LIB"), dict(MEDIA)], rto="6 h",
                    size="6 TB")  # fmt: skip
    other = scenario("other", path=[shared_stage(DRIVE, "LIB"), dict(MEDIA)], rto="3 d")
    est = estate([(slow, 1), (other, 2)], shared=[{**DRIVE, "name": "LIB"}])
    least = least_hardware(est)
    assert least.misses_alone == ("slow",) and least.answer is None and least.counts == ()
    (fix,) = least.alone_fixes
    assert fix.database == "slow" and fix.cost is not None and fix.changes
    assert "rto-planner fix" in fix.command


def test_cancel_stops_the_search():
    est = contended()
    calls = {"n": 0}

    def should_cancel() -> bool:
        calls["n"] += 1
        return calls["n"] > 5

    with pytest.raises(LeastCancelled):
        least_hardware(est, catalog=small_catalog(), should_cancel=should_cancel)
    assert isinstance(LeastCancelled(), CoreError)


def test_progress_is_reported_and_rises():
    seen: list[float] = []
    answer_estate(contended(), catalog=small_catalog(), progress=lambda f, m: seen.append(f))
    assert len(seen) > 3 and seen == sorted(seen) and seen[-1] <= 1.0


def test_the_cap_is_said_and_falls_back_to_a_verified_count(monkeypatch):
    est = contended()
    catalog = small_catalog()
    # (the bound rules out enough here that two simulations find the answer: off)
    monkeypatch.setattr(least_module, "tier1_cannot_meet", lambda jobs, units: False)
    least = least_hardware(est, catalog=catalog, max_simulations=2)
    assert least.cap_hit and not least.proven
    assert any("cap" in n for n in least.notes)
    if least.answer is not None:  # the bisection's one-resource count, verified
        assert least.answer.meets and len(least.answer.changes) == 1


def test_frontier_is_short_cheapest_first_and_keeps_the_answer():
    est = contended(link=True)
    catalog = small_catalog()
    least = least_hardware(est, catalog=catalog, prices=book(catalog, PRICES["drives cheap"]))
    front = least.frontier
    assert 2 <= len(front) <= 10
    assert least.answer in front
    keys = [p.cost.key for p in front]
    assert keys == sorted(keys)
    margins = [p.worst_margin_s for p in front]
    assert margins == sorted(margins)
    assert front[0].changes == () and not front[0].meets


def test_the_default_cap_shrinks_with_the_estate():
    assert least_module.default_max_simulations(8) == least_module.MAX_SIMULATIONS
    assert least_module.default_max_simulations(1_000) == 200
    assert least_module.default_max_simulations(300) == 666
    assert least_module.default_max_simulations(10_000) == least_module.MIN_SIMULATIONS


def test_a_large_estates_cap_is_said(monkeypatch):
    est = contended()
    monkeypatch.setattr(least_module, "MIN_SIMULATIONS", 1)
    monkeypatch.setattr(least_module, "WORK_BUDGET", len(est.databases))  # one simulation
    monkeypatch.setattr(least_module, "tier1_cannot_meet", lambda jobs, units: False)
    least = least_hardware(est, catalog=small_catalog())
    assert least.cap_hit and not least.proven
    assert any("the cap for an estate this size" in n and "--max-simulations" in n
               for n in least.notes)  # fmt: skip
    wide = least_hardware(est, catalog=small_catalog(), max_simulations=1500)
    assert not wide.cap_hit and wide.proven  # the user's cap wins over the default
