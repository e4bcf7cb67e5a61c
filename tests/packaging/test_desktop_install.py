"""`rto-planner desktop-install` into a temporary XDG_DATA_HOME: entry, icons, MIME type."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtoplanner.core import desktop
from rtoplanner.core.appinfo import APP_ID, SCENARIO_MIME_TYPE

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG desktops")


def _cli(*args: str, data_home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_DATA_HOME=str(data_home))
    return subprocess.run([sys.executable, "-m", "rtoplanner", *args], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def _mime_of(name: str, data_home: Path) -> str:
    code = (
        "import sys; from PySide6.QtCore import QMimeDatabase as D; "
        "print(D().mimeTypeForFile(sys.argv[1], D.MatchMode.MatchExtension).name())"
    )
    env = dict(os.environ, XDG_DATA_HOME=str(data_home))
    return subprocess.run([sys.executable, "-c", code, name], env=env, capture_output=True,
                          text=True, check=True, timeout=60).stdout.strip()  # fmt: skip


def test_desktop_install_writes_entry_icons_and_mime_type_and_uninstalls(tmp_path):
    home = tmp_path / "share"
    proc = _cli("desktop-install", data_home=home)
    assert proc.returncode == 0, proc.stderr
    entry_file = home / "applications" / f"{APP_ID}.desktop"
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(entry_file, encoding="utf-8")
    d = entry["Desktop Entry"]
    assert d["Icon"] == APP_ID and d["StartupWMClass"] == APP_ID
    assert d["MimeType"] == f"{SCENARIO_MIME_TYPE};"
    assert os.access(d["TryExec"], os.X_OK), d["Exec"]  # this installation, not a bare name
    assert d["Exec"].endswith(" gui %f")
    for size in (16, 48, 256):
        png = home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert png.read_bytes().startswith(b"\x89PNG")
    assert (home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    # The desktop's MIME database now knows scenario files, and only them among TOML.
    assert _mime_of("erp.rto.toml", home) == SCENARIO_MIME_TYPE
    assert _mime_of("pyproject.toml", home) != SCENARIO_MIME_TYPE

    proc = _cli("desktop-install", "--uninstall", data_home=home)
    assert proc.returncode == 0, proc.stderr
    assert not entry_file.exists()
    assert not (home / "mime" / "packages" / f"{APP_ID}.xml").exists()


def test_an_unwritable_place_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    proc = _cli("desktop-install", "--data-home", str(blocker / "share"), data_home=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "cannot write the desktop files" in proc.stderr


def test_the_entry_points_at_the_given_command():
    text = desktop.desktop_entry_text(["/opt/rto planner/rto-planner"])
    assert 'Exec="/opt/rto planner/rto-planner" gui %f' in text
    assert "TryExec=/opt/rto planner/rto-planner\n" in text
    text = desktop.desktop_entry_text(["/usr/bin/python3", "-m", "rtoplanner"])
    assert "Exec=/usr/bin/python3 -m rtoplanner gui %f" in text
    assert "MimeType=application/x-rtoplanner-scenario;" in text
    assert "application/toml" not in text
