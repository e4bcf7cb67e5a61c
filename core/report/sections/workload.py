"""Workload evidence (only when `WorkloadEvidence` is passed): period, redo
average/p95/peak and a redo-per-hour chart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer

from .. import charts
from ..model import ReportContext, Section, Table, WorkloadEvidence

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class WorkloadPart:
    workload: WorkloadEvidence | None
    workload_table: Table | None
    workload_text: str


def build(ctx: ReportContext) -> WorkloadPart:
    w = ctx.workload
    if w is None:
        return WorkloadPart(None, None, "")

    rows = (
        ("Period", f"{w.period_start:%Y-%m-%d %H:%M} – {w.period_end:%Y-%m-%d %H:%M}"),
        ("Reports", str(w.reports)),
        ("Redo, average", ctx.rate(w.redo_avg_Bps)),
        ("Redo, 95th percentile", ctx.rate(w.redo_p95_Bps)),
        ("Redo, peak", ctx.rate(w.redo_peak_Bps)),
        ("Redo rate in the plan", ctx.rate(ctx.s.database.redo_rate_Bps)),
    )
    who = f" of {w.db_name}" if w.db_name else ""
    text = (
        f"The workload figures{who} come from {w.source or 'imported reports'}. "
        "The plan's redo volume uses the redo rate shown last; the peak shows how much "
        "worse a failure after a busy period can be."
    )
    return WorkloadPart(w, Table(("Measure", "Value"), rows, "ll"), text)


def render(r: ReportRenderer, part: WorkloadPart) -> list[Flowable]:
    if part.workload is None or part.workload_table is None:
        return []
    lead: list[Flowable] = [r.para(part.workload_text)]
    if part.workload.series:
        lead.append(charts.redo_chart(r.data, r.width))
    out = r.section("Workload evidence", *lead)
    out.append(Spacer(1, 4 * mm))
    out.append(KeepTogether([r.table(part.workload_table, [50 * mm, 80 * mm])]))
    return out


SECTION = Section("workload", "workload", build, render)
