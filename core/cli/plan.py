"""`rto-planner plan SCENARIO.toml [--json]`: recovery timeline, backup jobs, RPO."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from datetime import date
from typing import Any, TypeVar

from ..catalog import Catalog
from ..decisive import decisive_assumptions
from ..engine.verdict import headline
from ..errors import CoreError
from ..headline import Headline, plan_headline
from ..jsonable import dumps_json
from ..plan import Plan, compute_plan, plan_to_json
from ..result import PHASE_TITLES
from ..scenario import load_scenario
from ..units import format_duration, format_percent, format_rate, format_size, spaced_percents
from ..wording import VERDICT_WORDS, bottleneck_words, describe_cycle_time, plural

T = TypeVar("T")


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "plan",
        parents=[common],
        help="recovery timeline, backup jobs and RPO of a scenario",
        description="Compute the recovery timeline (worst case of the backup cycle), the "
        "backup jobs and the RPO of a scenario file.",
    )
    p.add_argument("scenario", metavar="SCENARIO.toml", help="the scenario file to plan")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("--binary", action="store_true", help="print sizes in TiB/GiB, not TB/GB")
    p.add_argument(
        "--as-of",
        metavar="YYYY-MM-DD",
        type=_date,
        help="the date growth is projected from (default: today)",
    )
    p.add_argument(
        "--no-store",
        action="store_true",
        help="use only the shipped catalog, not the store's (user items)",
    )
    p.set_defaults(func=run)


def _date(text: str) -> date:
    try:
        when = date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date such as 2026-01-31") from None
    if not AS_OF_FIRST <= when <= AS_OF_LAST:
        raise argparse.ArgumentTypeError(
            f"{text}: the plan's date must be between {AS_OF_FIRST} and {AS_OF_LAST} "
            "(growth is projected years ahead of it)"
        )
    return when


AS_OF_FIRST = date(1990, 1, 1)
AS_OF_LAST = date(2199, 12, 31)


def catalog_for(args: argparse.Namespace) -> Catalog | None:
    """The store's catalog (user items win), or None (the shipped catalog) with
    `--no-store`. A store that exists but cannot be read (held by a writer, damaged)
    is refused in one line: the same command never answers from other figures."""
    if getattr(args, "no_store", False):
        return None
    from ..store import catalog_from_args  # imported here: `plan --no-store` needs no DuckDB

    return reading_store(args, catalog_from_args, None)


def reading_store(
    args: argparse.Namespace, read: Callable[[argparse.Namespace], T], shipped: T
) -> T:
    """`read(args)` from the store; `shipped` (with a warning) only when there is no store
    and none can be made, where the shipped figures are what a new store would hold."""
    from ..store import db_path_from_args

    try:
        return read(args)
    except CoreError as exc:
        if os.path.lexists(db_path_from_args(args)):  # a file, or a link (even a loop)
            no_store = "--no-store uses the shipped catalog and prices only"
            raise CoreError(
                exc.message, hint=f"{exc.hint}; {no_store}" if exc.hint else no_store
            ) from None
        print(f"rto-planner: warning: using the shipped catalog only ({exc})", file=sys.stderr)
        return shipped


def run(args: argparse.Namespace) -> int:
    catalog = catalog_for(args)
    scenario = load_scenario(args.scenario, catalog=catalog)
    plan = compute_plan(scenario, as_of=args.as_of)
    sure = plan_headline(plan, catalog=catalog)
    if args.json:
        print(dumps_json(plan_to_json(plan, sure)))
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_text(plan, binary=args.binary, headline=sure))
    return 0


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in
                 enumerate(zip(r, widths, strict=True))]  # fmt: skip
        out.append("  " + "  ".join(cells).rstrip())
    return out


def _pct(part: float, whole: float) -> str:
    return format_percent(part / whole, 0) if whole else "—"


def render_text(plan: Plan, *, binary: bool = False, headline: Headline | None = None) -> str:
    """The human-readable plan a DBA reads in a terminal: one block per part of the plan.
    `headline`: the verdict with its probability (`core.headline`); None words the plan
    at its figures alone."""
    u = _Units(binary, headline)
    lines = _heading(plan, headline)
    for block in (_timeline, _backups, _rpo, _cycle, _growth, _catalog_figures, _routes,
                  _assumptions, _notes, _closing):  # fmt: skip
        lines += block(plan, u)
    return "\n".join(lines) + "\n"


class _Units:
    """Sizes and rates in decimal (TB) or binary (TiB) units; "—" for nothing. Carries
    the headline for the closing lines."""

    def __init__(self, binary: bool, headline: Headline | None = None) -> None:
        self.binary = binary
        self.headline = headline

    def size(self, b: float) -> str:
        return format_size(b, binary=self.binary) if b else "—"

    def rate(self, r: float) -> str:
        return format_rate(r, binary=self.binary) if r else "—"


def _heading(plan: Plan, sure: Headline | None) -> list[str]:
    s = plan.scenario
    lines = [f"Scenario: {s.name}"]
    if s.customer:
        lines.append(f"Customer: {s.customer}")
    if sure is None:
        return [*lines, f"Plan verdict: {headline(plan.deciding)}"]
    return [
        *lines,
        f"Plan verdict: {sure.title()}",
        f"  At the planned figures: {headline(plan.deciding)}",
        f"  {_probability_line(sure)}",
    ]


def _probability_line(sure: Headline) -> str:
    """'61 % of 2,000 trials meet every target at once; 90 % is required …'."""
    from ..headline import sure_percent

    p = sure.p_meets or 0.0
    return (
        f"{sure_percent(p)} of {sure.trials:,} trials meet every target at once; "
        f"{sure_percent(sure.confidence)} is required{sure.weakest_words()} "
        "(rto-planner risk shows each target and what decides it)"
    )


def _timeline(plan: Plan, u: _Units) -> list[str]:
    rec = plan.recovery
    f = rec.failure
    inc = (
        f"{plural(f.incremental_count, f'{plan.scenario.backup.level1} level 1 backup')}, "
        if f.incremental_count
        else "no level 1 backup, "
    )
    lines = [
        "",
        f"Recovery timeline — worst case: failure just before the next level 0 finishes "
        f"({inc}{format_duration(f.redo_since_s)} of redo)",
    ]
    rows = [["Phase", "Start", "Duration", "Volume", "Rate", "Bottleneck"]]
    rows += [_phase_row(p, u) for p in rec.phases]
    rows.append(["Total", "", format_duration(rec.total_s), "", "", ""])
    lines += _table(rows, right={1, 2, 3, 4})
    lines.append(
        f"  RTO {format_duration(rec.rto_s)}, margin {format_duration(rec.margin_s)} "
        f"({_pct(rec.margin_s, rec.rto_s)} of the RTO; at risk below "
        f"{format_duration(rec.risk_margin_s)})"
    )
    lp = rec.longest_phase
    return [*lines, f"  Longest phase: {PHASE_TITLES[lp.name]} — {lp.detail}"]


def _phase_row(p: Any, u: _Units) -> list[str]:
    return [
        PHASE_TITLES[p.name],
        format_duration(p.start_s),
        format_duration(p.duration_s) if p.duration_s else "—",
        u.size(p.data_bytes),
        u.rate(p.rate_Bps),
        bottleneck_words(p.bottleneck) if p.duration_s else "",
    ]


def _backups(plan: Plan, u: _Units) -> list[str]:
    window = plan.scenario.targets.backup_window_s
    lines = [
        "",
        "Backups" + (f" (window {format_duration(window)})" if window else " (no window given)"),
    ]
    rows = [["Job", "Duration", "Volume", "Effective rate", "Bottleneck", "Fits"]]
    for j in plan.jobs:
        fits = {True: "yes", False: "NO", None: "—"}[j.fits_window]
        rows.append([
            j.title, format_duration(j.duration_s), u.size(j.data_bytes),
            u.rate(j.effective_rate_Bps), bottleneck_words(j.bottleneck), fits,
        ])  # fmt: skip
    lines += _table(rows, right={1, 2, 3})
    lines.append(
        "  Effective rate = database size ÷ backup time for level 0/1 (as vendors quote it), "
        "channel start-up included."
    )
    return lines


def _rpo(plan: Plan, u: _Units) -> list[str]:
    r = plan.rpo
    parts = " + ".join(f"{name} {format_duration(v)}" for name, v in r.site_loss_parts)
    lines = [
        "",
        "RPO (worst-case data loss)",
        "  Media failure, online redo intact: " + format_duration(r.media_failure_s),
        f"  Site loss: {format_duration(r.site_loss_s)} ({parts})",
    ]
    if r.target_s is not None:
        lines.append(f"  Target {format_duration(r.target_s)}: {VERDICT_WORDS[r.verdict]}")
    return lines


def _cycle(plan: Plan, u: _Units) -> list[str]:
    c = plan.cycle
    if not c:
        return []
    l0_s = plan.job("level0").duration_s if plan.job("level0") else 0.0
    when = describe_cycle_time(c.worst_at_s, plan.scenario.backup.level0_every_s, l0_s)
    hours = (
        f"{plural(c.hours_missing, 'hour')} of the cycle miss the RTO"
        if c.hours_missing
        else "every hour of the cycle meets the RTO"
    )
    return [
        "",
        "Backup cycle",
        f"  Worst case {format_duration(c.worst_s)} for a failure {when} "
        f"(best {format_duration(c.best_s)}); " + hours,
    ]


def _growth(plan: Plan, u: _Units) -> list[str]:
    g = plan.growth
    if not g:
        return []
    growth = plan.scenario.database.growth
    lines = ["", f"Growth ({spaced_percents(growth.text) if growth else ''})"]
    if g.breaks_on:
        lines.append(
            f"  The plan breaks on {g.breaks_on.isoformat()}: {g.reason} "
            f"(database {u.size(g.size_at_break_bytes or 0)})"
        )
    else:
        lines.append(f"  The plan holds for the next {g.horizon_years:.0f} years")
    return lines


def _catalog_figures(plan: Plan, u: _Units) -> list[str]:
    """Where each figure the catalog filled in comes from."""
    rc = plan.scenario.recovery
    lines = [f"  {st.label}: {st.source}" for st in plan.restore_path.stages
             if st.source != "scenario"]  # fmt: skip
    if rc.redo_apply_source != "scenario":
        lines.append(f"  Redo apply rate: {rc.redo_apply_source}")
    if rc.redo_log_cost_source != "scenario" and rc.redo_log_cost_s is not None:
        lines.append(f"  Apply cost per archived log ({format_duration(rc.redo_log_cost_s)}): "
                     f"{rc.redo_log_cost_source}")  # fmt: skip
    return ["", "Figures taken from the catalog", *lines] if lines else []


def _routes(plan: Plan, u: _Units) -> list[str]:
    if not plan.routes[1:]:
        return []
    return ["", "Routes"] + [
        f"  {r.title}: {format_duration(r.total_s)}, {VERDICT_WORDS[r.verdict]} ({r.detail})"
        for r in plan.routes
    ]


def _assumptions(plan: Plan, u: _Units) -> list[str]:
    found = decisive_assumptions(plan)
    if not found:
        return []
    return ["", "Assumptions that decide the recovery time"] + [f"  {a.sentence()}" for a in found]


def _notes(plan: Plan, u: _Units) -> list[str]:
    return ["", "Notes"] + [f"  {n}" for n in plan.notes] if plan.notes else []


def _closing(plan: Plan, u: _Units) -> list[str]:
    rec = plan.recovery
    return [
        "",
        f"Recovery: {VERDICT_WORDS[rec.verdict]} the RTO of {format_duration(rec.rto_s)} — "
        f"worst-case recovery {format_duration(rec.total_s)}, margin "
        f"{format_duration(rec.margin_s)}.",
        f"Verdict: {headline(plan.deciding)}."
        if u.headline is None
        else f"Verdict: {u.headline.title()}; at the planned figures {headline(plan.deciding)}.",
        "Units: TB = 10^12 bytes, TiB = 2^40 bytes; volumes are datafile (data) bytes."
        if not u.binary
        else "Units: TiB = 2^40 bytes; volumes are datafile (data) bytes.",
    ]
