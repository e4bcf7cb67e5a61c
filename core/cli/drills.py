"""`rto-planner drills add|list|show|delete`: restore tests as drills, plan vs actual.

* `add SCENARIO EVIDENCE... [--phase NAME=DURATION]... [--label TEXT] [--json]` — read
  the evidence (RMAN log, V$RMAN_STATUS, V$RECOVERY_PROGRESS, RESTORE PREVIEW: see
  docs/evidence.md), measure the drill, print plan vs actual per phase and store it
  against the scenario's version. SCENARIO is a stored scenario's name (or a unique
  prefix) or a scenario file, which is saved into the store when it differs from the
  latest version of its name. `--phase open=4min` adds a phase no file can time.
* `list [SCENARIO] [--json]`, `show N [--json]`, `delete N`.

Errors (a file that is not evidence, nothing timed in it, an unknown scenario) are one
line on stderr with exit status 2, and nothing is stored.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import CoreError
from ..jsonable import dumps_json
from ..result import PHASE_NAMES
from ..units import format_duration, format_percent, parse_duration
from .plan import _table
from .scenarios import _resolve

HELP = "restore tests as drills: plan vs actual per phase, and their history"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("drills", parents=[common], help=HELP, description=HELP + ".")
    s = p.add_subparsers(dest="drills_command", metavar="ACTION", required=True)
    a = s.add_parser("add", parents=[common], help="record a drill from its evidence files")
    a.add_argument("scenario", metavar="SCENARIO", help="a stored scenario's name, or a file")
    a.add_argument("evidence", metavar="EVIDENCE", nargs="+", help="RMAN log, V$ view exports")
    a.add_argument(
        "--phase",
        action="append",
        default=[],
        metavar="NAME=DURATION",
        help="a phase the files cannot time, e.g. open=4min or detect=20min",
    )
    a.add_argument("--label", default="", help="a short note kept with the drill")
    a.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    a.set_defaults(func=run_add)
    ls = s.add_parser("list", parents=[common], help="the drills (of one scenario)")
    ls.add_argument("scenario", nargs="?", metavar="SCENARIO", help="a stored scenario's name")
    ls.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    ls.set_defaults(func=run_list)
    sh = s.add_parser("show", parents=[common], help="one drill: plan vs actual per phase")
    sh.add_argument("number", type=int, metavar="N", help="the drill's number (drills list)")
    sh.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    sh.set_defaults(func=run_show)
    c = s.add_parser(
        "calibrate",
        parents=[common],
        help="update the scenario's figures from a drill (Bayesian), as a diff",
    )
    c.add_argument("number", type=int, metavar="N", help="the drill's number (drills list)")
    c.add_argument(
        "--apply",
        action="store_true",
        help="save the calibrated scenario as a new version of the stored scenario",
    )
    c.add_argument("-o", "--output", metavar="NEW.toml", help="write the calibrated scenario here")
    c.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    c.set_defaults(func=run_calibrate)
    d = s.add_parser("delete", parents=[common], help="remove a drill from the history")
    d.add_argument("number", type=int, metavar="N", help="the drill's number (drills list)")
    d.set_defaults(func=run_delete)


def typed_phases(items: list[str]) -> dict[str, float]:
    """`["open=4min"]` → {"open": 240.0}; unknown names and bad durations are refused."""
    return dict(_typed_phase(item) for item in items)


def _typed_phase(item: str) -> tuple[str, float]:
    """`open=4min` → ("open", 240.0)."""
    name, sep, value = item.partition("=")
    name = name.strip()
    if not sep or name not in PHASE_NAMES:
        raise CoreError(
            f"--phase {item!r}: give NAME=DURATION with NAME one of {', '.join(PHASE_NAMES)}"
        )
    return name, parse_duration(value)


def stored_version(store: Any, arg: str) -> tuple[str, int, str | None]:
    """(name, version, a note when a file was saved) of SCENARIO (a name or a file)."""
    from ..evidence.record import version_for_text

    path = Path(arg)
    if not path.is_file():
        name = _resolve(store, arg, include_deleted=False)
        return name, store.scenario_version(name).version, None
    from ..scenario import load_scenario

    load_scenario(path)  # one-line errors for a file that is not a scenario
    text = path.read_bytes().decode("utf-8-sig")
    name, version, saved = version_for_text(
        store, text, arg, f"saved to record a drill ({path.name})"
    )
    return name, version, f"saved {path.name} as '{name}' version {version}" if saved else None


def run_add(args: argparse.Namespace) -> int:
    from ..evidence.record import read_evidence_paths, record_drill
    from ..store import open_store_from_args

    typed = typed_phases(args.phase)
    evidence = read_evidence_paths(args.evidence)
    with open_store_from_args(args) as store:
        name, version, saved = stored_version(store, args.scenario)
        rec = record_drill(store, name, version, evidence, typed=typed, label=args.label)
    if saved and not args.json:
        print(saved)
    _print(rec.stored, rec.comparison.to_dict(), args.json)
    return 0


def _print(stored: Any, comparison: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(dumps_json(drill_json(stored, comparison)))
    else:
        sys.stdout.write(render_drill(stored, comparison))


_PHASE_KEYS = (
    "name",
    "plan_s",
    "actual_s",
    "error",
    "how",
    "plan_bytes",
    "actual_bytes",
    "plan_rate_Bps",
    "actual_rate_Bps",
)
"""What `drills --json` says of each phase compared."""


def drill_json(stored: Any, comparison: dict[str, Any]) -> dict[str, Any]:
    d = stored.drill
    return {
        "drill": stored.number,
        "scenario": stored.scenario,
        "version": stored.scenario_version,
        "drilled_at": stored.drilled_at.isoformat() if stored.drilled_at else None,
        "recorded_at": stored.recorded_at.isoformat(),
        "label": stored.label,
        "database": d.get("database"),
        "dbid": d.get("dbid"),
        "channels": d.get("channels"),
        "phases": [{k: r[k] for k in _PHASE_KEYS} for r in comparison["rows"]],
        "plan_s": comparison["plan_s"],
        "actual_s": comparison["actual_s"],
        "error": comparison["error"],
        "plan_total_s": comparison["plan_total_s"],
        "measured": d["phases"],
        "evidence": stored.evidence,
        "notes": _notes(d, comparison),
        "failed": d.get("failed"),
    }


def _notes(d: dict[str, Any], comparison: dict[str, Any]) -> list[str]:
    """The drill's notes, then the comparison's."""
    return list(d.get("notes", [])) + list(comparison.get("notes", []))


def percent(error: float | None) -> str:
    return "—" if error is None else format_percent(error, 1, signed=True)


_HOW = {"wall": "wall clock", "channels": "channels' elapsed", "typed": "typed", None: ""}


def render_drill(stored: Any, comparison: dict[str, Any]) -> str:
    d = stored.drill
    lines = [
        f"Drill {stored.number} of '{stored.scenario}' version {stored.scenario_version}: "
        + _drilled_words(stored)
    ]
    facts = _facts(d)
    if facts:
        lines.append(facts)
    lines.append("evidence: " + ", ".join(f"{e['file']} ({e['kind']})" for e in stored.evidence))
    lines += ["", *_table(_phase_rows(comparison), {1, 2, 3})]
    notes = _notes(d, comparison)
    if d.get("failed"):
        notes.insert(0, f"the drill failed: {d['failed']}")
    if notes:
        lines += ["", "Notes", *(f"  {n}" for n in notes)]
    return "\n".join(lines) + "\n"


def _drilled_words(stored: Any) -> str:
    if stored.drilled_at:
        return f"drilled {stored.drilled_at:%Y-%m-%d %H:%M}"
    return "drill date unknown"


def _facts(d: dict[str, Any]) -> str:
    """`database PROD, 14 channels`, as far as the drill knows them."""
    facts = [
        f"database {d['database']}" if d.get("database") else "",
        f"{d['channels']} channels" if d.get("channels") else "",
    ]
    return ", ".join(f for f in facts if f)


def _phase_rows(comparison: dict[str, Any]) -> list[list[str]]:
    """The plan against the drill per phase (a phase neither planned nor timed is left
    out), then over the phases timed."""
    rows = [["Phase", "Plan", "Actual", "Error", "Measured by"]]
    for r in comparison["rows"]:
        if r["actual_s"] is None and r["plan_s"] == 0:
            continue
        rows.append(_phase_row(r))
    total = [format_duration(comparison[k]) for k in ("plan_s", "actual_s")]
    rows.append(["Over the phases timed", *total, percent(comparison["error"]), ""])
    return rows


def _phase_row(r: dict[str, Any]) -> list[str]:
    actual = "not timed" if r["actual_s"] is None else format_duration(r["actual_s"])
    plan = format_duration(r["plan_s"])
    return [_title(r["name"]), plan, actual, percent(r["error"]), _HOW[r["how"]]]


def _title(name: str) -> str:
    from ..result import JOB_TITLES, PHASE_TITLES

    if name.startswith("backup."):
        return f"Backup: {JOB_TITLES[name.split('.')[1]]}"
    return PHASE_TITLES[name]


def run_list(args: argparse.Namespace) -> int:
    from ..store import open_store_from_args
    from ..store.drills import drills

    with open_store_from_args(args, read_only=False) as store:
        name = _resolve(store, args.scenario, include_deleted=False) if args.scenario else None
        found = drills(store, name)
    if args.json:
        print(dumps_json([drill_json(s, s.comparison) for s in found]))
        return 0
    if not found:
        print("no drills recorded" + (f" for '{name}'" if name else ""))
        return 0
    rows = [["N", "Drilled", "Scenario", "Phases timed", "Plan", "Actual", "Error"]]
    rows += [_list_row(s) for s in found]
    sys.stdout.write("\n".join(_table(rows, {0, 3, 4, 5, 6})) + "\n")
    if name:
        _print_fared(name, found)
    return 0


def _list_row(s: Any) -> list[str]:
    """One stored drill's row of `drills list`."""
    c = s.comparison
    return [
        str(s.number),
        f"{s.drilled_at:%Y-%m-%d %H:%M}" if s.drilled_at else "—",
        f"{s.scenario} v{s.scenario_version}",
        str(sum(1 for r in c["rows"] if r["actual_s"] is not None)),
        format_duration(c["plan_s"]),
        format_duration(c["actual_s"]),
        percent(c["error"]),
    ]


def _print_fared(name: str, found: list[Any]) -> None:
    """How the plan fared against the scenario's drills, in a sentence (when there is one)."""
    from ..wording import fared

    said = fared([s.comparison for s in found])
    if said:
        print(f"{name}: {said}")


def run_show(args: argparse.Namespace) -> int:
    from ..store import open_store_from_args
    from ..store.drills import drill

    with open_store_from_args(args) as store:
        stored = drill(store, args.number)
    _print(stored, stored.comparison, args.json)
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from ..store import open_store_from_args
    from ..store.drills import delete_drill

    with open_store_from_args(args) as store:
        delete_drill(store, args.number)
    print(f"deleted drill {args.number}")
    return 0


def run_calibrate(args: argparse.Namespace) -> int:
    from ..evidence.calibrate import calibrate
    from ..evidence.drill import drill_from_dict
    from ..scenario import dump_scenario
    from ..store import open_store_from_args
    from ..store.drills import drill

    with open_store_from_args(args) as store:
        stored = drill(store, args.number)
        scenario = store.load_scenario(stored.scenario)
        # the open store's own catalog: opening it a second time is refused (issue 25.3)
        catalog = None if getattr(args, "no_store", False) else store.catalog()
        cal = calibrate(scenario, drill_from_dict(stored.drill), stored.number, catalog)
        saved = None
        if args.apply:
            saved = store.save_scenario(
                dump_scenario(cal.scenario),
                source=stored.scenario,
                comment=f"calibrated from drill {stored.number}",
            )
    if args.output:
        from ..outfile import write_output_text

        write_output_text(args.output, dump_scenario(cal.scenario))
    if args.json:
        print(dumps_json(calibration_json(cal, saved)))
    else:
        sys.stdout.write(render_calibration(cal, stored, saved))
    return 0


def calibration_json(cal: Any, saved: Any) -> dict[str, Any]:
    from ..jsonable import json_ready

    return {
        "updates": [json_ready(u) | {"range": u.range_text} for u in cal.updates],
        "plan_before_s": cal.plan_before_s,
        "plan_after_s": cal.plan_after_s,
        "actual_s": cal.actual_s,
        "notes": list(cal.notes),
        "saved_version": saved.version if saved else None,
    }


def render_calibration(cal: Any, stored: Any, saved: Any) -> str:
    from ..evidence.calibrate import CALIBRATION_HEADER, calibration_rows

    lines = [f"Calibration of '{stored.scenario}' from drill {stored.number}", ""]
    rows = [list(CALIBRATION_HEADER), *calibration_rows(cal.updates)]
    lines += _table(rows, set())
    lines += [
        "",
        f"Over the phases the drill timed: plan {format_duration(cal.plan_before_s)} "
        f"→ {format_duration(cal.plan_after_s)}, drill {format_duration(cal.actual_s)}",
    ]
    lines += [f"note: {n}" for n in cal.notes]
    if saved:
        lines.append(f"saved '{saved.scenario}' version {saved.version}: {saved.comment}")
    else:
        lines.append("(--apply saves it as a new version; -o NEW.toml writes it)")
    return "\n".join(lines) + "\n"
