"""The float twins of the engine's moves (issue 22.3): `ramp_time` and `move` on floats
run `_ramp_time_floats` / `_move_floats`, the same formulas written out without the
shapes' per-call array checks. They must give the same bits as the formulas through the
primitives (`_ramp_time_any` / `_move_any`, what floats ran before and arrays still
run), on random paths: every field of the Flow, its type, nan and the sign of zero."""

from __future__ import annotations

import math
import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rtoplanner.core.engine import flow
from rtoplanner.core.engine.path import PathModel
from rtoplanner.core.engine.shapes import no_arrays

RATES = st.one_of(
    st.floats(1e3, 1e11),
    st.sampled_from([math.inf, 1.0, 3.6e8, 1.25e9]),
)
VOLUMES = st.one_of(
    st.floats(-1e6, 1e15),
    st.sampled_from([0.0, -0.0, 1.0, 1e15, math.inf, math.nan]),
)
TIMES = st.one_of(st.floats(0, 600), st.sampled_from([0.0, 30.0, -1.0]))


@st.composite
def path_models(draw) -> PathModel:
    per_channel = draw(RATES)
    shared = draw(RATES)
    return PathModel(
        direction="restore",
        stages=(),
        channels=draw(st.integers(1, 64)),
        shared_Bps=shared,
        shared_index=0,
        per_channel_Bps=per_channel,
        per_channel_index=0,
        bind_limit=draw(st.sampled_from([1 << 30, 1, 2, 4, 8, 17])),
        bind_index=0,
        cartridge_data_bytes=draw(st.sampled_from([math.inf, 1.2e13, 3e12, 1e9])),
        cartridge_s=draw(st.sampled_from([0.0, 0.0, 95.0, 180.5])),
    )


def same(a: object, b: object) -> bool:
    """The same value to the bit (nan is nan, -0.0 is not 0.0), of the same type."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    return a == b


def same_flow(a: flow.Flow, b: flow.Flow) -> bool:
    return all(same(getattr(a, f), getattr(b, f)) for f in flow.Flow.__dataclass_fields__)


@settings(max_examples=3000)
@given(path_models(), VOLUMES, TIMES)
def test_ramp_time_floats_is_the_formula_to_the_bit(model, volume, init):
    assert same(flow._ramp_time_floats(volume, model, init),
                flow._ramp_time_any(volume, model, init))  # fmt: skip


@settings(max_examples=3000)
@given(
    path_models(),
    VOLUMES,
    TIMES,
    st.one_of(st.none(), st.floats(0, 1e13), st.just(0.0)),
    st.one_of(st.just(0.0), st.floats(0, 900)),
)
def test_move_floats_is_the_formula_to_the_bit(model, volume, init, largest, overhead):
    got = flow._move_floats(volume, model, init, largest, overhead)
    assert same_flow(got, flow._move_any(volume, model, init, largest, overhead))
    assert same_flow(flow.move(volume, model, init, largest, overhead), got)


def test_arrays_take_the_formula_and_floats_the_twin():
    """The public functions choose by shape: an array anywhere (the volume, a time, or a
    rate of the path) runs the formula through the primitives, element by element."""
    model = PathModel("restore", (), 8, 2.0e9, 0, 3.0e8, 0, 1 << 30, 0)
    volumes = np.array([1e12, 5e9, 0.0])
    got = flow.move(volumes, model, 30.0, 2e11, 60.0)
    assert isinstance(got.duration_s, np.ndarray)
    for i, v in enumerate(volumes):
        alone = flow.move(float(v), model, 30.0, 2e11, 60.0)
        assert same(float(got.duration_s[i]), alone.duration_s)
    assert not no_arrays(1.0, np.float64(2.0), np.zeros(1))
    assert no_arrays(1.0, np.float64(2.0), None, 3)
