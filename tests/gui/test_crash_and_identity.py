"""When things go wrong (crash dialog, log, no display) and the app's desktop identity."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QtMsgType
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QApplication

from rtoplanner.app import crash, desktop
from rtoplanner.core.appinfo import APP_ID, APP_NAME
from rtoplanner.core.logs import close_logging, log_path, setup_logging


@pytest.fixture
def log_file():
    path = setup_logging()
    assert path is not None and path == log_path()
    assert "state" in path.parts  # the test's XDG_STATE_HOME, never the user's
    yield path
    close_logging()


def _crash_dialogs() -> list[crash.CrashDialog]:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, crash.CrashDialog) and w.isVisible()]  # fmt: skip


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_shows_the_crash_dialog_and_lands_in_the_log(
    qtbot, window, log_file, monkeypatch
):
    monkeypatch.setattr(sys, "excepthook", crash._excepthook)
    action = QAction("Explode", window)

    def explode() -> None:
        raise ZeroDivisionError("forced in a slot")

    action.triggered.connect(explode)
    action.trigger()
    qtbot.waitUntil(lambda: bool(_crash_dialogs()), timeout=5000)
    (dialog,) = _crash_dialogs()
    assert "ZeroDivisionError: forced in a slot" in dialog.details
    assert "in explode" in dialog.details  # the traceback, not just the message
    assert dialog.text.toPlainText() == dialog.details
    assert str(log_file) in dialog.findChild(type(dialog.layout().itemAt(0).widget())).text()
    dialog.copy_details()
    assert QGuiApplication.clipboard().text() == dialog.details
    text = log_file.read_text(encoding="utf-8")
    assert "ZeroDivisionError: forced in a slot" in text and "in explode" in text
    assert window.isVisible()  # the work stays open
    dialog.reject()
    qtbot.waitUntil(lambda: not _crash_dialogs())


def test_qt_warnings_go_to_the_log_not_the_terminal(log_file, capsys):
    crash._qt_message(QtMsgType.QtWarningMsg, None, "a Qt warning for the log")
    for handler in logging.getLogger("rtoplanner").handlers:
        handler.flush()
    assert "a Qt warning for the log" in log_file.read_text(encoding="utf-8")
    assert "a Qt warning" not in capsys.readouterr().err


def test_no_display_is_one_line(monkeypatch):
    if sys.platform.startswith(("win", "darwin")):
        pytest.skip("X11/Wayland only")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    message = crash.no_display_message()
    assert message and "\n" not in message and "DISPLAY" in message
    monkeypatch.setenv("DISPLAY", ":0")
    assert crash.no_display_message() is None


def test_gui_without_a_display_says_so_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}  # fmt: skip
    proc = subprocess.run([sys.executable, "-m", "rtoplanner", "gui"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "no display" in proc.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux's")
def test_qt_failing_to_start_is_one_line_naming_the_cause(tmp_path):
    """A display that cannot be used (no server on :99): one line saying so — not Qt's
    abort, nor its "xcb-cursor0 is needed" (issue 25.18) — exit 2, and in the log."""
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(DISPLAY=":99", XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.run([sys.executable, "-m", "rtoplanner", "gui"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    expected = "rto-planner gui: cannot reach the display :99"
    assert len(lines) == 1 and lines[0].startswith(expected), lines
    assert "xcb-cursor0" not in lines[0]
    log = tmp_path / "state" / APP_ID / "log" / f"{APP_ID}.log"
    assert expected in log.read_text(encoding="utf-8")


def test_the_app_is_named_once_and_carries_its_icon(qapp, fresh_settings):
    old = fresh_settings / "RTO Planner" / "RTO Planner.ini"
    old.parent.mkdir()
    old.write_text("[files]\nlast_dir=/somewhere/kept\n", encoding="utf-8")
    desktop.apply_identity(qapp)
    assert qapp.applicationName() == APP_ID and qapp.organizationName() == APP_ID
    assert qapp.applicationDisplayName() == APP_NAME
    assert QGuiApplication.desktopFileName() == APP_ID
    assert not qapp.windowIcon().isNull()
    sizes = {s.width() for s in qapp.windowIcon().availableSizes()}
    assert {16, 32, 48, 256} <= sizes
    settings = QSettings()
    assert Path(settings.fileName()).parent.name == APP_ID
    assert settings.value("files/last_dir") == "/somewhere/kept"  # 0.1's settings carried over


def test_qt_failing_with_every_library_names_qts_own_reason(monkeypatch):
    monkeypatch.setattr(crash, "missing_xcb_libraries", lambda: [])
    monkeypatch.setattr(crash, "_last_qt_warning", "")
    crash._qt_message(QtMsgType.QtWarningMsg, None, "could not connect to display :99")
    line = crash._fatal_message("This application failed to start because no Qt platform "
                                "plugin could be initialized.")  # fmt: skip
    assert line.startswith("rto-planner gui: Qt cannot start: could not connect to display :99")


def test_save_as_without_a_suffix_names_a_scenario_file(window, tmp_path, monkeypatch):
    """A name typed without `.toml` becomes `NAME.rto.toml`, the scenario file type."""
    from PySide6.QtWidgets import QFileDialog

    asked = []

    def save_name(*args, **kwargs):
        asked.append(args[2])
        return str(tmp_path / "erp"), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    monkeypatch.setattr(window.doc, "_file_path", None)
    assert window.save_as()
    assert (tmp_path / "erp.rto.toml").is_file()
    assert asked[0].endswith("scenario.rto.toml")
