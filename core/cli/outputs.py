"""No output over an input: every `-o` (and `gui --screenshot`) of every command is checked
against the files the command reads — its file arguments and the store — by device and
inode, so a hard link, a symlink or another spelling of the same path is caught too
(`rto-planner report -o plan.toml plan.toml` replaced the scenario with its PDF).

Commands meant to rewrite their input say so with `--in-place` (`imports apply`,
`preview`); their `-o` over the input is refused with that hint.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from pathlib import Path

from ..outfile import check_not_an_input
from . import OUTPUT_ARGUMENTS

_WORDS = {
    "scenario": "the scenario",
    "estate": "the estate",
    "preview": "the preview",
    "db": "the store",
}
"""What an input argument is called in the refusal; others are "the input"."""


def refuse_output_over_input(args: argparse.Namespace) -> None:
    """Raise `OutputFileError` when a file the command writes is one it reads."""
    outputs = [getattr(args, n) for n in OUTPUT_ARGUMENTS if getattr(args, n, None)]
    if not outputs:
        return
    hint = None
    if hasattr(args, "in_place"):
        hint = "--in-place rewrites it; else give a new file name"
    inputs = dict(_inputs(args))
    for output in outputs:
        check_not_an_input(output, inputs, hint=hint)


def _inputs(args: argparse.Namespace) -> Iterator[tuple[str | os.PathLike[str], str]]:
    """(path, what it is) of every file argument, then the store and its side files."""
    for name, value in vars(args).items():
        if name in OUTPUT_ARGUMENTS or name == "func":
            continue
        for item in value if isinstance(value, list | tuple) else (value,):
            if isinstance(item, str | os.PathLike) and str(item):
                yield item, _WORDS.get(name, "the input")
    store = _store_path(args)
    if store is not None:
        yield store, "the store"
        for suffix in (".lock", ".wal"):
            yield store.with_name(store.name + suffix), "the store's lock or log"


def _store_path(args: argparse.Namespace) -> Path | None:
    try:
        from ..store import db_path_from_args

        return db_path_from_args(args)
    except (OSError, ValueError, RuntimeError):
        return None
