"""`rto-planner report SCENARIO.toml -o PLAN.pdf`: the PDF plan (DESIGN §5)."""

from __future__ import annotations

import argparse
import sys

from ..errors import CoreError
from ..estate.model import is_estate_file
from ..report import write_report
from ..scenario import Scenario, load_scenario
from .fix import catalog_and_prices
from .plan import _date


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "report",
        parents=[common],
        help="write the PDF plan of a scenario",
        description="Write the PDF plan a customer reads: verdict, executive summary, "
        "recovery timeline, path and bottleneck, backups, cycle, RPO, growth, assumptions "
        "and formulas. With SOURCE_DATE_EPOCH set the PDF is byte-for-byte reproducible.",
    )
    p.add_argument(
        "scenario",
        metavar="SCENARIO.toml",
        help="the scenario file to report on (an estate file gives the estate PDF)",
    )
    p.add_argument(
        "-o", "--output", metavar="PLAN.pdf", required=True, help="the PDF file to write"
    )
    p.add_argument(
        "--as-of",
        metavar="YYYY-MM-DD",
        type=_date,
        help="the plan's date, from which growth is projected "
        "(default: SOURCE_DATE_EPOCH's date, else today)",
    )
    p.add_argument("--binary", action="store_true", help="print sizes in TiB/GiB, not TB/GB")
    p.add_argument(
        "--no-store",
        action="store_true",
        help="use only the shipped catalog, not the store's (user items)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="do not print the file written")
    p.set_defaults(func=run)


def _workload_evidence(args: argparse.Namespace, scenario: Scenario):
    """The imported workload behind the scenario's figures (its provenance names the
    database), or None when nothing was imported or the store is not available."""
    if args.no_store or not any(k.startswith("workload.") for k in scenario.provenance):
        return None
    from ..importers.evidence import evidence_for_scenario
    from ..store import open_store_from_args

    try:
        with open_store_from_args(args, read_only=True) as store:
            return evidence_for_scenario(store, scenario)
    except CoreError as exc:
        print(f"rto-planner: warning: no workload evidence in the report ({exc})",
              file=sys.stderr)  # fmt: skip
        return None


def _drills(args: argparse.Namespace, scenario: Scenario) -> tuple:
    """The store's drills of the scenario (by name) for the Evidence section, or none."""
    if args.no_store:
        return ()
    from ..store import db_path_from_args, open_store_from_args
    from ..store.drills import drills

    if not db_path_from_args(args).is_file():
        return ()
    try:
        with open_store_from_args(args, read_only=True) as store:
            return tuple(drills(store, scenario.name))
    except CoreError as exc:
        print(f"rto-planner: warning: no drills in the report ({exc})", file=sys.stderr)
        return ()


def run(args: argparse.Namespace) -> int:
    if is_estate_file(args.scenario):
        from .estate import report_estate

        return report_estate(args, args.scenario)
    catalog, prices = catalog_and_prices(args)
    scenario = load_scenario(args.scenario, catalog=catalog)
    out = write_report(
        scenario,
        args.output,
        as_of=args.as_of,
        catalog=catalog,
        prices=prices,
        workload=_workload_evidence(args, scenario),
        binary=args.binary,
        drills=_drills(args, scenario),
    )
    if not args.quiet:
        print(f"wrote {out}")
    return 0
