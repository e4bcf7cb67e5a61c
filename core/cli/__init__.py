"""The `rto-planner` command line (DESIGN §5, a public contract).

Each subcommand lives in its own module with a `register(subparsers, common)` function
that adds its parser and sets `func` to a `run(args) -> int`. Modules are listed
explicitly (no discovery) so a frozen bundle finds them. The GUI adds its `gui` command
through `extra_commands`, because `core` may not import `app`.

Errors a user can cause are `CoreError`s: printed as one line on stderr, exit status 2.
Anything else is a bug: one line asking for a report (the traceback only with
RTOPLANNER_DEBUG=1), exit status 70.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence

from ..errors import CoreError

EXIT_USAGE = 2
EXIT_INTERNAL = 70

# Subcommand modules of core, in the order `--help` lists them.
_COMMAND_MODULES = (
    "plan",
    "risk",
    "report",
    "awr",
    "import_cmd",
    "imports",
    "catalog",
    "scenarios",
)

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


def build_parser(extra_commands: Sequence[Register] = ()) -> argparse.ArgumentParser:
    from .. import __version__

    parser = _Parser(
        prog="rto-planner",
        description="Plan and prove Oracle restore and recovery times against RTO and RPO.",
    )
    parser.add_argument("--version", action="version", version=f"rto-planner {__version__}")
    parser.add_argument("--db", metavar="PATH", default=None, help=argparse.SUPPRESS)
    common = _common_parser()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in _COMMAND_MODULES:
        importlib.import_module(f".{name}", __name__).register(sub, common)
    for register in extra_commands:
        register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None, *, extra_commands: Sequence[Register] = ()) -> int:
    parser = build_parser(extra_commands)
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.func(args) or 0)
    except CoreError as exc:
        print(f"rto-planner: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rto-planner: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: say so in one line, never dump a traceback on a user
        if os.environ.get("RTOPLANNER_DEBUG"):
            traceback.print_exc()
        print(
            f"rto-planner: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set RTOPLANNER_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
