"""The Estate window and its registration with the main window (DESIGN §9).

`EstateWindows` is registered as a window view (`shell/registry.py`) with File › Open
Estate… and View › Estate… (the main window's `estates`); it opens estate windows over
the main window's catalog and store (with Keep Version… and Stored Estates…,
`estate_store.py`), and opens a database's own plan in the main window when
the estate window asks.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot

from rtoplanner.core.errors import CoreError
from rtoplanner.core.fix.prices import PriceBook, price_book
from rtoplanner.core.scenario import Scenario

from ..shell.registry import Command, Place, View, register

if TYPE_CHECKING:  # the window (and the report code it uses) loads when first opened
    from .estate_window import EstateWindow

STORE_PREFIX = "store: "


class EstateWindows(QObject):
    """The estate windows of one main window."""

    def __init__(self, main: Any) -> None:
        super().__init__(main)
        self.main = main
        self.windows: list[EstateWindow] = []

    def resolve(self, name: str) -> Scenario:
        """A stored scenario by name (an estate's `scenario = "NAME"`)."""
        store = self.main.scenario_list.store
        if store is None:
            raise LookupError("the store is not available")
        return store.load_scenario(name)

    def _prices(self) -> PriceBook:
        """Your prices (the store's) over the catalog's, as What it takes uses them."""
        store = self.main.scenario_list.store
        if store is not None:
            try:
                return price_book(store, self.main.doc.catalog)
            except CoreError:
                pass
        return price_book(None, self.main.doc.catalog)

    def new_window(self) -> EstateWindow:
        for old in [w for w in self.windows if not w.isVisible()]:
            self.windows.remove(old)
            old.deleteLater()
        from .estate_store import EstateStoreActions
        from .estate_window import EstateWindow

        window = EstateWindow(self.main, catalog=self.main.doc.catalog, resolve=self.resolve,
                              prices=self._prices)  # fmt: skip
        window.open_plan_requested.connect(self.open_plan)
        window.store_actions = EstateStoreActions(window, lambda: self.main.scenario_list.store)
        self.windows.append(window)
        return window

    @Slot()
    def show_window(self) -> EstateWindow:
        """View › Estate…: the last estate window, else a new one."""
        window = next((w for w in reversed(self.windows)), None) or self.new_window()
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    @Slot()
    def open_dialog(self) -> None:
        window = self.new_window()
        window.show()
        window.open_dialog()

    def open_file(self, path: str | Path) -> EstateWindow:
        window = self.new_window()
        window.open_estate(path)
        window.show()
        return window

    @Slot(str)
    def open_plan(self, source: str) -> bool:
        if source.startswith(STORE_PREFIX):
            return bool(self.main.open_stored(source[len(STORE_PREFIX) :]))
        return bool(self.main.open_file(source))

    def shutdown(self) -> None:
        for window in self.windows:
            window.close()


register(View("estate", "Estate", EstateWindows, Place.WINDOW, order=130, attr="estates",
              commands=(
    Command("File", "io", "Open &Estate…", "open_dialog",
            tip="Open an estate file: many databases after a site loss"),
    Command("View", "windows", "&Estate…", "show_window", shortcut="Ctrl+Shift+E",
            tip="When is each database open after a site loss, on shared drives and links"),
)))  # fmt: skip

__all__ = ["EstateWindow", "EstateWindows"]
