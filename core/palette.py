"""The colours of the recovery phases, one palette for the GUI and the PDF.

A phase is drawn in the colour of its kind of work (fixed time, restore through the path,
applying incrementals, redo apply), the same in the timeline on screen, the estate view
and the PDF's Gantt and legend.
"""

from __future__ import annotations

PHASE_STYLE = {
    "detect": "fixed",
    "tape_recall": "fixed",
    "restore_level0": "restore",
    "restore_incremental": "restore",
    "apply_incremental": "apply",
    "restore_archivelogs": "restore",
    "redo_apply": "redo",
    "open": "fixed",
    "failover": "fixed",
    "held": "held",
}
"""Phase → the kind of work it is (`held`: an estate database waiting for the start its
tier has in the runbook)."""

STYLE_HEX = {"fixed": "#a7b1bc", "restore": "#3b73b9", "apply": "#2a9d8f", "redo": "#e08e2b",
             "held": "#e3e7ec"}  # fmt: skip
"""Kind of work → its colour (prints well in grey too)."""


def phase_hex(phase: str) -> str:
    """The colour of a phase, as #rrggbb."""
    return STYLE_HEX[PHASE_STYLE.get(phase, "fixed")]


STYLE_LEGEND = (
    ("fixed", "fixed time"),
    ("restore", "restore through the path"),
    ("apply", "apply incrementals"),
    ("redo", "redo apply"),
)
"""Kind of work → its words in a legend (the GUI's and the PDF's)."""

ESTATE_STYLE_LEGEND = (*STYLE_LEGEND, ("held", "held back by the runbook"))
"""The estate Gantt's legend: a plan's, and the wait a runbook's start puts in."""


def phases_of(style: str) -> tuple[str, ...]:
    """The phases drawn in a kind of work's colour, in recovery order."""
    return tuple(phase for phase, kind in PHASE_STYLE.items() if kind == style)
