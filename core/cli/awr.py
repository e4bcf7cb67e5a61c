"""`rto-planner awr FILE... [--json]`: parse AWR / Statspack reports and print their figures.

Stores nothing (that is `rto-planner import`). Directories are walked. Each file that cannot
be read is one line on stderr naming it and the reason, and the others are still printed:
exit status 0 when every file parsed, 1 when some failed, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from ..importers.errors import ReportError
from ..importers.model import WorkloadReport
from ..importers.reader import iter_report_files, parse_file
from ..importers.sanity import check_report
from ..jsonable import dumps_json
from ..units import format_duration, format_rate

EXIT_OK = 0
EXIT_SOME_FAILED = 1

CONTRACT_KEYS = (
    "file",
    "kind",
    "db_name",
    "instance",
    "version",
    "begin",
    "end",
    "elapsed_s",
    "redo_bytes_per_s",
    "txn_per_s",
    "block_changes_per_s",
    "physical_reads_per_s",
    "physical_writes_per_s",
)
"""The keys DESIGN §5 promises per report; `--json` puts them first, then everything else."""


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "awr",
        parents=[common],
        help="parse AWR / Statspack reports and print their workload figures",
        description=(
            "Parse AWR and Statspack reports (text or HTML; instance, global RAC, "
            "compare-period and PDB reports) and print per report the redo rate, "
            "transactions, block changes and physical I/O. Directories are walked. "
            "Nothing is stored."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="report files or directories")
    p.add_argument("--json", action="store_true", help="print a JSON list on stdout")
    p.set_defaults(func=run)


def report_json(report: WorkloadReport) -> dict[str, Any]:
    """The contract keys first (stable order for people reading the JSON), then the rest."""
    d = report.to_dict()
    out = {k: d[k] for k in CONTRACT_KEYS}
    out.update((k, v) for k, v in d.items() if k not in out)
    return out


def _num(value: float | None, fmt: str = "{:,.1f}") -> str:
    return "-" if value is None else fmt.format(value)


def _when(report: WorkloadReport, which: str) -> str:
    value = getattr(report, which)
    return value.strftime("%Y-%m-%d %H:%M") if value else "?"


def format_table(reports: list[WorkloadReport]) -> str:
    """An aligned table for people: one line per report (per period for compare reports)."""
    head = (
        "file", "kind", "db", "instance", "version", "begin", "end", "elapsed",
        "redo", "txn/s", "blk chg/s", "phys rd/s", "phys wr/s",
    )  # fmt: skip
    rows = [head]
    for r in reports:
        name = r.file + (f" [{r.period}]" if r.period else "")
        kind = r.kind if r.layout in ("instance", "statspack") else f"{r.kind}:{r.layout}"
        instance = r.instance or (",".join(r.instances) if r.instances else "-")
        row = (
            name, kind, r.db_name or "-", instance, r.version or "-",
            _when(r, "begin"), _when(r, "end"), format_duration(r.elapsed_s),
            format_rate(r.redo_bytes_per_s), _num(r.txn_per_s), _num(r.block_changes_per_s),
            _num(r.physical_reads_per_s), _num(r.physical_writes_per_s),
        )  # fmt: skip
        rows.append(row)
    numeric = {7, 8, 9, 10, 11, 12}
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = []
    for row in rows:
        cells = [
            c.rjust(widths[i]) if i in numeric else c.ljust(widths[i]) for i, c in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _with_sanity(report: WorkloadReport) -> WorkloadReport:
    """The report with a warning when `import` would refuse one of its figures (a redo
    rate of -477 B/s was printed without a word: issue 25.9)."""
    try:
        check_report(report)
    except ReportError as exc:
        why = _one_line(exc.reason).replace("; nothing of this file was stored", "")
        warning = f"impossible figure, `rto-planner import` refuses this report: {why}"
        return dataclasses.replace(report, warnings=(*report.warnings, warning))
    return report


def run(args: argparse.Namespace) -> int:
    reports: list[WorkloadReport] = []
    failed = 0
    for path in iter_report_files(args.files):
        try:
            reports.extend(_with_sanity(r) for r in parse_file(path))
        except ReportError as exc:
            failed += 1
            print(f"rto-planner awr: {_one_line(str(exc))}", file=sys.stderr)
        except Exception as exc:  # a bug, but the other files still deserve an answer
            failed += 1
            print(
                f"rto-planner awr: {path}: internal error {type(exc).__name__}: "
                f"{_one_line(str(exc))} (please report it)",
                file=sys.stderr,
            )
    for path in args.files:
        if Path(path).is_dir() and not any(iter_report_files([path])):
            print(f"rto-planner awr: {path}: directory without files", file=sys.stderr)
            failed += 1
    if args.json:
        print(dumps_json([report_json(r) for r in reports]))
        sys.stdout.write("\n")
    elif reports:
        print(format_table(reports))
        notes = [f"note: {r.file}: {w}" for r in reports for w in r.warnings]
        if notes:  # on stdout: stderr carries failures only, one line each
            print()
            print("\n".join(notes))
    return EXIT_SOME_FAILED if failed else EXIT_OK
