"""`rto-planner preview PREVIEW.log [SCENARIO] [-o NEW.toml | --in-place] [--json]`.

What a `RESTORE DATABASE PREVIEW` says a restore will read — level 0 and level 1 backup
sets with their volumes, tape volumes to load, archived logs and their sequence range —
and, given a scenario, the scenario filled with those volumes (provenance `exact: RESTORE
PREVIEW …`). A scenario file is written to `-o`, rewritten with `--in-place`, or printed;
a stored scenario (by name) gets a new version. Errors are one line, nothing is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import CoreError
from ..jsonable import dumps_json
from ..units import format_size

HELP = "what a RESTORE PREVIEW will read, and a scenario filled with those volumes"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("preview", parents=[common], help=HELP, description=HELP + ".")
    p.add_argument("preview", metavar="PREVIEW", help="RMAN output of RESTORE DATABASE PREVIEW")
    p.add_argument(
        "scenario",
        nargs="?",
        metavar="SCENARIO",
        help="a scenario file or a stored scenario's name to fill",
    )
    p.add_argument("-o", "--output", metavar="NEW.toml", help="write the filled scenario here")
    p.add_argument("--in-place", action="store_true", help="rewrite the scenario file")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.set_defaults(func=run)


def _summary(preview: Any) -> list[str]:
    from ..evidence.preview_fill import log_ranges

    lines = [
        f"RESTORE PREVIEW {preview.source}" + (" (SUMMARY: no sizes)" if preview.summary else "")
    ]
    for level, words in (("0", "level 0"), ("1", "level 1"), ("archivelog", "archived logs")):
        sets = preview.of_level(level)
        if sets:
            lines.append(_level_line(words, sets))
    for t, a, b, n in log_ranges(preview):
        lines.append(f"  archived logs  thread {t}: sequences {a} – {b} ({n} logs)")
    if preview.media:
        lines.append(_media_line(preview.media))
    return lines


def _level_line(words: str, sets: Any) -> str:
    """How many backup sets of how many backups of one level, and their size."""
    size = sum(s.size_bytes or 0 for s in sets)
    tags = len({s.tag for s in sets})
    vol = f", {format_size(size)} of backup" if size else ""
    return f"  {words:14} {len(sets)} backup sets of {tags} backup(s){vol}"


def _media_line(media: tuple[str, ...]) -> str:
    """The tape volumes to load (the first six named)."""
    more = ", …" if len(media) > 6 else ""
    return f"  tape volumes   {len(media)} to load: {', '.join(media[:6])}{more}"


def run(args: argparse.Namespace) -> int:
    from ..evidence.record import read_evidence_paths

    ev = read_evidence_paths([args.preview]).files[0]
    if ev.kind != "preview":
        raise CoreError(f"{args.preview}: not RESTORE … PREVIEW output but {ev.kind} evidence")
    if (args.output or args.in_place) and not args.scenario:
        raise CoreError("-o/--in-place need a SCENARIO to fill")
    if not args.scenario:
        if args.json:
            print(dumps_json(_preview_json(ev.preview)))
        else:
            sys.stdout.write("\n".join(_summary(ev.preview)) + "\n")
        return 0
    return _fill(args, ev.preview)


def _preview_json(preview: Any) -> dict[str, Any]:
    return {
        "preview": preview.source,
        "sets": preview.sets,
        "media": preview.media,
        "logs": preview.logs,
    }


def _fill(args: argparse.Namespace, preview: Any) -> int:
    from ..evidence.preview_fill import fill_from_preview
    from ..scenario import dump_scenario, load_scenario
    from .plan import catalog_for

    catalog = catalog_for(args)
    path = Path(args.scenario)
    stored = not path.is_file()
    if stored and (args.output or args.in_place):
        raise CoreError(
            "-o/--in-place are for scenario files; a stored scenario gets a new version"
        )
    if stored:
        return _fill_stored(args, preview, catalog)
    fill = fill_from_preview(load_scenario(path, catalog=catalog), preview, catalog)
    text = dump_scenario(fill.scenario)
    target = path if args.in_place else (Path(args.output) if args.output else None)
    if target is not None:
        from ..outfile import write_output_text

        write_output_text(target, text)
    _report(
        args, fill, None if target is None else f"wrote {target}", text if target is None else None
    )
    return 0


def _fill_stored(args: argparse.Namespace, preview: Any, catalog: Any) -> int:
    from ..evidence.preview_fill import fill_from_preview
    from ..scenario import dump_scenario
    from ..store import open_store_from_args
    from .scenarios import _resolve

    with open_store_from_args(args) as store:
        name = _resolve(store, args.scenario, include_deleted=False)
        fill = fill_from_preview(store.load_scenario(name), preview, catalog)
        v = store.save_scenario(
            dump_scenario(fill.scenario),
            source=name,
            comment=f"volumes from RESTORE PREVIEW {Path(preview.source).name}",
        )
    _report(args, fill, f"saved '{v.scenario}' version {v.version}: {v.comment}", None)
    return 0


def _report(args: argparse.Namespace, fill: Any, done: str | None, text: str | None) -> None:
    if args.json:
        print(dumps_json(fill.to_dict()))
        return
    if text is not None:
        sys.stdout.write(text)
        return
    _print_fill(fill, done)


def _print_fill(fill: Any, done: str | None) -> None:
    """Each value set with what it was and where it comes from, the notes, what was written."""
    for v in fill.values:
        print(f"{v.key} = {v.value!r}  (was {v.previous!r}): {v.provenance}")
    for n in fill.notes:
        print(f"note: {n}")
    if done:
        print(done)


__all__ = ["register", "run"]
