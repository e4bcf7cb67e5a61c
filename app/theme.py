"""Light and dark palettes following the system, and the colours the views share.

Qt 6.5+ reports the system colour scheme (`QStyleHints.colorScheme`); with the Fusion
style we apply a matching palette ourselves so Windows, macOS and Linux desktops look
alike, and re-apply it when the system switches. Plot panels take their colours from
`PlotTheme`, built from the active palette, so a dark window gets dark plots.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from rtoplanner.core.palette import PHASE_STYLE, phase_hex

VERDICT_COLORS = {"meets": "#2e9d4f", "at_risk": "#e39a1b", "misses": "#d23c3c"}
VERDICT_WORDS = {"meets": "MEETS", "at_risk": "AT RISK", "misses": "MISSES"}

PHASE_COLORS = {phase: phase_hex(phase) for phase in PHASE_STYLE}
"""One colour per kind of work, the same as the PDF's (core.palette)."""


@dataclass(frozen=True)
class PlotTheme:
    dark: bool
    background: str
    foreground: str
    grid_alpha: float
    muted: str
    accent: str
    bottleneck: str
    backup: str

    @staticmethod
    def current() -> PlotTheme:
        pal = QGuiApplication.palette()
        dark = pal.color(QPalette.ColorRole.Window).lightness() < 128
        return PlotTheme(
            dark=dark,
            background=pal.color(QPalette.ColorRole.Base).name(),
            foreground=pal.color(QPalette.ColorRole.Text).name(),
            grid_alpha=0.25 if dark else 0.18,
            muted="#8a8f98" if dark else "#7a7f87",
            accent="#5b9be6" if dark else "#2f6db5",
            bottleneck="#e8793a",
            backup="#86b6ec" if dark else "#9ec3ea",
        )


def is_system_dark() -> bool:
    hints = QGuiApplication.styleHints()
    return hints.colorScheme() == Qt.ColorScheme.Dark


def dark_palette() -> QPalette:
    p = QPalette()
    window, base, text = QColor(45, 47, 51), QColor(32, 33, 36), QColor(230, 230, 230)
    disabled = QColor(130, 130, 130)
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor(40, 42, 46),
        QPalette.ColorRole.ToolTipBase: QColor(55, 57, 61),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor(140, 140, 140),
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: window,
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor(255, 90, 90),
        QPalette.ColorRole.Link: QColor(110, 170, 240),
        QPalette.ColorRole.Highlight: QColor(56, 117, 200),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.Mid: QColor(70, 72, 76),
        QPalette.ColorRole.Dark: QColor(25, 26, 28),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p


def apply_system_palette(app: QApplication) -> None:
    """Fusion with a light or dark palette matching the system's colour scheme."""
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if is_system_dark() else app.style().standardPalette())


def follow_system_palette(app: QApplication) -> None:
    apply_system_palette(app)
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_system_palette(app))
