"""The shell's own commands, registered as the views' are: File, Edit, units, Help."""

from __future__ import annotations

import platform
import sys
from importlib import metadata
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QObject, Slot, qVersion
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMessageBox

from rtoplanner.core import ENGINE_VERSION
from rtoplanner.core import __version__ as core_version
from rtoplanner.core.appinfo import APP_NAME

from .assumptions import AssumptionsCommand
from .files import FileCommands
from .registry import Command, Need, Place, View, register

K = QKeySequence.StandardKey


def app_version() -> str:
    try:
        return metadata.version("rtoplanner")
    except metadata.PackageNotFoundError:
        return core_version


def about_text() -> str:
    return (
        f"<h3>{APP_NAME} {app_version()}</h3>"
        "<p>Prove an Oracle database can be restored and recovered inside its RTO and "
        "RPO, phase by phase.</p>"
        "<table>"
        f"<tr><td>Engine</td><td>{ENGINE_VERSION}</td></tr>"
        f"<tr><td>Python</td><td>{platform.python_version()}</td></tr>"
        f"<tr><td>PySide6 / Qt</td><td>{pyside_version} / {qVersion()}</td></tr>"
        f"<tr><td>pyqtgraph</td><td>{pg.__version__}</td></tr>"
        f"<tr><td>numpy</td><td>{np.__version__}</td></tr>"
        f"<tr><td>Platform</td><td>{platform.platform()} ({sys.platform})</td></tr>"
        "</table>"
        "<p>Units: TB = 10<sup>12</sup> bytes, TiB = 2<sup>40</sup> bytes; volumes are "
        "datafile bytes.</p>"
    )


class EditCommands(QObject):
    """Undo and redo of the document, and the restore path's stage commands."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        stack = host.doc.undo_stack
        self.undo_action = stack.createUndoAction(host, "&Undo")
        self.undo_action.setShortcut(QKeySequence(K.Undo))
        self.redo_action = stack.createRedoAction(host, "&Redo")
        self.redo_action.setShortcuts([QKeySequence(K.Redo), QKeySequence("Ctrl+Y")])
        stages = host.stages
        self.add_stage_action = stages.add_action
        self.remove_stage_action = stages.remove_action
        self.up_action = stages.up_action
        self.down_action = stages.down_action


class UnitsCommand(QObject):
    """View › Binary units: results in TiB and GiB/s rather than TB and GB/s."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.binary_action = QAction("&Binary units (TiB, GiB/s)", host)
        tip = "Show results in binary units (TiB = 2^40 bytes) instead of decimal (TB)"
        self.binary_action.setToolTip(tip)
        self.binary_action.setStatusTip(tip)
        self.binary_action.setCheckable(True)
        self.binary_action.setChecked(host.binary)
        self.binary_action.triggered.connect(host.set_binary_units)

    def set_binary(self, binary: bool) -> None:
        self.binary_action.setChecked(binary)


class HelpCommands(QObject):
    """Help › User Guide, Help on This View (F1) and About."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.host = host
        self.help_window = None

    def show_help(self, context: bool = False):
        """Help › User Guide, or (F1) the guide's section on the result view on screen."""
        from ..help_window import GUIDE, HelpWindow

        if self.help_window is None:
            self.help_window = HelpWindow(self.host)
        heading = ""
        if context:
            heading = self.host.views.help_topic(self.host.results.current_name())
        self.help_window.show_page(GUIDE, heading)
        return self.help_window

    def show_context_help(self):
        return self.show_help(context=True)

    @Slot()
    def about(self) -> None:
        QMessageBox.about(self.host, f"About {APP_NAME}", about_text())


def _file_commands() -> tuple[Command, ...]:
    F = "File"
    return (
        Command(F, "open", "&New", "new_scenario", shortcut=K.New, tip="Start a new scenario",
                name="new_action"),
        Command(F, "open", "&Open…", "open_dialog", shortcut=K.Open, tip="Open a scenario file",
                name="open_action"),
        Command(F, "open", action="recent_menu"),
        Command(F, "save", "&Save", "save", shortcut=K.Save, tip="Save the scenario",
                name="save_action"),
        Command(F, "save", "Save &As…", "save_as", shortcut=K.SaveAs,
                tip="Save the scenario under a new name", name="save_as_action"),
        Command(F, "save", "Save with &Comment…", "save_with_comment", shortcut="Ctrl+Alt+S",
                tip="Save a new version to the store, with a comment on what changed",
                name="save_comment_action"),
        Command(F, "save", "&Export TOML…", "export_toml",
                tip="Write the scenario to a TOML file; the window stays with the scenario",
                name="export_action"),
        Command(F, "save", "Add to S&tore", "add_to_store",
                tip="Keep a copy of this scenario in the store (Save still writes its file)",
                name="add_to_store_action"),
        Command(F, "quit", "&Quit", "quit", shortcut=K.Quit, tip=f"Quit {APP_NAME}",
                name="quit_action"),
    )  # fmt: skip


register(View("files", "Files", FileCommands, Place.WINDOW, order=0, attr="files",
              commands=_file_commands()))  # fmt: skip
register(View("edit", "Edit", EditCommands, Place.WINDOW, order=1, commands=(
    Command("Edit", "undo", action="undo_action", name="undo_action"),
    Command("Edit", "undo", action="redo_action", name="redo_action"),
    *(Command("Edit", "path", action=a) for a in
      ("add_stage_action", "remove_stage_action", "up_action", "down_action")),
)))  # fmt: skip
register(View("units", "Units", UnitsCommand, Place.WINDOW, order=2,
              needs=frozenset({Need.BINARY}),
              commands=(Command("View", "display", action="binary_action",
                                name="binary_action"),)))  # fmt: skip
register(View("assumptions", "Assumptions", lambda host: AssumptionsCommand(host), Place.WINDOW,
              order=4, attr="assumptions", commands=(
    Command("View", "display", "Decisive &Assumptions and Notes…", "show", shortcut="Ctrl+Shift+I",
            tip="Every check, the default figures that decide the recovery time, and the "
                "plan's notes", name="assumptions_action"),
)))  # fmt: skip
register(View("help", "Help", HelpCommands, Place.WINDOW, order=3, attr="help", commands=(
    Command("Help", "guide", "&User Guide", "show_help",
            tip="The user guide and the docs, offline", name="guide_action"),
    Command("Help", "guide", "Help on This &View", "show_context_help", shortcut=K.HelpContents,
            tip="The guide's section on the view on screen", name="context_help_action"),
    Command("Help", "about", "&About RTO Planner", "about", name="about_action"),
)))  # fmt: skip
