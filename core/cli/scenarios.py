"""`rto-planner scenarios ...`: scenarios kept in the store, with their history.

Every save is a new version; nothing rewrites history (restoring version 2 saves it again
as the newest version). Export writes the stored bytes exactly, so a scenario exported,
edited elsewhere and imported diffs cleanly against its history. Delete moves a scenario
to a bin for the grace period; `undelete` brings it back.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..outfile import write_output_bytes
from ..store import (
    NotFoundError,
    ResultCheck,
    ScenarioSummary,
    ScenarioVersion,
    Store,
    StoredResult,
    open_store_from_args,
)
from ..units import format_duration
from ..wording import VERDICT_WORDS
from . import committed
from .catalog import format_table, local_time, print_json


def _resolve(store: Store, name: str, *, include_deleted: bool = True) -> str:
    """An exact name, else a unique case-insensitive prefix (names are long to type)."""
    summaries = store.scenarios(include_deleted=include_deleted)
    names = [s.name for s in summaries]
    if name in names:
        return name
    matches = sorted({n for n in names if n.lower().startswith(name.lower())})
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise NotFoundError(
            f"'{name}' matches several scenarios: " + "; ".join(matches),
            hint="give more of the name",
        )
    return name  # let the store say it is missing, with its hint


def _version_json(v: ScenarioVersion, *, text: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "scenario": v.scenario,
        "version": v.version,
        "saved_at": v.saved_at.isoformat(),
        "comment": v.comment,
        "content_hash": v.content_hash,
        "restored_from": v.restored_from,
        "app_version": v.app_version,
    }
    if text:
        out["text"] = v.text
    return out


def _summary_json(s: ScenarioSummary) -> dict[str, Any]:
    return {
        "name": s.name,
        "versions": s.versions,
        "latest_version": s.latest_version,
        "latest_saved_at": s.latest_saved_at.isoformat(),
        "latest_comment": s.latest_comment,
        "created_at": s.created_at.isoformat(),
        "deleted_at": s.deleted_at.isoformat() if s.deleted_at else None,
        "purge_after": s.purge_after.isoformat() if s.purge_after else None,
    }


def _result_json(r: StoredResult, current: bool | None = None) -> dict[str, Any]:
    return {
        "id": r.id,
        "scenario": r.scenario,
        "version": r.version,
        "computed_at": r.computed_at.isoformat(),
        "inputs_hash": r.inputs_hash,
        "engine_version": r.engine_version,
        "current": current,
        "plan": r.plan,
    }


NAME_HELP = "the scenario's name (or a unique beginning of it)"
VERSION_HELP = "the version number (default: the latest)"


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "scenarios",
        parents=[common],
        help="scenarios kept in the store, with their version history",
        description="Scenarios in the store. Every save is a new version; restore, diff and "
        "export any version; deleted scenarios stay restorable for 30 days.",
    )
    ssub = p.add_subparsers(dest="scenarios_command", metavar="ACTION", required=True)

    def add(name: str, help: str, *, json: bool = True) -> argparse.ArgumentParser:
        q = ssub.add_parser(name, parents=[common], help=help, description=help)
        if json:
            q.add_argument("--json", action="store_true", help="JSON on stdout")
        return q

    q = add("list", "list scenarios with their latest version")
    q.add_argument("--deleted", action="store_true", help="include scenarios in the bin")
    q.set_defaults(func=run_list)

    q = add("show", "print a version's TOML exactly as saved (the latest by default)")
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.add_argument("--version", type=int, metavar="N", dest="ver", help=VERSION_HELP)
    q.set_defaults(func=run_show)

    q = add("save", "save scenario files as new versions (named by their `name`)")
    q.add_argument("files", nargs="+", type=Path, metavar="FILE", help="scenario TOML files")
    q.add_argument("-m", "--comment", default="", help="what changed, for the history")
    q.set_defaults(func=run_save)

    q = add("import", "import scenario TOML files (a new version each, bytes kept exactly)")
    q.add_argument("files", nargs="+", type=Path, metavar="FILE", help="scenario TOML files")
    q.add_argument("-m", "--comment", default=None, help="default: 'imported from FILE'")
    q.set_defaults(func=run_import)

    q = add("export", "write a version's TOML exactly as saved", json=False)
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.add_argument("--version", type=int, metavar="N", dest="ver", help=VERSION_HELP)
    q.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: stdout")
    q.set_defaults(func=run_export)

    q = add("history", "list every version of a scenario")
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.set_defaults(func=run_history)

    q = add("diff", "unified diff between two versions (the second defaults to the latest)")
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.add_argument("v1", type=int, metavar="V1", help="the older version number")
    q.add_argument("v2", type=int, nargs="?", metavar="V2", help="the newer (default: the latest)")
    q.set_defaults(func=run_diff)

    q = add("restore", "make an old version current (saved again as the newest version)")
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.add_argument("version", type=int, metavar="VERSION", help="the version to make current")
    q.add_argument(
        "-m", "--comment", default=None, help="what changed (default: 'restored version N')"
    )
    q.set_defaults(func=run_restore)

    q = add("delete", "move a scenario to the bin (restorable for 30 days)")
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.set_defaults(func=run_delete)

    q = add("undelete", "take a scenario out of the bin")
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.set_defaults(func=run_undelete)

    q = add("results", "plans kept for a scenario, and whether they are still current")
    q.add_argument("name", metavar="NAME", help=NAME_HELP)
    q.add_argument("--version", type=int, metavar="N", dest="ver", help=VERSION_HELP)
    q.add_argument(
        "--compute",
        action="store_true",
        help="compute the plan of the version now and keep it (reused if current)",
    )
    q.set_defaults(func=run_results)


def run_list(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        items = store.scenarios(include_deleted=args.deleted)
    if args.json:
        print_json([_summary_json(s) for s in items])
        return 0
    if not items:
        print("No scenarios yet: 'rto-planner scenarios save FILE' keeps one.")
        return 0
    rows = [
        [
            str(s.versions),
            f"v{s.latest_version}",
            local_time(s.latest_saved_at),
            f"deleted, purged after {local_time(s.purge_after)}" if s.deleted_at else "",
            s.name + (f"  — {s.latest_comment}" if s.latest_comment else ""),
        ]
        for s in items
    ]
    print(format_table(["VERSIONS", "LATEST", "SAVED", "STATUS", "NAME"], rows))
    return 0


def run_show(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        v = store.scenario_version(_resolve(store, args.name), args.ver)
    if args.json:
        print_json(_version_json(v, text=True))
    else:
        sys.stdout.write(v.text if v.text.endswith("\n") else v.text + "\n")
    return 0


def _save_many(args: argparse.Namespace, importing: bool) -> int:
    saved: list[ScenarioVersion] = []
    with open_store_from_args(args) as store:
        for path in args.files:
            if importing:
                saved.append(store.import_scenario(path, comment=args.comment))
            else:
                saved.append(
                    store.import_scenario(path, comment=args.comment or f"saved from {path.name}")
                )
            committed(f"saved '{saved[-1].scenario}' as version {saved[-1].version}")
    if args.json:
        print_json([_version_json(v) for v in saved])
    else:
        for v in saved:
            print(f"Saved '{v.scenario}' as version {v.version}.")
    return 0


def run_save(args: argparse.Namespace) -> int:
    return _save_many(args, importing=False)


def run_import(args: argparse.Namespace) -> int:
    return _save_many(args, importing=True)


def run_export(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        name = _resolve(store, args.name)
        v = store.scenario_version(name, args.ver)
    data = v.text.encode("utf-8")
    if args.output:
        write_output_bytes(args.output, data)
        print(f"Wrote '{v.scenario}' version {v.version} to {args.output}.", file=sys.stderr)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    return 0


def run_history(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        versions = store.history(_resolve(store, args.name))
    if args.json:
        print_json([_version_json(v) for v in versions])
        return 0
    print(f"{versions[0].scenario}\n")
    rows = [
        [f"v{v.version}", local_time(v.saved_at), v.content_hash[:12], v.comment] for v in versions
    ]
    print(format_table(["VERSION", "SAVED", "SHA256", "COMMENT"], rows))
    return 0


def run_diff(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        d = store.diff(_resolve(store, args.name), args.v1, args.v2)
    if args.json:
        print_json(
            {
                "scenario": d.scenario,
                "from_version": d.from_version,
                "to_version": d.to_version,
                "identical": d.identical,
                "diff": list(d.lines),
            }
        )
    elif d.identical:
        print(f"Versions {d.from_version} and {d.to_version} of '{d.scenario}' are identical.")
    else:
        print("\n".join(d.lines))
    return 0


def run_restore(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        v = store.restore_version(_resolve(store, args.name), args.version, comment=args.comment)
    if args.json:
        print_json(_version_json(v))
    else:
        print(f"Restored version {args.version} of '{v.scenario}' as version {v.version}.")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        name = _resolve(store, args.name, include_deleted=False)
        purge = store.delete_scenario(name)
    if args.json:
        print_json({"scenario": name, "purge_after": purge.isoformat()})
    else:
        print(
            f"Deleted '{name}'. It can be brought back with 'rto-planner scenarios "
            f"undelete' until {local_time(purge)}."
        )
    return 0


def run_undelete(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        name = _resolve(store, args.name)
        store.undelete_scenario(name)
    if args.json:
        print_json({"scenario": name, "undeleted": True})
    else:
        print(f"Restored '{name}' from the bin.")
    return 0


def run_results(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        name = _resolve(store, args.name)
        if args.ver is not None:
            store.scenario_version(name, args.ver)  # a version that does not exist is an error
        if args.compute:
            store.compute_result(name, args.ver)
        results = store.results(name, args.ver)
        checks = [store.check_result(r) for r in results]
    if args.json:
        print_json([_result_json(c.result, c.current) for c in checks])
        return 0
    if not checks:
        print(f"No plans kept for '{name}' yet: add --compute to compute one.")
        return 0
    rows = [_result_row(c) for c in checks]
    print(
        format_table(
            ["VERSION", "COMPUTED", "ENGINE", "TOTAL", "VERDICT", "RECOVERY", "STATUS"], rows
        )
    )
    return 0


def _verdict_word(value: object) -> str:
    return VERDICT_WORDS.get(value, str(value)) if isinstance(value, str) else ""


def _result_row(c: ResultCheck) -> list[str]:
    """One kept plan: VERDICT is the plan's headline verdict (recovery, RPO and windows,
    as `plan` prints it); RECOVERY the recovery time's own (issue 25.5)."""
    plan = c.result.plan if isinstance(c.result.plan, dict) else {}
    rec = plan.get("recovery", {}) if isinstance(plan.get("recovery"), dict) else {}
    total = rec.get("total_s")
    changed = [w for w, flag in (("inputs changed", c.inputs_changed),
                                 ("engine changed", c.engine_changed)) if flag]  # fmt: skip
    return [
        f"v{c.result.version}",
        local_time(c.result.computed_at),
        c.result.engine_version,
        format_duration(total) if isinstance(total, int | float) else "",
        _verdict_word(plan.get("verdict")),
        _verdict_word(rec.get("verdict")),
        "current" if c.current else ", ".join(changed),
    ]


run = run_list
