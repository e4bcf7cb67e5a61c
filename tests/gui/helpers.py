"""Small helpers for driving the real widgets."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLineEdit


def type_into(qtbot, window, key: str, text: str) -> QLineEdit:
    """Replace a form field's text by typing, as a user would, and wait for the result."""
    window.editor.show_field(key)
    field = window.editor.field(key)
    assert field is not None, key
    line = field.input
    assert isinstance(line, QLineEdit)
    line.setFocus()
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_Backspace)
    qtbot.keyClicks(line, text)
    window.doc.wait_idle()
    return line


def compare_items(qtbot, compare):
    """A compare window's two items, once its worker has computed them."""
    if compare.items is None:
        with qtbot.waitSignal(compare.ready, timeout=10000):
            pass
    return compare.items


def phase(window, name: str):
    return next(p for p in window.timeline_panel.shown if p.name == name)


def distinct_colours(image: QImage, step: int = 7) -> int:
    seen = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            seen.add(image.pixel(x, y))
    return len(seen)
