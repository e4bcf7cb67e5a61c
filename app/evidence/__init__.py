"""Evidence views (issue 21): the *Evidence* window (drills: plan vs actual, calibration),
*Recovery in Progress* (the recovery clock) and *Fill from RESTORE PREVIEW…*.

Evidence is a window rather than a result tab: the tab bar has room for the plan's own
views at 1024 × 700 (tests/gui/test_polish.py), and drills are looked at beside the plan,
not instead of it.

Importing this package registers them (`shell/registry.py`); the views' modules are
imported when first used.
"""

from __future__ import annotations

from typing import Any

from ..shell.registry import Command, Need, Place, View, load, register


class _Windows:
    """A window made the first time it is asked for (`module`.`cls`(host))."""

    module = ""
    cls = ""

    def __init__(self, host: Any) -> None:
        self.host = host
        self._impl: Any = None

    def show_window(self) -> Any:
        if self._impl is None:
            self._impl = load(self.module, self.cls)(self.host)
        return self._impl.show_window()

    @property
    def window(self) -> Any:
        return None if self._impl is None else self._impl.window

    def shutdown(self) -> None:
        if self._impl is not None:
            self._impl.shutdown()

    def set_binary(self, binary: bool) -> None:
        forward = getattr(self._impl, "set_binary", None)
        if forward is not None:
            forward(binary)

    def apply_theme(self) -> None:
        forward = getattr(self._impl, "apply_theme", None)
        if forward is not None:
            forward()


class _Evidence(_Windows):
    """View › Evidence…: the drills of the scenario in the window."""

    module, cls = "evidence.panel", "EvidenceController"


class _Clock(_Windows):
    """View › Recovery in Progress…: the recovery clock."""

    module, cls = "evidence.clock_window", "ClockController"


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
        _Evidence,
        Place.WINDOW,
        order=155,
        attr="evidence",
        needs=frozenset({Need.BINARY, Need.THEME}),
        commands=(
            Command(
                "View",
                "windows",
                "E&vidence (Drills)…",
                "show_window",
                shortcut="Ctrl+Shift+D",
                tip="Restore tests (drills) measured against the plan; calibration from them",
                name="evidence_action",
            ),
        ),
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
