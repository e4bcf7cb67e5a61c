"""`rto-planner gui`: QApplication setup, the palette, and the screenshot entry point."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

SCREENSHOT_SIZE = (1440, 900)


def make_app(argv: list[str] | None = None):
    """The QApplication (created once), named for QSettings, styled to follow the system."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        from . import crash, desktop

        crash.install()  # log file, crash dialog, Qt messages into the log
        app = QApplication(argv if argv is not None else [sys.argv[0]])
        desktop.apply_identity(app)  # names, desktop file name, icon
        from .shell.commands import app_version
        from .theme import follow_system_palette

        app.setApplicationVersion(app_version())
        follow_system_palette(app)
    import pyqtgraph as pg

    from . import gc_guard

    pg.setConfigOptions(antialias=True, foreground="k")
    gc_guard.install()  # collect in the GUI thread only: see app/gc_guard.py
    return app


def initial_scenario(requested: str | None, recent: list[str]) -> Path | None:
    """The file to open: the one asked for, else the most recent, else the demo."""
    from rtoplanner.core.paths import demo_scenario

    if requested:
        return Path(requested)
    if recent:
        return Path(recent[0])
    demo = demo_scenario()
    return demo if demo.is_file() else None


def is_demo(path: Path) -> bool:
    """A shipped demo scenario (opened as an untitled copy, never written to)."""
    from rtoplanner.core.paths import scenarios_dir

    try:
        return path.resolve().parent == scenarios_dir().resolve()
    except OSError:
        return False


SETTLE_PASSES = 3


def take_screenshot(window, out: str | Path) -> bool:
    """Render the window (already showing a computed plan or estate) into a PNG."""
    from PySide6.QtWidgets import QApplication

    if hasattr(window, "doc"):  # the main window: its plan and its views' workers
        window.doc.wait_idle()
        if hasattr(window, "odds"):  # the headline's probability
            window.odds.wait_idle()
        for panel in window.results.built_panels():
            wait = getattr(panel, "wait_idle", None)
            if wait is not None:
                wait()
    # A plot's axis widens to its labels on the paint after the first: settle a few
    # passes, or the picture shows an axis without its labels (the RPO view's rows).
    for _ in range(SETTLE_PASSES):
        QApplication.processEvents()
        window.grab()
    QApplication.processEvents()
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from rtoplanner.core.outfile import write_output_bytes

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not window.grab().save(buf, "PNG"):
        return False
    write_output_bytes(out, bytes(data.data()))  # regular files only, all or nothing
    return True


def requested_estate(args: argparse.Namespace) -> Path | None:
    """The file asked for, when it is an estate (it opens in an Estate window)."""
    from rtoplanner.core.estate.model import is_estate_file

    requested = getattr(args, "scenario", None)
    return Path(requested) if requested and is_estate_file(requested) else None


def estate_screenshot(window, path: Path, out: str | Path) -> int:
    """`gui ESTATE.toml --screenshot OUT.png`: the Estate window once it is computed."""
    import time

    from PySide6.QtWidgets import QApplication

    from rtoplanner.core.errors import CoreError

    estate_window = window.estates.new_window()
    try:  # an error goes to stderr, not into a dialog nobody can close
        estate_window.load_file(path)
    except CoreError as exc:
        return gui_error(str(exc))
    estate_window.resize(*SCREENSHOT_SIZE)
    estate_window.show()
    deadline = time.monotonic() + 120
    while estate_window.result is None or estate_window.runner.busy:
        if time.monotonic() > deadline:
            return gui_error(f"{path}: not computed within 120 s")
        QApplication.processEvents()
        time.sleep(0.01)
    QApplication.processEvents()
    if not take_screenshot(estate_window, out):
        return gui_error(f"cannot write {out}")
    return 0


EXIT_USAGE = 2
"""What `gui` exits with on an error it can name, as every other command does."""


def gui_error(message: str) -> int:
    """One line on stderr (prefixed `rto-planner gui:` unless it is already), the same in
    the log; returns the exit status."""
    import logging

    line = message if message.startswith("rto-planner gui:") else f"rto-planner gui: {message}"
    logging.getLogger("rtoplanner.app").error("%s", line)
    print(line, file=sys.stderr)
    return EXIT_USAGE


def run_gui(args: argparse.Namespace) -> int:
    screenshot = getattr(args, "screenshot", None)
    if screenshot and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from .crash import no_display_message, uninstall, unreachable_display_message

    if message := no_display_message() or unreachable_display_message():
        return gui_error(message)
    app = make_app()
    try:
        return _run_window(app, args, screenshot)
    finally:
        uninstall()  # no Python message handler once Qt starts unloading (exit 139)


def _run_window(app, args: argparse.Namespace, screenshot: str | None) -> int:

    from rtoplanner.core.errors import CoreError

    from .main_window import MainWindow
    from .settings import AppSettings
    from .store_service import StoreService

    settings = AppSettings(persist=not screenshot)
    store_service = StoreService.from_args(args)
    if store_service.error:
        print(f"rto-planner gui: working without the store: {store_service.error}",
              file=sys.stderr)  # fmt: skip
    window = MainWindow(settings, store_service)
    estate = requested_estate(args)
    requested = None if estate else getattr(args, "scenario", None)
    path = initial_scenario(requested, settings.recent_files())
    if not requested and not screenshot and not estate and window.files.reopen_last():
        path = None  # the scenario of the last session, from a file, the store or a demo
    if path is not None:
        if screenshot:
            try:
                window.doc.open(path)
            except CoreError as exc:
                return gui_error(str(exc))
        elif is_demo(path):
            window.open_demo(path, ask=False)  # a copy: Save must not overwrite the demo
        else:
            # On failure the error has been shown and the window keeps the new-scenario
            # template, which is a better start than no window at all.
            window.open_file(path, ask=False)
    view = getattr(args, "view", None)
    if view:
        window.show_view(view)

    if screenshot and estate:
        code = estate_screenshot(window, estate, screenshot)
        window.estates.shutdown()
        window.doc.shutdown()
        window.close()
        store_service.close()
        return code
    if screenshot:
        window.resize(*SCREENSHOT_SIZE)
        window.show()
        ok = take_screenshot(window, screenshot)
        errors = window.doc.errors
        window.doc.shutdown()
        window.close()
        store_service.close()
        if not ok:
            return gui_error(f"cannot write {screenshot}")
        if errors:
            key, msg = next(iter(errors.items()))
            print(f"rto-planner gui: the scenario has errors ({key}: {msg})", file=sys.stderr)
        return 0

    window.show()
    if estate:
        window.estates.open_file(estate)
    try:
        return app.exec()
    finally:
        store_service.close()
