"""The `rto-planner` command line (DESIGN §5, a public contract).

Each subcommand lives in its own module with a `register(subparsers, common)` function
that adds its parser and sets `func` to a `run(args) -> int`. Modules are listed
explicitly in `COMMANDS` (no discovery) so a frozen bundle finds them. The GUI adds its
`gui` command through `extra_commands`, because `core` may not import `app`.

Start-up is lazy (issue 14): only the module of the command being run is imported and
registered; every other command gets a stub parser carrying just its one-line help from
`COMMANDS`, which is all `rto-planner --help` shows. So `--help` and `--version` import
no command module (nor numpy, DuckDB or reportlab), and `plan` imports only `plan`. A
test checks that the lazy `--help` reads exactly like the one with every module loaded.

Errors a user can cause are `CoreError`s: printed as one line on stderr, exit status 2.
Anything else is a bug: one line asking for a report (the traceback only with
RTOPLANNER_DEBUG=1), exit status 70.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import os
import sys
from collections.abc import Callable, Sequence

from ..errors import CoreError
from ..logs import log, setup_logging
from ..textsafe import SafeStream, safe_text

EXIT_USAGE = 2
EXIT_INTERNAL = 70

# Subcommands of core in the order `--help` lists them: (command, module, the one-line
# help the module's parser gives; tests/core/test_cli_startup.py keeps the two equal).
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("plan", "plan", "recovery timeline, backup jobs and RPO of a scenario"),
    ("risk", "risk", "how sure is the plan: P(RTO met), percentiles, what decides it"),
    ("report", "report", "write the PDF plan of a scenario"),
    ("awr", "awr", "parse AWR / Statspack reports and print their workload figures"),
    ("import", "import_cmd", "store AWR / Statspack reports and CSV exports in the store"),
    (
        "imports",
        "imports",
        "what was imported (list, summary) and putting it into a scenario (apply)",
    ),
    ("catalog", "catalog", "the hardware catalog (shipped figures with sources, and your own)"),
    ("scenarios", "scenarios", "scenarios kept in the store, with their version history"),
    ("fix", "fix", "what it takes: the cheapest changes that make the plan meet, and their cost"),
    ("estate", "estate", "when is each database open after a site loss, on shared hardware"),
    ("estates", "estates", "estates kept in the store, with their version history"),
    ("drills", "drills", "restore tests as drills: plan vs actual per phase, and their history"),
    (
        "clock",
        "clock",
        "during a recovery: when will the database open (P50, P90), from Oracle's views",
    ),
    (
        "preview",
        "preview",
        "what a RESTORE PREVIEW will read, and a scenario filled with those volumes",
    ),
    (
        "desktop-install",
        "desktop",
        "install the menu entry, icon and scenario file type into a Linux desktop",
    ),
)

_COMMITTED: list[str] = []


def committed(what: str) -> None:
    """Note a change the command has committed to the store (`"saved 'ERP' version 3"`):
    if its standard output then fails (closed, `/dev/full`), the command says what was
    done instead of calling the committed change an error (issue 25)."""
    _COMMITTED.append(what)


def _committed_then_output_failed(exc: OSError) -> int:
    done = "; ".join(_COMMITTED[:20]) + (f"; and {len(_COMMITTED) - 20} more"
                                         if len(_COMMITTED) > 20 else "")  # fmt: skip
    print(
        f"rto-planner: done and kept in the store: {done}. The output could not be written "
        f"({exc.strerror or exc}); the command stopped there.",
        file=sys.stderr,
    )
    return 0


Register = Callable[[argparse._SubParsersAction, argparse.ArgumentParser], None]


def _common_parser() -> argparse.ArgumentParser:
    """Options every subcommand takes (so `--db` works before or after the command)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="the DuckDB store file (default: the user data directory)",
    )
    return common


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as argparse does, with prog
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def command_word(argv: Sequence[str]) -> str | None:
    """The subcommand named in `argv` (the first word that is not a top-level option)."""
    words = iter(argv)
    for word in words:
        if word == "--db":
            next(words, None)
        elif word == "--":
            return next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def build_parser(
    extra_commands: Sequence[Register] = (), argv: Sequence[str] | None = None
) -> argparse.ArgumentParser:
    """The parser; with `argv`, only the command it names is fully registered (the
    others are stubs with their help line), without it every command module is loaded."""
    from .. import __version__

    parser = _Parser(
        prog="rto-planner",
        description="Plan and prove Oracle restore and recovery times against RTO and RPO.",
    )
    parser.add_argument("--version", action="version", version=f"rto-planner {__version__}")
    parser.add_argument("--db", metavar="PATH", default=None, help=argparse.SUPPRESS)
    common = _common_parser()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    wanted = None if argv is None else command_word(argv)
    for command, module, help_line in COMMANDS:
        if argv is None or command == wanted:
            importlib.import_module(f".{module}", __name__).register(sub, common)
        else:
            sub.add_parser(command, help=help_line, add_help=False)
    for register in extra_commands:
        register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None, *, extra_commands: Sequence[Register] = ()) -> int:
    """Run one command; everything it prints passes through `SafeStream` (textsafe.py)."""
    out, err = sys.stdout, sys.stderr
    if out is not None:
        sys.stdout = SafeStream(out)
    if err is not None:
        sys.stderr = SafeStream(err)
    try:
        return _main(argv, extra_commands)
    finally:
        with contextlib.suppress(OSError, ValueError):
            if sys.stdout is not None:
                sys.stdout.flush()
        sys.stdout, sys.stderr = out, err


OUTPUT_ARGUMENTS = ("output", "screenshot")
"""Argument names that name a file a command writes (checked by outputs.py)."""


def _main(argv: Sequence[str] | None, extra_commands: Sequence[Register]) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(extra_commands, argv)
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    setup_logging()  # core/logs.py: every command and error lands in the log file
    log.info("rto-planner %s", " ".join(argv))
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        sys.stdout = _ClosedOutput()
    _COMMITTED.clear()
    try:
        if any(getattr(args, name, None) for name in OUTPUT_ARGUMENTS):
            from .outputs import refuse_output_over_input  # no -o over a file it reads

            refuse_output_over_input(args)
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a full or broken device shows up here, not at exit
        return code
    except CoreError as exc:
        log.warning("error: %s", exc)
        print(f"rto-planner: error: {safe_text(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rto-planner: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0
    except OSError as exc:
        # The environment, not a bug: standard output closed or on a full device, a file
        # that vanished. One line, exit 2 -- or, when the command had already committed
        # its change, one line saying what was done.
        name = getattr(exc, "filename", None)
        if not name:
            _drop_stdout()
            if _COMMITTED:
                return _committed_then_output_failed(exc)
        where = f"{name}: " if name else "cannot write the output: "
        print(f"rto-planner: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except RecursionError:
        print("rto-planner: error: the input is nested too deeply to read", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # a bug: say so in one line, never dump a traceback on a user
        log.exception("internal error")
        if os.environ.get("RTOPLANNER_DEBUG"):
            import traceback

            traceback.print_exc()
        print(
            f"rto-planner: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set RTOPLANNER_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process was started without one."""

    def write(self, s: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        return None


def _drop_stdout() -> None:
    """Point a standard output that failed (full device, closed, broken pipe) at the null
    device, so what is still buffered does not fail again, with a traceback, at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stream = sys.stdout.inner if isinstance(sys.stdout, SafeStream) else sys.stdout
        if stream is None or isinstance(stream, _ClosedOutput) or stream.fileno() != 1:
            return
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)


if __name__ == "__main__":
    sys.exit(main())
