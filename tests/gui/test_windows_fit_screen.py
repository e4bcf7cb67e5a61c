"""Every window opens inside the screen (issue 23.4): the first main window was taller
than a 1440 × 900 screen; the other windows kept their fixed sizes — Compare 1200 × 900,
the import dialog 1200 px wide, the catalog 1180 px, the Estate window 1100 × 760 — on
any screen. The offscreen screen here is 800 × 800, smaller than all of them: each window
takes what the screen has room for, and none needs more than a 1024 × 768 screen's."""

from __future__ import annotations

import pytest

from rtoplanner.app.shell.placement import FRAME_SIDE, FRAME_TOP, fit_size

pytestmark = pytest.mark.gui


SMALLEST = (1024, 768)


def _room(width: int, height: int) -> tuple[int, int]:
    return width - 2 * FRAME_SIDE, height - FRAME_TOP - FRAME_SIDE


def _inside(widget) -> bool:
    available = widget.screen().availableGeometry()
    room_w, room_h = _room(available.width(), available.height())
    return widget.width() <= room_w and widget.height() <= room_h


def _compare(win):
    from rtoplanner.app.compare.compare_window import CompareWindow

    return CompareWindow(win)


def _import(win):
    from rtoplanner.app.dialogs.import_dialog import ImportDialog

    return ImportDialog(win, [])


def _estate(win):
    from rtoplanner.app.estate.estate_window import EstateWindow

    return EstateWindow()


OPENERS = {
    "catalog": lambda win: win.show_catalog_browser(),
    "help": lambda win: win.show_help(),
    "compare": _compare,
    "import": _import,
    "estate": _estate,
    "evidence": lambda win: (win.view("evidence").show_window(), win.view("evidence").window)[1],
    "recovery_clock": lambda win: win.view("recovery_clock").show_window(),
}


@pytest.mark.parametrize("name", list(OPENERS))
def test_each_window_opens_inside_the_screen(qtbot, window, name):
    shown = OPENERS[name](window)
    try:
        shown.show()
        qtbot.waitExposed(shown)
        least = shown.minimumSizeHint()
        room_w, room_h = _room(*SMALLEST)
        assert least.width() <= room_w and least.height() <= room_h, (name, least)
        available = shown.screen().availableGeometry()
        room = _room(available.width(), available.height())
        # As large as it was made, less what the screen lacks, and no smaller than it can be.
        assert shown.width() <= max(room[0], least.width()), (name, shown.size())
        assert shown.height() <= max(room[1], least.height()), (name, shown.size())
    finally:
        if hasattr(shown, "shutdown") and name != "recovery_clock":
            shown.shutdown()
        shown.close()


def test_fit_size_keeps_a_size_the_screen_has_room_for(qtbot):
    from PySide6.QtWidgets import QWidget

    small = QWidget()
    qtbot.addWidget(small)
    fit_size(small, 500, 400)
    assert (small.width(), small.height()) == (500, 400)
    fit_size(small, 1200, 900)
    assert _inside(small) and small.width() > 500
