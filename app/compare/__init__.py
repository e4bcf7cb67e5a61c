"""Compare two plans side by side: two scenarios, or two versions of one (issue 5 §4).

`CompareWindow` shows both recovery timelines on one shared time axis and a table of key
figures with their differences; `CompareChooser` picks what to compare (stored
scenarios and versions, the scenario in the editor, a file). `CompareCommands` is
registered as a window view (View › Compare…, `shell/registry.py`); the window's modules
load when a comparison is first opened (start-up time, issue 14).
"""

from __future__ import annotations

import importlib
from typing import Any

from ..shell.registry import Command, Place, View, load, register

_LAZY = {
    "CompareChooser": "chooser",
    "CompareSource": "chooser",
    "CompareItem": "compare_window",
    "CompareWindow": "compare_window",
    "KeyFiguresModel": "key_figures",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register(View("compare", "Compare", lambda host: load("compare.commands", "CompareCommands")(host),
              Place.WINDOW, order=100, attr="compare", commands=(
    Command("View", "compare", "&Compare…", "compare_dialog", shortcut="Ctrl+Shift+C",
            tip="Two scenarios, or two versions of one, side by side on one time axis",
            name="compare_action"),
)))  # fmt: skip

__all__ = ["CompareChooser", "CompareItem", "CompareSource", "CompareWindow", "KeyFiguresModel"]
