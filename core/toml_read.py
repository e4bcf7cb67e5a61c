"""Reading scenario and estate TOML: tomli's compiled parser when it is installed, else
the standard library's tomllib.

tomllib *is* tomli (1.x/2.0, TOML 1.0) in pure Python; tomli 2.2+ ships wheels compiled
with mypyc that parse the same documents with the same error messages three times
faster — a third of the time it took to read a 10,000-database estate's files. Kept below
2.4, which reads TOML 1.1: a file must not load on one machine and fail on another.
"""

from __future__ import annotations

import re
from typing import Any

try:
    from tomli import TOMLDecodeError
    from tomli import loads as _loads
except ImportError:  # pragma: no cover - tomli is a dependency; tomllib does the same
    from tomllib import TOMLDecodeError
    from tomllib import loads as _loads

__all__ = ["TOMLDecodeError", "loads"]

_HUGE_INTEGER = re.compile(r"[0-9][0-9_]{4300}")
"""An integer past Python's 4,300-digit limit for converting text to int."""


def loads(text: str) -> dict[str, Any]:
    """The TOML document in `text`; any error is a `TOMLDecodeError` naming its line.

    The parsers turn an integer of more than 4,300 digits into a bare ValueError from
    `int()` ("Exceeds the limit (4300 digits) for integer string conversion"), which
    read as an internal error (issue 25)."""
    try:
        return _loads(text)
    except TOMLDecodeError:
        raise
    except ValueError:
        m = _HUGE_INTEGER.search(text)
        raise _decode_error(
            "an integer of more than 4,300 digits (no figure of a plan has that many)",
            text,
            m.start() if m else 0,
        ) from None


def _decode_error(message: str, text: str, pos: int) -> TOMLDecodeError:
    try:
        return TOMLDecodeError(message, text, pos)  # tomli 2.1+: "(at line N, column M)"
    except TypeError:  # pragma: no cover - the standard library's older signature
        line = text.count("\n", 0, pos) + 1
        return TOMLDecodeError(f"{message} (at line {line})")
