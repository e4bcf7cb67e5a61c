"""Sharing: strict priority across tiers, max-min fairness within a tier, conservation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtoplanner.core.estate import run_estate
from rtoplanner.core.estate.jobs import build_jobs
from rtoplanner.core.estate.share import allocate
from rtoplanner.core.plan import compute_core

from .estate_helpers import DRIVE, MEDIA, estate, scenario, shared_stage

LIB = {**DRIVE, "name": "LIB", "count": 4}
MS = {**MEDIA, "name": "MS", "count": 1, "rate": "1 GB/s"}


def on_shared(name: str, **kw):
    return scenario(name, path=[shared_stage(DRIVE, "LIB"), shared_stage(MEDIA, "MS")], **kw)


def test_higher_tier_goes_first_and_is_not_slowed():
    a, b = on_shared("first"), on_shared("second")
    result = run_estate(estate([(a, 1), (b, 2)], shared=[LIB, MS]))
    first, second = result.database("first"), result.database("second")
    alone = run_estate(estate([(a, 1)], shared=[LIB, MS])).database("first")
    assert first.open_s == pytest.approx(alone.open_s, rel=1e-9)
    assert second.open_s > first.open_s
    assert second.waited_s > 0 and second.waited_for == "LIB"


def test_order_follows_the_priorities_not_the_file_order():
    a, b = on_shared("a"), on_shared("b")
    one = run_estate(estate([(a, 2), (b, 1)], shared=[LIB, MS]))
    assert one.database("b").open_s < one.database("a").open_s


def test_one_tier_shares_fairly():
    dbs = [on_shared(n, channels=2) for n in ("x", "y")]
    result = run_estate(estate([(d, 1) for d in dbs], shared=[LIB, MS]))
    x, y = result.database("x"), result.database("y")
    assert x.open_s == pytest.approx(y.open_s, rel=1e-9)
    # both need the media server; together they take twice as long on it as one alone
    alone = run_estate(estate([(dbs[0], 1)], shared=[LIB, MS])).database("x")
    assert x.open_s > alone.open_s
    assert result.deciding == "MS"


def test_allocation_is_max_min_fair_within_a_tier():
    import numpy as np

    # three transfers on one resource of 10: caps 2, 5, 9 → 2, 4, 4
    got = allocate(np.array([1, 1, 1]), np.array([2.0, 5.0, 9.0]),
                   np.ones((3, 1)), np.array([10.0]))  # fmt: skip
    assert got.rate.tolist() == pytest.approx([2.0, 4.0, 4.0])
    assert got.frozen_by.tolist() == [-1, 0, 0]


def test_allocation_strict_priority():
    import numpy as np

    got = allocate(np.array([2, 1]), np.array([8.0, 8.0]), np.ones((2, 1)), np.array([10.0]))
    assert got.rate.tolist() == pytest.approx([2.0, 8.0])


def test_a_database_sharing_nothing_is_never_delayed():
    own = scenario("own", path=[dict(DRIVE), dict(MEDIA)])
    others = [on_shared(f"s{i}") for i in range(3)]
    result = run_estate(estate([(own, 3)] + [(o, 1) for o in others], shared=[LIB, MS]))
    assert result.database("own").open_s == pytest.approx(compute_core(own)[2].total_s)
    assert result.database("own").waited_for == "—"


def _check_conservation(est) -> None:
    result = run_estate(est, trace=True)
    counts = [r.stage.count for r in est.shared]
    for sample in result.trace:
        for r, res in enumerate(est.shared):
            if res.binds_channel:
                assert 0 <= sample.units_held[r] <= counts[r]
            else:
                assert sample.fluid[r] <= 1 + 1e-9
    jobs = build_jobs(est)
    for job, d in zip(jobs, result.databases, strict=True):
        moved = [p for p in d.phases if p.data_bytes > 0]
        assert [p.name for p in moved] == [s.name for s in job.steps if s.transfer]
        for p in moved:
            assert p.moved_bytes == pytest.approx(p.data_bytes, rel=1e-6)
        # never earlier than alone, and the phases follow each other without gaps
        assert d.open_s >= d.alone_s * (1 - 1e-9)
        # (a phase that runs beside an earlier one starts with it, DESIGN §3.7; the next
        # one starts when every earlier phase has ended)
        steps = {s.name: s for s in job.steps}
        end = 0.0
        for p in d.phases:
            if steps[p.name].overlaps is None:
                assert p.start_s == pytest.approx(end, rel=1e-9, abs=1e-6)
            end = max(end, p.end_s)


@settings(max_examples=40, deadline=None)
@given(
    dbs=st.lists(
        st.tuples(
            st.sampled_from(["100 GB", "1 TB", "4 TB"]),
            st.integers(1, 6),  # channels
            st.integers(1, 3),  # priority
            st.sampled_from(["0 s", "20 s", "3 min"]),
            st.sampled_from(["0 s", "10 min", "1 h"]),  # detect
            st.sampled_from(["none", "cumulative"]),
            st.booleans(),  # archived logs on disk
            st.sampled_from([1.0, 3.0]),
            st.sampled_from([None, "60 GB", "800 GB"]),  # largest file
            st.sampled_from([None, "2 min"]),  # job overhead
        ),
        min_size=1,
        max_size=7,
    ),
    drives=st.integers(1, 8),
    media=st.sampled_from(["400 MB/s", "1 GB/s", "5 GB/s"]),
)
def test_conservation_property(dbs, drives, media):
    scenarios = [
        (
            on_shared(
                f"db{i}",
                size=size,
                channels=ch,
                init=init,
                detect=detect,
                level1=l1,
                logs_on_disk=logs,
                compression=r,
                largest_file=largest if largest and size != "100 GB" else None,
                extra={"backup": {"job_overhead": overhead}} if overhead else None,
            ),
            prio,
        )
        for i, (size, ch, prio, init, detect, l1, logs, r, largest, overhead) in enumerate(dbs)
    ]
    est = estate(scenarios, shared=[{**LIB, "count": drives}, {**MS, "rate": media}])
    _check_conservation(est)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 6), drives=st.integers(1, 6))
def test_identical_databases_of_one_tier_open_together(n, drives):
    dbs = [on_shared(f"db{i}", channels=2, init="0 s") for i in range(n)]
    result = run_estate(estate([(d, 1) for d in dbs], shared=[{**LIB, "count": drives}, MS]))
    opens = sorted(d.open_s for d in result.databases)
    if drives >= 2 * n:  # enough drives for every channel: a pure bandwidth share
        assert opens[-1] == pytest.approx(opens[0], rel=1e-9)
    assert opens[0] >= result.databases[0].alone_s * (1 - 1e-9)


@settings(max_examples=30, deadline=None)
@given(
    tier1=st.lists(
        st.tuples(st.sampled_from(["300 GB", "2 TB"]), st.integers(1, 5)), min_size=1, max_size=4
    ),
    tier2=st.lists(
        st.tuples(st.sampled_from(["300 GB", "2 TB"]), st.integers(1, 5)), min_size=1, max_size=4
    ),
    drives=st.integers(1, 8),
    media=st.sampled_from(["400 MB/s", "1 GB/s", "5 GB/s"]),
)
def test_lower_tiers_never_delay_a_higher_one_property(tier1, tier2, drives, media):
    """Starting together, with one restore each, the tier-1 databases open exactly as if
    the tier-2 ones were not there: strict priority for drives and for bandwidth."""
    shared = [{**LIB, "count": drives}, {**MS, "rate": media}]
    first = [(on_shared(f"a{i}", size=s, channels=c), 1) for i, (s, c) in enumerate(tier1)]
    second = [(on_shared(f"b{i}", size=s, channels=c), 2) for i, (s, c) in enumerate(tier2)]
    alone = run_estate(estate(first, shared=shared))
    together = run_estate(estate(first + second, shared=shared))
    for d in alone.databases:
        assert together.database(d.name).open_s == pytest.approx(d.open_s, rel=1e-9)
