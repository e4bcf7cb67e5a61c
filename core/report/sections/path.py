"""Restore path and bottleneck: each stage's capacity in data bytes/s with the channels
the plan runs, its load, and a capacity bar with the path rate marked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from ...wording import bottleneck_words, plural
from .. import charts
from ..model import CapacityRow, ReportContext, Section, Table, pct

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class PathPart:
    path_text: str
    capacity: tuple[CapacityRow, ...]
    path_rate_Bps: float
    path_table: Table
    backup_path_text: str


def build(ctx: ReportContext) -> PathPart:
    model = ctx.plan.restore_path
    rate = model.rate_Bps
    caps: list[CapacityRow] = []
    rows: list[tuple[str, ...]] = []
    bold: list[int] = []
    for i, st in enumerate(model.stages):
        load = model.load(i)
        # A stage as loaded as the bottleneck (a tie) is just as limiting: mark it too.
        saturated = i == model.bottleneck_index or load >= 0.9995
        cap = model.capacity_at_Bps(i)
        caps.append(CapacityRow(st.label, st.kind, cap, min(load, 1.0), saturated))
        if i == model.bottleneck_index:
            bold.append(len(rows))
        rows.append(_stage_row(ctx, st, cap, load))
    if model.bottleneck_index is None:
        bold.append(len(rows))
        caps.append(CapacityRow(f"RMAN channels ({model.channels})", "channels", rate, 1.0, True))
        rows.append(_channels_row(ctx))
    table = Table(("Stage", "Units", "Per unit", "Capacity", "Load", "Serves"), tuple(rows),
                  "lrrrrl", bold_rows=tuple(bold))  # fmt: skip
    return PathPart(_path_text(ctx), tuple(caps), rate, table, _backup_path_text(ctx))


def _units(st: Any, n: int) -> tuple[str, str]:
    """How many units of a stage work with `n` channels, and whom each serves."""
    if st.per_channel_only:
        return f"{n} ch.", "each channel"
    if st.per_core:
        used = min(n, st.count)
        units = f"{used} of {st.count}" if used < st.count else str(st.count)
        return units, "one channel per core"
    if st.binds_channel:
        return (f"{n} of {st.count}" if n < st.count else str(st.count)), "one channel per unit"
    return str(st.count), "all channels"


def _stage_row(ctx: ReportContext, st: Any, cap: float, load: float) -> tuple[str, ...]:
    units, note = _units(st, ctx.plan.restore_path.active_channels)
    label = f"{st.label}\n{st.kind.replace('_', ' ')}"
    return (label, units, ctx.rate(st.unit_Bps), ctx.rate(cap), pct(min(load, 1.0)), note)


def _channels_row(ctx: ReportContext) -> tuple[str, ...]:
    """The row of the channels when they, not a stage, limit the path."""
    model = ctx.plan.restore_path
    return (f"RMAN channels ({model.channels})\nchannel count", str(model.channels),
            ctx.rate(model.per_channel_Bps), ctx.rate(model.rate_Bps), pct(1.0),
            "too few channels")  # fmt: skip


def _path_text(ctx: ReportContext) -> str:
    model = ctx.plan.restore_path
    rate, n = model.rate_Bps, model.active_channels
    return (
        f"Once {n} of {plural(model.channels, 'RMAN channel')} stream, restores run at "
        f"{ctx.rate(rate)} of datafile bytes; with the channels' "
        f"start-up the level 0 restore averages {ctx.level0_rate_text()}. "
        f"What limits it: {model.explain()}."
    )


def _backup_path_text(ctx: ReportContext) -> str:
    model = ctx.plan.restore_path
    rate = model.rate_Bps
    bp = ctx.plan.backup_path
    if abs(bp.rate_Bps - rate) > 1e-6 * max(rate, 1.0) or bp.bottleneck != model.bottleneck:
        return (
            f"Backups run the other way at {ctx.rate(bp.rate_Bps)}, limited by "
            f"{bottleneck_words(bp.bottleneck)}."
        )
    return "Backups run the other way through the same stages at the same rate."


def render(r: ReportRenderer, part: PathPart) -> list[Flowable]:
    w = r.width
    bar_w = 34 * mm
    widths = [42 * mm, 13 * mm, 19 * mm, 19 * mm, 12 * mm]
    widths.append(w - sum(widths) - bar_w)
    widths.append(bar_w)
    max_cap = max((c.capacity_Bps for c in part.capacity), default=1.0)
    bars = [charts.capacity_bar(c, max_cap, part.path_rate_Bps, bar_w - 8) for c in part.capacity]
    out = r.section(
        "Restore path and bottleneck",
        r.para(part.path_text),
        r.table(part.path_table, widths, extra=bars),
    )
    out.append(Spacer(1, 2 * mm))
    out.append(charts.capacity_legend(w))
    out.append(Spacer(1, 2 * mm))
    out.append(
        r.para(
            "Capacities are in datafile (data) bytes per second with the channels the plan "
            "runs: compression, drive efficiency and ASM redundancy are already applied. Load "
            "is the share of a stage's capacity the restore uses.",
            "small",
        )
    )
    out.append(r.para(part.backup_path_text))
    return out


SECTION = Section("path", "restore path", build, render)
