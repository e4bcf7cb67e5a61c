"""The cyclic garbage collector runs in the GUI thread only (app/gc_guard.py).

A collection in a pool thread destroys the GUI thread's cyclic Qt garbage there, which
deadlocked the suite (in CI, for its whole time budget). These tests make the
application as the user gets it and check where collections run, not how long they
take."""

from __future__ import annotations

import gc
import threading
import weakref

from rtoplanner.app import gc_guard
from rtoplanner.app.main import make_app
from rtoplanner.app.workers import TaskRunner


class _Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def _make_cycles(count: int) -> weakref.ref:
    """Allocate `count` cycles (far past the collector's threshold); a reference to the
    last one tells when it is freed."""
    node = _Node()
    for _ in range(count):
        node = _Node()
    return weakref.ref(node)


def test_the_app_collects_cyclic_garbage_in_the_gui_thread_only(qtbot):
    gc_guard.uninstall()  # automatic collection, as Python starts
    make_app()
    assert gc_guard.installed()
    started_in: list[str] = []

    def note(phase: str, _info: dict) -> None:
        if phase == "start":
            started_in.append(threading.current_thread().name)

    gc.callbacks.append(note)
    try:
        runner = TaskRunner()
        results: list[weakref.ref] = []
        runner.done.connect(results.append)
        runner.submit(_make_cycles, 60_000)
        qtbot.waitUntil(lambda: bool(results), timeout=20_000)
        in_workers = {name for name in started_in if name != threading.main_thread().name}
        assert not in_workers, f"collected in {sorted(in_workers)}"
        last = results[0]
        # The worker's garbage is freed, by a collection in this (the GUI) thread.
        qtbot.waitUntil(lambda: last() is None, timeout=5_000)
    finally:
        gc.callbacks.remove(note)
    assert set(started_in) == {threading.main_thread().name}


def test_uninstall_gives_back_automatic_collection(qtbot):
    gc_guard.install()
    assert not gc.isenabled()
    gc_guard.uninstall()
    assert gc.isenabled() and not gc_guard.installed()
    gc_guard.install()  # as the fixture left it
    assert gc_guard.installed()
