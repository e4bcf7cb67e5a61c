"""`rto-planner estate ESTATE.toml [--only NAME…] [--json]`: many databases after a site
loss on shared tape drives, media servers and links (DESIGN §9)."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from ..estate import (
    Estate,
    EstateResult,
    LeastHardware,
    least_hardware,
    least_to_json,
    load_estate,
    run_estate,
)
from ..estate.least_words import alone_rows, answer_rows, frontier_rows, least_summary
from ..estate.run import estate_to_json
from ..jsonable import dumps_json
from ..scenario import Scenario
from ..units import format_duration
from ..wording import VERDICT_WORDS
from .plan import catalog_for


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "estate",
        parents=[common],
        help="when is each database open after a site loss, on shared hardware",
        description="Recover every database of an estate file at once after a site loss: "
        "each database's open time against its RTO, what it waited for, the shared "
        "resource that decides, and the least hardware for the priority-1 databases.",
    )
    p.add_argument(
        "estate",
        metavar="ESTATE.toml",
        help="the estate file (databases as scenario files or stored names, priorities, "
        "shared resources), or the name of an estate kept in the store",
    )
    p.add_argument(
        "--only",
        metavar="NAME",
        nargs="+",
        help="recover only these databases (the others do not compete)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument(
        "--no-least",
        action="store_true",
        help="skip the least-hardware search (faster on very large estates)",
    )
    p.add_argument(
        "--no-store",
        action="store_true",
        help="use only the shipped catalog and scenario files, not the store",
    )
    p.set_defaults(func=run)


class StoreScenarios:
    """Looks up stored scenarios by name, opening the store only when an estate names
    one (an estate of files needs no store)."""

    def __init__(self, args: argparse.Namespace, stack: ExitStack) -> None:
        self.args = args
        self.stack = stack
        self.store: Any = None

    def __call__(self, name: str) -> Scenario:
        if self.store is None:
            from ..store import open_store_from_args

            self.store = self.stack.enter_context(open_store_from_args(self.args, read_only=True))
        return self.store.load_scenario(name)


def load_estate_for(args: argparse.Namespace, stack: ExitStack, path: str) -> Estate:
    """An estate file, else (when no such file exists) an estate kept in the store."""
    stored = not Path(path).exists() and not path.lower().endswith(".toml")
    if stored and not args.no_store:
        from ..store import open_store_from_args
        from ..store.estates import load_stored_estate

        store = stack.enter_context(open_store_from_args(args, read_only=True))
        estate = load_stored_estate(store, path)
    else:
        resolve = None if args.no_store else StoreScenarios(args, stack)
        estate = load_estate(path, catalog=catalog_for(args), resolve=resolve)
    only = getattr(args, "only", None)
    return estate.only(only) if only else estate


def report_estate(args: argparse.Namespace, path: str) -> int:
    """`rto-planner report ESTATE.toml -o PLAN.pdf`: the estate PDF."""
    from ..report.estate import write_estate_report
    from .fix import catalog_and_prices

    with ExitStack() as stack:
        estate = load_estate_for(args, stack, path)
    catalog, prices = catalog_and_prices(args)
    out = write_estate_report(estate, args.output, catalog=catalog, prices=prices)
    if not args.quiet:
        print(f"wrote {out}")
    return 0


def run(args: argparse.Namespace) -> int:
    with ExitStack() as stack:
        estate = load_estate_for(args, stack, args.estate)
    # Only the JSON prints the resources' peak use, which the usage trace is kept for
    # (a tenth of the simulation's time on 10,000 databases).
    result = run_estate(estate, trace=args.json)
    least = None
    if not args.no_least:
        from .fix import catalog_and_prices

        catalog, prices = catalog_and_prices(args)
        least = least_hardware(estate, result, catalog=catalog, prices=prices)
    if args.json:
        out = estate_to_json(result)
        if least is not None:
            out["least_hardware"] = least_to_json(least)
        print(dumps_json(out))
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_text(result, least))
    return 0


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def render_text(result: EstateResult, least: LeastHardware | None) -> str:
    est = result.estate
    lines = [f"Estate: {est.name}", "Site loss at 0:00, every listed database recovered.", ""]
    rows = [["Database", "Tier", "Opens", "RTO", "Margin", "Verdict", "Alone", "Waited for"]]
    for d in sorted(result.databases, key=lambda d: (d.priority, d.open_s)):
        waited = d.waited_for if d.waited_s <= 0 else (
            f"{d.waited_for} ({format_duration(d.waited_s)})")  # fmt: skip
        rows.append([
            d.name, str(d.priority), format_duration(d.open_s), format_duration(d.rto_s),
            ("-" if d.margin_s < 0 else "") + format_duration(abs(d.margin_s)),
            VERDICT_WORDS[d.verdict], format_duration(d.alone_s), waited,
        ])  # fmt: skip
    lines += _table(rows, right={1, 2, 3, 4, 6})
    counts = result.counts
    lines += [
        "",
        f"{counts['meets']} meet, {counts['at_risk']} at risk, {counts['misses']} miss; "
        f"the last database opens at {format_duration(result.last_open_s)}.",
    ]
    if result.deciding:
        res = next(r for r in result.resources if r.name == result.deciding)
        lines.append(
            f"Deciding shared resource: {res.name} ({res.count} × {res.kind.replace('_', ' ')}"
            f"), {format_duration(res.waited_s)} lost to it across the estate."
        )
    else:
        lines.append("Sharing costs no database any time: each opens as it would alone.")
    if least is not None:
        lines += ["", *least_lines(least)]
    return "\n".join(lines) + "\n"


def least_lines(least: LeastHardware) -> list[str]:
    """The least hardware for priority 1: the answer's changes and total, the frontier."""
    out = ["Least hardware for every priority-1 database to meet its RTO"]
    summary = list(least_summary(least))
    method = summary.pop() if not least.already_met and not least.misses_alone else None
    out += [f"  {s}" for s in summary]
    if least.answer is not None:
        out += ["", *[f"  {line}" for line in _table(
            [["Change", "Cost"], *[list(r) for r in answer_rows(least)]], right={1})]]  # fmt: skip
    if least.alone_fixes:
        rows = [["Database", "Its own cheapest fix", "Cost"], *map(list, alone_rows(least))]
        out += ["", *[f"  {line}" for line in _table(rows, right=set())]]
        out += [f"  (details: {f.command})" for f in least.alone_fixes]
    if len(least.frontier) > 1:
        rows = [["#", "Cost", "Worst tier-1 margin", "Tier 1", "Changes"]]
        rows += [[str(n), *r] for n, r in enumerate(frontier_rows(least), start=1)]
        out += ["", "  Cost against the worst priority-1 margin (* the answer):"]
        out += [f"  {line}" for line in _table(rows, right={0, 2})]
    if least.counts:
        each = ", ".join(
            f"{c.resource} {c.needed} (now {c.current})" if c.needed is not None
            else f"{c.resource}: more units alone do not get there"
            for c in least.counts
        )  # fmt: skip
        out += ["", f"  Each shared resource on its own: {each}."]
    if method:
        out += [f"  {method}"]
    return out


__all__ = ["register", "render_text", "run"]
