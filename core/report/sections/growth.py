"""Growth outlook: worst-case recovery and level 0 time by year, the break date."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from ...units import DAY, YEAR, format_duration
from ...wording import growth_assumptions
from .. import charts
from ..model import ReportContext, Section, Table, long_date

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class GrowthSeries:
    as_of: date
    points: tuple[tuple[float, float, float, float], ...]
    """(years from as-of, size [bytes], worst recovery [s], level 0 backup [s])."""
    breaks_at_years: float | None
    breaks_on_text: str


@dataclass(frozen=True)
class GrowthPart:
    growth: GrowthSeries | None
    growth_text: str
    growth_table: Table | None


def build(ctx: ReportContext) -> GrowthPart:
    g = ctx.plan.growth
    gr = ctx.s.database.growth
    if g is None or gr is None:
        return GrowthPart(None, "No growth rate was given, so the outlook is not computed.", None)
    pts = [(_years(g.as_of, p.on), p.size_bytes, p.worst_recovery_s, p.level0_backup_s)
           for p in g.points]  # fmt: skip
    rows = tuple(_point_row(ctx, p) for p in g.points)
    table = Table(("Date", "Database", "Worst recovery", "Level 0 backup", "Plan"), rows, "lrrrl")
    series = GrowthSeries(g.as_of, tuple(pts), _breaks_years(g),
                          long_date(g.breaks_on) if g.breaks_on else "")  # fmt: skip
    return GrowthPart(series, _outlook_text(ctx, g, gr.text), table)


def _years(start: Any, on: Any) -> float:
    return (on - start).days * DAY / YEAR


def _point_row(ctx: ReportContext, p: Any) -> tuple[str, ...]:
    """One date of the outlook: the size, the times, and whether the plan still holds."""
    ok_rec = p.worst_recovery_s <= ctx.s.targets.rto_s
    win = ctx.s.targets.backup_window_s
    ok_l0 = win is None or p.level0_backup_s <= win
    plan = "holds" if ok_rec and ok_l0 else "breaks"
    return (p.on.isoformat(), ctx.size(p.size_bytes), format_duration(p.worst_recovery_s),
            format_duration(p.level0_backup_s), plan)  # fmt: skip


def _breaks_years(g: Any) -> float | None:
    """Years until the plan breaks: 0 when it already fails, None when it holds."""
    if g.breaks_on and g.breaks_on <= g.as_of:
        return 0.0
    return _years(g.as_of, g.breaks_on) if g.breaks_on else None


def _outlook_text(ctx: ReportContext, g: Any, rate: str) -> str:
    held = growth_assumptions(ctx.s.database.redo_growth)
    if g.breaks_on and g.breaks_on <= g.as_of:
        return (
            f"The plan already fails at today's size: {g.reason}. At {rate} growth "
            f"the gap only widens; the table shows by how much. {held}"
        )
    if g.breaks_on:
        return (
            f"At {rate} growth the plan breaks on {long_date(g.breaks_on)}: "
            f"{g.reason} (database {ctx.size(g.size_at_break_bytes)}). {held}"
        )
    return f"At {rate} growth the plan holds for the next {g.horizon_years:.0f} years. " + held


def render(r: ReportRenderer, part: GrowthPart) -> list[Flowable]:
    if part.growth is None or part.growth_table is None:
        return r.section("Growth outlook", r.para(part.growth_text))
    out = r.section(
        "Growth outlook", r.para(part.growth_text), charts.growth_chart(r.data, r.width)
    )
    out.append(Spacer(1, 3 * mm))
    out.append(r.table(part.growth_table, [26 * mm, 26 * mm, 30 * mm, 30 * mm, 18 * mm]))
    return out


SECTION = Section("growth", "growth", build, render)
