"""Issue 25.10 in the Estate window: Save As writes through core/outfile.py (it wrote with
a plain `write_text`: a FIFO blocked the GUI, a full disk truncated the old file)."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from rtoplanner.app.estate.estate_window import EstateWindow

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    folder = tmp_path / "estates"
    shutil.copytree(DEMO.parent, folder)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _p, _t, text, *a: shown.append(text))
    win = EstateWindow()
    qtbot.addWidget(win)
    assert win.open_estate(folder / DEMO.name)
    qtbot.waitUntil(lambda: not win.runner.busy and win.result is not None, timeout=20000)
    win.shown = shown
    yield win
    win.close()


def test_save_as_onto_a_fifo_is_refused_and_never_written(window, tmp_path):
    fifo = tmp_path / "estates" / "pipe.toml"
    os.mkfifo(fifo)
    read: list[bytes] = []

    def drain() -> None:  # a reader waiting, so a writer that opens the FIFO is caught
        with open(fifo, "rb") as fh:
            read.append(fh.read())

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        assert not window.save_to(fifo)
    finally:
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(10)
    assert read in ([], [b""]) and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert window.shown and "FIFO" in window.shown[0]


def test_save_as_onto_a_symlink_loop_is_one_message(window, tmp_path):
    a, b = tmp_path / "estates" / "a.toml", tmp_path / "estates" / "b.toml"
    a.symlink_to(b)
    b.symlink_to(a)
    assert not window.save_to(a)
    assert window.shown and "symbolic links" in window.shown[0]
    assert os.readlink(a) == str(b)
