"""Backups and the backup window: each job against its window; durations, data and
backup bytes, effective rate, bottleneck."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from ...units import format_duration
from ...wording import bottleneck_words
from .. import charts
from ..model import ReportContext, Section, Table

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class JobBar:
    label: str
    duration_s: float
    window_s: float | None
    fits: bool | None
    text: str


@dataclass(frozen=True)
class BackupsPart:
    window_text: str
    jobs: tuple[JobBar, ...]
    jobs_table: Table
    jobs_text: str


_HEADER = ("Job", "Duration", "Data", "Backup pieces", "Effective rate", "Limited by",
           "Window", "Fits")  # fmt: skip


def build(ctx: ReportContext) -> BackupsPart:
    window = ctx.s.targets.backup_window_s
    jobs = ctx.plan.jobs
    bars = tuple(JobBar(j.title, j.duration_s, j.window_s, j.fits_window,
                        format_duration(j.duration_s)) for j in jobs)  # fmt: skip
    table = Table(_HEADER, tuple(_job_row(ctx, j) for j in jobs), "lrrrrlrl")
    misses = [j.title for j in jobs if j.fits_window is False]
    shown = format_duration(window) if window else "none given"
    return BackupsPart(shown, bars, table, _jobs_text(window, misses))


def _job_row(ctx: ReportContext, j: Any) -> tuple[str, ...]:
    """One backup job: its time, volumes, rate, what limits it and whether it fits."""
    fits = {True: "yes", False: "NO", None: "—"}[j.fits_window]
    window = format_duration(j.window_s) if j.window_s else "—"
    return (j.title, format_duration(j.duration_s), ctx.size(j.data_bytes),
            ctx.size(j.backup_bytes), ctx.rate(j.effective_rate_Bps),
            bottleneck_words(j.bottleneck), window, fits)  # fmt: skip


def _jobs_text(window: float | None, misses: list[str]) -> str:
    if window is None:
        text = "No backup window was given, so the jobs are not checked against one."
    elif misses:
        verb = "overruns" if len(misses) == 1 else "overrun"
        text = f"{' and '.join(misses)} {verb} the {format_duration(window)} window."
    else:
        text = f"Every backup fits the {format_duration(window)} window."
    return text + (
        " Effective rate = database size ÷ backup time for level 0 and level 1 (as "
        "vendors quote it), serial channel start-up included; archived-log backups must "
        "finish before the next one starts."
    )


def render(r: ReportRenderer, part: BackupsPart) -> list[Flowable]:
    w = r.width
    out = r.section("Backups and the backup window", charts.jobs_chart(r.data, w))
    out.append(Spacer(1, 3 * mm))
    widths = [22 * mm, 20 * mm, 17 * mm, 21 * mm, 22 * mm, 0.0, 20 * mm, 10 * mm]
    widths[5] = w - sum(widths)
    out.append(r.table(part.jobs_table, widths))
    out.append(Spacer(1, 2 * mm))
    out.append(r.para(part.jobs_text))
    return out


SECTION = Section("backups", "backups", build, render)
