"""`rto-planner desktop-install`: the menu entry, icon and scenario MIME type on Linux."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "install the menu entry, icon and scenario file type into a Linux desktop"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "desktop-install",
        parents=[common],
        help=HELP,
        description="Install RTO Planner into your Linux desktop: the menu entry (starting "
        "this installation), the icon, and the file type application/x-rtoplanner-scenario "
        "for *.rto.toml files, under $XDG_DATA_HOME (default ~/.local/share).",
    )
    p.add_argument(
        "--uninstall", action="store_true", help="remove the files a previous run installed"
    )
    p.add_argument(
        "--data-home",
        metavar="DIR",
        type=Path,
        help="install under DIR instead of $XDG_DATA_HOME (e.g. /usr/local/share, as root)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import desktop

    if args.uninstall:
        files = desktop.uninstall(args.data_home)
        print(f"removed {len(files)} file(s)" + "".join(f"\n  {f}" for f in files))
        return 0
    files = desktop.install(args.data_home)
    print(f"installed {len(files)} file(s)" + "".join(f"\n  {f}" for f in files))
    return 0
