"""Half of a large estate's reading and planning in a second process (issue 22.3).

Reading a scenario file and planning a database take ~0.2 ms each and depend on nothing
but the file (and the estate's shared resources, read before): on 10,000 databases
that is 3 s of the command's 8. From `PARALLEL_FROM` items on, `in_two` forks one child
that does the second half while the process does the first, and takes the child's
results back pickled; below it, or where forking is not safe, it does them all itself.

The answers cannot differ: each item is computed by the same function from the same
inputs (the child is a copy of the process), results come back in item order, and an
item the function cannot do comes back as None — the caller then does that item itself,
in its place among the others, so a bad file raises the same one-line message, the
first one in the file's order, as it does without the child. What it costs: the child's
results are pickled and unpickled (~25 µs a scenario, ~60 µs a plan, in the process),
and a second core must be free for the wall clock to gain (on one core the same work
plus the pickling takes longer); memory is shared copy-on-write.

Forking is used only where it is safe: Linux (macOS's system libraries are not
fork-safe, Windows has no fork), more than one CPU for this process, and no other thread
in it (a store's write lane, a progress thread: a forked child gets only the calling
thread, and a lock another thread held stays locked in it), and never with Qt loaded
(the GUI: Qt's threads are not Python's to count). And only where it
can help: when the last minute's load average leaves a core free (on a busy machine the
child competes with the process for one core and the pickling is a loss: on this
project's shared 2-core machine, loaded ~1.7, 10,000 databases took 4.6 s to read and
plan in two processes against 3.5 s in one). `RTOPLANNER_PROCESSES=1` in the
environment keeps one process always, `=2` uses two whatever the load. Ctrl-C reaches
both processes; the child is killed and reaped whatever ends the parent's half.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

PARALLEL_FROM = 2000
"""Items (distinct scenario files, distinct plans) from which a second process is used:
below, the fork and the pickling cost more than half the work saves."""


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def worth_two(n: int) -> bool:
    """Whether `n` items are done in two processes (`in_two`): from `PARALLEL_FROM` on,
    where forking is safe (`can_fork`) and a core is free for the child — the last
    minute's load average under the CPUs less one half (on a busy machine the child's
    half and the pickling only add to the work) — or `RTOPLANNER_PROCESSES=2` says so."""
    if n < PARALLEL_FROM or not can_fork():
        return False
    if os.environ.get("RTOPLANNER_PROCESSES") == "2":
        return True
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return False
    return load < _cpus() - 0.5


def can_fork() -> bool:
    """Linux's fork, a second CPU for this process, no other thread in it and no Qt
    (macOS's system libraries are not safe to use in a forked child; Windows has no
    fork; Qt's threads are not counted by `threading`), and not `RTOPLANNER_PROCESSES=1`."""
    return (
        sys.platform.startswith("linux")
        and os.environ.get("RTOPLANNER_PROCESSES") != "1"
        and threading.active_count() == 1
        and "PySide6" not in sys.modules  # Qt's own threads are not Python's to count
        and _cpus() > 1
    )


def in_two(fn: Callable[[T], R | None], items: Sequence[T], *,
           at_least: int | None = None) -> list[R | None]:  # fmt: skip
    """`[fn(x) for x in items]`, the second half in a forked child when there are at
    least `at_least` items (default `PARALLEL_FROM`) and `can_fork()`. `fn` returns None
    for an item it cannot do rather than raise; if the child fails as a whole, its half
    is done here."""
    if len(items) < (PARALLEL_FROM if at_least is None else at_least) or not can_fork():
        return [fn(x) for x in items]
    half = (len(items) + 1) // 2
    try:
        read_end, write_end = os.pipe()
    except OSError:  # no descriptors left: one process
        return [fn(x) for x in items]
    try:
        pid = os.fork()
    except OSError:  # no process or memory for a child: one process
        os.close(read_end)
        os.close(write_end)
        return [fn(x) for x in items]
    if pid == 0:  # pragma: no cover - the child: coverage does not follow a fork
        _child(fn, items[half:], read_end, write_end)
    os.close(write_end)
    mine, data = _parent(fn, items[:half], pid, read_end)
    try:
        got = pickle.loads(data) if data is not None else None
    except Exception:  # a child that died mid-write: its half is done here
        got = None
    if not isinstance(got, list) or len(got) != len(items) - half:
        got = [fn(x) for x in items[half:]]
    return mine + got


def _child(fn: Callable[[T], R | None], items: Sequence[T], read_end: int, write_end: int):
    """Compute the items, write their pickle to the pipe, exit without running the
    parent's exit handlers or flushing its buffers."""
    status = 1
    try:
        os.close(read_end)
        out = [fn(x) for x in items]
        with os.fdopen(write_end, "wb") as f:
            pickle.dump(out, f, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    except BaseException:  # the parent does this half itself
        pass
    finally:
        os._exit(status)


def _parent(fn: Callable[[T], R | None], items: Sequence[T], pid: int,
            read_end: int) -> tuple[list[R | None], bytes | None]:  # fmt: skip
    """This process's half, then the child's pickle (None when the child failed); the
    child is killed and reaped whatever happens here (Ctrl-C, an error)."""
    done = False
    try:
        mine = [fn(x) for x in items]
        with os.fdopen(read_end, "rb") as f:
            read_end = -1
            data = f.read()
        _, status = os.waitpid(pid, 0)
        done = True
        return mine, data if os.waitstatus_to_exitcode(status) == 0 else None
    finally:
        if read_end >= 0:
            with contextlib.suppress(OSError):
                os.close(read_end)
        if not done:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


__all__ = ["PARALLEL_FROM", "can_fork", "in_two", "worth_two"]
