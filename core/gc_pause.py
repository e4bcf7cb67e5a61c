"""Python's cyclic garbage collector paused around a big batch computation.

Reading a 10,000-database estate, running it and writing its answer keeps a few million
objects alive (scenarios, plans, phases); every full collection walks all of them, which
cost the command ~8 % of its time, and found nothing: the estate's data has no reference
cycles (reference counting frees everything, measured on the demo and the benchmark).
The collector is switched back to what it was afterwards, so a caller in the same
process (the tests, the GUI) is not affected; in a worker thread it is not paused at all
(see `cyclic_gc_paused`).
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause the collector, in the main thread only. In a worker thread (the GUI's) it
    is left alone: the garbage the GUI thread makes meanwhile would then be collected in
    the worker when it switches the collector back on, and destroying Qt objects there
    deadlocks with the GUI thread (a hang seen in the test suite)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def without_cyclic_gc(fn: F) -> F:
    """`fn` run with the cyclic collector paused (see the module docstring)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with cyclic_gc_paused():
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
