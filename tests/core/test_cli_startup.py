"""The command line starts lazily (issue 14) and explains every argument (issue 13).

`--help` and `--version` must not import the heavy libraries nor any command module;
a command imports only its own module. Checked in a fresh interpreter, on `sys.modules`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rtoplanner.app.gui_command import register as register_gui
from rtoplanner.core.cli import COMMANDS, build_parser, command_word

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"
HEAVY = ("numpy", "duckdb", "reportlab", "selectolax", "PySide6", "pyqtgraph")

_PROBE = """
import contextlib, io, json, sys
from rtoplanner.app.__main__ import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded_modules(*argv: str) -> tuple[int, set[str]]:
    """The exit status and the modules a fresh `rto-planner ARGV` imported."""
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, check=True
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return result["code"], set(result["modules"])


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


def command_modules(modules: set[str]) -> set[str]:
    return {m.rsplit(".", 1)[1] for m in modules if m.startswith("rtoplanner.core.cli.")}


@pytest.mark.parametrize("argv", [("--help",), ("--version",), ()])
def test_help_and_version_import_nothing_heavy(argv):
    code, modules = loaded_modules(*argv)
    assert code in (0, 2)
    assert heavy(modules) == []
    assert command_modules(modules) == set()


def test_a_command_imports_only_its_own_module():
    code, modules = loaded_modules("plan", "--no-store", str(DEMO))
    assert code == 0
    assert command_modules(modules) == {"plan"}
    assert not {"duckdb", "reportlab", "PySide6"} & {m.split(".")[0] for m in modules}


def test_plan_loads_no_standard_module_it_does_not_use():
    """Start-up (issue 20: `plan --no-store` <= 0.3 s): the log file needs no
    logging.handlers (socket, pickle, queue), the data folder no importlib.resources
    (tempfile, zipfile), the catalog not the pure-Python tomllib (tomli's compiled parser
    reads it once), the priors no statistics (fractions, decimal) until one is fitted."""
    code, modules = loaded_modules("plan", "--no-store", str(DEMO))
    assert code == 0
    unused = {"logging.handlers", "importlib.resources", "tomllib", "statistics", "socket"}
    assert sorted(unused & modules) == []


def test_plan_help_imports_only_plan():
    code, modules = loaded_modules("plan", "--help")
    assert code == 0
    assert command_modules(modules) == {"plan"}


def _help(parser: argparse.ArgumentParser) -> str:
    return parser.format_help()


def test_lazy_help_reads_like_the_full_one():
    full = build_parser([register_gui])
    for argv in ([], ["--help"], ["plan"], ["--db", "x.duckdb", "scenarios", "list"]):
        assert _help(build_parser([register_gui], argv)) == _help(full), argv


def test_the_help_lines_in_commands_match_the_modules():
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in sub._choices_actions}
    assert {name: line for name, _module, line in COMMANDS} == {
        name: helps[name] for name, _m, _l in COMMANDS
    }


def test_command_word_skips_top_level_options():
    assert command_word(["--db", "plan", "scenarios", "list"]) == "scenarios"
    assert command_word(["--db=x", "plan", "a.toml"]) == "plan"
    assert command_word(["--version"]) is None
    assert command_word(["--", "plan"]) == "plan"


def _all_parsers(parser: argparse.ArgumentParser, prog: str = "rto-planner"):
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _all_parsers(child, f"{prog} {name}")


def test_every_argument_has_help():
    missing = [
        f"{prog}: {action.dest}"
        for prog, parser in _all_parsers(build_parser([register_gui]))
        for action in parser._actions
        if not action.help and not isinstance(action, argparse._SubParsersAction)
    ]
    assert missing == []
