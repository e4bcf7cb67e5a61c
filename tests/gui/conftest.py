"""Fixtures of the GUI tests: offscreen Qt, fresh settings per test, no leaked workers.

Every test gets QSettings in its own temporary directory (INI format, our org and app
names), so recent files, units and geometry never leak between tests or into the user's
real settings. A test that leaves a thread-pool task running fails: a worker still
running when its widgets are destroyed is exactly the crash STYLE's pitfalls describe.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, QThreadPool

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"


@pytest.fixture(autouse=True)
def fresh_settings(qapp, tmp_path):
    QCoreApplication.setOrganizationName("RTO Planner Tests")
    QCoreApplication.setApplicationName("RTO Planner")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    settings_dir = tmp_path / "settings"
    settings_dir.mkdir()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(settings_dir))
    yield settings_dir


@pytest.fixture(autouse=True)
def gui_thread_gc(qapp):
    """The cyclic garbage collector as the application has it: in the GUI thread only
    (app/gc_guard.py). Back to automatic after the test, its workers finished."""
    from rtoplanner.app import gc_guard

    gc_guard.install()
    yield
    gc_guard.uninstall()


@pytest.fixture(autouse=True)
def no_leaked_workers(qapp, gui_thread_gc):
    yield
    pool = QThreadPool.globalInstance()
    # A worker whose result the test already received may still be returning its
    # thread to the pool for a few microseconds; one still running half a second after
    # the test is a leak.
    deadline = time.monotonic() + 0.5
    while pool.activeThreadCount() and time.monotonic() < deadline:
        QCoreApplication.processEvents()
        time.sleep(0.005)
    left = pool.activeThreadCount()
    finished = pool.waitForDone(5000)
    QCoreApplication.processEvents()
    assert finished, "thread-pool workers still running 5 s after the test"
    assert left == 0, f"the test left {left} thread-pool worker(s) running"


@pytest.fixture
def demo_copy(tmp_path) -> Path:
    """A writable copy of the demo scenario."""
    target = tmp_path / "demo.toml"
    shutil.copy(DEMO, target)
    return target


def show_window(qtbot, service=None, path: Path | None = None, size=(1440, 900)):
    """A main window (on `service`, the store, if given; on the scenario file `path` if
    given), resized and shown. Close it with `close_window`."""
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings

    # Not qtbot.addWidget: pytest-qt would close it before the fixture's teardown, while
    # it may still hold unsaved edits (and ask about them).
    win = MainWindow(AppSettings(), service)
    if path is not None:
        assert win.open_file(path, ask=False)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    return win


def close_window(win) -> None:
    """Close a window of `show_window` and its compare windows, without the unsaved-changes
    prompt (a test of the prompt patches it)."""
    for c in win.compare_windows:
        c.shutdown()
    win.doc.undo_stack.setClean()
    win.close()
    win.doc.shutdown()
    win.deleteLater()


@pytest.fixture
def service(tmp_path):
    """A store service on a fresh DuckDB file."""
    from rtoplanner.app.store_service import StoreService

    svc = StoreService(tmp_path / "s.duckdb")
    assert svc.available, svc.error
    yield svc
    svc.close()


@pytest.fixture
def window(qtbot, demo_copy):
    """The main window on a copy of the demo, shown and with its full plan computed."""
    win = show_window(qtbot, path=demo_copy)
    assert win.doc.wait_idle()
    yield win
    close_window(win)


@pytest.fixture
def store_window(qtbot, demo_copy, service):
    """`window` with a store: the demo copy open, the full plan computed."""
    win = show_window(qtbot, service, demo_copy)
    assert win.doc.wait_idle()
    yield win
    close_window(win)


@pytest.fixture(autouse=True)
def no_unexpected_dialogs(monkeypatch):
    """A modal dialog would hang an offscreen test: fail instead. Tests that expect one
    patch it again with their answer."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    def unexpected(*args, **kwargs):
        raise AssertionError(f"unexpected dialog: {args[1:3]}")

    for name in ("question", "warning", "critical", "information", "about"):
        monkeypatch.setattr(QMessageBox, name, unexpected)
    for name in ("getOpenFileName", "getSaveFileName"):
        monkeypatch.setattr(QFileDialog, name, unexpected)
