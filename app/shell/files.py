"""The File menu's commands: new, open, recent files, save (to a file or the store), save
as, save with a comment, export, add to the store, and the unsaved-changes prompt.

A stored scenario (and a new one, when there is a store) saves as a new version in the
store; a scenario opened from a file saves back to its file. The commands never compute:
they move text between the document, files and the store, and say what happened in the
status bar.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu, QMessageBox

from rtoplanner.core.appinfo import APP_NAME, SCENARIO_SUFFIX
from rtoplanner.core.errors import CoreError

from ..dialogs.confirm import confirm
from ..document import NEW_SCENARIO, StoreOrigin
from ..scenario_list import short_folder

log = logging.getLogger(__name__)  # core/logs.py attaches the log file

FILE_FILTER = "Scenario files (*.rto.toml *.toml);;All files (*)"


class FileCommands(QObject):
    """File › New … Quit over the window's document, settings and scenario list."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.host = host
        self.doc = host.doc
        self.settings = host.settings
        self.recent_menu = QMenu("Open &Recent", host)

    def _status(self, text: str, ms: int) -> None:
        self.host.statusBar().showMessage(text, ms)

    @property
    def _list(self) -> Any:
        return self.host.scenario_list

    # ------------------------------------------------------------------ new and open

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False when the user cancels."""
        if not self.doc.is_dirty:
            return True
        answer = QMessageBox.question(
            self.host,
            APP_NAME,
            f"Save the changes to “{self.doc.display_name}” before closing it?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    @Slot()
    def new_scenario(self) -> None:
        if self.maybe_save():
            raw = None
            if self._list.store is not None:  # a name the store does not have yet
                raw = {**NEW_SCENARIO, "name": self._list.unique_name(NEW_SCENARIO["name"])}
            self.doc.new(raw)
            self.refresh_recent()

    @Slot()
    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = self.settings.get("files/last_dir") or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self.host, "Open scenario", start, FILE_FILTER)
        if path:
            self.open_file(path, ask=False)

    @Slot(str)
    def open_file(self, path: str | Path, ask: bool = True) -> bool:
        """Open a scenario (an estate file opens in an Estate window); errors are shown,
        not raised. Returns False on failure."""
        from rtoplanner.core.estate.model import is_estate_file  # (loads the estate code)

        if is_estate_file(path):
            return self.host.view("estate").open_file(path).estate is not None
        if ask and not self.maybe_save():
            return False
        try:
            self.doc.open(path)
        except CoreError as exc:
            log.warning("cannot open %s: %s", path, exc)
            QMessageBox.critical(self.host, APP_NAME, f"Cannot open the scenario:\n\n{exc}")
            return False
        p = Path(path)
        self.settings.set("files/last_dir", str(p.resolve().parent))
        self.settings.add_recent_file(p)
        self.remember("file", str(p.resolve()))
        self.refresh_recent()
        errors = self.doc.errors
        if errors:
            key, msg = next(iter(errors.items()))
            self._status(f"Opened with errors — {key}: {msg}", 10000)
            if key:
                self.host.editor.show_field(key)
        else:
            self._status(f"Opened {p.name}", 4000)
        return True

    @Slot(str)
    def open_demo(self, path: str | Path, ask: bool = True) -> bool:
        """Open a shipped demo as an untitled copy: Save never writes over the demo."""
        if ask and not self.maybe_save():
            return False
        try:
            self.doc.open(path, as_copy=True)
        except CoreError as exc:
            QMessageBox.critical(self.host, APP_NAME, f"Cannot open the demo:\n\n{exc}")
            return False
        self.refresh_recent()
        self.remember("demo", str(Path(path).resolve()))
        self._status(
            f"Opened the demo {Path(path).name} as an untitled copy; Save asks where to keep it",
            6000,
        )
        return True

    @Slot(str, int)
    def open_stored(self, name: str, version: int = 0, ask: bool = True) -> bool:
        """Open a stored scenario (version 0: the latest) in the editor."""
        store = self._list.store
        if store is None or (ask and not self.maybe_save()):
            return False
        try:
            v = store.scenario_version(name, version or None)
            latest = store.scenario_version(name).version
            self.doc.open_text(v.text, StoreOrigin(name, v.version))
        except CoreError as exc:
            QMessageBox.critical(self.host, APP_NAME, f"Cannot open “{name}”:\n\n{exc}")
            return False
        self.refresh_recent()
        self.remember("store", name)
        if self.doc.errors:
            key, msg = next(iter(self.doc.errors.items()))
            self._status(f"Opened with errors — {key}: {msg}", 10000)
        elif v.version != latest:
            self._status(f"Opened v{v.version} of “{name}” (current: v{latest}); Save makes "
                         f"it v{latest + 1}", 8000)  # fmt: skip
        else:
            self._status(f"Opened “{name}” v{v.version} from the store", 4000)
        return True

    # ------------------------------------------------------------------ save to a file

    @Slot()
    def save(self) -> bool:
        if self._saves_to_store():
            return self.save_to_store()
        if self.doc.file_path is None:
            return self.save_as()
        return self._save_to(self.doc.file_path)

    @Slot()
    def save_as(self) -> bool:
        start = str(self.doc.file_path or Path(self.settings.get("files/last_dir") or Path.home())
                    / f"scenario{SCENARIO_SUFFIX}")  # fmt: skip
        path = self._ask_toml_path("Save scenario as", start)
        return path is not None and self._save_to(path)

    @Slot()
    def export_toml(self) -> bool:
        name = self.doc.raw.get("name")
        stem = re.sub(r"[^\w.-]+", "_", name).strip("_") if isinstance(name, str) else ""
        folder = Path(self.settings.get("files/last_dir") or Path.home())
        start = str(folder / f"{stem or 'scenario'}{SCENARIO_SUFFIX}")
        path = self._ask_toml_path("Export TOML", start)
        saved = self._write_toml(self.doc.export, path, "write") if path is not None else None
        if saved is None:
            return False
        self._status(f"Exported {saved.name}", 4000)
        return True

    def _ask_toml_path(self, caption: str, start: str) -> Path | None:
        """A file name to write TOML to (`.rto.toml`, the scenario file type, added when no
        `.toml` is given), or None."""
        path, _ = QFileDialog.getSaveFileName(self.host, caption, start, FILE_FILTER)
        if not path:
            return None
        if not path.lower().endswith(".toml"):
            path += SCENARIO_SUFFIX
        return Path(path)

    def _write_toml(self, write: Callable[[Path], Path], path: Path, verb: str) -> Path | None:
        """Write with `write` (the document's save or export); on failure say so and return
        None, else remember the folder for the next file dialog."""
        try:
            saved = write(path)
        except (OSError, ValueError) as exc:
            log.warning("cannot %s %s: %s", verb, path, exc)
            QMessageBox.critical(self.host, APP_NAME, f"Cannot {verb} {path}:\n\n{exc}")
            return None
        self.settings.set("files/last_dir", str(saved.resolve().parent))
        return saved

    def _save_to(self, path: Path) -> bool:
        if self.doc.errors and not confirm(
            self.host,
            APP_NAME,
            "The scenario has input errors; the file will not open cleanly until "
            "they are fixed. Save it anyway?",
            QMessageBox.StandardButton.Save,
            warning=True,
        ):
            return False
        saved = self._write_toml(self.doc.save, path, "save")
        if saved is None:
            return False
        self.settings.add_recent_file(saved)
        self.refresh_recent()
        self.remember("file", str(saved.resolve()))
        self._status(f"Saved {saved.name}", 4000)
        return True

    # ------------------------------------------------------------------ save to the store

    def _saves_to_store(self) -> bool:
        """Save goes to the store for a stored scenario and a new one (when there is a
        store); a scenario opened from a file saves back to its file."""
        has_store = self._list.store is not None
        return has_store and (self.doc.store_origin is not None or self.doc.file_path is None)

    def save_to_store(self, comment: str = "") -> bool:
        origin = self.doc.store_origin
        version = self._list.store_document(self.doc, comment)
        if version is None:
            return False
        self.refresh_recent()
        self.remember("store", version.scenario)
        note = ""
        if origin is not None and origin.name != version.scenario:
            note = f" (renamed: “{origin.name}” is unchanged)"
        self._status(f"Saved “{version.scenario}” v{version.version} in the store{note}", 5000)
        return True

    @Slot()
    def save_with_comment(self) -> bool:
        """Store a version with a comment; a file's scenario is also saved to its file."""
        if self._list.store is None:
            return self.save()
        # The label sets the dialog's width: long enough that the title is not cut.
        comment, ok = QInputDialog.getText(
            self.host,
            "Save with Comment",
            "What changed in this version? (kept with it in the scenario's history)",
        )
        if not ok:
            return False
        if self._saves_to_store():
            return self.save_to_store(comment.strip())
        return self.save() and self.add_to_store(comment.strip())

    def add_to_store(self, comment: str = "") -> bool:
        version = self._list.add_document(self.doc, comment)
        if version is None:
            return False
        where = f"; Save still writes {self.doc.display_name}" if self.doc.file_path else ""
        self._status(f"Added “{version.scenario}” to the store as v{version.version}{where}", 6000)
        return True

    # ------------------------------------------------------------------ restart

    def remember(self, kind: str, where: str) -> None:
        """What a restart reopens (issue 23.10: it reopened the demo, not the scenario the
        DBA was working on): `file`, `store` or `demo`."""
        self.settings.set("files/last_scenario", f"{kind}:{where}")

    def reopen_last(self) -> bool:
        """Open the scenario of the last session (a file, a stored scenario or a demo);
        False when there is none or it is gone (the caller opens the demo)."""
        kind, _, where = str(self.settings.get("files/last_scenario")).partition(":")
        if kind == "store" and where and self._list.store is not None:
            try:
                self._list.store.scenario_version(where)
            except CoreError:
                return False  # deleted since: the demo, not an error dialog at start
            return self.open_stored(where, ask=False)
        elif kind == "file" and Path(where).is_file():
            return self.open_file(where, ask=False)
        elif kind == "demo" and Path(where).is_file():
            return self.open_demo(where, ask=False)
        return False

    # ------------------------------------------------------------------ recent files

    def refresh_recent(self) -> None:
        """Open Recent, the scenario list's files and current scenario, and the store
        commands' state, after the document or the recent files changed."""
        recent = self.settings.recent_files()
        self.recent_menu.clear()
        for p in recent:
            action = self.recent_menu.addAction(f"{Path(p).name}  —  {short_folder(Path(p))}")
            action.setToolTip(p)
            action.setStatusTip(p)
            action.triggered.connect(lambda _c=False, p=p: self.open_file(p))
        self.recent_menu.setEnabled(bool(recent))
        if recent:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear list", self._clear_recent)
        current = str(self.doc.file_path.resolve()) if self.doc.file_path else None
        self._list.populate(recent, current)
        origin = self.doc.store_origin
        self._list.set_current_stored(origin.name if origin else None)
        has_store = self._list.store is not None
        self.host.save_comment_action.setEnabled(has_store)
        self.host.add_to_store_action.setEnabled(has_store and origin is None)

    def _clear_recent(self) -> None:
        self.settings.clear_recent_files()
        self.refresh_recent()

    @Slot()
    def quit(self) -> None:
        self.host.close()
