"""The raw edits that turn one scenario into another, for the GUI's one undoable step.

PREVIEW fill and calibration compute a validated new scenario with `with_values` (values,
their `[provenance]` and, for a measured figure, its `[uncertainty]` entry). The GUI's
document applies raw dotted keys (`doc.set_values`); `raw_edits(old, new)` lists exactly
the keys that differ, with `None` for a key the new scenario no longer has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..scenario import Scenario

SECTIONS = ("database", "backup", "recovery", "targets", "provenance", "uncertainty")


def _flat(raw: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for section in SECTIONS:
        table = raw.get(section) or {}
        for key, value in table.items():
            out[f"{section}.{key}"] = value
    return out


def raw_edits(old: Scenario, new: Scenario) -> dict[str, Any]:
    """{dotted key: new raw value or None} of every top-level-section key that changed."""
    a, b = _flat(old.raw), _flat(new.raw)
    edits = {k: v for k, v in b.items() if a.get(k) != v}
    edits.update({k: None for k in a if k not in b})
    return edits


__all__ = ["raw_edits"]
