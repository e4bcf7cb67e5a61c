"""When the GUI goes wrong: the crash dialog, Qt's messages in the log, and no display.

`install()` (called once by `make_app`, before the QApplication exists) sets
`sys.excepthook`, so an exception in a slot — which PySide6 hands to the hook and then
carries on — is written to the log with its traceback and shown in a dialog the user can
copy it from, with the log's path; and `qInstallMessageHandler`, so Qt's own warnings land
in the log too. A Qt fatal error (the platform plugin cannot load) becomes one line on
stderr naming the missing system libraries instead of Qt's abort.
"""

from __future__ import annotations

import atexit
import logging
import os
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.appinfo import APP_NAME
from rtoplanner.core.logs import log_path, setup_logging

log = logging.getLogger("rtoplanner.app.crash")

README_HINT = "see 'System libraries' in the README"
_installed = False
_showing = False
_last_qt_warning = ""


def no_display_message() -> str | None:
    """One line when a Linux/BSD desktop session is missing, else None."""
    if sys.platform.startswith(("win", "darwin")) or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "rto-planner gui: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): run it in "
        "a desktop session, or use `gui --screenshot OUT.png` or the other commands"
    )


def unreachable_display_message() -> str | None:
    """One line when DISPLAY names an X server nobody answers at (`DISPLAY=:93`), else
    None (also when it cannot tell). Qt then blames its xcb plugin ("xcb-cursor0 is
    needed") although every library is installed."""
    if sys.platform.startswith(("win", "darwin")) or os.environ.get("QT_QPA_PLATFORM"):
        return None
    display = os.environ.get("DISPLAY", "")
    if not display or os.environ.get("WAYLAND_DISPLAY"):
        return None
    where = _x_server_addresses(display)
    if not where or any(_answers(family, address) for family, address in where):
        return None
    return (
        f"rto-planner gui: cannot reach the display {display} (DISPLAY): no X server "
        f"answers at {where[-1][1]}; start the app in the desktop session, check DISPLAY "
        "(and an ssh -X connection), or use `gui --screenshot OUT.png`"
    )


def _x_server_addresses(display: str) -> list[tuple[int, object]]:
    """Where the X server of `display` listens: ("host:N.S" → TCP 6000+N; ":N" → the
    abstract and the file socket /tmp/.X11-unix/XN); [] for a form it does not know."""
    import socket

    host, sep, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not sep or not number.isdigit() or host.startswith("/"):
        return []
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{int(number)}"
        return [(socket.AF_UNIX, "\0" + path), (socket.AF_UNIX, path)]
    return [(socket.AF_INET6 if ":" in host else socket.AF_INET,
             (host.strip("[]"), 6000 + int(number)))]  # fmt: skip


def _answers(family: int, address: object) -> bool:
    import socket

    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(3)
            sock.connect(address)  # type: ignore[arg-type]
        return True
    except OSError:
        return False


def missing_xcb_libraries() -> list[str]:
    """System libraries Qt's xcb platform plugin needs and cannot find (via `ldd`)."""
    import PySide6

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        return []
    try:
        out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True,
                             timeout=10).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({line.split()[0] for line in out.splitlines() if "not found" in line})


def _fatal_message(qt_text: str) -> str:
    missing = missing_xcb_libraries()
    if missing:
        return (f"rto-planner gui: Qt cannot start: missing system libraries "
                f"{', '.join(missing)} ({README_HINT})")  # fmt: skip
    unreachable = unreachable_display_message()
    if unreachable:
        return unreachable
    # Qt's fatal text blames the plugin; the warning before it says why (no server, ...).
    reason = _last_qt_warning or (qt_text.strip().splitlines() or ["fatal error"])[0]
    return f"rto-planner gui: Qt cannot start: {reason} ({README_HINT})"


def _qt_message(kind: QtMsgType, context, text: str) -> None:
    if kind == QtMsgType.QtFatalMsg:
        line = _fatal_message(text)
        log.critical("%s | Qt: %s", line, text)
        print(line, file=sys.stderr, flush=True)
        logging.shutdown()
        os._exit(2)
    level = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
        QtMsgType.QtCriticalMsg: logging.ERROR,
    }.get(kind, logging.WARNING)
    category = getattr(context, "category", None) or "qt"
    log.log(level, "Qt %s: %s", category, text)
    if level >= logging.WARNING:
        global _last_qt_warning
        _last_qt_warning = text.strip().splitlines()[0] if text.strip() else ""
    if level >= logging.WARNING and os.environ.get("RTOPLANNER_DEBUG"):
        print(f"{category}: {text}", file=sys.stderr)


class CrashDialog(QDialog):
    """An unexpected error: what happened, the traceback to copy, where the log is."""

    def __init__(self, summary: str, details: str, log_file: Path | None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle(f"{APP_NAME} — unexpected error")
        self.setObjectName("crash_dialog")
        self.details = details
        where = (f"It is recorded in the log:<br><code>{log_file}</code>" if log_file
                 else "The log file could not be written.")  # fmt: skip
        intro = QLabel(
            f"<b>Something went wrong that {APP_NAME} did not expect:</b><br>{_html(summary)}"
            f"<br><br>Your work is still open; save it under a new name to be safe. "
            f"Please send the text below to your support contact. {where}"
        )
        intro.setWordWrap(True)
        intro.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.text = QPlainTextEdit(details)
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = buttons.addButton("Copy details", QDialogButtonBox.ButtonRole.ActionRole)
        copy.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.resize(720, 420)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def report_exception(exc_type: type[BaseException], exc: BaseException,
                     tb: TracebackType | None) -> CrashDialog | None:  # fmt: skip
    """Log an uncaught exception and, when the GUI runs, show it. Returns the dialog."""
    global _showing
    details = "".join(traceback.format_exception(exc_type, exc, tb))
    log.error("unexpected error: %s: %s\n%s", exc_type.__name__, exc, details.rstrip())
    if QApplication.instance() is None or _showing:
        print(details, file=sys.stderr, end="")
        return None
    parent = QApplication.activeWindow()
    dialog = CrashDialog(f"{exc_type.__name__}: {exc}", details, _log_file(), parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _showing = True
    dialog.finished.connect(_dialog_closed)
    dialog.open()
    return dialog


def _dialog_closed(_result: int) -> None:
    global _showing
    _showing = False


def _log_file() -> Path | None:
    path = log_path()
    return path if path.parent.is_dir() else None


def _excepthook(exc_type, exc, tb) -> None:
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    try:
        report_exception(exc_type, exc, tb)
    except Exception:  # the crash handler must never crash
        sys.__excepthook__(exc_type, exc, tb)


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    """A Python thread's uncaught exception: into the log (no dialog off the GUI thread)."""
    log.error("unexpected error in thread %s", getattr(args.thread, "name", "?"),
              exc_info=(args.exc_type, args.exc_value, args.exc_traceback))  # fmt: skip
    threading.__excepthook__(args)


def install() -> None:
    """Hook the log, the crash dialog and Qt's message handler in (once)."""
    global _installed
    if _installed:
        return
    setup_logging()
    if sys.excepthook is sys.__excepthook__:  # not over a hook a test runner installed
        sys.excepthook = _excepthook
    if threading.excepthook is threading.__excepthook__:
        threading.excepthook = _thread_excepthook
    qInstallMessageHandler(_qt_message)
    atexit.register(uninstall)  # after the last window, before Python's own shutdown
    _installed = True


def uninstall() -> None:
    """Give Qt back its own message handler. Qt prints messages while it unloads its
    plugins at exit (QT_DEBUG_PLUGINS=1 prints many); a Python handler called after the
    interpreter has shut down crashed the process (exit 139)."""
    global _installed
    if _installed:
        qInstallMessageHandler(None)
        _installed = False
