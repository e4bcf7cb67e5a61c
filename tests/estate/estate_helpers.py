"""Scenarios and estates built in code for the estate tests."""

from __future__ import annotations

from typing import Any

from rtoplanner.core.estate import Estate
from rtoplanner.core.estate.model import estate_from_mapping
from rtoplanner.core.scenario import Scenario, scenario_from_mapping

DRIVE = {"kind": "tape_drive", "name": "LTO", "count": 4, "rate": "300 MB/s"}
MEDIA = {"kind": "media_server", "name": "MS", "count": 1, "rate": "1 GB/s"}


def scenario(
    name: str,
    *,
    size: str = "2 TB",
    channels: int = 4,
    init: str = "30 s",
    path: list[dict[str, Any]] | None = None,
    detect: str = "10 min",
    rto: str = "8 h",
    level1: str = "none",
    logs_on_disk: bool = True,
    largest_file: str | None = None,
    compression: float = 1.0,
    extra: dict[str, dict[str, Any]] | None = None,
) -> Scenario:
    doc: dict[str, Any] = {
        "format": 1,
        "name": name,
        "database": {"size": size, "redo_rate": "2 MB/s", "daily_change": "5%"},
        "backup": {
            "channels": channels,
            "channel_init": init,
            "level1": level1,
            "compression_ratio": compression,
        },
        "path": path if path is not None else [dict(DRIVE), dict(MEDIA)],
        "recovery": {
            "detect": detect,
            "open": "5 min",
            "archivelogs_on_disk": logs_on_disk,
            "redo_apply_rate": "200 GB/h",
            "incremental_apply_rate": "2 TB/h",
        },
        "targets": {"rto": rto},
    }
    if largest_file:
        doc["database"]["largest_file"] = largest_file
    for section, values in (extra or {}).items():
        doc[section].update(values)
    return scenario_from_mapping(doc, source=name)


def shared_stage(stage: dict[str, Any], name: str) -> dict[str, Any]:
    """A scenario stage that uses the estate's resource `name`."""
    return {**stage, "shared": name}


def estate(
    databases: list[tuple[Scenario, int]],
    shared: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> Estate:
    """An estate of in-memory scenarios: (scenario, priority) pairs."""
    by_name = {s.name: s for s, _ in databases}
    doc = {
        "format": 1,
        "name": "test estate",
        "shared": shared or [],
        "database": [
            {"scenario": s.name, "priority": prio, **extra.get(s.name, {})} for s, prio in databases
        ],
    }
    return estate_from_mapping(doc, source="test.toml", resolve=by_name.__getitem__)


def with_shared_edits(doc: dict[str, Any], edits: dict[str, object]) -> dict[str, Any]:
    """An estate document with `shared[i].key` edits made (None removes the key), as a
    user would make them in the file; the document given is not changed."""
    doc = dict(doc)
    doc["shared"] = [dict(e) for e in doc["shared"]]
    for key, value in edits.items():
        index = int(key[len("shared[") : key.index("]")])
        field = key.split(".", 1)[1]
        if value is None:
            doc["shared"][index].pop(field, None)
        else:
            doc["shared"][index][field] = value
    return doc
