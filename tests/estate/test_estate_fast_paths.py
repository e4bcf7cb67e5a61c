"""The simulator's fast paths give bit for bit what the general code gives.

(The estate's whole output is compared with stored files in test_estate_golden.py; these
tests aim at the cases a fast path claims to cover, including ones the stored estates
may never reach.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rtoplanner.core.estate import clocks as clocks_module
from rtoplanner.core.estate import run_estate
from rtoplanner.core.estate.jobs import build_jobs
from rtoplanner.core.estate.share import (
    UNBOUNDED_Bps,
    _level_below_every_cap,
    _sorted_water_level,
    one_level,
    share_tier,
    take_level,
)
from rtoplanner.core.estate.simulate import _Flows, _Tier, simulate

from .estate_helpers import estate, scenario
from .test_estate_golden import _bench
from .test_estate_reference import DATABASE, RANDOM_ESTATE, assert_same, random_estate

CAPS = st.sampled_from([3.24e8, 6.48e8, 9.72e8, 1.296e9, 2.5e9, 1.6e9 / 3, UNBOUNDED_Bps])


@settings(max_examples=300, deadline=None)
@given(
    caps=st.lists(CAPS, min_size=1, max_size=300),
    use=st.floats(0.05, 20.0),
    fraction=st.floats(1e-6, 1.0),
)
def test_level_below_every_cap_is_the_sorted_water_level(caps, use, fraction):
    caps_a = np.array(caps)
    uses = np.full(len(caps), use)
    room = fraction * float(caps_a.min() * uses.sum())
    fast = _level_below_every_cap(caps_a, uses, room)
    if fraction < 0.999:
        assert fast is not None
    if fast is not None:
        assert fast == _sorted_water_level(caps_a, uses, room)


def test_level_below_every_cap_leaves_the_other_cases_to_the_sort():
    caps = np.array([1.0, 5.0, 9.0])
    # uses differ (compression): the sum depends on the order
    assert _level_below_every_cap(caps, np.array([1.0, 2.0, 1.0]), 1.0) is None
    # the level reaches the lowest cap
    assert _level_below_every_cap(caps, np.ones(3), 3.0) is None
    assert _level_below_every_cap(caps, np.ones(3), 2.9) == _sorted_water_level(
        caps, np.ones(3), 2.9
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 40)), max_size=80))
def test_a_tier_keeps_its_transfers_sorted(changes):
    tier, members = _Tier(), set()
    for add, i in changes:
        before, was = tier.ids, tier.ids.tolist()
        if add:
            tier.add(i)
            members.add(i)
        else:
            tier.discard(i)
            members.discard(i)
        assert tier.ids.tolist() == sorted(members)
        assert tier.ids.dtype == np.int64
        # an array a sharing was made with never changes under it
        assert before.tolist() == was


def test_level_below_every_cap_on_many_random_tiers():
    """Rounding differences are rare (about 1 case in 1,000 for a formula only nearly
    the same), so many cases."""
    rng = np.random.default_rng(12)
    for _ in range(5000):
        n = int(rng.integers(1, 300))
        caps = rng.choice([3.24e8, 6.48e8, 9.72e8, 1.7e9, UNBOUNDED_Bps], n)
        uses = np.full(n, rng.uniform(0.05, 20.0))
        room = rng.uniform(0.0, 0.999) * float(caps.min() * uses.sum())
        fast = _level_below_every_cap(caps, uses, room)
        assert fast is not None
        assert fast == _sorted_water_level(caps, uses, room)


@settings(max_examples=64, deadline=None)
@given(
    fluid=st.booleans(),
    last_on=st.booleans(),
    last_left=st.booleans(),
    piece_on=st.booleans(),
    piece_left=st.booleans(),
)
def test_a_re_share_asks_for_the_cap_a_re_split_assumes(
    fluid, last_on, last_left, piece_on, piece_left
):
    """`reshare` (arrays) and `cap_of` (the scalar test `cap_changed` uses to re-split one
    database instead of re-sharing its tier) ask for the same cap: what the streaming
    channels take while the fluid has bytes, else c per channel still moving — two when
    the last channel's load and the largest piece both still move (the re-share once
    counted one: numpy's True + True is True)."""
    assume(fluid or piece_left or not last_on or last_left)  # (else the transfer has ended)
    est = estate([(scenario("A", channels=4, largest_file="400 GB"), 1)])
    flows = _Flows(build_jobs(est), 0)
    flows.start(0, 2e12, 4e11, 2e11)
    flows.set_k(0, 4)
    flows.rest[0] = 1e12 if fluid else 0.0
    flows.last[0] = 2e11 if last_left else 0.0
    flows.piece[0] = 4e11 if piece_left else 0.0
    flows.last_on[0], flows.piece_on[0] = last_on, piece_on
    cap, _alone = flows.cap_of(0)
    # nothing shared (no resource): each transfer gets the cap it asks for
    flows.reshare(np.array([0]), np.zeros((1, 0)), np.zeros(0), 0.0, 1)
    assert flows.rate[0] == cap
    assert fluid or cap < flows.private[0]  # (the channels, not the path, decide then)


# ------------------------------------------------------------------ the clock (issue 22.3)

USES = st.sampled_from([0.0, 0.5, 1.0, 1.0, 2.5])


@settings(max_examples=400, deadline=None)
@given(
    caps=st.lists(CAPS, min_size=1, max_size=40),
    uses=st.lists(st.tuples(USES, USES), min_size=1, max_size=40),
    alike=st.booleans(),
    fraction=st.tuples(st.floats(1e-6, 1.2), st.floats(1e-6, 1.2)),
    resource=st.integers(0, 1),
)
def test_one_level_is_what_share_tier_gives(caps, uses, alike, fraction, resource):
    """`one_level` + `take_level` (the clock's re-share) give exactly `share_tier`'s
    rates, frozen resource and room left whenever they answer, and answer in the case
    they are for (one resource over, used alike, the level clearly below every cap)."""
    n = min(len(caps), len(uses))
    caps_a = np.minimum(np.array(caps[:n]), UNBOUNDED_Bps)
    use = np.array(uses[:n])
    if alike:
        use[:, resource] = 1.5
    need = caps_a @ use
    room = np.array([fraction[0] * need[0], fraction[1] * need[1]])
    general = room.copy()
    got = share_tier(caps_a, use, general)
    level = one_level(caps_a, use, room.copy(), resource)
    if level is not None:
        assert (got.rate == level).all()
        assert (got.frozen_by == resource).all()
        left = room.copy()
        take_level(level, use, left, resource)
        assert left.tolist() == general.tolist()
    other = 1 - resource
    below_every_cap = caps_a.min() * use[:, resource].sum() >= 1.01 * room[resource]
    if alike and below_every_cap and room[resource] > 0 and need[other] <= room[other]:
        assert level is not None


def _runs(est, clocks: bool) -> dict[str, list[tuple[str, float, float]]]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(clocks_module, "CLOCKS", clocks)
        result = run_estate(est, trace=False)
    return {d.name: [(p.name, p.start_s, p.end_s) for p in d.phases] for d in result.databases}


def _same_runs(a, b) -> None:
    for name, phases in a.items():
        assert [p[0] for p in phases] == [p[0] for p in b[name]], name
        for (phase, s0, e0), (_, s1, e1) in zip(phases, b[name], strict=True):
            assert s1 == pytest.approx(s0, rel=1e-9, abs=1e-6), (name, phase)
            assert e1 == pytest.approx(e0, rel=1e-9, abs=1e-6), (name, phase)


TAPE_DATABASE = DATABASE.map(lambda d: (*d[:8], "tape", *d[9:]))
CLOCKED_ESTATE = {
    **RANDOM_ESTATE,
    "dbs": st.lists(TAPE_DATABASE, min_size=3, max_size=9),
    "drives": st.integers(4, 16),
    "media": st.sampled_from(["400 MB/s", "1 GB/s"]),
}
"""Random estates whose tiers a media server often holds at one level (about half of
the drawn estates re-share on a clock; the reference's random estates seldom do)."""


@settings(max_examples=60, deadline=None)
@given(**CLOCKED_ESTATE)
def test_a_clock_gives_what_the_general_sharing_and_the_reference_give(
    dbs, drives, media, nas, policy
):
    """Every phase starts and ends as without clocks, to 1e-9 (the clock sums the level
    once per re-share rather than each transfer's rate: the last bits differ), and as the
    simple reference simulator has it."""
    est = random_estate(dbs, drives, media, nas, policy)
    _same_runs(_runs(est, False), _runs(est, True))
    assert_same(est)


def test_the_bench_estate_runs_on_clocks_as_without(monkeypatch):
    """The benchmark's estate (300 databases on 30 drives, a saturated media server): most
    re-shares are a clock's, and every phase and every database's time lost by resource
    is as without clocks."""
    est = _bench().make_estate(300, 30)
    jobs = build_jobs(est)
    names = [r.name for r in est.shared]
    units = [r.stage.count for r in est.shared]
    made = []
    real = clocks_module.ClockedFlows.__init__

    def keep(self, *args):
        real(self, *args)
        made.append(self)

    monkeypatch.setattr(clocks_module.ClockedFlows, "__init__", keep)
    on = simulate(jobs, names, units)
    monkeypatch.setattr(clocks_module, "CLOCKS", False)
    off = simulate(jobs, names, units)
    assert made[0].clock_shares > 0.8 * made[0].shares
    assert made[1].clock_shares == 0
    for a, b in zip(off.runs, on.runs, strict=True):
        for p, q in zip(a.phases, b.phases, strict=True):
            assert (q.name, q.start_s, q.end_s) == (p.name, pytest.approx(p.start_s, rel=1e-9),
                                                    pytest.approx(p.end_s, rel=1e-9))  # fmt: skip
            assert q.waited_s == pytest.approx(p.waited_s, rel=1e-6, abs=1e-3)
        assert a.waits_s.keys() == b.waits_s.keys()
        for key, lost in a.waits_s.items():
            assert b.waits_s[key] == pytest.approx(lost, rel=1e-6, abs=1e-3)
