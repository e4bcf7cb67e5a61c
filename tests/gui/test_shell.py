"""The main window is a shell: a view joins it by one registration (issue 24 item 2).

A test view and a test window registered here, as another engineer's would be, get their
tab, View menu entry and Ctrl+<n>, their menu commands, the plan and units they ask for,
a flag, F1 help, `window.<attr>`, and shutdown — with no line of `MainWindow` changed.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from rtoplanner.app.shell.registry import Command, Need, Place, View, register, unregister

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui


class ProbePanel(QLabel):
    """A result view that records what the window calls on it."""

    def __init__(self, host) -> None:
        super().__init__("probe")
        self.host = host
        self.plans: list = []
        self.units: list[bool] = []

    def set_plan(self, plan) -> None:
        self.plans.append(plan)

    def set_binary(self, binary: bool) -> None:
        self.units.append(binary)


class ProbeWindows:
    """A window view's controller: its command, and shutdown."""

    def __init__(self, host) -> None:
        self.host = host
        self.opened = 0
        self.stopped = False

    def open_probe(self) -> None:
        self.opened += 1

    def shutdown(self) -> None:
        self.stopped = True


@pytest.fixture
def probes():
    made: dict[str, object] = {}

    def panel(host):
        made["panel"] = ProbePanel(host)
        return made["panel"]

    register(View("probe", "Probe", panel, order=85, tip="What the probe shows",
                  needs=frozenset({Need.PLAN, Need.BINARY}), help="Cycle",
                  flag=lambda plan: "look" if plan is not None else None))  # fmt: skip
    register(View("probe_windows", "Probe windows", ProbeWindows, Place.WINDOW, order=200,
                  attr="probe_windows", commands=(
        Command("File", "io", "Open &Probe…", "open_probe", shortcut="Ctrl+Alt+P",
                tip="Open the probe", name="probe_action"),
    )))  # fmt: skip
    yield made
    unregister("probe")
    unregister("probe_windows")


def _menu(window, title: str):
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


def test_a_registered_tab_joins_the_window(qtbot, probes, demo_copy):
    win = show_window(qtbot, path=demo_copy)
    try:
        win.doc.wait_idle()
        tabs = win.results
        assert tabs.names()[-1] == "probe"
        index = len(tabs.names()) - 1
        assert tabs.tabText(index) == "Probe ●"  # flagged: the plan is there
        assert tabs.tabToolTip(index) == "look"
        assert not tabs.is_built("probe")  # built when first shown
        view_menu = _menu(win, "&View")
        show = next(a for a in view_menu.actions() if a.text() == "Probe")
        assert show.shortcut().toString() == f"Ctrl+{index + 1}"
        show.trigger()
        panel = probes["panel"]
        assert tabs.current_name() == "probe" and panel.host is win
        assert panel.plans[-1] is win.doc.plan  # caught up with the plan when shown
        win.set_binary_units(True)
        assert panel.units[-1] is True
        assert win.view("probe") is panel
        assert win.views.help_topic(tabs.current_name()) == "Cycle"  # F1 on the view
    finally:
        close_window(win)


def test_a_registered_window_gets_its_command_and_shutdown(qtbot, probes):
    win = show_window(qtbot)
    try:
        controller = win.probe_windows
        assert win.view("probe_windows") is controller
        file_menu = _menu(win, "&File")
        texts = [a.text() for a in file_menu.actions()]
        # In the File menu's io section, after the registered views of lower order.
        assert texts.index("Open &Probe…") == texts.index("Export &PDF…") + 1
        assert win.probe_action.shortcut().toString() == "Ctrl+Alt+P"
        assert win.probe_action.statusTip() == "Open the probe"
        win.probe_action.trigger()
        assert controller.opened == 1
    finally:
        close_window(win)
    assert controller.stopped


def test_a_command_in_a_menu_section_that_does_not_exist_is_refused(qtbot):
    register(View("stray", "Stray", ProbeWindows, Place.WINDOW,
                  commands=(Command("View", "nowhere", "Stray", "open_probe"),)))  # fmt: skip
    try:
        with pytest.raises(ValueError, match="no menu section '&View' › 'nowhere'"):
            show_window(qtbot)
    finally:
        unregister("stray")


def test_a_name_registers_once():
    view = View("once", "Once", ProbeWindows, Place.WINDOW)
    register(view)
    try:
        register(view)  # the same registration again (a module imported twice): fine
        with pytest.raises(ValueError, match="already registered"):
            register(View("once", "Twice", ProbeWindows, Place.WINDOW))
    finally:
        unregister("once")


def test_the_shipped_views_are_all_registrations():
    """Every result view, dock and window of the window comes from the registry."""
    from rtoplanner.app.shell.registry import registered

    views = {v.name: v for v in registered()}
    tabs = [v.name for v in views.values() if v.place is Place.TAB]
    assert tabs == ["timeline", "path", "backups", "cycle", "rpo", "confidence", "fix"]
    assert views["scenarios"].place is Place.DOCK
    assert {"files", "edit", "units", "help", "compare", "catalog", "import", "pdf",
            "estate"} <= {v.name for v in views.values() if v.place is Place.WINDOW}  # fmt: skip
