"""The registered views installed in one main window (the API is `registry.py`).

Tabs go to the window's `ResultTabs` (built when first shown) with a View menu entry and
Ctrl+<n>; docks beside the editor with a View menu toggle; window controllers are made at
once. Each view's `commands` become actions in the menus (`Menus`), and the window asks
this object to pass on what the views need: flags with a new plan, units, theme, and
shutdown when it closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QMenuBar

from ..result_tabs import ResultTabs
from .registry import MENUS, Command, Need, Place, View, registered

MAX_TAB_SHORTCUT = 9
"""Tabs get Ctrl+1 … Ctrl+9 by position."""


def make_action(parent: Any, text: str, slot: Callable[[], Any], shortcut: Any = None,
                tip: str = "") -> QAction:  # fmt: skip
    """A QAction calling `slot()`, with its shortcut(s) and tip (tooltip and status tip)."""
    action = QAction(text, parent)
    if shortcut is not None:
        keys = shortcut if isinstance(shortcut, list | tuple) else [shortcut]
        action.setShortcuts([QKeySequence(k) for k in keys])
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(lambda _checked=False: slot())
    return action


class Menus:
    """The menu bar's menus and sections (`registry.MENUS`), filled, then built once."""

    def __init__(self, menubar: QMenuBar) -> None:
        self.menubar = menubar
        self.sections: dict[tuple[str, str], list[QAction]] = {
            (menu, section): [] for menu, sections in MENUS.items() for section in sections
        }
        self.menus: dict[str, QMenu] = {}

    def add(self, menu: str, section: str, action: QAction) -> None:
        key = (menu if menu.startswith("&") else f"&{menu}", section)
        if key not in self.sections:
            raise ValueError(f"no menu section {key[0]!r} › {section!r} (see MENUS)")
        self.sections[key].append(action)

    def build(self) -> None:
        for title, sections in MENUS.items():
            menu = self.menus[title] = self.menubar.addMenu(title)
            filled = [self.sections[(title, s)] for s in sections if self.sections[(title, s)]]
            for i, actions in enumerate(filled):
                if i:
                    menu.addSeparator()
                menu.addActions(actions)


WIDE_WINDOW = 1800


def dock_room(base: int, window_width: int) -> int:
    """How wide a dock may open: its own width, and on a wide window (1920 px) up to 27 %
    of it for long names; the editor and the result views keep their room below that."""
    return base if window_width < WIDE_WINDOW else max(base, window_width * 27 // 100)


class InstalledViews:
    """The views of `registered()` in one window (`host`), in `order`."""

    def __init__(self, host: QMainWindow, tabs: ResultTabs) -> None:
        self.host = host
        self.tabs = tabs
        self.menus = Menus(host.menuBar())
        self.views = registered()
        self.objects: dict[str, Any] = {}  # docks' widgets and windows' controllers
        for view in self.views:
            {Place.TAB: self._add_tab, Place.DOCK: self._add_dock,
             Place.WINDOW: self._add_window}[view.place](view)  # fmt: skip
            if view.attr:
                setattr(host, view.attr, self.get(view.name))
        self.menus.build()

    def get(self, name: str) -> Any:
        """A view's object: its tab's panel (built now if need be), dock widget or
        controller."""
        if name in self.objects:
            return self.objects[name]
        return self.tabs.panel(name)

    def help_topic(self, name: str) -> str:
        return next((v.help for v in self.views if v.name == name), "")

    # ------------------------------------------------------------------ installing

    def _add_tab(self, view: View) -> None:
        n = len(self.tabs.names()) + 1
        shortcut = f"Ctrl+{n}" if n <= MAX_TAB_SHORTCUT else None
        tip = f"{view.tip} ({shortcut})" if view.tip and shortcut else view.tip
        self.tabs.add_view(
            view.name, view.title, lambda: view.make(self.host), tip=tip, needs=view.wants
        )
        show = make_action(self.host, view.title, lambda: self.tabs.show_view(view.name), shortcut)
        self.menus.add("View", "views", show)
        self._add_commands(view, lambda: self.tabs.panel(view.name))

    def _add_dock(self, view: View) -> None:
        widget = self.objects[view.name] = view.make(self.host)
        dock = QDockWidget(view.title, self.host)
        dock.setObjectName(f"{view.name}_dock")
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
        )
        self.host.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        width = getattr(widget, "dock_base_width", None) or getattr(widget, "dock_width", None)
        if width:
            self.host.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
            # Again once the window has its size (a resize before it is shown keeps the
            # docks' old widths; issue 23.9: the names were cut at 1920 px).
            QTimer.singleShot(0, dock, lambda: self.host.resizeDocks(
                [dock], [min(widget.dock_width, dock_room(width, self.host.width()))],
                Qt.Orientation.Horizontal))  # fmt: skip
        self.menus.add("View", "display", dock.toggleViewAction())
        self._add_commands(view, lambda: widget)

    def _add_window(self, view: View) -> None:
        controller = self.objects[view.name] = view.make(self.host)
        self._add_commands(view, lambda: controller)

    def _add_commands(self, view: View, target: Callable[[], Any]) -> None:
        for command in view.commands:
            action = self._command_action(command, target)
            self.menus.add(command.menu, command.section, action)
            if command.name:
                setattr(self.host, command.name, action)

    def _command_action(self, command: Command, target: Callable[[], Any]) -> QAction:
        if command.action:  # the view's own action (or submenu)
            made = getattr(target(), command.action)
            return made.menuAction() if isinstance(made, QMenu) else made
        return make_action(self.host, command.text,
                           lambda: getattr(target(), command.run)(),
                           command.shortcut, command.tip)  # fmt: skip

    # ------------------------------------------------------------------ what views need

    def set_plan(self, plan: Any) -> None:
        """Flag the tabs that ask to be (the tabs draw the plan themselves, `ResultTabs`)."""
        for view in self.views:
            if view.flag is not None:
                self.tabs.set_flag(view.name, view.flag(plan))

    def set_binary(self, binary: bool) -> None:
        self.tabs.set_binary(binary)
        for obj in self._objects_needing(Need.BINARY):
            obj.set_binary(binary)

    def apply_theme(self) -> None:
        self.tabs.apply_theme()
        for obj in self._objects_needing(Need.THEME):
            obj.apply_theme()

    def shutdown(self) -> None:
        """Stop the windows' and tabs' work before the window closes (views in reverse)."""
        for obj in reversed(self.objects.values()):
            stop = getattr(obj, "shutdown", None)
            if stop is not None:
                stop()
        self.tabs.shutdown()

    def _objects_needing(self, need: Need) -> list[Any]:
        return [self.objects[v.name] for v in self.views
                if v.name in self.objects and need in v.wants]  # fmt: skip
