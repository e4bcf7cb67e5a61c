"""A large estate read and planned in two processes (issue 22.3, `core/estate/halves.py`)
gives the same estate, the same plans and the same one-line message for a bad file as
one process does. Each case runs in a fresh interpreter (one thread, as the command is:
the fork is refused beside other threads), with the threshold lowered to a small estate
of real files, and counts the forks so that a case cannot pass without the second
process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rtoplanner.core.estate import halves

SCENARIO = """format = 1
name = "db{i:03d}"

[database]
size = "{size} TB"
redo_rate = "{redo} MB/s"
daily_change = "3%"

[backup]
channels = {channels}
channel_init = "30 s"
level1 = "cumulative"

[[path]]
kind = "tape_drive"
count = {channels}
rate = "360 MB/s"
shared = "LIB"

[[path]]
kind = "network"
count = 1
rate = "10 Gb/s"

[recovery]
detect = "30 min"
open = "10 min"
incremental_apply_rate = "2 TB/h"
archivelogs_on_disk = false

[targets]
rto = "{rto} h"
"""

ESTATE_HEAD = """format = 1
name = "halves"

[[shared]]
name = "LIB"
kind = "tape_drive"
rate = "360 MB/s"
count = 12
"""

N = 41  # an odd count: the halves differ by one

PROBE = textwrap.dedent(
    """
    import json, os, sys
    from rtoplanner.core.estate import halves
    from rtoplanner.core.estate.jobs import build_jobs
    from rtoplanner.core.estate.model import load_estate
    forks = []
    real_fork = os.fork
    def counting_fork():
        forks.append(1)
        return real_fork()
    os.fork = counting_fork

    def run(threshold):
        halves.PARALLEL_FROM = threshold
        try:
            estate = load_estate(sys.argv[1])
        except Exception as exc:
            return None, None, f"{type(exc).__name__}: {exc}"
        return estate, build_jobs(estate), ""

    two, two_jobs, two_error = run(8)
    forked = len(forks)
    one, one_jobs, one_error = run(10**9)
    try:
        os.waitpid(-1, os.WNOHANG)
        left = True
    except ChildProcessError:
        left = False
    print(json.dumps({
        "forks": forked, "after": len(forks), "child_left": left,
        "can_fork": halves.can_fork(),
        "same_estate": two is not None and two.databases == one.databases,
        "same_jobs": two_jobs == one_jobs,
        "databases": 0 if one is None else len(one.databases),
        "two_error": two_error, "one_error": one_error,
    }))
    """
)


def write_estate(folder: Path, bad: dict[int, str] | None = None) -> Path:
    """N scenario files (sizes, channels, redo and RTOs varied) and the estate listing
    them in three tiers; `bad` replaces a file's `channels` line by a wrong value."""
    (folder / "db").mkdir(parents=True)
    entries = []
    for i in range(N):
        text = SCENARIO.format(i=i, size=round(0.5 + 0.37 * i, 2), redo=1 + i % 9,
                               channels=2 + i % 6, rto=(4, 8, 24)[i % 3])  # fmt: skip
        if bad and i in bad:
            text = text.replace(f"channels = {2 + i % 6}\n", f"channels = {bad[i]}\n", 1)
        (folder / "db" / f"db{i:03d}.toml").write_text(text, encoding="utf-8")
        entries.append(f'\n[[database]]\nscenario = "db/db{i:03d}.toml"\npriority = {1 + i % 3}\n')
    path = folder / "ESTATE.toml"
    path.write_text(ESTATE_HEAD + "".join(entries), encoding="utf-8")
    return path


def probe(path: Path) -> dict:
    """The probe, told to use two processes whatever the machine's load."""
    env = dict(os.environ, RTOPLANNER_PROCESSES="2")
    proc = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True,
                          text=True, check=True, timeout=120, env=env)  # fmt: skip
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _needs_fork(out: dict) -> None:
    if not out["can_fork"]:
        pytest.skip("this machine gives the process one CPU (or is not Linux): no fork")


def test_two_processes_give_the_same_estate_and_plans(tmp_path):
    out = probe(write_estate(tmp_path))
    _needs_fork(out)
    assert out["forks"] == 2  # the files, then the plans
    assert out["after"] == 2  # below the threshold: none
    assert out["databases"] == N
    assert out["same_estate"] and out["same_jobs"]
    assert not out["child_left"]


@pytest.mark.parametrize(
    "bad",
    [{3: '"many"'}, {37: "0"}, {37: "0", 3: '"many"'}, {25: "-1", 38: '"x"'}],
    ids=["first-half", "second-half", "both-halves", "two-in-the-second"],
)
def test_a_bad_file_gets_the_same_one_line_message(tmp_path, bad):
    """The child's half or the parent's: the first bad file in the estate's order is
    the one named, in the same words."""
    out = probe(write_estate(tmp_path, bad))
    _needs_fork(out)
    assert out["forks"] == 1  # the files (no plans: the estate is refused)
    first = min(bad)
    assert f"db{first:03d}.toml" in out["one_error"]
    assert out["two_error"] == out["one_error"]
    assert "\n" not in out["one_error"]
    assert not out["child_left"]


def test_in_two_keeps_the_order_and_redoes_a_failed_child_half(monkeypatch):
    """Below the threshold, or where it may not fork, one process does every item in
    order (here: in this test process, which may have threads)."""
    items = list(range(25))
    assert halves.in_two(lambda x: x * x, items, at_least=10**9) == [x * x for x in items]
    monkeypatch.setattr(halves, "can_fork", lambda: False)
    assert halves.in_two(lambda x: None if x == 7 else -x, items, at_least=1) == [
        None if x == 7 else -x for x in items
    ]
    monkeypatch.undo()
    monkeypatch.setenv("RTOPLANNER_PROCESSES", "1")
    assert not halves.can_fork() and not halves.worth_two(10**6)
    assert not halves.worth_two(halves.PARALLEL_FROM - 1)


def test_a_busy_machine_keeps_one_process(monkeypatch):
    """On a machine whose other cores are busy the child would compete with the process
    for a core, and the pickling is a loss: one process, unless told two."""
    monkeypatch.setattr(halves, "can_fork", lambda: True)
    monkeypatch.setattr(halves, "_cpus", lambda: 2)
    monkeypatch.delenv("RTOPLANNER_PROCESSES", raising=False)
    n = halves.PARALLEL_FROM
    monkeypatch.setattr(os, "getloadavg", lambda: (1.7, 1.5, 1.2))
    assert not halves.worth_two(n)
    monkeypatch.setenv("RTOPLANNER_PROCESSES", "2")
    assert halves.worth_two(n)
    monkeypatch.delenv("RTOPLANNER_PROCESSES")
    monkeypatch.setattr(os, "getloadavg", lambda: (0.4, 0.5, 0.6))
    assert halves.worth_two(n) and not halves.worth_two(n - 1)


def test_never_beside_qt(monkeypatch):
    """The GUI runs Qt's threads, which `threading` does not count: no fork there."""
    monkeypatch.delenv("RTOPLANNER_PROCESSES", raising=False)
    monkeypatch.setattr(halves, "_cpus", lambda: 2)
    monkeypatch.setattr(halves.threading, "active_count", lambda: 1)
    monkeypatch.setattr(halves.sys, "platform", "linux")
    monkeypatch.delitem(sys.modules, "PySide6", raising=False)
    assert halves.can_fork()
    monkeypatch.setitem(sys.modules, "PySide6", object())
    assert not halves.can_fork()


def test_a_fork_refused_by_the_system_leaves_one_process(monkeypatch):
    """No process or memory for a child (EAGAIN, ENOMEM): every item done here, no
    descriptor left open."""
    monkeypatch.setattr(halves, "can_fork", lambda: True)

    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(halves.os, "fork", refuse)
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    assert halves.in_two(lambda x: x + 1, list(range(30)), at_least=1) == list(range(1, 31))
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before
