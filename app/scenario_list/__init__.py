"""The Scenarios dock: the scenarios in the store, and scenario files.

    ┌ Scenarios ───────────────────────┐
    │ [filter                        ] │   one filter for both lists
    │ Name        Versions Last saved… │   the store (ScenarioListModel)
    │ ERP v3          3  today 14:03   │   double-click opens, bold = in the editor
    │ [New][Duplicate][Delete][History]│
    │ Files                            │   recent files, then the shipped demos
    │  Recent files / Demo scenarios   │
    │ [Open file…]                     │
    └──────────────────────────────────┘

`model.py` holds its data (the filter over the store's model, the files' items),
`view.py` the widget (`ScenarioListPanel`), `actions.py` what it does to the store
(`ScenarioActions`), `dialogs.py` the bin and the undo message. Delete is the store's
soft delete (a 30-day bin): the status-bar `UndoMessage` and Edit › Undo Delete bring
the scenario back, and View › Deleted Scenarios… lists the bin.

The demo scenarios stay files under "Files" rather than being imported into the store on
first start: they ship with each release and may change, and a user who wants to keep
an edited copy saves it (Save keeps a demo opened from its file in that file; File › Add
to Store keeps it in the store).

Without a store (another RTO Planner holds it, or it is damaged) the store part is
hidden, a one-line note says why, and the panel is the file list it was before.

The dock registers itself (`shell/registry.py`): its requests go to the window's file
and compare commands, its undo message to the status bar.
"""

from __future__ import annotations

from typing import Any

from ..shell.registry import Command, Place, View, register
from .dialogs import DeletedScenariosDialog, UndoMessage
from .model import DemoRole, FilterProxy, PathRole, demo_scenarios, renamed_text, short_folder
from .view import ScenarioListPanel


def make_dock(host: Any) -> ScenarioListPanel:
    """The panel for `host`'s dock, wired to the window's commands."""
    panel = ScenarioListPanel(host.store_service)
    panel.open_requested.connect(lambda path: host.open_file(path))
    panel.demo_requested.connect(lambda path: host.open_demo(path))
    panel.new_requested.connect(lambda: host.new_scenario())
    panel.browse_requested.connect(lambda: host.open_dialog())
    panel.open_stored_requested.connect(lambda name, v: host.open_stored(name, v))
    panel.compare_requested.connect(lambda *names: host.view("compare").compare_stored(*names))
    # Permanent: a button's status tip must not paint over "Deleted … Undo".
    host.statusBar().insertPermanentWidget(0, panel.undo_message, 1)
    return panel


register(View("scenarios", "Scenarios", make_dock, Place.DOCK, order=110, attr="scenario_list",
              commands=(
    Command("Edit", "undo", action="undo_delete_action"),
    Command("View", "compare", action="deleted_action"),
)))  # fmt: skip

__all__ = [
    "DeletedScenariosDialog",
    "DemoRole",
    "FilterProxy",
    "PathRole",
    "ScenarioListPanel",
    "UndoMessage",
    "demo_scenarios",
    "make_dock",
    "renamed_text",
    "short_folder",
]
