"""Editing a scenario by dotted key (`backup.channels`, `path[0].count`): reading and
setting raw values, and a validated copy with values changed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..catalog import Catalog
from .addresses import table_without
from .load import scenario_from_mapping
from .model import Scenario


def with_values(scenario: Scenario, changes: Mapping[str, Any], catalog: Catalog | None = None,
                provenance: Mapping[str, str] | None = None) -> Scenario:  # fmt: skip
    """A copy of the scenario with raw values changed by dotted key (`backup.channels`,
    `path[0].count`); validated like a file. `None` removes an optional key."""
    raw = _deep_copy(scenario.raw)
    for dotted, value in changes.items():
        set_dotted(raw, dotted, value)
    if provenance:
        prov = dict(raw.get("provenance") or {})
        prov.update(provenance)
        raw["provenance"] = prov
        if raw.get("uncertainty"):
            # A measured figure replaces the estimate: it takes the measured range.
            raw["uncertainty"] = table_without(scenario, provenance)
    return scenario_from_mapping(raw, source=scenario.name, catalog=catalog)


def _deep_copy(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {k: _deep_copy(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_deep_copy(v) for v in obj]
    return obj


_DOTTED_STAGE = re.compile(r"path\[(\d+)\]\.(\w+)")


def get_dotted(raw: Mapping[str, Any], key: str) -> Any:
    """The raw value at a dotted key, or None when the key is not set."""
    m = _DOTTED_STAGE.fullmatch(key)
    if m:
        path = raw.get("path") or []
        idx = int(m.group(1))
        stage = path[idx] if idx < len(path) and isinstance(path[idx], Mapping) else {}
        return stage.get(m.group(2))
    if "." in key:
        section, name = key.split(".", 1)
        table = raw.get(section)
        return table.get(name) if isinstance(table, Mapping) else None
    return raw.get(key)


def set_dotted(raw: dict[str, Any], key: str, value: Any) -> None:
    """Set (or with None remove) a raw value by dotted key, in place."""
    m = _DOTTED_STAGE.fullmatch(key)
    if m:
        target = raw.setdefault("path", [])[int(m.group(1))]
        name = m.group(2)
    elif "." in key:
        section, name = key.split(".", 1)
        target = raw.setdefault(section, {})
    else:
        target, name = raw, key
    if value is None:
        target.pop(name, None)
    else:
        target[name] = value
