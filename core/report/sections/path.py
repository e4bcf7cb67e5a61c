"""Restore path and bottleneck: each stage's capacity in data bytes/s with the channels
the plan runs, its load, and a capacity bar with the path rate marked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    n = model.active_channels
    bidx = model.bottleneck_index
    caps: list[CapacityRow] = []
    rows = []
    bold = []
    for i, st in enumerate(model.stages):
        cap = model.capacity_at_Bps(i)
        if st.per_channel_only:
            units = f"{n} ch."
            note = "each channel"
        elif st.binds_channel:
            units = f"{n} of {st.count}" if n < st.count else str(st.count)
            note = "one channel per unit"
        else:
            units = str(st.count)
            note = "all channels"
        load = model.load(i)
        is_bn = i == bidx
        # A stage as loaded as the bottleneck (a tie) is just as limiting: mark it too.
        saturated = is_bn or load >= 0.9995
        caps.append(CapacityRow(st.label, st.kind, cap, min(load, 1.0), saturated))
        if is_bn:
            bold.append(len(rows))
        rows.append(
            (
                f"{st.label}\n{st.kind.replace('_', ' ')}",
                units,
                ctx.rate(st.unit_Bps),
                ctx.rate(cap),
                pct(min(load, 1.0)),
                note,
            )
        )
    if bidx is None:
        bold.append(len(rows))
        caps.append(CapacityRow(f"RMAN channels ({model.channels})", "channels", rate, 1.0, True))
        rows.append(
            (
                f"RMAN channels ({model.channels})\nchannel count",
                str(model.channels),
                ctx.rate(model.per_channel_Bps),
                ctx.rate(rate),
                "100%",
                "too few channels",
            )
        )
    table = Table(
        ("Stage", "Units", "Per unit", "Capacity", "Load", "Serves"),
        tuple(rows),
        "lrrrrl",
        bold_rows=tuple(bold),
    )
    path_text = (
        f"Once {n} of {plural(model.channels, 'RMAN channel')} stream, restores run at "
        f"{ctx.rate(rate)} ({ctx.rate(rate, 'h')}) of datafile bytes; with the channels' "
        f"start-up the level 0 restore averages {ctx.level0_rate_text()}. "
        f"What limits it: {model.explain()}."
    )
    return PathPart(path_text, tuple(caps), rate, table, _backup_path_text(ctx))


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
