"""`rto-planner estate --no-least` loads neither the least-hardware search (`core/fix`,
0.03–0.07 s of imports) nor DuckDB when it needs no store (issue 22.3).

Structural checks in a fresh interpreter (what a process has imported), not timings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "data" / "estates" / "site_loss.toml"
HEAVY = ("rtoplanner.core.fix", "rtoplanner.core.estate.least", "duckdb")


def _loaded_after(code: str) -> list[str]:
    """The heavy modules a fresh interpreter has imported after running `code`."""
    probe = f"{code}\nimport sys\nprint(sorted(m for m in sys.modules if m in {HEAVY!r}))\n"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return eval(proc.stdout.strip().splitlines()[-1])  # a list of module names


def test_importing_the_estate_and_its_command_loads_no_search_and_no_duckdb():
    code = "import rtoplanner.core.estate, rtoplanner.core.cli.estate"
    assert _loaded_after(code) == []


def test_the_estate_command_without_least_loads_no_search(tmp_path):
    code = (
        "import contextlib, io\n"
        "from rtoplanner.core.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['estate', {str(DEMO)!r}, '--no-least', '--no-store', '--json']) == 0\n"
    )
    assert _loaded_after(code) == []


def test_the_least_names_are_still_the_packages():
    from rtoplanner.core import estate
    from rtoplanner.core.estate import least

    for name in ("LeastCount", "LeastHardware", "answer_estate", "least_hardware"):
        assert getattr(estate, name) is getattr(least, name)
    assert estate.least_to_json is least.least_to_json
