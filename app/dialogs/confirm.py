"""The one question the app asks before a step that can wait: go on, or Cancel."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

_Button = QMessageBox.StandardButton


def confirm(
    parent: QWidget | None,
    title: str,
    text: str,
    button: _Button = _Button.Yes,
    *,
    warning: bool = False,
) -> bool:
    """Ask `text` with `button` and Cancel (the default); True when `button` is chosen.
    A question, or with `warning` a warning (for a step that may lose or spoil work)."""
    ask = QMessageBox.warning if warning else QMessageBox.question
    return ask(parent, title, text, button | _Button.Cancel, _Button.Cancel) == button
