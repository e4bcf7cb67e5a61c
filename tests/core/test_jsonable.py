"""`dumps_json` writes, byte for byte, what the generic path writes
(`json.dumps(finite(json_ready(obj)), indent=..., ensure_ascii=False, allow_nan=False,
default=str)`): the one-pass writer is only faster, for every kind of value."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import Enum, IntEnum
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np
import pytest

from rtoplanner.core.jsonable import dumps_json, finite, json_ready


def generic(obj: Any, indent: int | None = 2) -> str:
    return json.dumps(finite(json_ready(obj)), indent=indent, ensure_ascii=False,
                      allow_nan=False, default=str)  # fmt: skip


@dataclass(frozen=True)
class Inner:
    name: str
    rate_Bps: float
    tags: tuple[str, ...] = ()


@dataclass
class Outer:
    inner: Inner
    items: list[Inner] = field(default_factory=list)
    by_name: dict[str, float] = field(default_factory=dict)
    when: date = date(2026, 11, 22)
    path: Path = Path("/tmp/x y/ä.toml")


@dataclass
class Empty:
    pass


class Pair(NamedTuple):
    a: float
    b: str


class Kind(Enum):
    TAPE = "tape"


class Level(IntEnum):
    ONE = 1


class Text(str):
    pass


VALUES: list[Any] = [
    {"a": float("inf"), "b": [float("nan"), 1.5], "c": -float("inf")},
    {},
    [],
    [[], {}, [{}], {"x": []}],
    "plain",
    'ünïcödé \u202e \x1b[2J "quoted" back\\slash\nnew line\ttab',
    0,
    -7,
    10**30,
    0.1 + 0.2,
    1e-320,
    -0.0,
    True,
    None,
    (1, "two", 3.0, None, False),
    Outer(Inner("LTO", 3e8, ("a", "b")), [Inner("x", math.inf)], {"LIB": 2.5, "MS": math.nan}),
    Empty(),
    [Empty(), Inner("n", 1.0)],
    {"d": date(2026, 1, 2), "t": datetime(2026, 1, 2, 3, 4, 5), "p": PurePosixPath("a/b")},
    MappingProxyType({"k": 1.0, "nested": MappingProxyType({"z": [1, 2]})}),
    {7: "int key", 2.5: "float key", True: "bool key", None: "none key"},
    {"outer": {3: [1, {"inner": 2}], 4: {}}},
    Pair(1.5, "b"),
    [Pair(math.nan, "x")],
    {"enum": Kind.TAPE, "int_enum": Level.ONE, "text": Text("sub")},
    {"np_float": np.float64(2.5), "np_nan": np.float64("nan"), "np_int": np.int64(3)},
    {"np_array": np.arange(3), "set": {1}, "bytes": b"x", "complex": 1j},
    {"deep": [[[[{"a": [[[1.0]]]}]]]]},
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
@pytest.mark.parametrize("indent", [2, 4, 0, None])
def test_dumps_json_is_the_generic_json(value, indent):
    assert dumps_json(value, indent=indent) == generic(value, indent)


def test_the_json_stays_valid_json():
    text = dumps_json(VALUES[15])
    assert json.loads(text)["items"][0]["rate_Bps"] is None
