"""Ways to fix a scenario that does not load: the unknown keys of a raw document and
the known key each was probably meant to be.

The loader stops at the first error; an editor wants every unknown key at once, each
with a fix the user can apply in one click (rename it to the suggestion, or remove it).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .scenario import SECTIONS, STAGE_FIELDS, TABLE_KEYS, TOP_FIELDS, FieldSpec


@dataclass(frozen=True)
class UnknownKey:
    """A key the format does not have, and what it probably meant."""

    key: str
    """Dotted key as written: `database.redo_rat`, `path[2].rte`, `colour`."""
    suggestion: str | None
    """The dotted known key it is closest to (`database.redo_rate`), or None."""


def _allowed(specs: tuple[FieldSpec, ...]) -> tuple[str, ...]:
    return tuple(s.key for s in specs)


def _check(prefix: str, table: Any, allowed: tuple[str, ...]) -> list[UnknownKey]:
    if not isinstance(table, Mapping):
        return []
    out = []
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            out.append(UnknownKey(f"{prefix}{key}", f"{prefix}{close[0]}" if close else None))
    return out


def unknown_keys(raw: Mapping[str, Any]) -> list[UnknownKey]:
    """Every unknown key of a raw scenario document, in file order."""
    top = {k: v for k, v in raw.items() if k not in TABLE_KEYS}
    out = _check("", top, _allowed(TOP_FIELDS) + TABLE_KEYS)
    for section, specs in SECTIONS.items():
        out += _check(f"{section}.", raw.get(section), _allowed(specs))
    path = raw.get("path")
    if isinstance(path, list):
        for i, stage in enumerate(path):
            out += _check(f"path[{i}].", stage, _allowed(STAGE_FIELDS))
    return out
