"""Evidence views (issue 21): the *Evidence* tab (drills: plan vs actual, calibration),
*Recovery in Progress* (the recovery clock) and *Fill from RESTORE PREVIEW…*.

Importing this package registers them (`shell/registry.py`); the views' modules are
imported when first used.
"""

from __future__ import annotations

from typing import Any

from ..shell.registry import Command, Need, Place, View, load, register


class _Clock:
    """View › Recovery in Progress…: the window's controller, loaded on first use."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self._impl: Any = None

    def show_window(self) -> Any:
        if self._impl is None:
            self._impl = load("evidence.clock_window", "ClockController")(self.host)
        return self._impl.show_window()

    @property
    def window(self) -> Any:
        return None if self._impl is None else self._impl.window

    def shutdown(self) -> None:
        if self._impl is not None:
            self._impl.shutdown()


class _Preview:
    """File › Fill from RESTORE PREVIEW…"""

    def __init__(self, host: Any) -> None:
        self.host = host

    def fill(self, path: str | None = None, apply: bool | None = None) -> bool:
        return load("evidence.dialogs", "PreviewCommands")(self.host).fill(path, apply)


register(
    View(
        "evidence",
        "Evidence",
        lambda host: load("evidence.panel", "EvidencePanel")(host),
        order=80,
        tip="Restore tests (drills) measured against the plan; calibration",
        needs=frozenset({Need.PLAN, Need.BINARY, Need.THEME}),
        help="Evidence",
    )
)
register(
    View(
        "recovery_clock",
        "Recovery in Progress",
        _Clock,
        Place.WINDOW,
        order=160,
        attr="recovery_clock",
        commands=(
            Command(
                "View",
                "windows",
                "&Recovery in Progress…",
                "show_window",
                tip="During a recovery: when will the database open, from Oracle's views",
                name="recovery_clock_action",
            ),
        ),
    )
)
register(
    View(
        "preview_fill",
        "Fill from RESTORE PREVIEW",
        _Preview,
        Place.WINDOW,
        order=145,
        attr="preview_fill",
        commands=(
            Command(
                "File",
                "io",
                "Fill from RESTORE &PREVIEW…",
                "fill",
                tip="Put the volumes a RESTORE DATABASE PREVIEW lists into the scenario",
                name="preview_fill_action",
            ),
        ),
    )
)
