"""The open scenario: its raw document, undo history, validity and plans.

`ScenarioDocument` is the single owner of what the user is editing. The editor's model
is `raw`, the document as the user writes it (strings with units, ints, bools), so what
was typed is what is saved. Every change goes through the `QUndoStack` as a snapshot
command; consecutive keystrokes in one field merge into one undo step.

After a change the document waits for the next turn of the event loop, validates the raw
document with core (`parse_value` per field for inline errors, `scenario_from_mapping`
for cross-field ones), runs the fast `compute_plan(..., include_cycle=False,
include_growth=False)` synchronously and emits `plan_changed`; the full plan (cycle scan
and growth outlook) then runs in a worker and arrives as a second `plan_changed`. An
invalid document emits `field_error`s and keeps the last valid plan: nothing on screen
jumps while the user is half-way through typing "2.5 TB".
"""

from __future__ import annotations

import copy
import logging
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QObject, QTimer, Signal, Slot
from PySide6.QtGui import QUndoCommand, QUndoStack

from rtoplanner.core.bounds import MAX_SCENARIO_BYTES
from rtoplanner.core.catalog import Catalog, shipped_catalog
from rtoplanner.core.comments import source_comments
from rtoplanner.core.errors import CoreError, ScenarioError, UnitError
from rtoplanner.core.inputfile import read_limited
from rtoplanner.core.outfile import write_output_text
from rtoplanner.core.plan import Plan, compute_plan
from rtoplanner.core.scenario import (
    SECTIONS,
    STAGE_FIELDS,
    TOP_FIELDS,
    FieldSpec,
    Scenario,
    dump_mapping,
    get_dotted,
    load_scenario,
    load_scenario_text,
    parse_value,
    scenario_from_mapping,
    set_dotted,
    spec_for_key,
)
from rtoplanner.core.toml_edit import merge_into_text
from rtoplanner.core.uncertainty.inputs import follow_stage_edits
from rtoplanner.core.wording import for_reader

from .editor.fields import label_for
from .stage_edits import StageCommands
from .workers import TaskRunner

log = logging.getLogger(__name__)  # core/logs.py attaches the log file

DEBOUNCE_MS = 0
FULL_PLAN_DELAY_MS = 15
"""The fast plan takes a few milliseconds: it runs on the next turn of the event loop after
a change (which still merges the changes of one paste or one event burst), no later."""
UNTITLED = "Untitled"

NEW_SCENARIO: dict[str, Any] = {
    "format": 1,
    "name": "New scenario",
    "database": {"size": "5 TB", "redo_rate": "5 MB/s", "daily_change": "5%",
                 "workload": "oltp"},
    "backup": {"channels": 4, "channel_init": "10 s",
               "level0_every": "7d", "level1": "none", "archivelog_every": "1h",
               "log_switch": "20 min"},
    "path": [
        {"kind": "tape_drive", "name": "LTO-8", "count": 4},
        {"kind": "network", "name": "10 Gb/s link", "count": 1, "rate": "10 Gb/s",
         "efficiency": "90%"},
    ],
    "recovery": {"detect": "15 min", "open": "5 min"},
    "targets": {"rto": "8 h", "rpo": "24 h", "backup_window": "10 h", "risk_margin": "10%"},
}  # fmt: skip
"""What File > New starts from: a small valid plan a user edits rather than a blank form
(a blank form shows nothing but errors)."""


@dataclass(frozen=True)
class StoreOrigin:
    """Where a document opened from the store came from: the scenario's store key (its
    `name`) and the version that was opened (saving adds a new version)."""

    name: str
    version: int


def field_errors(raw: Mapping[str, Any]) -> dict[str, str]:
    """Per-field errors of a raw document: every value checked on its own by core's
    `parse_value`, so two bad fields are both marked (the loader stops at the first)."""
    errors: dict[str, str] = {}

    def check(prefix: str, table: Any, specs: tuple[FieldSpec, ...]) -> None:
        if not isinstance(table, Mapping):
            return
        for spec in specs:
            if spec.key in table:
                try:
                    parse_value(spec, table[spec.key])
                except (UnitError, ValueError) as exc:
                    errors[f"{prefix}{spec.key}"] = str(exc)

    check("", raw, TOP_FIELDS)
    for section, specs in SECTIONS.items():
        check(f"{section}.", raw.get(section), specs)
    for i, stage in enumerate(raw.get("path") or []):
        check(f"path[{i}].", stage, STAGE_FIELDS)
    return errors


def edit_label(key: str) -> str:
    """How an edit of `key` reads in Undo: "Size", "Stage 2 rate", "Redo rat"."""
    spec = spec_for_key(key)
    name = key.rsplit(".", 1)[-1]
    label = label_for(spec) if spec is not None else name.replace("_", " ").capitalize()
    m = re.fullmatch(r"path\[(\d+)\]\.\w+", key)
    if m:
        return f"Stage {int(m.group(1)) + 1} {label[0].lower()}{label[1:]}"
    return label


def error_message(exc: ScenarioError) -> str:
    """A scenario error without its location, for showing next to the field."""
    reason = getattr(exc, "reason", None) or exc.message
    # The form's words for the other keys a message names (“Level 1 backups”, not
    # `backup.level1`), as the notes read (issue 23.6).
    return for_reader(f"{reason} ({exc.hint})" if exc.hint else reason)


class _EditCommand(QUndoCommand):
    """A snapshot edit: the whole raw document before and after.

    Scenarios are a few dozen values, so snapshots are simpler and safer than inverse
    operations (reordering stages, picking from the catalog, typing). Edits of the same
    field in one burst of typing merge (`merge_key`).
    """

    ID = 0x5254

    def __init__(
        self,
        doc: ScenarioDocument,
        text: str,
        before: dict[str, Any],
        after: dict[str, Any],
        merge_key: tuple[str, int] | None = None,
        structural: bool = False,
    ) -> None:
        super().__init__(text)
        self.doc = doc
        self.before = before
        self.after = after
        self.merge_key = merge_key
        self.structural = structural

    def id(self) -> int:
        return self.ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _EditCommand) or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        if self.after == self.before:
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        self.doc._apply_raw(self.after, self.structural)

    def undo(self) -> None:
        self.doc._merge_serial += 1
        self.doc._apply_raw(self.before, self.structural)


class ScenarioDocument(StageCommands, QObject):
    """The scenario being edited (see the module docstring for the flow)."""

    plan_changed = Signal(object)
    """A `Plan`: first the fast one (cycle and growth None), then the full one."""
    field_error = Signal(str, str)
    """(dotted key, message); an empty message clears the key's error."""
    errors_changed = Signal(dict)
    """All current errors by dotted key ("" for an error no field owns)."""
    raw_changed = Signal(bool)
    """The raw document changed; True when stages were added, removed or moved."""
    file_changed = Signal(str)
    dirty_changed = Signal(bool)
    busy_changed = Signal(bool)
    plan_failed = Signal(str)
    plan_cleared = Signal()
    typing_changed = Signal(bool)
    """A number is being typed into a field (True) or the field was left (False): the
    plan meanwhile is of an intermediate value ("1" on the way to "16")."""
    """Another scenario was opened: its plan is not computed yet (or cannot be, when it
    has errors), so no view may keep showing the previous scenario's plan."""

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        catalog: Catalog | None = None,
        debounce_ms: int = DEBOUNCE_MS,
    ) -> None:
        super().__init__(parent)
        self.catalog = catalog if catalog is not None else shipped_catalog()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._raw: dict[str, Any] = copy.deepcopy(NEW_SCENARIO)
        self._file_path: Path | None = None
        self._copy_of: str | None = None
        self._typing = False
        self._saved_raw: dict[str, Any] = copy.deepcopy(self._raw)
        self._dirty = False
        self._layout_text: str | None = None  # the file's text, whose layout Save keeps
        self._store_origin: StoreOrigin | None = None
        self._scenario: Scenario | None = None
        self._plan: Plan | None = None
        self._errors: dict[str, str] = {}
        self._merge_serial = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self.recompute_now)
        # The full plan starts a moment after the fast one, once its views have painted:
        # a worker started at once takes the GIL from the repaint (issue 14).
        self._full_timer = QTimer(self)
        self._full_timer.setSingleShot(True)
        self._full_timer.setInterval(FULL_PLAN_DELAY_MS)
        self._full_timer.timeout.connect(self._start_full_plan)
        self._runner = TaskRunner(self)
        self._runner.done.connect(self._on_full_plan)
        self._runner.failed.connect(self._on_full_failed)
        self._runner.busy_changed.connect(self.busy_changed)

    # ------------------------------------------------------------------ state

    @property
    def raw(self) -> dict[str, Any]:
        """The document as written. Read-only for callers: change it with set_value."""
        return self._raw

    @property
    def scenario(self) -> Scenario | None:
        """The last valid scenario (it may be older than `raw` while `errors` is set)."""
        return self._scenario

    @property
    def plan(self) -> Plan | None:
        return self._plan

    @property
    def errors(self) -> dict[str, str]:
        return dict(self._errors)

    @property
    def is_valid(self) -> bool:
        return not self._errors

    @property
    def file_path(self) -> Path | None:
        return self._file_path

    @property
    def is_dirty(self) -> bool:
        """Unsaved changes: the undo stack left its clean state and the document differs
        from what was saved (undoing or typing back to the saved values is not a change;
        issue 23.10)."""
        return not self.undo_stack.isClean() and self._raw != self._saved_raw

    @property
    def busy(self) -> bool:
        return self._runner.busy or self._timer.isActive() or self._full_timer.isActive()

    @property
    def store_origin(self) -> StoreOrigin | None:
        """The stored scenario this document was opened from or saved to (None for a file
        or a new scenario). A document has a file path or a store origin, not both."""
        return self._store_origin

    @property
    def display_name(self) -> str:
        if self._store_origin is not None:
            return f"{self._store_origin.name} (stored, version {self._store_origin.version})"
        if self._file_path is not None:
            return self._file_path.name
        return f"{UNTITLED} (copy of {self._copy_of})" if self._copy_of else UNTITLED

    @property
    def stage_count(self) -> int:
        return len(self._raw.get("path") or [])

    def value(self, key: str) -> Any:
        return get_dotted(self._raw, key)

    # ------------------------------------------------------------------ editing

    def set_value(self, key: str, value: Any, *, merge: bool = True) -> None:
        """Set one raw value (None removes an optional key) as an undoable edit."""
        if get_dotted(self._raw, key) == value and value is not None:
            return
        if value is None and get_dotted(self._raw, key) is None:
            return
        after = copy.deepcopy(self._raw)
        set_dotted(after, key, value)
        merge_key = (key, self._merge_serial) if merge else None
        self._push(f"{edit_label(key)} change", after, merge_key)

    def rename_key(self, key: str, new_key: str) -> None:
        """Give a value another key (an unknown key to the one it was meant to be)."""
        after = copy.deepcopy(self._raw)
        value = get_dotted(after, key)
        set_dotted(after, key, None)
        set_dotted(after, new_key, value)
        self._push(f"Rename {key} to {new_key}", after, structural=True)

    def remove_key(self, key: str) -> None:
        """Remove a key from the document (an unknown key the format does not have)."""
        after = copy.deepcopy(self._raw)
        set_dotted(after, key, None)
        self._push(f"Remove {key}", after, structural=True)

    def set_values(self, changes: Mapping[str, Any], text: str) -> None:
        """Several values as one undo step (e.g. picking a catalog item)."""
        after = copy.deepcopy(self._raw)
        for key, value in changes.items():
            set_dotted(after, key, value)
        self._push(text, after)

    def close_edit(self) -> None:
        """End the current burst of typing: the next edit starts a new undo step."""
        self._merge_serial += 1
        self.set_typing(False)

    @property
    def typing(self) -> bool:
        return self._typing

    def set_typing(self, typing: bool) -> None:
        if typing != self._typing:
            self._typing = typing
            self.typing_changed.emit(typing)

    def _push(
        self,
        text: str,
        after: dict[str, Any],
        merge_key: tuple[str, int] | None = None,
        structural: bool = False,
        moved: dict[int, int | None] | None = None,
    ) -> None:
        before = copy.deepcopy(self._raw)
        if after.get("uncertainty"):  # ranges follow their stages (renamed, moved, removed)
            after["uncertainty"] = follow_stage_edits(
                after["uncertainty"], before.get("path"), after.get("path"), moved
            )
        self.undo_stack.push(_EditCommand(self, text, before, after, merge_key, structural))

    def _apply_raw(self, raw: dict[str, Any], structural: bool) -> None:
        """Called by undo commands: install a snapshot and schedule a recompute."""
        self._raw = copy.deepcopy(raw)
        self.raw_changed.emit(structural)
        self._emit_dirty()
        self._timer.start()

    # ------------------------------------------------------------------ computing

    @Slot()
    def recompute_now(self) -> None:
        """Validate and compute the fast plan now; start the full plan in a worker."""
        self._timer.stop()
        errors = field_errors(self._raw)
        scenario = None
        if not errors:
            try:
                scenario = scenario_from_mapping(
                    self._raw, source=self.display_name, catalog=self.catalog
                )
                if self._layout_text:  # the file's comments: the ledger's sources
                    scenario = replace(scenario, comments=source_comments(self._layout_text))
            except ScenarioError as exc:
                errors[exc.key or ""] = error_message(exc)
        plan = None
        if scenario is not None:
            try:
                plan = compute_plan(scenario, include_cycle=False, include_growth=False)
            except CoreError as exc:
                errors[""] = str(exc)
        self._set_errors(errors)
        if plan is None or scenario is None:
            return
        self._scenario = scenario
        previous = self._plan
        # Keep the last cycle/growth on screen until the worker brings the new ones.
        self._plan = plan
        self.plan_changed.emit(plan)
        del previous
        self._full_timer.start()

    @Slot()
    def _start_full_plan(self) -> None:
        self._full_timer.stop()
        if self._scenario is not None:
            self._runner.submit(compute_plan, self._scenario)

    def _set_errors(self, errors: dict[str, str]) -> None:
        old = self._errors
        self._errors = errors
        for key in old.keys() - errors.keys():
            self.field_error.emit(key, "")
        for key, msg in errors.items():
            if old.get(key) != msg:
                self.field_error.emit(key, msg)
        if old != errors:
            self.errors_changed.emit(dict(errors))

    @Slot(object)
    def _on_full_plan(self, plan: object) -> None:
        if not isinstance(plan, Plan) or plan.scenario is not self._scenario:
            return
        self._plan = plan
        self.plan_changed.emit(plan)

    @Slot(object)
    def _on_full_failed(self, exc: object) -> None:
        self.plan_failed.emit(str(exc))

    def wait_idle(self, timeout_ms: int = 5000) -> bool:
        """Flush a pending recompute and wait, processing events, until the full plan
        has arrived (tests, the screenshot entry point)."""
        if self._timer.isActive():
            self.recompute_now()
        if self._full_timer.isActive():
            self._start_full_plan()
        deadline = QDeadlineTimer(timeout_ms)
        while self._runner.busy and not deadline.hasExpired():
            self._runner.pool.waitForDone(10)
            QCoreApplication.processEvents()
        return not self._runner.busy

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel background work and wait for it (before the window closes)."""
        self._timer.stop()
        self._full_timer.stop()
        self._runner.wait(timeout_ms)

    # ------------------------------------------------------------------ files

    def new(self, raw: Mapping[str, Any] | None = None) -> None:
        self._copy_of = None
        self._install(copy.deepcopy(dict(raw or NEW_SCENARIO)), None)

    def open(self, path: str | Path, *, as_copy: bool = False) -> None:
        """Open a scenario file. A file that parses as TOML but does not validate opens
        with its errors marked (so it can be fixed here); anything else raises.

        `as_copy` opens it as an untitled copy (a shipped demo): Save then asks for a
        new file (or stores it) and never writes over the original."""
        p = Path(path)
        try:
            scenario = load_scenario(p, catalog=self.catalog)
            raw = copy.deepcopy(dict(scenario.raw))
        except ScenarioError as exc:
            raw = salvage_raw(p, exc)
            log.warning("opened %s with errors: %s", p, exc)
        self._copy_of = p.name if as_copy else None
        # The file's text: Save keeps its layout, the ledger its comments (a copy too).
        self._install(raw, None if as_copy else p, layout_text=_read_text(p))
        log.info("opened %s%s", p, " as an untitled copy" if as_copy else "")

    def open_text(self, text: str, origin: StoreOrigin) -> None:
        """Open a scenario text from the store. Like `open`, a text that is TOML but no
        longer validates (say, a catalog item it names was removed) opens with its
        errors marked; anything else raises `ScenarioError`."""
        source = f"{origin.name} v{origin.version}"
        try:
            raw = copy.deepcopy(dict(load_scenario_text(text, source, self.catalog).raw))
        except ScenarioError as exc:
            try:
                raw = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                raise exc from None
        self._copy_of = None
        self._install(raw, None, origin)
        log.info("opened %s from the store", source)

    def text(self) -> str:
        """The document as TOML text (what Save writes to a file or the store)."""
        try:
            return dump_mapping(self._raw)
        except TypeError as exc:
            raise ValueError(f"cannot write this scenario as TOML: {exc}") from None

    def mark_stored(self, origin: StoreOrigin) -> None:
        """The document was saved to the store as `origin`: it is clean and from now on
        belongs to that stored scenario (not to a file)."""
        self._store_origin = origin
        self._file_path = None
        self._copy_of = None
        self._layout_text = None
        self._saved_raw = copy.deepcopy(self._raw)
        self.undo_stack.setClean()
        self.file_changed.emit("")

    def _install(
        self,
        raw: dict[str, Any],
        path: Path | None,
        origin: StoreOrigin | None = None,
        layout_text: str | None = None,
    ) -> None:
        self._runner.cancel()
        self._raw = raw
        self._file_path = path
        self._layout_text = layout_text
        self._store_origin = origin
        self._scenario = None
        self._plan = None
        self._merge_serial += 1
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.file_changed.emit(str(path) if path else "")
        self.raw_changed.emit(True)
        self.plan_cleared.emit()
        self._saved_raw = copy.deepcopy(raw)
        self.recompute_now()
        self._dirty = False
        self.dirty_changed.emit(False)

    def save(self, path: str | Path | None = None) -> Path:
        """Write the raw document as TOML: into the layout of the file it was opened from
        (comments kept, only edited values changed: core/toml_edit.py), else canonical.
        Raises OSError; the caller asks first when the document has errors."""
        target = Path(path) if path is not None else self._file_path
        if target is None:
            raise ValueError("no file name: use Save As")
        text = self.text()
        if self._layout_text is not None:
            text = merge_into_text(self._layout_text, text)
        write_output_text(target, text)  # regular files only, all or nothing
        log.info("saved %s", target)
        self._layout_text = text
        if target != self._file_path or self._store_origin is not None:
            self._file_path = target
            self._store_origin = None
            self._copy_of = None
            self.file_changed.emit(str(target))
        self._saved_raw = copy.deepcopy(self._raw)
        self.undo_stack.setClean()
        self._emit_dirty()
        return target

    def export(self, path: str | Path) -> Path:
        """Write the document as TOML to `path` without making it the document's file
        (Export TOML…). Raises OSError, or ValueError when the raw document cannot be
        written as TOML."""
        target = Path(path)
        write_output_text(target, self.text())  # regular files only, all or nothing
        log.info("exported %s", target)
        return target

    @Slot(bool)
    def _on_clean_changed(self, clean: bool) -> None:
        if clean:
            self._saved_raw = copy.deepcopy(self._raw)
        self._emit_dirty()

    def _emit_dirty(self) -> None:
        dirty = self.is_dirty
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)


def _read_text(path: Path) -> str | None:
    """A file's text for Save to keep its layout; None when it cannot be read as TOML."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None


def salvage_raw(path: Path, exc: ScenarioError) -> dict[str, Any]:
    """A scenario file that is TOML with the scenario's shape, though it does not validate
    (it opens with its errors marked); anything else raises `exc`."""
    try:  # bounded, regular files only: a FIFO or /dev/zero was refused, not read
        data = read_limited(path, MAX_SCENARIO_BYTES, "scenario file")
        doc = tomllib.loads(data.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        raise exc from None
    sections_ok = all(isinstance(doc.get(s, {}), dict) for s in SECTIONS)
    path_doc = doc.get("path", [])
    path_ok = isinstance(path_doc, list) and all(isinstance(s, dict) for s in path_doc)
    if not (sections_ok and path_ok):
        raise exc
    return doc
