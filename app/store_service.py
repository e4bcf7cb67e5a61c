"""The app's one owner of the DuckDB store.

DuckDB allows one writer per file and the core `Store` refuses a second instance in
the same process, so every panel (scenario list, import dialog, catalog browser) goes
through this object. Store writes commit on the store's own write lane; `changed`
re-emits each commit's `Changes` on the GUI thread so each panel decides whether to
reload (STYLE §6). When the store cannot be opened (another RTO Planner holds it, the
file is damaged or too new) the app still works on TOML files, and `error` says why.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from rtoplanner.core.catalog import Catalog, shipped_catalog
from rtoplanner.core.errors import CoreError
from rtoplanner.core.store import Store, db_path_from_args


class StoreService(QObject):
    changed = Signal(object)
    """A store commit: the core's `Changes` (which parts changed), on the GUI thread."""

    def __init__(self, path: Path | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.store: Store | None = None
        self.error: str | None = None
        self._unsubscribe = None
        if path is None:
            return
        try:
            self.store = Store(path)
        except CoreError as exc:
            self.error = str(exc)
            return
        # Called on the store's write lane: emitting a signal from another thread is
        # safe; Qt queues it to this object's (the GUI) thread.
        self._unsubscribe = self.store.subscribe(self.changed.emit)

    @classmethod
    def from_args(cls, args: argparse.Namespace, parent: QObject | None = None) -> StoreService:
        return cls(db_path_from_args(args), parent)

    @property
    def available(self) -> bool:
        return self.store is not None

    def catalog(self) -> Catalog:
        """The effective catalog: the store's (user items win), else the shipped one."""
        if self.store is None:
            return shipped_catalog()
        try:
            return self.store.catalog()
        except CoreError:
            return shipped_catalog()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.store is not None:
            self.store.close()
            self.store = None
