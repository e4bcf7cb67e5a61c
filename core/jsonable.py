"""Plain JSON-ready data from result objects, for `--json` output and stored payloads."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from datetime import date, datetime
from pathlib import PurePath
from typing import Any

from .errors import CoreError


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


class NonFiniteError(CoreError, ValueError):
    """A figure meant for JSON is NaN or infinite: never written (it is not JSON, and a
    null in its place would be a silently wrong figure)."""


def refuse_nonfinite(obj: Any, where: str = "") -> None:
    """Raise NonFiniteError naming the first NaN or infinite float in plain data (dicts,
    lists, tuples), by its path (`failure_time.worst.max_s`)."""
    if isinstance(obj, float):
        if not math.isfinite(obj):
            raise NonFiniteError(
                f"{where or 'a value'} is {obj!r}: refusing to write it as JSON",
                hint="please report it with the scenario (set RTOPLANNER_DEBUG=1 for details)",
            )
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            refuse_nonfinite(v, f"{where}.{k}" if where else str(k))
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            refuse_nonfinite(v, f"{where}[{i}]")


def dumps_json(obj: Any, *, indent: int | None = 2) -> str:
    """Valid JSON of `obj` (dataclasses, dates and paths as `json_ready` makes them;
    non-finite floats as null; anything else unknown as its `str`).

    Indented output is written in one pass (`_Writer`), byte for byte what
    `json.dumps(finite(json_ready(obj)), indent=...)` writes: that path walks the data
    three times, the last in the json module's pure-Python indenting encoder (the C
    encoder does not indent), which took 1.3 s for a 10,000-database estate."""
    if indent is None or indent.__class__ is not int:
        return _generic(obj, indent)
    out: list[str] = []
    _Writer(out, " " * indent).value(obj, "\n")
    return "".join(out)


def _generic(obj: Any, indent: int | None) -> str:
    return json.dumps(
        finite(json_ready(obj)), indent=indent, ensure_ascii=False, allow_nan=False, default=str
    )


_encode_str = json.encoder.encode_basestring  # the C encoder when there is one
_float_repr = float.__repr__
_int_repr = int.__repr__
_isfinite = math.isfinite


class _Writer:
    """The indenting JSON encoder for the plain types (str, int, float, bool, None, dict
    with text keys, list, tuple, dataclasses, dates, paths, other mappings); any other
    value is written by the generic path (`_generic`) and indented to its place."""

    def __init__(self, out: list[str], indent: str) -> None:
        self.out = out
        self.indent = indent

    def value(self, obj: Any, nl: str) -> None:
        """Write `obj`; `nl` is a newline and the indentation of the line it is on."""
        cls = obj.__class__
        if cls is str:
            self.out.append(_encode_str(obj))
        elif cls is float:
            self.out.append(_float_repr(obj) if _isfinite(obj) else "null")
        elif cls is int:
            self.out.append(_int_repr(obj))
        elif obj is None:
            self.out.append("null")
        elif obj is True:
            self.out.append("true")
        elif obj is False:
            self.out.append("false")
        elif cls is dict:
            self.mapping(obj, nl)
        elif cls is list or cls is tuple:
            self.array(obj, nl)
        else:
            self.other(obj, nl)

    def mapping(self, obj: Mapping[Any, Any], nl: str) -> None:
        out = self.out
        if not obj:
            out.append("{}")
            return
        for key in obj:
            if key.__class__ is not str:  # json turns numbers, bools, None into text
                out.append(_generic(obj, len(self.indent)).replace("\n", nl))
                return
        inner = nl + self.indent
        sep = "{" + inner
        append = out.append
        for key, v in obj.items():
            # (the scalars written here, as `value` writes them: one call fewer each)
            cls = v.__class__
            if cls is float:
                append(f"{sep}{_encode_str(key)}: {_float_repr(v) if _isfinite(v) else 'null'}")
            elif cls is str:
                append(f"{sep}{_encode_str(key)}: {_encode_str(v)}")
            elif cls is int:
                append(f"{sep}{_encode_str(key)}: {_int_repr(v)}")
            else:
                append(f"{sep}{_encode_str(key)}: ")
                self.value(v, inner)
            sep = "," + inner
        append(nl + "}")

    def array(self, obj: list[Any] | tuple[Any, ...], nl: str) -> None:
        out = self.out
        if not obj:
            out.append("[]")
            return
        inner = nl + self.indent
        sep = "[" + inner
        for v in obj:
            out.append(sep)
            self.value(v, inner)
            sep = "," + inner
        out.append(nl + "]")

    def other(self, obj: Any, nl: str) -> None:
        """What `json_ready` turns into a plain value, else the generic path."""
        if is_dataclass(obj) and not isinstance(obj, type):
            self.mapping({f.name: getattr(obj, f.name) for f in fields(obj)}, nl)
        elif isinstance(obj, datetime | date):
            self.out.append(_encode_str(obj.isoformat()))
        elif isinstance(obj, PurePath):
            self.out.append(_encode_str(str(obj)))
        elif isinstance(obj, Mapping):
            self.mapping(dict(obj.items()), nl)
        else:
            self.out.append(_generic(obj, len(self.indent)).replace("\n", nl))
