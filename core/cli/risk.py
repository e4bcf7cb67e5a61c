"""`rto-planner risk SCENARIO.toml [--trials N] [--seed S] [--json]`: how sure is the
plan (DESIGN §7) — probabilities of meeting the RTO, percentiles, and the inputs that
decide it."""

from __future__ import annotations

import argparse
import sys

from ..jsonable import dumps_json, refuse_nonfinite
from ..scenario import load_scenario
from ..units import format_duration, format_percent, spaced_percents


def _count(text: str) -> int:
    try:
        n = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of trials") from None
    if not 1 <= n <= 10_000_000:
        raise argparse.ArgumentTypeError(f"{n} trials: give between 1 and 10,000,000")
    return n


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole-number seed") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n}: a seed is 0 or more")
    return n


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "risk",
        parents=[common],
        help="how sure is the plan: P(RTO met), percentiles, what decides it",
        description="Run the plan's engine on many trials with every uncertain figure drawn "
        "from its range (the [uncertainty] table, else a default by where the figure came "
        "from), and print how likely the recovery is to meet the RTO.",
    )
    p.add_argument("scenario", metavar="SCENARIO.toml", help="the scenario file")
    p.add_argument("--trials", type=_count, default=100_000, metavar="N",
                   help="number of trials (default 100,000)")  # fmt: skip
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="random seed (default: derived from the scenario)")  # fmt: skip
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument(
        "--no-store",
        action="store_true",
        help="use only the shipped catalog, not the store's (user items)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..uncertainty.analysis import run_risk
    from ..uncertainty.result import risk_to_json
    from .plan import catalog_for

    catalog = catalog_for(args)
    scenario = load_scenario(args.scenario, catalog=catalog)
    result = run_risk(scenario, trials=args.trials, seed=args.seed, catalog=catalog)
    if args.json:
        out = risk_to_json(result)
        out["confidence_required"] = scenario.targets.confidence
        refuse_nonfinite(out)
        sys.stdout.write(dumps_json(out) + "\n")
    else:
        sys.stdout.write(render_text(result, scenario.targets.confidence))
    return 0


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  " + "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]  # fmt: skip


def _whole_plan(r, confidence: float) -> list[str]:
    """Every target of the plan over the trials: recovery, RPO, each backup window."""
    from ..uncertainty.words import CHECK_HEADER, check_rows, whole_plan_sentence

    rows = [list(CHECK_HEADER)] + [list(row) for row in check_rows(r)]
    return [
        "",
        whole_plan_sentence(r, confidence),
        *_table(rows, right=set(range(1, 6))),
    ]


def render_text(result, confidence: float = 0.9) -> str:
    """The readable answer: probabilities, percentiles, every target of the plan, the
    inputs that decide it; `confidence` is the scenario's `targets.confidence`."""
    from ..uncertainty.inputs import describe_value
    from ..uncertainty.result import MODE_WORDS, MODES, together_words
    from ..uncertainty.words import headline, origin_words, percent, pinned_note

    r = result
    lines = [
        f"How sure is the plan: {r.scenario}",
        f"{r.trials:,} trials, seed {r.seed} (--seed {r.seed} repeats this run)",
        "",
        headline(r),
        "",
        f"RTO {format_duration(r.rto_s)}, at risk within {format_duration(r.risk_margin_s)} "
        f"of it; the plan with every figure at its most likely value: "
        f"{format_duration(r.deterministic_s)}",
    ]
    rows = [["Failure", "meets", "at risk", "misses", "P50", "P90", "P95", "P99"]]
    for mode in MODES:
        d = r.distribution(mode)
        rows.append(
            [MODE_WORDS[mode], percent(d.p_meets), percent(d.p_at_risk), percent(d.p_misses)]
            + [format_duration(d.percentile(p)) for p in (50, 90, 95, 99)]
        )
    lines += _table(rows, right=set(range(1, 8)))
    lines += _whole_plan(r, confidence)
    bars = [b for b in r.tornado if b.swing_s > 0]
    lines += ["", "What decides it (worst instant; each figure at its low and high end, the "
              "others at their most likely value):"]  # fmt: skip
    if not bars:
        lines.append("  nothing: no figure with a range changes the recovery time")
    else:
        by_key = {row.key: row for row in r.inputs}
        rows = [["Figure", "Range", "Low end", "High end", "Recovery", "Swing", "Variance",
                 "Range from"]]  # fmt: skip
        for b in bars[:10]:
            row = by_key[b.key]
            rows.append([
                b.label, spaced_percents(row.range_text), describe_value(row.kind, row.low),
                describe_value(row.kind, row.high),
                f"{format_duration(b.low_total_s)} .. {format_duration(b.high_total_s)}",
                format_duration(b.swing_s), format_percent(b.variance_share, 0),
                origin_words(row),
            ])  # fmt: skip
        lines += _table(rows, right={3, 5, 6})
        if len(bars) > 10:
            lines.append(f"  … and {len(bars) - 10} more with a smaller swing (--json lists all)")
        lines.append(
            f"  Variance: the share of the trials' spread each figure explains alone"
            f"{together_words(r)}."
        )
    no_effect = [b.label for b in r.tornado if b.swing_s == 0]
    if no_effect:
        lines.append("  No effect on this recovery: " + ", ".join(no_effect))
    note = pinned_note(r)
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"
