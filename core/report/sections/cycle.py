"""Recovery across the backup cycle: recovery time for a failure at each hour."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.platypus import Flowable

from ...units import format_duration
from ...wording import describe_cycle_time, plural
from .. import charts
from ..model import ReportContext, Section

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class CycleSeries:
    period_s: float
    points: tuple[tuple[float, float], ...]
    """(time since the level 0 [s], total recovery [s])."""
    worst_s: float
    worst_at_s: float
    level1_every_s: float | None


@dataclass(frozen=True)
class CyclePart:
    cycle: CycleSeries | None
    cycle_text: str


def build(ctx: ReportContext) -> CyclePart:
    c = ctx.plan.cycle
    if c is None:
        return CyclePart(None, "")
    b = ctx.s.backup
    series = CycleSeries(
        period_s=b.level0_every_s,
        points=tuple((p.since_level0_s, p.total_s) for p in c.points),
        worst_s=c.worst_s,
        worst_at_s=c.worst_at_s,
        level1_every_s=b.level1_every_s if b.level1 != "none" else None,
    )
    level0 = ctx.plan.job("level0")
    level0_s = level0.duration_s if level0 is not None else 0.0
    text = (
        f"A failure at any hour of the {format_duration(b.level0_every_s)} level 0 cycle "
        f"was evaluated. Recovery is slowest for a failure "
        f"{describe_cycle_time(c.worst_at_s, b.level0_every_s, level0_s)} "
        f"({format_duration(c.worst_s)}) and fastest just after a backup "
        f"({format_duration(c.best_s)}). "
        + (
            f"In {plural(c.hours_missing, 'hour')} of the cycle a failure would miss the RTO."
            if c.hours_missing
            else "Every hour of the cycle meets the RTO."
        )
    )
    return CyclePart(series, text)


def render(r: ReportRenderer, part: CyclePart) -> list[Flowable]:
    if part.cycle is None:
        return []
    return r.section(
        "Recovery across the backup cycle",
        r.para(part.cycle_text),
        charts.cycle_chart(r.data, r.width),
    )


SECTION = Section("cycle", "backup cycle", build, render)
