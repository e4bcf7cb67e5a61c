"""The report's fonts: DejaVu Sans from `resources/fonts/`, registered once.

reportlab keeps fonts in a process-wide registry and is not thread-safe, so fonts are
registered under a lock on first use (or at start-up by calling `register_fonts()`),
and every string the report draws — text and charts — uses these names; the PDF
base-14 fonts (Helvetica) are never used, so every glyph is embedded.
"""

from __future__ import annotations

import threading

from ..errors import CoreError
from ..paths import resources_dir

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
_FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}

_lock = threading.Lock()
_registered = False


class ReportError(CoreError, ValueError):
    """The report cannot be built or written (missing font, unwritable output)."""


class ReportCancelled(CoreError):
    """The caller's `should_cancel()` asked to stop."""


def register_fonts() -> None:
    """Register DejaVu Sans (regular and bold) with reportlab, once per process."""
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        from reportlab.lib.fonts import addMapping
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont

        folder = resources_dir() / "fonts"
        for name, filename in _FILES.items():
            path = folder / filename
            if not path.is_file():
                raise ReportError(
                    f"the report font {path} is missing",
                    hint="reinstall RTO Planner, or point RTOPLANNER_RESOURCES at it",
                )
            pdfmetrics.registerFont(TTFont(name, str(path)))
        # <b> and <i> inside paragraphs map onto the two faces we ship.
        addMapping(FONT, 0, 0, FONT)
        addMapping(FONT, 1, 0, FONT_BOLD)
        addMapping(FONT, 0, 1, FONT)
        addMapping(FONT, 1, 1, FONT_BOLD)
        _registered = True
