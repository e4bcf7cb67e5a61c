"""`rto-planner import FILE|DIR... [--database NAME] [--json]`: store reports and exports.

AWR / Statspack reports (text or HTML) and the CSV exports of docs/importing.md go into the
store, each file in one transaction. One line per file on stdout (`imported` or
`duplicate`), one line per failed file on stderr; exit status 0 when every file was
imported or already there, 1 when some failed, 2 when the store cannot be used.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

from ..errors import CoreError
from ..importers.errors import ReportError
from ..importers.reader import iter_report_files
from ..importers.store_import import ImportOutcome, import_file
from ..jsonable import dumps_json
from ..store import open_store_from_args
from . import committed
from .progress import terminal_progress

EXIT_OK = 0
EXIT_SOME_FAILED = 1


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "import",
        parents=[common],
        help="store AWR / Statspack reports and CSV exports in the store",
        description=(
            "Store AWR and Statspack reports and the CSV exports of docs/importing.md "
            "(DBA_HIST_SYSSTAT redo, V$RMAN_BACKUP_JOB_DETAILS, V$RECOVERY_PROGRESS). "
            "Directories are walked. Each file is one transaction; a file already imported "
            "(same content, or the same snapshots in another format) is not stored again. "
            "'rto-planner imports summary' shows what was imported."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="files or directories")
    p.add_argument(
        "--database",
        metavar="NAME",
        help="database name for exports that carry none (RMAN history, recovery progress)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per file, as a list")
    p.set_defaults(func=run)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _outcomes(store, files: list[str], database: str | None, progress=None):
    """One outcome per file; `progress(fraction, which file)` before each."""
    todo: list[Path | ImportOutcome] = []
    for name in files:
        p = Path(name)
        found = list(iter_report_files([p]))
        if p.is_dir() and not found:
            err = ReportError("directory without files", source=name)
            todo.append(ImportOutcome(p, "error", message=str(err), error=err))
        todo.extend(found)
    for i, path in enumerate(todo):
        if isinstance(path, ImportOutcome):
            yield path
            continue
        within = None
        if progress is not None:
            where = f"file {i + 1} of {len(todo)}: {path.name}"
            progress(i / len(todo), where)
            within = _within(progress, i, len(todo), where)
        try:
            yield import_file(store, path, database=database, progress=within)
        except CoreError:
            raise  # the store itself failed: no point in trying the next file
        except Exception as exc:  # a bug; the other files still deserve an answer
            yield ImportOutcome(
                path,
                "error",
                message=f"{path}: internal error {type(exc).__name__}: "
                f"{_one_line(str(exc))} (please report it)",
            )


def _within(
    progress: Callable[[float, str], None], i: int, n: int, where: str
) -> Callable[[float, str], None]:
    """File i of n's own progress on the whole import's line (issue 25: a large export)."""

    def tell(fraction: float, phase: str) -> None:
        progress((i + fraction) / n, f"{where} — {phase}")

    return tell


def run(args: argparse.Namespace) -> int:
    outcomes: list[ImportOutcome] = []
    progress = terminal_progress("import")  # on a terminal only: a pipe reads the same
    with open_store_from_args(args) as store, progress or nullcontext():
        for o in _outcomes(store, args.files, args.database, progress):
            if progress is not None:
                progress.close()  # the line goes before a file's own line is printed
            outcomes.append(o)
            if o.status == "imported":
                committed(f"imported {o.path}")
            if o.status == "error":
                print(f"rto-planner import: {_one_line(o.message)}", file=sys.stderr)
            elif not args.json:
                label = "imported " if o.status == "imported" else "duplicate"
                print(f"{label}  {o.path}: {o.message}", flush=True)
    failed = sum(o.status == "error" for o in outcomes)
    if args.json:
        print(dumps_json([o.to_dict() for o in outcomes]))
        sys.stdout.write("\n")
    else:
        imported = sum(o.status == "imported" for o in outcomes)
        dup = sum(o.status == "duplicate" for o in outcomes)
        print(
            f"{imported} file(s) imported, {dup} already imported, {failed} failed "
            f"(store: {store.path})"
        )
    return EXIT_SOME_FAILED if failed else EXIT_OK
