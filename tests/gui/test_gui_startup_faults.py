"""Issue 25.17 and 25.18: `gui` start-up faults, with real processes.

* `QT_DEBUG_PLUGINS=1 rto-planner gui --screenshot x.png` crashed at exit (139): Qt called
  the app's Python message handler while unloading its plugins, after Python had shut down.
* `DISPLAY=:93` said "xcb-cursor0 is needed" (Qt's guess) although it is installed: the
  display cannot be reached, and that is what the line says.
* `gui` errors exit 2, as every command's, and are in the log.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from rtoplanner.core.appinfo import APP_ID

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "scenarios" / "small_gige_lto.toml"

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 on Linux")


def _gui(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}  # fmt: skip
    base.update(XDG_STATE_HOME=str(tmp_path / "state"), XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    base.update(env)
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner", "gui", "--db", str(tmp_path / "s.duckdb"), *args],
        env=base, cwd=tmp_path, capture_output=True, text=True, timeout=180,
    )  # fmt: skip


def _log(tmp_path: Path) -> str:
    return (tmp_path / "state" / APP_ID / "log" / f"{APP_ID}.log").read_text(encoding="utf-8")


def test_qt_debug_plugins_does_not_crash_at_exit(tmp_path):
    out = tmp_path / "x.png"
    proc = _gui(tmp_path, str(DEMO), "--screenshot", str(out), QT_DEBUG_PLUGINS="1",
                QT_QPA_PLATFORM="offscreen")  # fmt: skip
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-800:])
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "unloaded library" in proc.stderr  # Qt did print while unloading its plugins


@linux_only
def test_an_unreachable_display_is_named(tmp_path):
    proc = _gui(tmp_path, DISPLAY=":93")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1, lines
    assert lines[0].startswith("rto-planner gui: cannot reach the display :93 (DISPLAY)")
    assert "xcb-cursor0" not in lines[0] and "/tmp/.X11-unix/X93" in lines[0]
    assert "cannot reach the display :93" in _log(tmp_path)


@linux_only
def test_a_display_that_answers_is_not_called_unreachable(monkeypatch):
    from rtoplanner.app import crash

    for name in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":93")
    assert crash.unreachable_display_message() is not None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind("\0/tmp/.X11-unix/X93")  # where an X server on :93 listens
        server.listen(1)
        assert crash.unreachable_display_message() is None
    monkeypatch.setenv("DISPLAY", "localhost:93.0")
    assert "localhost:93.0" in crash.unreachable_display_message()
    monkeypatch.setenv("DISPLAY", "weird")
    assert crash.unreachable_display_message() is None  # a form it does not know: Qt says


def test_a_screenshot_error_exits_2_and_is_logged(tmp_path):
    proc = _gui(tmp_path, str(tmp_path / "nope.toml"), "--screenshot", str(tmp_path / "x.png"),
                QT_QPA_PLATFORM="offscreen")  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "no such file" in proc.stderr and "Traceback" not in proc.stderr
    assert "no such file" in _log(tmp_path)
