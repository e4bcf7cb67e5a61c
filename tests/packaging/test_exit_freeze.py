"""The command line's last act: what the command made is frozen out of the cyclic
collector's sight when the process ends with it (the interpreter's last collection then
does not walk a large estate's objects), never when a caller passes the arguments."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "data" / "estates" / "site_loss.toml"

CODE = """
import gc, io, contextlib, sys
from rtoplanner.app.__main__ import main
args = ["estate", sys.argv[1], "--no-least", "--no-store"]
with contextlib.redirect_stdout(io.StringIO()):
    if sys.argv[2] == "own":
        sys.argv = ["rto-planner", *args]
        code = main()
    else:
        code = main(args)
print(code, gc.get_freeze_count())
"""


def _run(how: str) -> tuple[int, int]:
    proc = subprocess.run([sys.executable, "-c", CODE, str(DEMO), how], capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    code, frozen = proc.stdout.split()
    return int(code), int(frozen)


def test_the_process_s_own_command_freezes_what_it_made():
    code, frozen = _run("own")
    assert code in (0, 1) and frozen > 10_000


def test_a_caller_s_arguments_leave_the_collector_alone():
    code, frozen = _run("given")
    assert code in (0, 1) and frozen == 0
