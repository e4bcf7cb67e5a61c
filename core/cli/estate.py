"""`rto-planner estate ESTATE.toml [--only NAME…] [--json]`: many databases after a site
loss on shared tape drives, media servers and links (DESIGN §9)."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CoreError
from ..estate.least_limits import MAX_SIMULATIONS, MIN_SIMULATIONS, WORK_BUDGET
from ..estate.model import Estate, load_estate, read_text_file
from ..estate.run import EstateResult, estate_to_json, run_estate
from ..estate.simulate import PEAK
from ..gc_pause import without_cyclic_gc
from ..jsonable import dumps_json
from ..outfile import check_not_an_input, check_output_path, write_output_text
from ..scenario import Scenario
from ..units import format_duration
from ..wording import VERDICT_WORDS
from .plan import catalog_for
from .progress import terminal_progress

if TYPE_CHECKING:  # the least hardware's modules are imported when it runs (not --no-least)
    from ..estate.least import LeastHardware
    from ..estate.policy_search import PolicyAnswer


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
        "--fix",
        action="store_true",
        help="write the least hardware's answer into a copy of the estate file (with -o)",
    )
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="NEW.toml",
        help="with --fix: the estate file to write, beside ESTATE.toml (its comments kept)",
    )
    p.add_argument(
        "--max-simulations",
        type=int,
        default=None,
        metavar="N",
        help=f"estate simulations the least-hardware search may run (default "
        f"{MAX_SIMULATIONS:,}, fewer on large estates: {WORK_BUDGET:,} database recoveries "
        f"in all, at least {MIN_SIMULATIONS})",
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
    check_not_an_input(args.output, estate_inputs(path, estate))
    out = write_estate_report(estate, args.output, catalog=catalog, prices=prices)
    if not args.quiet:
        print(f"wrote {out}")
    return 0


def _check_fix_args(args: argparse.Namespace) -> None:
    if not args.fix:
        if args.output is not None:
            raise CoreError(
                "-o is for --fix", hint="rto-planner estate ESTATE.toml --fix -o NEW.toml"
            )
        return
    source = Path(args.estate)
    if args.output is None:
        raise CoreError("--fix needs -o NEW.toml", hint="the file to write the answer into")
    if args.no_least or args.only:
        raise CoreError("--fix writes the whole estate's answer: drop --no-least and --only")
    if not source.is_file():
        raise CoreError(
            f"{args.estate}: --fix needs an estate file",
            hint="export a stored estate first: rto-planner estates export NAME",
        )
    check_output_path(args.output)  # before the search, not after it
    if args.output.resolve().parent != source.resolve().parent:
        raise CoreError(f"{args.output}: write it beside {source.name}",
                        hint="its scenario files are named relative to that folder")  # fmt: skip


def _write_fix(args: argparse.Namespace, estate: Estate, least: LeastHardware, catalog) -> str:
    from ..estate.least_apply import fixed_estate_text

    runbook_only = not least.purchase_needed and not least.already_met
    if not runbook_only and (least.answer is None or not least.answer.changes):
        why = "priority 1 already meets" if least.already_met else "no answer was found"
        raise CoreError(f"{args.output}: not written: {why}")
    original = read_text_file(Path(args.estate))
    text = fixed_estate_text(estate, least, original, catalog)
    write_output_text(args.output, text, inputs=estate_inputs(args.estate, estate))
    return str(args.output)


def estate_inputs(path: str, estate: Estate) -> dict[str, str]:
    """The files an estate command reads: the estate file and its scenario files (an
    output must be none of them)."""
    inputs = {path: "the estate"}
    for d in estate.databases:
        if not d.source.startswith("store: "):
            inputs[d.source] = f"the scenario of {d.name!r}"
    return inputs


def _cap(args: argparse.Namespace) -> int | None:
    """--max-simulations, else None (the default for the estate's size)."""
    return None if args.max_simulations is None else max(1, args.max_simulations)


@without_cyclic_gc
def run(args: argparse.Namespace) -> int:
    _check_fix_args(args)
    with ExitStack() as stack:
        estate = load_estate_for(args, stack, args.estate)
    # Only the JSON prints the resources' peak use: it alone is kept (PEAK), not a usage
    # sample per event (the Gantt's), and the text output keeps neither.
    result = run_estate(estate, trace=PEAK if args.json else False)
    least = None
    written = None
    if not args.no_least:
        from ..estate.least import least_hardware
        from .fix import catalog_and_prices

        catalog, prices = catalog_and_prices(args)
        progress = terminal_progress("least hardware for priority 1")
        with progress or nullcontext():
            least = least_hardware(estate, result, catalog=catalog, prices=prices,
                                   progress=progress,
                                   max_simulations=_cap(args))  # fmt: skip
        if args.fix:
            written = _write_fix(args, estate, least, catalog)
    if args.json:
        out = estate_to_json(result)
        if least is not None:
            from ..estate.least import least_to_json
            from ..estate.policy_words import policy_to_json

            out["least_hardware"] = least_to_json(least)
            if least.policy is not None:
                out["runbook"] = policy_to_json(estate, least.policy)
        if args.fix:
            out["written"] = written
        print(dumps_json(out))
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_text(result, least))
        if written:
            what = "the least hardware for priority 1 bought" if least and least.answer \
                else "the runbook order for priority 1"  # fmt: skip
            print(f"\nWrote {written} ({what}).")
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
    lines += [f"Caution: {c}" for c in result.estate.cautions]
    if least is not None and least.policy is not None:
        lines += ["", *policy_lines(est, least.policy)]
    if least is not None:
        lines += ["", *least_lines(least, est)]
    return "\n".join(lines) + "\n"


def policy_lines(estate: Estate, answer: PolicyAnswer) -> list[str]:
    """Policy before purchase: the runbook order, and how it was found."""
    from ..estate.policy_words import TITLE, method_line, policy_summary

    summary = policy_summary(estate, answer)
    return [TITLE, f"  {summary[0]}", *[f"    {s}" for s in summary[1:]],
            f"  {method_line(answer)}"]  # fmt: skip


def least_lines(least: LeastHardware, estate: Estate) -> list[str]:
    """The least hardware for priority 1: the answer's changes and total, the runbook to
    follow with it, the frontier."""
    from ..estate.least_words import (
        alone_rows,
        answer_rows,
        frontier_rows,
        least_summary,
        purchase_runbook,
    )

    out = ["Least hardware for every priority-1 database to meet its RTO"]
    summary = list(least_summary(least))
    method = summary.pop() if least.purchase_needed and not least.misses_alone else None
    out += [f"  {s}" for s in summary]
    if least.answer is not None:
        out += ["", *[f"  {line}" for line in _table(
            [["Change", "Cost"], *[list(r) for r in answer_rows(least)]], right={1})]]  # fmt: skip
        steps = purchase_runbook(estate, least)
        out += ["", *[f"  {steps[0]}"], *[f"    {s}" for s in steps[1:]]] if steps else []
    if least.alone_fixes:
        rows = [["Database", "Its own cheapest fix", "Cost"], *map(list, alone_rows(least))]
        out += ["", *[f"  {line}" for line in _table(rows, right=set())]]
        out += [
            f"  (the whole answer for its scenario as written: {f.command})"
            for f in least.alone_fixes
            if f.searched
        ]
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
