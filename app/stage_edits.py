"""The restore path's structural edits on a raw scenario document, as pure functions.

Each returns the edited copy and how the stages moved (`moved`: old index → new index, or
None for the removed one), so the document's `[uncertainty]` ranges can follow their
stages; `ScenarioDocument` pushes the result as one undo step.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rtoplanner.core.catalog import CatalogItem

Raw = dict[str, Any]
Moved = dict[int, int | None]

NEW_STAGE: dict[str, Any] = {"kind": "network", "name": "New stage", "count": 1}
"""No rate: a stage added with a made-up rate would change the plan unnoticed; without
one the plan waits (the row says "a stage needs a rate") until the user gives it or picks
the stage from the catalog (issue 23.9)."""
CATALOG_OWNED = ("rate", "efficiency", "hw_compression", "max_rate", "backup_rate")
"""A stage's own figures that picking a catalog item removes (the catalog's apply)."""


def stage_added(raw: Raw, index: int | None, stage: Any = None) -> tuple[Raw, int, Moved]:
    """A new stage (`NEW_STAGE` unless given) at `index` (None: at the end)."""
    after = copy.deepcopy(raw)
    path = after.setdefault("path", [])
    index = len(path) if index is None else max(0, min(index, len(path)))
    moved: Moved = {i: i + (i >= index) for i in range(len(path))}
    path.insert(index, dict(stage or NEW_STAGE))
    return after, index, moved


def stage_removed(raw: Raw, index: int) -> tuple[Raw, Moved] | None:
    """Without stage `index` (None when there is no such stage)."""
    after = copy.deepcopy(raw)
    path = after.get("path") or []
    if not 0 <= index < len(path):
        return None
    moved: Moved = {i: None if i == index else i - (i > index) for i in range(len(path))}
    del path[index]
    return after, moved


def stage_moved(raw: Raw, index: int, delta: int) -> tuple[Raw, int, Moved] | None:
    """Stage `index` moved up (-1) or down (+1) the restore order (None: it cannot)."""
    after = copy.deepcopy(raw)
    path = after.get("path") or []
    new = index + delta
    if not (0 <= index < len(path) and 0 <= new < len(path)):
        return None
    path[index], path[new] = path[new], path[index]
    moved: Moved = {i: i for i in range(len(path))} | {index: new, new: index}
    return after, new, moved


def catalog_item_changes(index: int, item: CatalogItem) -> dict[str, Any]:
    """Make stage `index` the catalog item: its kind and name, and no figures of its own,
    so the scenario takes the catalog's (and its derate, compression) visibly."""
    changes: dict[str, Any] = {
        f"path[{index}].kind": item.kind,
        f"path[{index}].name": item.name,
    }
    for key in CATALOG_OWNED:
        changes[f"path[{index}].{key}"] = None
    if item.kind != "storage_write":
        changes[f"path[{index}].write_factor"] = None
    if item.kind == "object_storage":  # a per-channel rate: units would be refused
        changes[f"path[{index}].count"] = None
    return changes


class StageCommands:
    """The path's stage commands of `ScenarioDocument` (a mixin): each edit above pushed
    as one undo step, through the document's `_push`."""

    _raw: Raw
    if TYPE_CHECKING:  # the document's own

        def _push(self, text: str, after: Raw, merge_key: Any = None, structural: bool = False,
                  moved: Moved | None = None) -> None: ...  # fmt: skip

        def set_values(self, changes: Mapping[str, Any], text: str) -> None: ...

    def add_stage(self, index: int | None = None, stage: Mapping[str, Any] | None = None) -> int:
        after, index, moved = stage_added(self._raw, index, stage)
        self._push("Add stage", after, structural=True, moved=moved)
        return index

    def remove_stage(self, index: int) -> None:
        if (edit := stage_removed(self._raw, index)) is not None:
            self._push("Remove stage", edit[0], structural=True, moved=edit[1])

    def move_stage(self, index: int, delta: int) -> int:
        """Move a stage up (-1) or down (+1) the restore order; returns its new index."""
        if (edit := stage_moved(self._raw, index, delta)) is None:
            return index
        after, new, moved = edit
        self._push("Move stage", after, structural=True, moved=moved)
        return new

    def apply_catalog_item(self, index: int, item: CatalogItem) -> None:
        """Make a stage a catalog item: its kind and name, and no rate of its own, so the
        scenario takes the catalog's figure (and derate, compression) visibly."""
        self.set_values(catalog_item_changes(index, item), f"Use {item.name} from the catalog")
