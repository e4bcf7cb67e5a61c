"""Issue 25.15: `estate`, `report` and `estates save` (and `gui --screenshot`) read their
file argument with the bounded reader the scenario loader uses: a FIFO is refused, not
waited on forever, and /dev/zero is refused, not read until memory runs out.

Real FIFOs with no writer and the real /dev/zero, through the real command in a process
of its own (with a memory limit, so a reader without bound fails instead of swapping).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from rtoplanner.core.bounds import MAX_ESTATE_BYTES
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.estate.model import is_estate_file, load_estate

COMMANDS = {
    "estate": lambda f, tmp: ["estate", f, "--no-store"],
    "report": lambda f, tmp: ["report", f, "-o", str(tmp / "out.pdf"), "--no-store"],
    "estates save": lambda f, tmp: ["estates", "save", f, "--db", str(tmp / "s.duckdb")],
}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, RTOPLANNER_LOG="0")
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.app", *args], capture_output=True, text=True,
        timeout=60, env=env, preexec_fn=_limit_memory,
    )  # fmt: skip


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_fifo_or_dev_zero_is_refused_in_one_line(command, kind, tmp_path):
    if kind == "fifo":
        target = tmp_path / "estate.toml"
        os.mkfifo(target)
    else:
        target = Path("/dev/zero")
    proc = _cli(*COMMANDS[command](str(target), tmp_path))
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr[-500:]
    what = "a FIFO (named pipe)" if kind == "fifo" else "a device"
    assert lines[0].startswith(f"rto-planner: error: {target}: is {what}, not a regular file")


def test_an_estate_file_larger_than_the_bound_is_refused(tmp_path):
    big = tmp_path / "estate.toml"
    with open(big, "wb") as fh:
        fh.write(b"# padding\n")
        fh.truncate(MAX_ESTATE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(ScenarioError, match="larger than any estate file"):
        load_estate(big)
    assert not is_estate_file(big)


def test_is_estate_file_never_blocks_on_a_fifo(tmp_path):
    import threading

    fifo = tmp_path / "e.toml"
    os.mkfifo(fifo)
    answers: list[bool] = []
    worker = threading.Thread(target=lambda: answers.append(is_estate_file(fifo)), daemon=True)
    worker.start()
    worker.join(60)  # a guard against a hang, not a measure: it returns at once
    if worker.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # let the blocked reader go
        pytest.fail("is_estate_file waited on a FIFO for a writer")
    assert answers == [False]


def test_gui_screenshot_of_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "plan.toml"
    os.mkfifo(fifo)
    env = {"QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-m", "rtoplanner.app", "gui", str(fifo), "--screenshot",
         str(tmp_path / "x.png"), "--db", str(tmp_path / "s.duckdb")],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, **env),
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr[-500:]
    assert "is a FIFO (named pipe), not a regular file" in proc.stderr
    assert not (tmp_path / "x.png").exists()
