"""The simulator's fast paths give bit for bit what the general code gives.

(The estate's whole output is compared with stored files in test_estate_golden.py; these
tests aim at the cases a fast path claims to cover, including ones the stored estates
may never reach.)"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rtoplanner.core.estate.jobs import build_jobs
from rtoplanner.core.estate.share import (
    UNBOUNDED_Bps,
    _level_below_every_cap,
    _sorted_water_level,
)
from rtoplanner.core.estate.simulate import _Flows, _Tier

from .estate_helpers import estate, scenario

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
