"""One worker abstraction for work off the UI thread (STYLE §3).

A `TaskRunner` owns one kind of task (for example "the full plan of the open
scenario"): `submit()` cancels the previous task and starts a new `Worker` in the global
`QThreadPool`. Results and errors come back on the GUI thread through the runner's
`@Slot` methods (a queued connection: the signals object lives in the GUI thread), and a
result from a task that was superseded is dropped, so a slow old plan never overwrites a
newer one. Workers never touch widgets; they call a plain function from `core`.

The core's progress/cancel contract (`progress(fraction, message)`, `should_cancel()`)
is passed through when the function accepts them.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot


class Cancelled(Exception):
    """Raised inside a worker function (via `should_cancel`) to stop early."""


class WorkerSignals(QObject):
    """The signals of one Worker; created on the GUI thread so delivery is queued."""

    started = Signal(int)
    progress = Signal(int, float, str)
    result = Signal(int, object)
    error = Signal(int, object)
    finished = Signal(int)


class Worker(QRunnable):
    """Runs `fn(*args, **kwargs)` in the thread pool and reports through `signals`."""

    def __init__(self, task_id: int, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the runner keeps a strong reference until finished
        self.task_id = task_id
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.signals = WorkerSignals()
        self._cancel = threading.Event()
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            params = {}
        if "progress" in params:
            self.kwargs.setdefault("progress", self._progress)
        if "should_cancel" in params:
            self.kwargs.setdefault("should_cancel", self._cancel.is_set)

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def _progress(self, fraction: float, message: str = "") -> None:
        if self._cancel.is_set():
            raise Cancelled
        self.signals.progress.emit(self.task_id, float(fraction), message)

    def run(self) -> None:  # runs in a pool thread
        self.signals.started.emit(self.task_id)
        try:
            if self._cancel.is_set():
                raise Cancelled
            value = self.fn(*self.args, **self.kwargs)
        except Cancelled:
            pass
        except Exception as exc:  # delivered to the GUI thread, shown to the user there
            if not self._cancel.is_set():
                self.signals.error.emit(self.task_id, exc)
        else:
            if not self._cancel.is_set():
                self.signals.result.emit(self.task_id, value)
        finally:
            # The pool may keep a finished runnable alive: drop what it holds (a
            # store, a plan) so nothing outlives the task.
            self.fn = _done
            self.args = ()
            self.kwargs = {}
            self.signals.finished.emit(self.task_id)


def _done(*_args: object, **_kwargs: object) -> None:
    """Stands in for a finished worker's function."""


class TaskRunner(QObject):
    """One task at a time of one kind; a new submit cancels the previous one.

    `done(value)` / `failed(exc)` are emitted on the GUI thread for the latest task only;
    `busy_changed(bool)` drives a status-bar indicator.
    """

    done = Signal(object)
    failed = Signal(object)
    progress = Signal(float, str)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self._pool = pool or QThreadPool.globalInstance()
        self._next_id = 0
        self._current: Worker | None = None
        self._running: dict[int, Worker] = {}

    @property
    def pool(self) -> QThreadPool:
        return self._pool

    @property
    def busy(self) -> bool:
        return bool(self._running)

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
        """Start `fn` in the pool, cancelling the task started before it."""
        self.cancel()
        self._next_id += 1
        worker = Worker(self._next_id, fn, *args, **kwargs)
        worker.signals.result.connect(self._on_result)
        worker.signals.error.connect(self._on_error)
        worker.signals.progress.connect(self._on_progress)
        worker.signals.finished.connect(self._on_finished)
        was_busy = self.busy
        self._running[worker.task_id] = worker
        self._current = worker
        self._pool.start(worker)
        if not was_busy:
            self.busy_changed.emit(True)
        return worker.task_id

    def cancel(self) -> None:
        """Ask the current task to stop; its result, if any, will be ignored."""
        if self._current is not None:
            self._current.cancel()
            self._current = None

    def wait(self, timeout_ms: int = 5000) -> bool:
        """Cancel and block until every task of this runner has finished (on close)."""
        self.cancel()
        for worker in list(self._running.values()):
            worker.cancel()
        ok = self._pool.waitForDone(timeout_ms)
        return ok

    def _is_current(self, task_id: int) -> bool:
        return self._current is not None and self._current.task_id == task_id

    @Slot(int, object)
    def _on_result(self, task_id: int, value: object) -> None:
        if self._is_current(task_id):
            self.done.emit(value)

    @Slot(int, object)
    def _on_error(self, task_id: int, exc: object) -> None:
        if self._is_current(task_id):
            self.failed.emit(exc)

    @Slot(int, float, str)
    def _on_progress(self, task_id: int, fraction: float, message: str) -> None:
        if self._is_current(task_id):
            self.progress.emit(fraction, message)

    @Slot(int)
    def _on_finished(self, task_id: int) -> None:
        worker = self._running.pop(task_id, None)
        if worker is not None and self._is_current(task_id):
            self._current = None
        if worker is not None:
            worker.signals.deleteLater()
        if not self._running:
            self.busy_changed.emit(False)
