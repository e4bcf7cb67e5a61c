"""An estate file opens in the Estate window wherever a file is opened: `gui ESTATE.toml`
(with and without --screenshot) and the main window's File › Open."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from rtoplanner.app.estate.estate_window import phase_legend
from rtoplanner.core.palette import PHASE_STYLE, STYLE_HEX

from .conftest import close_window, show_window
from .helpers import distinct_colours

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"


def gui(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.app", "gui", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd,
    )  # fmt: skip


@pytest.mark.slow
def test_gui_screenshot_of_an_estate_renders_the_estate_window(tmp_path):
    out = tmp_path / "estate.png"
    proc = gui(str(DEMO), "--db", str(tmp_path / "store.duckdb"), "--screenshot", str(out),
               cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "unknown key" not in proc.stderr
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700
    assert distinct_colours(image) > 50  # the table and the Gantt, not an empty window


def test_gui_screenshot_of_a_bad_estate_names_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\nname = "x"\n[[database]]\nscenario = "nope.toml"\npriority = 1\n')
    proc = gui(str(bad), "--db", str(tmp_path / "store.duckdb"), "--screenshot",
               str(tmp_path / "out.png"), cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2
    assert "database[0].scenario" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "out.png").exists()


def test_main_window_open_file_hands_an_estate_to_the_estate_window(qtbot):
    win = show_window(qtbot)
    try:
        before = win.doc.file_path
        assert win.open_file(DEMO, ask=False)
        assert win.doc.file_path == before  # the plan being edited is untouched
        estate = win.estates.windows[-1]
        assert estate.estate is not None and estate.estate.name.startswith("Site loss")
        qtbot.waitUntil(lambda: estate.result is not None, timeout=20000)
    finally:
        close_window(win)


def test_estate_legend_has_one_entry_per_colour():
    legend = phase_legend()
    for colour in set(STYLE_HEX[kind] for kind in PHASE_STYLE.values()):
        assert legend.count(colour) == 1
