"""The `rto-planner gui` subcommand; imports Qt only when it runs."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "gui",
        parents=[common],
        help="open the desktop app",
        description="Open the desktop app, optionally on a scenario or an estate file.",
    )
    p.add_argument(
        "scenario",
        nargs="?",
        help="a scenario TOML file to open, or an ESTATE.toml (opens the Estate window)",
    )
    p.add_argument(
        "--screenshot",
        metavar="OUT.png",
        help="render the main window offscreen with the scenario (the Estate window with an "
        "estate), save it and exit",
    )
    p.add_argument(
        "--view",
        choices=("timeline", "path", "backups", "cycle", "rpo", "confidence"),
        help="the result view to show first (with --screenshot: the one rendered)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .main import run_gui

    return run_gui(args)
