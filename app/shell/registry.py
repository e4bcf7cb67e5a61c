"""How a view joins the main window: it registers itself (DESIGN §13, issue 24).

The main window is a shell: it knows no result view, dock or window by name. Each one
declares a `View` — its title, where it goes, its menu commands and what it needs from
the document — in a light module of its own package (one that imports nothing of the
view itself, so start-up pays only for what is on screen):

    from rtoplanner.app.shell.registry import Need, View, load, register

    register(View(
        "evidence", "Evidence",
        make=lambda host: load("evidence.panel", "EvidencePanel")(host.doc),
        order=80,
        tip="Restore tests measured against the plan",
        needs=frozenset({Need.PLAN, Need.BINARY, Need.THEME}),
    ))

and that module is named once in `REGISTRATIONS` below (the list is explicit, not
discovered, so a frozen build finds every registration; STYLE §15). That is all: the
window gives the view its tab (or dock, or menu commands), a View menu entry, Ctrl+<n>
for a tab, F1 opening the guide at its `help` heading, and calls it as it needs.

Where a view goes (`place`):

* `Place.TAB` — a result view beside Timeline. `make(host)` returns the panel, built the
  first time the tab is shown (`ResultTabs`). View › <title> shows it, with Ctrl+<n> by
  its position (`order`). `flag(plan)` may return a reason to flag the tab (“title ●”,
  the reason as its tooltip) or None.
* `Place.DOCK` — a dock beside the editor, built at start; View › <title> toggles it.
* `Place.WINDOW` — `make(host)` returns a small controller, built at start (keep it light:
  import the window's module in the command that opens it); its `commands` open windows
  or dialogs.

What the window calls on a view's object (`needs`; a tab's default is all three, a dock's
or window's none):

* `Need.PLAN` — `set_plan(plan)` with each new plan; a hidden tab catches up when shown.
* `Need.BINARY` — `set_binary(binary)` when View › Binary units changes.
* `Need.THEME` — `apply_theme()` when the palette switches (dark/light).

Anything else the view reads from `host` (the `Host` protocol below): the document and
its signals (`host.doc.raw_changed`, `errors_changed`…), the store, the settings, the
status bar. Every object with a `shutdown()` gets it when the window closes (stop
workers there).

Menu commands (`commands`): a `Command` puts an action in a section of a menu (the
sections are `MENUS`, in order; within a section the shell's own actions come first, then
the views' by `order`). It either calls a method of the view's object (`run`) or shows an
action or submenu the object made itself (`action`, for a checkable action, one whose
enabled state the view keeps, or a submenu). `name` makes the action reachable as
`window.<name>`, `View.attr` the view's object as `window.<attr>`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar

    from ..document import ScenarioDocument
    from ..settings import AppSettings
    from ..store_service import StoreService

REGISTRATIONS = (
    "shell.commands",  # the shell's own: File, Edit, units, Help
    "plots",  # Timeline, Path, Backups, Cycle, RPO and growth, Confidence
    "fix_panel",  # What it takes
    "scenario_list",  # the Scenarios dock
    "compare",  # Compare…
    "dialogs",  # Import Workload…, Export PDF…, Hardware Catalog…
    "estate",  # Open Estate…, Estate…
    "evidence",  # Evidence, Recovery in Progress…, Fill from RESTORE PREVIEW…
)
"""The modules (under `rtoplanner.app`) whose import registers views, in menu order."""

MENUS: dict[str, tuple[str, ...]] = {
    "&File": ("open", "save", "io", "quit"),
    "&Edit": ("undo", "path"),
    "&View": ("views", "display", "compare", "windows"),
    "&Help": ("guide", "about"),
}
"""The menu bar: each menu's sections, in order (a separator between sections)."""


class Place(Enum):
    TAB = "tab"
    DOCK = "dock"
    WINDOW = "window"


class Need(Enum):
    PLAN = "plan"
    BINARY = "binary"
    THEME = "theme"


ALL_NEEDS = frozenset(Need)


@dataclass(frozen=True)
class Command:
    """One menu entry of a view: `menu` and `section` as in `MENUS` (menu without "&")."""

    menu: str
    section: str
    text: str = ""
    run: str = ""
    action: str = ""
    shortcut: Any = None  # "Ctrl+K" or a QKeySequence.StandardKey (or a list of them)
    tip: str = ""
    name: str = ""


@dataclass(frozen=True)
class View:
    """A result view, dock or window, as it registers itself."""

    name: str
    title: str
    make: Callable[[Host], Any]
    place: Place = Place.TAB
    order: int = 100
    tip: str = ""
    needs: frozenset[Need] | None = None  # None: a tab's ALL_NEEDS, a dock's or window's none
    commands: tuple[Command, ...] = ()
    flag: Callable[[Any], str | None] | None = None
    attr: str = ""
    help: str = ""  # the heading of its section in docs/guide.md (F1 on the view)

    @property
    def wants(self) -> frozenset[Need]:
        """What the window calls on the view's object (`needs`, or its place's default)."""
        if self.needs is not None:
            return frozenset(self.needs)
        return ALL_NEEDS if self.place is Place.TAB else frozenset()


class Host(Protocol):
    """What a view may use of the main window (pass it on, never keep more than this)."""

    doc: ScenarioDocument
    store_service: StoreService | None
    settings: AppSettings
    binary: bool

    def statusBar(self) -> QStatusBar: ...
    def view(self, name: str) -> Any: ...
    def open_file(self, path: Any, ask: bool = True) -> bool: ...
    def open_stored(self, name: str, version: int = 0, ask: bool = True) -> bool: ...


_VIEWS: dict[str, View] = {}


def register(view: View) -> View:
    """Add a view to every main window made from now on (a name registers once)."""
    if view.name in _VIEWS and _VIEWS[view.name] != view:
        raise ValueError(f"a view named {view.name!r} is already registered")
    _VIEWS[view.name] = view
    return view


def unregister(name: str) -> None:
    """Remove a registration (tests that register a view of their own)."""
    _VIEWS.pop(name, None)


def registered() -> list[View]:
    """Every registered view (importing `REGISTRATIONS` first), by `order`, then name."""
    for module in REGISTRATIONS:
        importlib.import_module(f"rtoplanner.app.{module}")
    return sorted(_VIEWS.values(), key=lambda v: (v.order, v.name))


def load(module: str, name: str) -> Any:
    """`name` from `rtoplanner.app.<module>`, imported now (call it inside `make`)."""
    return getattr(importlib.import_module(f"rtoplanner.app.{module}"), name)
