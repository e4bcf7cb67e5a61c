"""`rto-planner clock SCENARIO EVIDENCE... [--failed-at T] [--json] [-o STATUS.pdf]`.

During a real recovery: when will the database open? From V$SESSION_LONGOPS and
V$RECOVERY_PROGRESS snapshots so far (and RESTORE PREVIEW for the volumes), the P50 and
P90 of the open, the chance to open before the RTO runs out, the phases done, running and
to come, and the forecast after each snapshot (docs/evidence.md). `-o` writes the
one-page status PDF. SCENARIO is a scenario file or a stored scenario's name.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import CoreError
from ..jsonable import dumps_json
from ..result import PHASE_TITLES
from ..units import format_duration, format_percent

HELP = "during a recovery: when will the database open (P50, P90), from Oracle's views"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("clock", parents=[common], help=HELP, description=HELP + ".")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario file or a stored name")
    p.add_argument(
        "evidence",
        metavar="EVIDENCE",
        nargs="+",
        help="V$SESSION_LONGOPS / V$RECOVERY_PROGRESS snapshots, RESTORE PREVIEW",
    )
    p.add_argument(
        "--failed-at",
        metavar="'YYYY-MM-DD HH:MM'",
        type=_when,
        help="when the failure happened (the RTO counts from it)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("-o", "--output", metavar="STATUS.pdf", help="write the one-page status PDF")
    p.set_defaults(func=run)


def _when(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date and time such as '2026-10-11 21:40'"
        ) from None


def load_any_scenario(args: argparse.Namespace, arg: str) -> Any:
    """A scenario file, else a stored scenario by name (or unique prefix)."""
    from ..scenario import load_scenario
    from .plan import catalog_for

    if Path(arg).is_file():
        return load_scenario(arg, catalog=catalog_for(args))
    from ..store import open_store_from_args
    from .scenarios import _resolve

    with open_store_from_args(args) as store:
        return store.load_scenario(_resolve(store, arg, include_deleted=False))


def run(args: argparse.Namespace) -> int:
    from ..evidence.clock import recovery_clock
    from ..evidence.record import read_evidence_paths

    evidence = read_evidence_paths(args.evidence)
    scenario = load_any_scenario(args, args.scenario)
    clock = recovery_clock(scenario, list(evidence.files), failed_at=args.failed_at)
    if args.output:
        from ..evidence.status_pdf import render_status_pdf
        from ..outfile import write_output_bytes

        path = write_output_bytes(args.output, render_status_pdf(clock))
        if not args.json:
            print(f"wrote {path}")
    if args.json:
        print(dumps_json(clock.to_dict()))
    else:
        sys.stdout.write(render_clock(clock))
    return 0


def render_clock(clock: Any) -> str:
    n = clock.now
    chance = (
        "" if n.p_by_deadline is None else f" ({format_percent(n.p_by_deadline, 0)} likely by then)"
    )
    lines = [
        f"Recovery clock: {clock.scenario}, as of {n.at:%Y-%m-%d %H:%M:%S}",
        clock.headline()[0].upper() + clock.headline()[1:],
        f"RTO runs out at {clock.deadline:%Y-%m-%d %H:%M} "
        f"(failure {clock.failed_at:%H:%M}){chance}",
        "",
        "  Phase                  Status    Start             End",
    ]
    lines += [_phase_line(p) for p in clock.phases if p.start is not None or p.end is not None]
    lines += [
        "",
        "Forecast after each snapshot",
        "  Snapshot          Phase                  Done   Open P50  P90",
    ]
    lines += [_forecast_line(f) for f in clock.history]
    if n.remaining_phase_s:
        lines.append(f"  the running phase has about {format_duration(n.remaining_phase_s)} to go")
    if clock.notes:
        lines += ["", "Notes", *(f"  {x}" for x in clock.notes)]
    return "\n".join(lines) + "\n"


def _phase_line(p: Any) -> str:
    """A phase: status, start and end (≈ for a forecast end)."""
    end = "" if p.end is None else ("≈ " if p.status != "done" else "") + f"{p.end:%m-%d %H:%M}"
    start = "" if p.start is None else f"{p.start:%m-%d %H:%M}"
    return f"  {PHASE_TITLES[p.name]:22} {p.status:9} {start:17} {end}"


def _forecast_line(f: Any) -> str:
    """The forecast made at one snapshot: its phase, how far along, the open's P50 and P90."""
    done = "" if f.fraction is None else f"{f.fraction * 100:3.0f} %"
    return (
        f"  {f.at:%m-%d %H:%M:%S}    {PHASE_TITLES[f.phase]:22} {done:>5}   "
        f"{f.open_p50:%H:%M}     {f.open_p90:%H:%M}"
    )


__all__ = ["CoreError", "register", "render_clock", "run"]
