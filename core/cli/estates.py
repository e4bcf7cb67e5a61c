"""`rto-planner estates save|list|history|export`: estates kept in the store with their
history (DESIGN §9). `rto-planner estate NAME` runs a stored estate."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..estate.model import read_text_file
from ..outfile import write_output_text
from ..store import open_store_from_args
from ..store.estates import estate_history, estate_version, estates, save_estate

HELP = "estates kept in the store, with their version history"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("estates", parents=[common], help=HELP, description=HELP + ".")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    save = verbs.add_parser("save", parents=[common], help="keep a new version of an estate file")
    save.add_argument("file", metavar="ESTATE.toml", help="the estate file to keep")
    save.add_argument("-m", "--comment", default="", help="what changed in this version")
    save.set_defaults(func=run_save)
    ls = verbs.add_parser("list", parents=[common], help="the stored estates")
    ls.set_defaults(func=run_list)
    hist = verbs.add_parser("history", parents=[common], help="the versions of one estate")
    hist.add_argument("name", help="the estate's name")
    hist.set_defaults(func=run_history)
    exp = verbs.add_parser("export", parents=[common], help="write a version to a file")
    exp.add_argument("name", help="the estate's name")
    exp.add_argument("--version", type=int, help="the version (default: the latest)")
    exp.add_argument(
        "-o", "--output", metavar="ESTATE.toml", help="file to write (default: stdout)"
    )
    exp.set_defaults(func=run_export)


def run_save(args: argparse.Namespace) -> int:
    path = Path(args.file)
    text = read_text_file(path)
    with open_store_from_args(args) as store:
        v = save_estate(store, text, comment=args.comment, base_dir=path.resolve().parent,
                        source=str(path))  # fmt: skip
    print(f"saved estate '{v.estate}' version {v.version}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with open_store_from_args(args, read_only=True) as store:
        rows = estates(store)
    if not rows:
        print("no estates in the store ('rto-planner estates save ESTATE.toml' keeps one)")
    for name, version, saved in rows:
        print(f"{name}  (version {version}, {saved:%Y-%m-%d %H:%M} UTC)")
    return 0


def run_history(args: argparse.Namespace) -> int:
    with open_store_from_args(args, read_only=True) as store:
        history = estate_history(store, args.name)
    for v in history:
        note = f"  {v.comment}" if v.comment else ""
        print(f"v{v.version}  {v.saved_at:%Y-%m-%d %H:%M} UTC{note}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    with open_store_from_args(args, read_only=True) as store:
        v = estate_version(store, args.name, args.version)
    if args.output:
        write_output_text(args.output, v.text)  # regular files only, all or nothing
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(v.text)
    return 0
