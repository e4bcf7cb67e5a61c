"""`rto-planner imports list|summary|apply`: what was imported, and into a scenario.

* `list [--database X] [--json]`: what each imported file brought, per database.
* `summary [--database X] [--json]`: per database the redo series (period, reports,
  average / p95 / peak, per day, busiest hour), measured backup rates and compression per
  device type, measured redo apply rates.
* `apply (SCENARIO.toml | --scenario NAME) --database X [--redo avg|p95|peak|none]
  [--change] [--compression] [--apply-rate] [--measured-path]`: set those figures in a
  scenario with their provenance; `-o OUT` / `--in-place` for files (else the TOML goes to
  stdout), a new version with a comment for stored scenarios.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from ..errors import CoreError
from ..importers.apply import REDO_CHOICES, ApplyRequest, ApplyResult, apply_imports
from ..importers.series import ALL_INSTANCES, RedoSeries
from ..importers.stored import (
    UNASSIGNED,
    DatabaseWorkload,
    find_database,
    list_imports,
    workload_summaries,
)
from ..outfile import write_output_text
from ..scenario import dump_scenario, load_scenario
from ..store import open_store_from_args
from ..units import format_duration, format_rate, format_size
from . import committed
from .catalog import format_table, print_json
from .scenarios import _resolve

_BLOCK_SIZES = (2, 4, 8, 16, 32)


def _block_size(text: str) -> int:
    """Oracle block sizes: 8192, 8K, 8k, 8KB, 8 KiB (Oracle's K is 1024)."""
    m = re.fullmatch(r"\s*(\d+)\s*(k|kb|kib)?\s*", text, re.IGNORECASE)
    if not m:
        raise argparse.ArgumentTypeError(f"'{text}' is not a block size such as 8K or 8192")
    n = int(m.group(1)) * (1024 if m.group(2) else 1)
    if n not in [k * 1024 for k in _BLOCK_SIZES]:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not an Oracle block size (2K, 4K, 8K, 16K or 32K)"
        )
    return n


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "imports",
        parents=[common],
        help="what was imported (list, summary) and putting it into a scenario (apply)",
        description="Workloads imported with 'rto-planner import': list them, summarise them "
        "per database, or set a scenario's redo rate, change, compression and measured rates "
        "from them (with the provenance of each figure).",
    )
    isub = p.add_subparsers(dest="imports_command", metavar="ACTION", required=True)

    q = isub.add_parser("list", parents=[common], help="imported files, per database")
    q.add_argument("--database", "--db-name", metavar="NAME", help="one database (name or DBID)")
    q.add_argument("--json", action="store_true", help="JSON on stdout")
    q.set_defaults(func=run_list)

    q = isub.add_parser(
        "summary", parents=[common], help="per database: redo, backup rates, apply rates"
    )
    q.add_argument("--database", "--db-name", metavar="NAME", help="one database (name or DBID)")
    q.add_argument("--json", action="store_true", help="JSON on stdout")
    q.set_defaults(func=run_summary)

    q = isub.add_parser(
        "apply",
        parents=[common],
        help="set a scenario's figures from imported data, with provenance",
        description="Set a scenario's redo rate (and on request daily change, compression, "
        "redo apply rate, a measured path stage) from what was imported for one database. "
        "Each value set is recorded in the scenario's [provenance] table.",
    )
    q.add_argument(
        "file",
        nargs="?",
        type=Path,
        metavar="SCENARIO.toml",
        help="the scenario file to update (or give --scenario)",
    )
    q.add_argument("--scenario", metavar="NAME", help="a stored scenario (saves a new version)")
    q.add_argument("--database", "--db-name", required=True, metavar="NAME", help="name or DBID")
    q.add_argument(
        "--redo",
        choices=(*REDO_CHOICES, "none"),
        default="p95",
        help="redo rate from the hourly series: avg, p95 (default), peak, or none",
    )
    q.add_argument(
        "--change",
        action="store_true",
        help="daily change: an UPPER BOUND from Load Profile block changes × block size",
    )
    q.add_argument(
        "--block-size", type=_block_size, default=8192, metavar="SIZE", help="default 8K"
    )
    q.add_argument(
        "--compression", action="store_true", help="compression ratio from RMAN job history"
    )
    q.add_argument(
        "--apply-rate", action="store_true", help="redo apply rate from V$RECOVERY_PROGRESS"
    )
    q.add_argument(
        "--measured-path",
        action="store_true",
        help="add (or update) a 'measured' path stage at the RMAN full backup rate",
    )
    q.add_argument("--device", metavar="TYPE", help="RMAN device type (SBT_TAPE, DISK)")
    out = q.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", type=Path, metavar="OUT.toml", help="write here")
    out.add_argument("--in-place", action="store_true", help="rewrite SCENARIO.toml")
    q.add_argument("-m", "--comment", default=None, help="comment of the new stored version")
    q.add_argument("--json", action="store_true", help="JSON on stdout")
    q.set_defaults(func=run_apply)


# ----------------------------------------------------------------------------- list


def _when(t: Any) -> str:
    return f"{t:%Y-%m-%d %H:%M}" if t is not None else "-"


def run_list(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        items = list_imports(store, args.database)
    if args.json:
        print_json([i.to_dict() for i in items])
        return 0
    if not items:
        what = f" for database '{args.database}'" if args.database else ""
        print(f"nothing imported{what} (rto-planner import FILE... stores reports)")
        return 0
    rows = []
    for i in items:
        db = i.db_name or UNASSIGNED
        if i.dbid is not None:
            db += f" ({i.dbid})"
        rows.append(
            [
                db,
                i.kind,
                str(i.items),
                ",".join(i.instances) or "-",
                _when(i.first),
                _when(i.last),
                i.imported_at.strftime("%Y-%m-%d %H:%M") + " UTC",
                i.file_name,
            ]
        )
    print(
        format_table(
            ["database", "kind", "items", "instances", "from", "to", "imported", "file"], rows
        )
    )
    return 0


# ----------------------------------------------------------------------------- summary

SHORT_SERIES_S = 24 * 3600.0
"""Below a day of reports, p95 and peak are not a busy hour's figure: say so."""


def _series_lines(s: RedoSeries, source: str) -> list[str]:
    """The redo block of one database: the evidence (time covered, not first to last),
    the figures, the notes."""
    n = len([i for i in s.instances if i != ALL_INSTANCES])
    insts = f"{n} instance{'s' * (n != 1)}"
    if ALL_INSTANCES in s.instances:
        insts = "global RAC report(s)" + (f" and {insts}" if n else "")
    span_s = (s.last - s.first).total_seconds()
    over = f" over {format_duration(span_s)}" if span_s > s.covered_s + 60 else ""
    out = [
        f"  redo: {source}, {_when(s.first)} → {_when(s.last)} "
        f"({format_duration(s.covered_s)} of reports{over}, {insts})"
    ]
    if s.busiest_hour is None:
        busiest = "busiest hour: none stands out (one rate over the reports' hours)"
    else:
        hod = s.busiest_hour_of_day
        usual = f", usually {hod:02d}:00-{(hod + 1) % 24:02d}:00" if hod is not None else ""
        busiest = f"busiest hour {_when(s.busiest_hour)}{usual}"
    out.append(
        f"    average {format_rate(s.avg_Bps)}   p95 {format_rate(s.p95_Bps)}   "
        f"peak {format_rate(s.peak_Bps)}   per day {format_size(s.per_day_bytes)}   {busiest}"
    )
    out += [f"    note: {x}" for x in s.warnings]
    if s.covered_s < SHORT_SERIES_S:
        out.append(
            f"    note: p95 and peak of only {format_duration(s.covered_s)} of reports say "
            "little about a busy hour: import a day or more (a week is best) of hourly "
            "reports before applying them"
        )
    return out


def _summary_lines(w: DatabaseWorkload) -> list[str]:
    out = [w.label]
    if w.series is not None:
        out += _series_lines(w.series, w.series_source())
    if w.block_changes_per_s is not None:
        out.append(
            f"  block changes: {w.block_changes_per_s:,.0f}/s on average "
            f"({w.block_change_reports} report(s))"
        )
    if w.backup_rates:
        rows = [
            [
                r.device_type,
                r.input_type,
                str(r.jobs),
                format_rate(r.input_Bps),
                format_rate(r.median_input_Bps),
                format_rate(r.max_input_Bps),
                f"{r.compression_ratio:.2f}" if r.compression_ratio else "-",
                f"{_when(r.first)[:10]} → {_when(r.last)[:10]}",
            ]
            for r in w.backup_rates
        ]
        table = format_table(
            ["device", "input", "jobs", "rate", "median", "max", "compression", "period"],
            rows,
            fit_last=False,
        )
        out.append("  RMAN backups (data bytes read per second of elapsed time):")
        out += ["    " + line for line in table.splitlines()]
        for d in w.devices:
            ratio = f"{d.compression_ratio:.2f}" if d.compression_ratio else "-"
            full = format_rate(d.full_Bps) if d.full_Bps else "no full backups"
            out.append(
                f"    {d.device_type} datafile backups: compression {ratio}, full backup rate "
                f"{full}"
            )
    if w.apply_rates:
        out.append(f"  redo apply (V$RECOVERY_PROGRESS, {len(w.apply_rates)} measurement(s)):")
        for r in w.apply_rates:
            parts = [
                f"average {format_rate(r.average_Bps)}" if r.average_Bps else "",
                f"active {format_rate(r.active_Bps)}" if r.active_Bps else "",
                f"{format_size(r.redo_applied_bytes, binary=True)} applied"
                if r.redo_applied_bytes
                else "",
                _when(r.start) if r.start else "",
            ]
            out.append("    " + ", ".join(p for p in parts if p))
    return out


def run_summary(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        summaries = workload_summaries(store)
    if args.database:
        summaries = [find_database(summaries, args.database)]
    if args.json:
        print_json([w.to_dict() for w in summaries])
        return 0
    if not summaries:
        print("nothing imported (rto-planner import FILE... stores reports)")
        return 0
    blocks = ["\n".join(_summary_lines(w)) for w in summaries]
    print("\n\n".join(blocks))
    if any(w.key == UNASSIGNED for w in summaries):
        print(
            "\nnote: some RMAN / recovery exports carry no database name: import them again "
            "with --database NAME to attribute them"
        )
    return 0


# ----------------------------------------------------------------------------- apply


def _result_json(r: ApplyResult) -> dict[str, Any]:
    return {
        "scenario": r.scenario.name,
        "database": r.workload.label,
        "values": [v.to_dict() for v in r.values],
        "notes": list(r.notes),
        "provenance": dict(r.scenario.provenance),
    }


def _print_values(r: ApplyResult) -> None:
    for v in r.values:
        was = f" (was {v.previous})" if v.previous is not None else ""
        print(f"{v.key} = {v.value}{was}\n    from {v.provenance}")
    for n in r.notes:
        print(f"note: {n}")


def _write_file(args: argparse.Namespace, before: str, after: str, target: Any) -> str:
    """Write the applied scenario into the file's own text: its comments and layout kept,
    only the applied values edited (as the GUI's Save does). Returns the text written."""
    from ..scenario.load import read_scenario_text
    from ..toml_edit import merge_edits

    text = merge_edits(read_scenario_text(args.file), before, after)
    write_output_text(target, text, inputs={} if args.in_place else {args.file: "the scenario"})
    return text


def run_apply(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.scenario is None):
        raise CoreError("give a scenario file or --scenario NAME (one of them)")
    if args.scenario and (args.output or args.in_place):
        raise CoreError(
            "-o/--in-place are for scenario files; a stored scenario gets a new version",
            hint="'rto-planner scenarios export NAME -o FILE' writes it out afterwards",
        )
    request = ApplyRequest(
        database=args.database,
        redo=None if args.redo == "none" else args.redo,
        change=args.change,
        block_size=args.block_size,
        compression=args.compression,
        apply_rate=args.apply_rate,
        measured_path=args.measured_path,
        device_type=args.device,
    )
    with open_store_from_args(args) as store:
        catalog = store.catalog()
        if args.scenario:
            name = _resolve(store, args.scenario, include_deleted=False)
            scenario = store.load_scenario(name)
        else:
            scenario = load_scenario(args.file, catalog=catalog)
        result = apply_imports(store, scenario, request, catalog=catalog)
        text = dump_scenario(result.scenario)
        saved = None
        if args.scenario:
            keys = ", ".join(v.key for v in result.values)
            comment = args.comment or f"imports apply from {result.workload.label}: {keys}"
            saved = store.save_scenario(text, comment=comment, source=name)
            committed(f"saved '{saved.scenario}' as version {saved.version}")
    target = args.file if args.in_place else args.output
    if target is not None:
        text = _write_file(args, dump_scenario(scenario), text, target)
    if args.json:
        out = _result_json(result)
        out["written"] = str(target) if target else None
        out["saved_version"] = saved.version if saved else None
        if target is None and saved is None:
            out["toml"] = text
        print_json(out)
        return 0
    if target is None and saved is None:  # the TOML on stdout, notes as comments
        head = "".join(f"# note: {n}\n" for n in result.notes)
        sys.stdout.write(head + text)
        return 0
    _print_values(result)
    if saved is not None:
        print(f"saved '{saved.scenario}' version {saved.version}: {saved.comment}")
    else:
        extra = " (canonical TOML: comments are not kept)" if args.in_place else ""
        print(f"wrote {target}{extra}")
    return 0
