"""Executive summary: the worst case against the RTO with the margin, the RPO, the
longest phase and the path's bottleneck, what it takes to meet every target (the frontier
itself is the next section, `what_it_takes`), backups, growth."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.platypus import Flowable

from ...decisive import decisive_assumptions
from ...headline import headline_of
from ...result import PHASE_TITLES
from ...units import format_duration
from ...wording import VERDICT_WORDS, bottleneck_words, for_reader
from ..model import ReportContext, Section, long_date, pct
from .confidence import CACHE_KEY
from .what_it_takes import recommendation_sentence

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class SummaryPart:
    summary: tuple[str, ...]


def build(ctx: ReportContext) -> SummaryPart:
    return SummaryPart(paragraphs(ctx))


def paragraphs(ctx: ReportContext) -> tuple[str, ...]:
    out = [_verdict_paragraph(ctx), _rpo_sentence(ctx), _longest_phase_sentence(ctx)]
    deciding = _deciding_sentence(ctx)
    if deciding:
        out.append(deciding)
    out += [for_reader(a.sentence()) for a in decisive_assumptions(ctx.plan)]
    fix = recommendation_sentence(ctx)
    if fix:
        out.append(fix)
    out += _backup_sentence(ctx)
    out += _growth_sentence(ctx)
    return tuple(out)


def _deciding_sentence(ctx: ReportContext) -> str | None:
    """What decides the headline: the odds when they set it (the cover's AT RISK at 51 %
    is not "decided by RPO"), else the check that decides the plan, unless recovery."""
    risk = ctx.cache.get(CACHE_KEY)  # the How-sure page's run, when the report has it
    sure = headline_of(ctx.plan, risk) if risk is not None else None
    if sure is not None and sure.probability_decides:
        return (
            f"The plan's verdict, {VERDICT_WORDS[sure.verdict]}, is decided by its odds. "
            f"{sure.why()}"
        )
    if ctx.plan.decided_by != "recovery":
        return f"The plan's verdict is decided by {ctx.plan.deciding.sentence()}."
    return None


def _verdict_paragraph(ctx: ReportContext) -> str:
    rec = ctx.plan.recovery
    total, rto = format_duration(rec.total_s), format_duration(rec.rto_s)
    share = pct(abs(rec.margin_s) / rec.rto_s) if rec.rto_s else ""
    lead = (
        f"If the database is lost at the worst moment of the backup cycle, restoring and "
        f"recovering it takes {total}"
    )
    if rec.verdict == "misses":
        return f"{lead}. That misses the RTO of {rto} by {format_duration(-rec.margin_s)}."
    if rec.verdict == "at_risk":
        return (
            f"{lead}, inside the RTO of {rto} with a margin of "
            f"{format_duration(rec.margin_s)} ({share} of the RTO). That is less than the "
            f"{format_duration(rec.risk_margin_s)} safety margin, so the plan is at risk."
        )
    return (
        f"{lead}. That meets the RTO of {rto} with a margin of "
        f"{format_duration(rec.margin_s)} ({share} of the RTO)."
    )


def _rpo_sentence(ctx: ReportContext) -> str:
    r = ctx.plan.rpo
    if r.target_s is not None:
        verb = "within" if r.verdict == "meets" else "beyond"
        return (
            f"A media failure with the online redo logs intact loses no committed data. A "
            f"loss of the whole site loses up to {format_duration(r.site_loss_s)} of data, "
            f"{verb} the RPO of {format_duration(r.target_s)}."
        )
    return (
        f"A media failure with the online redo logs intact loses no committed data; a "
        f"loss of the whole site loses up to {format_duration(r.site_loss_s)}."
    )


def _longest_phase_sentence(ctx: ReportContext) -> str:
    plan = ctx.plan
    rec = plan.recovery
    lp = rec.longest_phase
    lp_share = pct(lp.duration_s / rec.total_s) if rec.total_s else ""
    restore_rate = ctx.level0_rate_text()
    head = (
        f"The longest phase is {PHASE_TITLES[lp.name].lower()} "
        f"({format_duration(lp.duration_s)}, {lp_share} of the recovery)"
    )
    if lp.name in ("restore_level0", "restore_incremental", "restore_archivelogs"):
        if lp.bottleneck == "largest_file":
            why = "one channel must move the largest file alone (multisection would help)"
        else:
            why = plan.restore_path.explain()
        return f"{head}: {why}, so restores move data at {restore_rate}."
    if lp.name == "redo_apply":
        why = _redo_apply_words(ctx, lp.rate_Bps)
    elif lp.name == "apply_incremental":
        why = f"incrementals are applied at {ctx.rate(lp.rate_Bps)}"
    else:
        why = lp.detail
    return (
        f"{head}: {why}. Restores move data at {restore_rate}, limited by "
        f"{bottleneck_words(plan.restore_path.bottleneck)}."
    )


def _redo_apply_words(ctx: ReportContext, effective_Bps: float | None) -> str:
    """How fast media recovery applies redo; with a cost per archived log the average
    says what it is made of, so it does not read as a second redo apply rate beside the
    one the assumptions name ("37.5 MB/s" beside "Redo apply rate 47.0 MB/s")."""
    rc = ctx.s.recovery
    said = f"media recovery applies redo at {ctx.rate(effective_Bps)}"
    stream = rc.redo_apply_rate_Bps
    if not (effective_Bps and stream and rc.redo_log_cost_s):
        return said
    if abs(effective_Bps - stream) <= 0.005 * stream:
        return said
    return (
        f"{said} on average (the redo apply rate of {ctx.rate(stream)}, and "
        f"{format_duration(rc.redo_log_cost_s)} for each archived log)"
    )


def _backup_sentence(ctx: ReportContext) -> list[str]:
    window = ctx.s.targets.backup_window_s
    l0 = ctx.plan.job("level0")
    if l0 is None or window is None:
        return []
    verdict = "fits" if l0.fits_window else "does not fit"
    return [
        f"The level 0 backup takes {format_duration(l0.duration_s)} and {verdict} the "
        f"{format_duration(window)} backup window."
    ]


def _growth_sentence(ctx: ReportContext) -> list[str]:
    g = ctx.plan.growth
    growth = ctx.s.database.growth
    if g is None or growth is None:
        return []
    if g.breaks_on and g.breaks_on <= g.as_of:
        return [
            f"The plan already fails at today's size ({g.reason}); at "
            f"{growth.text} growth the gap widens every year."
        ]
    if g.breaks_on:
        return [
            f"At {growth.text} growth the plan breaks on {long_date(g.breaks_on)} ({g.reason})."
        ]
    return [f"At {growth.text} growth the plan holds for the next {g.horizon_years:.0f} years."]


def render(r: ReportRenderer, part: SummaryPart) -> list[Flowable]:
    out: list[Flowable] = [r.heading("Executive summary", 0)]
    out += [r.para(t) for t in part.summary]
    return out


SECTION = Section("summary", "summary", build, render)
