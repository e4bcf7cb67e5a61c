"""Data loss (RPO): what a site loss loses, part by part, against the target."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from ...units import format_duration
from .. import charts
from ..model import ReportContext, Section, Table

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class RpoPart:
    """One part of the site-loss data loss (the chart's bar segment)."""

    label: str
    duration_s: float
    text: str


@dataclass(frozen=True)
class RpoSectionPart:
    rpo_verdict: str
    rpo_text: str
    rpo_target_s: float | None
    rpo_parts: tuple[RpoPart, ...]
    rpo_table: Table


def build(ctx: ReportContext) -> RpoSectionPart:
    r = ctx.plan.rpo
    parts = tuple(RpoPart(label, v, format_duration(v)) for label, v in r.site_loss_parts)
    rows = [("Media failure, online redo intact", format_duration(r.media_failure_s))]
    rows += [(f"+ {p.label}", p.text) for p in parts]
    rows.append(("Site loss, worst case", format_duration(r.site_loss_s)))
    bold = [len(rows) - 1]
    if r.target_s is not None:
        rows.append(("RPO target", format_duration(r.target_s)))
    table = Table(("Data lost", "Worst case"), tuple(rows), "lr", bold_rows=tuple(bold))
    if r.target_s is None:
        text = (
            f"A site loss loses up to {format_duration(r.site_loss_s)} of data; no RPO "
            "target was given."
        )
    else:
        verb = "meets" if r.verdict == "meets" else "misses"
        text = (
            f"A media failure with the online redo intact loses no committed data; a "
            f"site loss loses up to {format_duration(r.site_loss_s)}, which {verb} the "
            f"RPO of {format_duration(r.target_s)}."
        )
    return RpoSectionPart(r.verdict, text, r.target_s, parts, table)


def render(r: ReportRenderer, part: RpoSectionPart) -> list[Flowable]:
    out = r.section("Data loss (RPO)", r.para(part.rpo_text), charts.rpo_chart(r.data, r.width))
    out.append(Spacer(1, 3 * mm))
    out.append(r.table(part.rpo_table, [90 * mm, 30 * mm]))
    return out


SECTION = Section("rpo", "RPO", build, render)
