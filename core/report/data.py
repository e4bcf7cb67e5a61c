"""What the PDF plan prints, computed once from a `Plan` (STYLE §14).

`build_report_data` fills the fields every page shares and asks each registered section
(`core.report.sections.PLAN_SECTIONS`) for its own data. Everything is frozen plain data,
formatted with `core.units`; the renderer (`pdf.py`) and the charts (`charts.py`) only
lay it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .. import __version__
from ..catalog import Catalog
from ..clock import source_date_epoch
from ..clock import today as report_date
from ..engine.verdict import verdict_title
from ..headline import Headline, headline_of
from ..plan import Plan
from ..result import RecoveryResult
from ..units import format_duration
from ..wording import VERDICT_WORDS, bottleneck_words
from .model import (
    REPORT_TITLE,
    Formula,
    RedoSample,
    ReportContext,
    ReportData,
    Section,
    Table,
    WorkloadEvidence,
    freeze_parts,
    long_date,
)
from .sections import PLAN_SECTIONS
from .sections.backups import JobBar
from .sections.confidence import SECTION as _CONFIDENCE
from .sections.confidence import risk_of
from .sections.cover import KeyFigure
from .sections.cycle import CycleSeries
from .sections.growth import GrowthSeries
from .sections.path import CapacityRow
from .sections.recovery import GanttBar
from .sections.rpo import RpoPart

CONFIDENCE_KEY = _CONFIDENCE.key


def build_report_data(
    plan: Plan,
    *,
    workload: WorkloadEvidence | None = None,
    binary: bool = False,
    advice: Any = None,
    catalog: Catalog | None = None,
    prices: Any = None,
    generated: datetime | None = None,
    sections: Sequence[Section] = PLAN_SECTIONS,
    drills: Sequence[Any] = (),
) -> ReportData:
    """Everything the PDF prints, from a computed plan.

    `advice`: What it takes (a `core.fix.FixResult`) to print; None computes it, with
    `prices` (a `core.fix.PriceBook`, else the catalog's prices), when the plan does not
    meet every target; () prints none. `generated` defaults to SOURCE_DATE_EPOCH, else
    now (UTC). `sections`: the sections to build, in print order. `drills`: the scenario's
    drills for the Evidence section (none: no section).
    """
    ctx = ReportContext(
        plan, binary=binary, workload=workload, advice=advice, catalog=catalog, prices=prices,
        drills=tuple(drills),
    )  # fmt: skip
    if generated is None:
        generated = source_date_epoch() or datetime.now(tz=UTC).replace(microsecond=0)
    header = _header(plan, binary, generated, _headline(ctx, sections))
    return ReportData(**header, parts=freeze_parts(header, _parts(ctx, sections)))


def _parts(ctx: ReportContext, sections: Sequence[Section]) -> dict[str, Any]:
    """Each section's data by its key; a section with nothing to print has none."""
    parts = {}
    for section in sections:
        part = section.build(ctx)
        if part is not None:
            parts[section.key] = part
    return parts


def _headline(ctx: ReportContext, sections: Sequence[Section]) -> Headline | None:
    """The headline with its probability, from the run the "How sure" section prints
    (one run: the cover cannot contradict that page); None without that section."""
    if not any(section.key == CONFIDENCE_KEY for section in sections):
        return None
    return headline_of(ctx.plan, risk_of(ctx))


def _header(
    plan: Plan, binary: bool, generated: datetime, sure: Headline | None = None
) -> dict[str, Any]:
    """The fields every page shares: names, dates, units and the verdict (with its
    probability when `sure` is given)."""
    verdict, title, line = _verdict(plan, sure)
    return {
        **_names_and_dates(plan, binary, generated),
        "verdict": verdict,
        "verdict_words": VERDICT_WORDS[verdict],
        "verdict_line": line,
        "verdict_title": title,
        "decided_by": plan.decided_by,
        **_recovery_figures(plan.recovery),
    }


def _verdict(plan: Plan, sure: Headline | None) -> tuple[str, str, str]:
    """(verdict, title, line): the plan's at its figures, or the headline's with its odds."""
    line = _recovery_line(plan.recovery)
    odds_decide = sure is not None and sure.probability_decides
    if plan.decided_by != "recovery" and not odds_decide:
        # When the odds decide, `sure.why()` names the plan's deciding check itself.
        line = f"Decided by {plan.deciding.sentence()}. {line}"
    verdict, title = plan.verdict, verdict_title(plan.deciding)
    if sure is not None and not sure.pending:
        verdict = sure.verdict
        title = sure.title() if odds_decide else f"{title} — {sure.sure()}"
        line = f"{line}. {sure.why()}"
    return verdict, title, line


def _recovery_line(rec: RecoveryResult) -> str:
    """The worst-case recovery against the RTO: by how much it misses, or its margin."""
    total, rto = format_duration(rec.total_s), format_duration(rec.rto_s)
    if rec.verdict == "misses":
        by = format_duration(-rec.margin_s)
        return f"Worst-case recovery {total} misses the RTO of {rto} by {by}"
    margin = format_duration(rec.margin_s)
    return f"Worst-case recovery {total} against an RTO of {rto}: margin {margin}"


def _units_note(binary: bool) -> str:
    """Which size units the report uses, and which bytes its volumes count."""
    return (
        "Sizes in binary units (TiB = 2⁴⁰ bytes); "
        if binary
        else "Sizes in decimal units (TB = 10¹² bytes, GB = 10⁹ bytes); "
    ) + "volumes and rates count datafile (data) bytes unless named backup pieces."


def _names_and_dates(plan: Plan, binary: bool, generated: datetime) -> dict[str, Any]:
    s = plan.scenario
    return {
        "title": REPORT_TITLE,
        "scenario_name": s.name,
        "customer": s.customer,
        "author": s.author,
        "notes": s.notes,
        "as_of": plan.as_of,
        "as_of_text": long_date(plan.as_of),
        "generated": generated,
        "producer": f"RTO Planner {__version__}",
        "units_note": _units_note(binary),
        "binary": binary,
    }


def _recovery_figures(rec: RecoveryResult) -> dict[str, Any]:
    return {
        "total_s": rec.total_s,
        "rto_s": rec.rto_s,
        "margin_s": rec.margin_s,
        "risk_margin_s": rec.risk_margin_s,
        "total_text": format_duration(rec.total_s),
        "rto_text": format_duration(rec.rto_s),
        "margin_text": format_duration(rec.margin_s),
    }


__all__ = [
    "REPORT_TITLE",
    "CapacityRow",
    "CycleSeries",
    "Formula",
    "GanttBar",
    "GrowthSeries",
    "JobBar",
    "KeyFigure",
    "RedoSample",
    "ReportData",
    "RpoPart",
    "Table",
    "WorkloadEvidence",
    "bottleneck_words",
    "build_report_data",
    "report_date",
    "source_date_epoch",
]
