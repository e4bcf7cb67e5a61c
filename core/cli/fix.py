"""`rto-planner fix SCENARIO.toml [--budget AMOUNT] [--json] [-o NEW.toml]` (DESIGN §8).

Prints the frontier of cost against worst-case recovery time, each point with its
changes, and marks the cheapest point that meets every target; `-o` writes the chosen
point (the recommended one, or the fastest within `--budget`) as a new scenario with a
comment on every line the changes touch.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..catalog import Catalog, parse_price
from ..engine.verdict import decided_by_words
from ..errors import CoreError
from ..fix import FixPoint, FixResult, common_changes, what_it_takes
from ..fix.export import annotated_scenario_text
from ..fix.prices import PriceBook, format_money, price_book
from ..jsonable import json_ready
from ..outfile import check_output_path, write_output_text
from ..scenario import load_scenario
from ..scenario.load import read_scenario_text
from ..units import format_duration
from ..wording import VERDICT_WORDS
from .catalog import format_table, print_json

HELP = "what it takes: the cheapest changes that make the plan meet, and their cost"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "fix",
        parents=[common],
        help=HELP,
        description="The cheapest set of changes (hardware from the catalog, RMAN and "
        "backup configuration, RPO measures) that makes the plan meet its RTO, RPO and "
        "backup windows, and the frontier of cost against worst-case recovery time. "
        "Prices come from the catalog and from yours (`rto-planner catalog price`); "
        "what has no price is shown as unpriced, never guessed.",
    )
    p.add_argument("scenario", metavar="SCENARIO.toml", help="the scenario file to fix")
    p.add_argument(
        "--budget",
        metavar="AMOUNT",
        help="choose the fastest point whose known cost fits this amount",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument(
        "-o",
        "--output",
        metavar="NEW.toml",
        type=Path,
        help="write the chosen point as a new scenario (a comment on every change)",
    )
    p.add_argument(
        "--no-store",
        action="store_true",
        help="use only the shipped catalog and its prices, not the store's",
    )
    p.set_defaults(func=run)


def catalog_and_prices(args: argparse.Namespace) -> tuple[Catalog | None, PriceBook]:
    """The store's catalog and prices (yours win), read with a shared lock; the shipped
    ones with `--no-store`. A store that exists but cannot be read (held by a writer) is
    refused in one line, never answered from the shipped prices (plan.reading_store)."""
    if getattr(args, "no_store", False):
        return None, price_book()
    from ..store import read_store_from_args
    from .plan import reading_store

    def read(a: argparse.Namespace) -> tuple[Catalog | None, PriceBook]:
        return read_store_from_args(a, lambda store: (store.catalog(), price_book(store)))

    return reading_store(args, read, (None, price_book()))


def run(args: argparse.Namespace) -> int:
    budget = parse_price(args.budget, what="--budget") if args.budget is not None else None
    if args.output is not None:
        check_output_path(args.output)  # before the search, not after it
    catalog, prices = catalog_and_prices(args)
    scenario = load_scenario(args.scenario, catalog=catalog)
    result = what_it_takes(scenario, catalog=catalog, prices=prices, budget=budget)
    written = _write(args.output, args.scenario, scenario, result, catalog) if args.output else None
    if args.json:
        out = fix_to_json(result)
        out["written"] = str(written) if written else None
        print_json(out)
    else:
        sys.stdout.write(render_text(result))
        if written:
            print(f"\nWrote {written} ({_point_name(result, result.chosen)}).")
    return 0


def _write(
    path: Path, source: str, scenario: Any, result: FixResult, catalog: Catalog | None
) -> Path | None:
    if result.chosen is None:
        within = ""
        if result.budget is not None:
            within = f" the budget of {format_money(result.budget, result.currency)}"
        raise CoreError(f"{path}: not written: no point fits{within}")
    original = read_scenario_text(source)
    text = annotated_scenario_text(scenario, result.chosen, result.currency, catalog, original)
    write_output_text(path, text, inputs={source: "the scenario"})
    return path


def _point_name(result: FixResult, point: FixPoint | None) -> str:
    if point is None:
        return "none"
    return f"point {result.frontier.index(point) + 1}"


def render_text(result: FixResult) -> str:
    t = result.today
    lines = [
        f"What it takes — {result.scenario}",
        f"Today: worst-case recovery {format_duration(t.recovery_s)}, "
        f"{VERDICT_WORDS[t.verdict]} (decided by {decided_by_words(t.decided_by)})",
        "",
    ]
    for note in result.notes:
        lines.append(f"! {note}")
    if result.notes:
        lines.append("")
    if not result.frontier:
        lines.append("No change considered makes a difference to this plan.")
        return "\n".join(lines) + "\n"
    rows = []
    for n, p in enumerate(result.frontier, start=1):
        mark = "*" if p.recommended else ("→" if p is result.chosen else "")
        rows.append(
            [
                f"{n}{mark}",
                format_duration(p.recovery_s),
                VERDICT_WORDS[p.verdict],
                p.cost.text(result.currency),
            ]
        )
    lines.append(format_table(["#", "RECOVERY", "VERDICT", "COST"], rows))
    lines.append("")
    common = common_changes(result.frontier)
    if common:
        lines.append("Every point includes: " + "; ".join(common))
    for n, p in enumerate(result.frontier, start=1):
        own = [c.words for c in p.changes if c.words not in common]
        lines.append(f"{n}. " + ("; ".join(own) if own else "(only the common changes)"))
    lines.append("")
    lines += _recommendation(result)
    return "\n".join(lines) + "\n"


def _recommendation(result: FixResult) -> list[str]:
    out = []
    rec = result.recommended
    if result.today.verdict == "meets":
        out.append("The plan already meets every target: the points above buy a faster one.")
    elif rec is None:
        out.append("No combination considered makes every target meet.")
    else:
        out.append(
            f"* Cheapest that meets every target: {_point_name(result, rec)}, "
            f"{rec.cost.text(result.currency)}:"
        )
        for c in rec.changes:
            out.append(f"  - {c.words}")
            if c.alternatives:
                out.append(f"    (the same result: {'; '.join(c.alternatives)})")
    if result.budget is not None:
        budget = format_money(result.budget, result.currency)
        if result.chosen is None:
            out.append(f"→ Nothing priced fits the budget of {budget}.")
        else:
            out.append(
                f"→ Fastest within {budget}: {_point_name(result, result.chosen)} "
                f"({format_duration(result.chosen.recovery_s)}, "
                f"{VERDICT_WORDS[result.chosen.verdict]})."
            )
    return out


def _odds_json(result: FixResult) -> dict[str, Any] | None:
    """The recommended point's probability of meeting every target (None: not worked out)."""
    h = result.odds
    if h is None:
        return None
    return {"p_meets": h.p_meets, "confidence": h.confidence, "trials": h.trials,
            "seed": h.seed, "planned_verdict": h.planned, "verdict": h.verdict}  # fmt: skip


def fix_to_json(result: FixResult) -> dict[str, Any]:
    def point(p: FixPoint | None) -> dict[str, Any] | None:
        if p is None:
            return None
        return {
            "cost": p.cost.amount,
            "cost_text": p.cost.text(result.currency),
            "unpriced": [{"what": w, "units": n} for w, n in p.cost.unpriced],
            "recovery_s": p.recovery_s,
            "verdict": p.verdict,
            "decided_by": p.outcome.decided_by,
            "rpo_s": p.outcome.rpo_s,
            "windows_ok": p.outcome.windows_ok,
            "recommended": p.recommended,
            "changes": [
                {
                    "words": c.words,
                    "category": c.category,
                    "cost": c.cost.amount,
                    "unpriced": [w for w, _ in c.cost.unpriced],
                    "edits": json_ready(dict(c.edits)),
                    "same_result": list(c.alternatives),
                }
                for c in p.changes
            ],
        }

    return {
        "scenario": result.scenario,
        "currency": result.currency,
        "units": {"time": "s", "cost": result.currency},
        "today": json_ready(result.today),
        "frontier": [point(p) for p in result.frontier],
        "recommended": (result.frontier.index(result.recommended) if result.recommended else None),
        "chosen": result.frontier.index(result.chosen) if result.chosen else None,
        "budget": result.budget,
        "notes": list(result.notes),
        "recommended_odds": _odds_json(result),
        "evaluated": result.evaluated,
    }
