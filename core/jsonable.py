"""Plain JSON-ready data from result objects, for `--json` output and stored payloads."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from datetime import date, datetime
from pathlib import PurePath
from typing import Any


def json_ready(obj: Any) -> Any:
    """Dataclasses become dicts (recursively), dates ISO 8601 strings, tuples lists,
    paths strings; everything else is returned as it is."""
    if is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: json_ready(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, datetime | date):
        return obj.isoformat()
    if isinstance(obj, PurePath):
        return str(obj)
    if isinstance(obj, Mapping):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_ready(v) for v in obj]
    return obj


def finite(obj: Any) -> Any:
    """`obj` with every NaN or infinite float replaced by None, so `json.dumps(...,
    allow_nan=False)` always works: `Infinity` and `NaN` are not JSON and break every
    strict parser a customer's tooling uses."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, Mapping):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj


def dumps_json(obj: Any, *, indent: int | None = 2) -> str:
    """Valid JSON of `obj` (dataclasses, dates and paths as `json_ready` makes them;
    non-finite floats as null; anything else unknown as its `str`)."""
    return json.dumps(
        finite(json_ready(obj)), indent=indent, ensure_ascii=False, allow_nan=False, default=str
    )
