"""Evidence (only when the report is given drills): each restore test of the scenario, its
date and the scenario version it was compared with, and measured vs plan per phase —
the record an auditor asks for (DORA, ISO 22301) — with how the plan has fared.

The drills are the store's (`core.store.drills.StoredDrill`), passed as `ctx.drills` by
whoever has the store (the CLI's `report`, the GUI's Export PDF); the comparison printed
is the one stored with each drill (the plan as it was when the drill was recorded).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer

from ...result import JOB_TITLES, PHASE_TITLES
from ...units import format_duration, format_percent
from ...wording import fared, for_reader
from ..model import ReportContext, Section, Table

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer

HOW = {"wall": "wall clock", "channels": "channels", "typed": "typed", None: ""}


@dataclass(frozen=True)
class DrillBlock:
    heading: str
    table: Table
    notes: tuple[str, ...]


@dataclass(frozen=True)
class EvidencePart:
    evidence_lead: str
    drill_blocks: tuple[DrillBlock, ...]


def _pct(error: float | None) -> str:
    return "—" if error is None else format_percent(error, 1, signed=True)


def _title(name: str) -> str:
    return (
        f"Backup: {JOB_TITLES[name.split('.')[1]]}"
        if name.startswith("backup.")
        else PHASE_TITLES[name]
    )


def _block(d: Any) -> DrillBlock:
    c = d.comparison
    rows = [
        (
            _title(r["name"]),
            format_duration(r["plan_s"]),
            "not timed" if r["actual_s"] is None else format_duration(r["actual_s"]),
            _pct(r.get("error")),
            HOW.get(r.get("how"), ""),
        )
        for r in c["rows"]
        if not (r["actual_s"] is None and r["plan_s"] == 0)
    ]
    rows.append(
        (
            "Over the phases timed",
            format_duration(c["plan_s"]),
            format_duration(c["actual_s"]),
            _pct(c.get("error")),
            "",
        )
    )
    when = f"{d.drilled_at:%Y-%m-%d %H:%M}" if d.drilled_at else "date not in the evidence"
    label = f" — {d.label}" if d.label else ""
    heading = f"Drill {d.number}, {when}, against version {d.scenario_version}{label}"
    files = ", ".join(e["file"] for e in d.evidence)
    notes = (f"Evidence: {files}.", *d.drill.get("notes", ()), *c.get("notes", ()))
    table = Table(
        ("Phase", "Plan", "Measured", "Error", "Measured by"),
        tuple(rows),
        "lrrrl",
        bold_rows=(len(rows) - 1,),
    )
    return DrillBlock(heading, table, tuple(notes))


def build(ctx: ReportContext) -> EvidencePart | None:
    drills = tuple(ctx.drills or ())
    if not drills:
        return None
    said = fared([d.comparison for d in drills]) or ""
    lead = (
        f"{len(drills)} restore test{'s' if len(drills) > 1 else ''} (drills) of this "
        f"scenario, measured from the RMAN log and Oracle's views and set against the plan "
        f"for the same restore (the drill's own volumes): {said}. Error = (measured − "
        "plan) ÷ plan; 'wall clock' phases are timed between printed times, 'channels' "
        "ones by the channels' elapsed times (which read short)."
    )
    return EvidencePart(lead, tuple(_block(d) for d in drills))


def render(r: ReportRenderer, part: EvidencePart) -> list[Flowable]:
    widths = [62 * mm, 26 * mm, 26 * mm, 20 * mm, 30 * mm]
    blocks = [_drill_flow(r, block, widths) for block in part.drill_blocks]
    # The heading and its lead go with the first drill: a lead that says "2 restore tests"
    # alone at a page foot, its tables on the next page, reads as an orphan heading.
    first = blocks[0] if blocks else []
    out = r.section("Evidence: restore tests", r.para(part.evidence_lead), *first)
    for flow in blocks[1:]:
        out += [Spacer(1, 3 * mm), KeepTogether(flow)]
    return out


def _drill_flow(r: ReportRenderer, block: DrillBlock, widths: list[float]) -> list[Flowable]:
    """One drill: its heading, the plan-vs-measured table and its notes."""
    flow: list[Flowable] = [r.heading(block.heading, 1), r.table(block.table, widths)]
    return flow + [r.para(for_reader(n), "small") for n in block.notes]


SECTION = Section("evidence", "evidence", build, render)
