"""The bound that rules out least-hardware candidates without simulating (issue 22.3):
sound against the simulator on random estates, and the least-hardware answer the same
with it as without it."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings

from rtoplanner.core.estate import least as least_module
from rtoplanner.core.estate import run_estate
from rtoplanner.core.estate.bound import tier1_cannot_meet
from rtoplanner.core.estate.jobs import build_jobs
from rtoplanner.core.estate.least import least_hardware
from rtoplanner.core.estate.least_words import least_summary

from .estate_helpers import estate, scenario
from .test_estate_least_exact import PRICES, book, contended, small_catalog
from .test_estate_reference import (
    LIB,
    MS,
    RANDOM_ESTATE,
    random_estate,
    tape_path,
)


@settings(max_examples=120, deadline=None)
@given(**RANDOM_ESTATE)
def test_the_bound_never_rules_out_an_estate_that_meets(dbs, drives, media, nas, policy):
    """Each priority-1 database's RTO set to exactly the time it opens in the simulation:
    priority 1 meets (just), so the bound must not say it cannot, of the whole estate or
    of any part of it (the lower tiers, the runbook's reserve and starts as drawn)."""
    est = random_estate(dbs, drives, media, nas, policy)
    jobs = build_jobs(est)
    units = [r.stage.count for r in est.shared]
    result = run_estate(est, trace=False, jobs=jobs)
    opens = {d.name: d.open_s for d in result.databases}
    tight = [replace(j, rto_s=opens[j.name]) if j.tier == 1 else j for j in jobs]
    for k in range(1, len(tight) + 1):  # any part of the estate too (the search tries parts)
        assert not tier1_cannot_meet(tight[:k], units)


def test_the_bound_rules_out_a_database_whose_bytes_cannot_pass_in_time():
    """Two priority-1 databases of 2 TB through one 1 GB/s media server, each due by
    30 min after its start: 4 TB need over an hour of the server — proven to miss, and
    the simulation agrees. With a day to go, the bound proves nothing."""
    path = tape_path(4)
    a = scenario("a", size="2 TB", channels=4, path=path, detect="0 s", rto="40 min")
    b = scenario("b", size="2 TB", channels=4, path=path, detect="0 s", rto="40 min")
    est = estate([(a, 1), (b, 1)], shared=[{**LIB, "count": 8}, MS])
    jobs = build_jobs(est)
    assert tier1_cannot_meet(jobs, [8, 1])
    assert not run_estate(est, trace=False).tier1_all_meet
    relaxed = [replace(j, rto_s=86400.0) for j in jobs]
    assert not tier1_cannot_meet(relaxed, [8, 1])


def test_least_hardware_is_the_same_with_the_bound_and_simulates_less(monkeypatch):
    """The answer (its cost and changes), the counts and the runbook are those of the
    search that simulates every candidate; fewer simulations, the rest said as ruled
    out."""
    catalog = small_catalog()
    for link in (False, True):
        est = contended(link=link)
        prices = book(catalog, PRICES["drives cheap"])
        fast = least_hardware(est, catalog=catalog, prices=prices)
        with monkeypatch.context() as m:
            m.setattr(least_module, "tier1_cannot_meet", lambda jobs, units: False)
            slow = least_hardware(est, catalog=catalog, prices=prices)
        assert slow.ruled_out == 0 and fast.ruled_out > 0
        assert fast.simulations < slow.simulations
        assert fast.answer is not None and slow.answer is not None
        assert fast.answer.cost.key == slow.answer.cost.key
        assert fast.answer.changes == slow.answer.changes
        assert fast.counts == slow.counts and fast.runbook == slow.runbook
        assert "ruled out without simulating" in least_summary(fast)[-1]


def test_a_candidate_far_short_is_ruled_out_after_planning_a_quarter(monkeypatch):
    """64 priority-1 databases of ~500 GB through one 1 GB/s media server, each due 8 h
    after the site loss with ~6 h of redo to apply after its restore: each meets alone;
    16 of them together need 8,000 s of the server in less than 6,700 s. A faster
    server (1.2 GB/s) is ruled out after planning 16 databases on it, not all 64."""
    from rtoplanner.core.estate import jobs as jobs_module

    dbs = [(scenario(f"db{i}", size=f"{500 + i} GB", channels=2, path=tape_path(2),
                     detect="0 s", rto="8 h"), 1) for i in range(64)]  # fmt: skip
    est = estate(dbs, shared=[{**LIB, "count": 8}, MS])
    assert all(d.alone_s < d.rto_s for d in run_estate(est, trace=False).databases)
    trials = least_module._Trials(None)
    assert trials.tier1(est) is None  # (the estate as it is: every database planned)
    planned: list[object] = []
    real = jobs_module.compute_recovery
    monkeypatch.setattr(jobs_module, "compute_recovery", lambda s: planned.append(s) or real(s))
    faster = replace(est.resource("MS").stage, rate_Bps=1.2e9)
    assert trials.tier1(est, {"MS": faster}) is None
    assert (trials.ruled_out, trials.simulations, len(planned)) == (2, 0, 16)
