"""What the store returns: small frozen records, never live database rows.

Callers (CLI, GUI models, the report) get plain values they may keep, pass between
threads and compare; nothing here holds a cursor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..catalog import CatalogItem


@dataclass(frozen=True)
class Changes:
    """What a write changed, so each view decides whether to reload (STYLE §6)."""

    catalog: bool = False
    scenarios: bool = False
    results: bool = False
    workloads: bool = False
    drills: bool = False


@dataclass(frozen=True)
class StoreInfo:
    """Facts about an open store file, for `--json` output and the GUI's About box."""

    path: Path
    schema_version: int
    read_only: bool
    created: bool
    """True when this open created the file."""
    migrated_from: int | None = None
    """The schema version the file had before this open migrated it."""
    backup_path: Path | None = None
    """The copy taken before migrating."""


@dataclass(frozen=True)
class CatalogEntry:
    """A catalog item as the store holds it.

    `overrides_shipped` marks a user item that replaces a shipped one of the same kind and
    name; `shadowed` marks a shipped item that a user item replaces (listed only on
    request, because it is not what a plan will use).
    """

    item: CatalogItem
    origin: str  # "shipped" | "user"
    updated_at: datetime
    overrides_shipped: bool = False
    shadowed: bool = False


@dataclass(frozen=True)
class CatalogChange:
    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScenarioVersion:
    """One saved version of a scenario: the TOML text exactly as it was given."""

    id: int
    scenario: str
    version: int
    saved_at: datetime
    comment: str
    text: str = field(repr=False)
    content_hash: str
    restored_from: int | None = None
    app_version: str = ""


@dataclass(frozen=True)
class ScenarioSummary:
    """A scenario in the list: its latest version and whether it is in the bin."""

    name: str
    versions: int
    latest_version: int
    latest_saved_at: datetime
    latest_comment: str
    created_at: datetime
    deleted_at: datetime | None = None
    purge_after: datetime | None = None


@dataclass(frozen=True)
class ScenarioDiff:
    """A unified diff between two versions' texts (empty `lines` when identical)."""

    scenario: str
    from_version: int
    to_version: int
    lines: tuple[str, ...]

    @property
    def identical(self) -> bool:
        return not self.lines


@dataclass(frozen=True)
class StoredResult:
    """A plan computed for one scenario version, with what it was computed from.

    `inputs_hash` covers the scenario text and the effective catalog; together with
    `engine_version` it tells whether recomputing today would give the same plan.
    """

    id: int
    scenario: str
    version: int
    scenario_version_id: int
    computed_at: datetime
    inputs_hash: str
    engine_version: str
    plan: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class ResultCheck:
    """Whether a stored result still matches what the program would compute now."""

    result: StoredResult
    current_inputs_hash: str
    current_engine_version: str

    @property
    def inputs_changed(self) -> bool:
        return self.result.inputs_hash != self.current_inputs_hash

    @property
    def engine_changed(self) -> bool:
        return self.result.engine_version != self.current_engine_version

    @property
    def current(self) -> bool:
        return not (self.inputs_changed or self.engine_changed)
