"""Python's cyclic garbage collector runs in the GUI thread only.

Left automatic, the collector runs in whichever thread happens to allocate when its
counters pass the threshold, and a plan, a Monte Carlo or an estate search allocates a
lot in the thread pool. A collection there frees the GUI thread's cyclic Qt garbage (a
widget and its Python wrapper, a signal connected to a lambda) in the worker, and
destroying Qt objects outside their thread deadlocks with the GUI thread: the suite hung
that way twice, once in CI for its whole time budget.

So the application switches automatic collection off and collects on a timer in the GUI
thread instead: pyqtgraph's `GarbageCollector`, which does exactly that (generation 0
when its count passes the usual threshold, 1 and 2 likewise). Reference counting, which
frees almost everything, is untouched.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication

_guard: list[object] = []  # the one GarbageCollector, while installed


def install(interval_s: float = 1.0) -> None:
    """Collect in the GUI thread only, from now on (idempotent; needs the application,
    whose thread the timer belongs to)."""
    if QCoreApplication.instance() is None:
        raise RuntimeError("gc_guard.install() needs the QApplication")
    if _guard:
        return
    from pyqtgraph.util.garbage_collector import GarbageCollector

    _guard.append(GarbageCollector(interval=interval_s))


def installed() -> bool:
    return bool(_guard) and not gc.isenabled()


def uninstall() -> None:
    """Back to automatic collection, after a full collection here (the tests' teardown)."""
    for guard in _guard:
        guard.timer.stop()  # type: ignore[attr-defined]
    _guard.clear()
    gc.collect()
    gc.enable()
