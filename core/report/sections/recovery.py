"""Recovery timeline: a vector Gantt of the phases with the RTO line, the at-risk band
and the total; the phase table (start, duration, volume, rate, limit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer

from ...palette import PHASE_STYLE
from ...result import PHASE_TITLES
from ...units import format_duration
from ...wording import bottleneck_words, for_reader
from .. import charts
from ..model import ReportContext, Section, Table, pct

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class GanttBar:
    name: str
    label: str
    start_s: float
    duration_s: float
    text: str
    style: str
    """fixed | restore | apply | redo: picks the colour."""
    overlap_s: float = 0.0
    """The first seconds of this phase that run alongside the one before it (applying
    incrementals while they are restored): drawn as overlap, not as more time."""


@dataclass(frozen=True)
class RecoveryPart:
    failure_text: str
    gantt: tuple[GanttBar, ...]
    phase_table: Table
    phase_notes: tuple[str, ...]


def build(ctx: ReportContext) -> RecoveryPart:
    rec = ctx.plan.recovery
    shown = [p for p in rec.phases if p.duration_s > 0]
    gantt = tuple(_bar(p, shown[i - 1] if i else None) for i, p in enumerate(shown))
    notes = tuple(
        f"{PHASE_TITLES[p.name]}: {p.detail}."
        for p in rec.phases
        if p.duration_s > 0 and p.name not in ("detect", "open")
    )
    return RecoveryPart(_failure_text(ctx), gantt, phase_table(ctx), notes)


def _failure_text(ctx: ReportContext) -> str:
    f = ctx.plan.recovery.failure
    inc = (
        f"{f.incremental_count} {ctx.s.backup.level1} level 1 backup"
        + ("s" if f.incremental_count != 1 else "")
        if f.incremental_count
        else "no level 1 backup"
    )
    return (
        f"Worst case of the backup cycle: a failure just before the next level 0 finishes, so "
        f"the restore needs the level 0, {inc} and "
        f"{format_duration(f.redo_since_s)} of redo."
    )


def _bar(p: Any, before: Any) -> GanttBar:
    """A phase's bar; a phase that starts before the one above it ends shares that time
    with it (DESIGN §3.7: incrementals are applied as they are restored)."""
    overlap = p.shared_with(before)
    text = format_duration(p.duration_s)
    if overlap > 0 and format_duration(overlap) == text:  # "17 min 58 s (17 min 58 s …)"
        text += ", all while restoring"
    elif overlap > 0:
        text += f" ({format_duration(overlap)} while restoring)"
    return GanttBar(p.name, PHASE_TITLES[p.name], p.start_s, p.duration_s, text,
                    PHASE_STYLE[p.name], max(overlap, 0.0))  # fmt: skip


def phase_table(ctx: ReportContext) -> Table:
    rec = ctx.plan.recovery
    rows = [
        (
            PHASE_TITLES[p.name],
            format_duration(p.start_s),
            format_duration(p.duration_s) if p.duration_s else "—",
            ctx.size(p.data_bytes),
            ctx.rate(p.rate_Bps),
            bottleneck_words(p.bottleneck) if p.duration_s else "",
        )
        for p in rec.phases
        if p.name != "tape_recall" or p.duration_s  # no recall row when none is needed
    ]
    rows.append(("Total", "", format_duration(rec.total_s), "", "", ""))
    rows.append(("RTO", "", format_duration(rec.rto_s), "", "", ""))
    rows.append(
        (
            "Margin" if rec.margin_s >= 0 else "Over the RTO by",
            "",
            format_duration(abs(rec.margin_s)),
            "",
            "",
            f"{pct(abs(rec.margin_s) / rec.rto_s)} of the RTO" if rec.rto_s else "",
        )
    )
    return Table(
        ("Phase", "Starts", "Duration", "Volume", "Rate", "Limited by"),
        tuple(rows),
        "lrrrrl",
        bold_rows=(len(rows) - 3, len(rows) - 1),
    )


def render(r: ReportRenderer, part: RecoveryPart) -> list[Flowable]:
    w = r.width
    out = r.section("Recovery timeline", r.para(part.failure_text), charts.gantt_chart(r.data, w))
    out.append(Spacer(1, 4 * mm))
    widths = [34 * mm, 20 * mm, 22 * mm, 20 * mm, 22 * mm]
    widths.append(w - sum(widths))
    out.append(KeepTogether([r.table(part.phase_table, widths), Spacer(1, 3 * mm)]))
    out += [r.para("• " + for_reader(n), "small") for n in part.phase_notes]
    return out


SECTION = Section("recovery", "recovery timeline", build, render)
