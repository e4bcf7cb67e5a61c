"""Where the main window opens: inside the screen it opens on (issue 23.4).

A window of 1440 × 900 on a 1440 × 900 screen is taller than the screen once the title
bar and a panel take their share; a geometry saved on a larger monitor may lie off a
smaller one. Both are fitted into the screen's available area.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QWidget

FIRST_SIZE = QSize(1440, 900)
FRAME_SIDE = 8
FRAME_TOP = 32
"""Room the window manager's frame takes around the client area: borders and title bar."""


def fitted(wanted: QRect, available: QRect) -> QRect:
    """The client rectangle `wanted`, moved and if need be shrunk so that it and its
    frame lie inside `available`."""
    room = QSize(available.width() - 2 * FRAME_SIDE, available.height() - FRAME_TOP - FRAME_SIDE)
    size = wanted.size().boundedTo(room)
    left, top = available.x() + FRAME_SIDE, available.y() + FRAME_TOP
    right = available.x() + available.width() - FRAME_SIDE - size.width()
    bottom = available.y() + available.height() - FRAME_SIDE - size.height()
    x = min(max(wanted.x(), left), right)
    y = min(max(wanted.y(), top), bottom)
    return QRect(x, y, size.width(), size.height())


def first_geometry(available: QRect) -> QRect:
    """The first window: FIRST_SIZE where it fits, centred in the available area."""
    centre = QRect(0, 0, FIRST_SIZE.width(), FIRST_SIZE.height())
    centre.moveCenter(available.center())
    return fitted(centre, available)


def place_in_screen(window: QWidget, restored: bool) -> None:
    """Fit the window into the available area of its screen (the first time: centred)."""
    screen = window.screen()
    if screen is None:
        return
    available = screen.availableGeometry()
    if available.isEmpty():
        return
    target = fitted(window.geometry(), available) if restored else first_geometry(available)
    window.resize(target.size())
    # geometry() is the client area, move() places the frame: before the window is shown
    # the two coincide, so the frame's room is taken from the target here.
    window.move(target.x() - FRAME_SIDE, target.y() - FRAME_TOP)


def fit_size(window: QWidget, width: int, height: int) -> None:
    """Resize a window to width × height, or less where its screen's available area is
    smaller (a 1200 × 900 Compare window on a 1440 × 900 screen, a 1180 px catalog on a
    1024 px one, issue 23.4)."""
    wanted = QSize(width, height)
    screen = window.screen()
    available = screen.availableGeometry() if screen is not None else QRect()
    if not available.isEmpty():
        wanted = fitted(QRect(available.topLeft(), wanted), available).size()
    window.resize(wanted)
