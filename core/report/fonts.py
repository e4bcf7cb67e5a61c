"""The report's fonts: DejaVu Sans, with Droid Sans Fallback for CJK, registered once.

reportlab keeps fonts in a process-wide registry and is not thread-safe, so fonts are
registered under a lock on first use (or at start-up by calling `register_fonts()`),
and every string the report draws — text and charts — uses these names; the PDF
base-14 fonts (Helvetica) are never used, so every glyph is embedded (subset: only the
glyphs a report uses end up in the PDF).

Names in any script: DejaVu Sans covers Latin, Greek, Cyrillic, Arabic, Hebrew,
Georgian, Armenian and the common emoticons (U+1F600–U+1F64F). Characters it lacks are
drawn with Droid Sans Fallback (Apache-2.0, from Debian `fonts-droid-fallback`), which
covers Chinese, Japanese and Korean. A character neither font has — most emoji outside
the emoticons block, rare scripts — is printed as the replacement character U+FFFD (�),
never as an empty box. `markup`, `text_width`, `draw_text` and `fit` apply this to
paragraph text and to strings drawn on the canvas.
"""

from __future__ import annotations

import threading

from ..errors import CoreError
from ..paths import resources_dir

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONT_CJK = "DroidSansFallback"
_FILES = {
    FONT: "DejaVuSans.ttf",
    FONT_BOLD: "DejaVuSans-Bold.ttf",
    FONT_CJK: "DroidSansFallback.ttf",
}
REPLACEMENT = "\ufffd"
_cover: dict[str, frozenset[int]] = {}

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
            font = TTFont(name, str(path))
            pdfmetrics.registerFont(font)
            _cover[name] = frozenset(font.face.charToGlyph)
        # <b> and <i> inside paragraphs map onto the two faces we ship.
        addMapping(FONT, 0, 0, FONT)
        addMapping(FONT, 1, 0, FONT_BOLD)
        addMapping(FONT, 0, 1, FONT)
        addMapping(FONT, 1, 1, FONT_BOLD)
        _registered = True


# ----------------------------------------------------------------- text in any script


def runs(text: str, font: str = FONT) -> list[tuple[str, str]]:
    """Split `text` into (font name, text) runs: `font` where it has the glyph, the CJK
    fallback where that has it, else U+FFFD in `font`. Linear in the text."""
    register_fonts()
    main, cjk = _cover[font], _cover[FONT_CJK]
    out: list[tuple[str, str]] = []
    cur_font, cur = font, []
    for ch in text:
        cp = ord(ch)
        if cp in main or ch in "\n\t":
            f = font
        elif cp in cjk:
            f = FONT_CJK
        else:
            f, ch = font, REPLACEMENT
        if f != cur_font and cur:
            out.append((cur_font, "".join(cur)))
            cur = []
        cur_font = f
        cur.append(ch)
    if cur:
        out.append((cur_font, "".join(cur)))
    return out


def markup(text: str, font: str = FONT) -> str:
    """Plain text to reportlab paragraph markup: escaped, CJK runs in the fallback font."""
    from xml.sax.saxutils import escape

    return "".join(
        escape(t) if f == font else f'<font name="{f}">{escape(t)}</font>'
        for f, t in runs(text, font)
    )


def text_width(text: str, font: str, size: float) -> float:
    """Width in points of `text` as `draw_text` draws it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return sum(stringWidth(t, f, size) for f, t in runs(text, font))


def draw_text(canvas, x: float, y: float, text: str, font: str, size: float,
              *, right: bool = False) -> None:  # fmt: skip
    """Draw `text` at (x, y) run by run (left-aligned, or right-aligned at x)."""
    if right:
        x -= text_width(text, font, size)
    for f, t in runs(text, font):
        canvas.setFont(f, size)
        canvas.drawString(x, y, t)
        x += canvas.stringWidth(t, f, size)
    canvas.setFont(font, size)


def fit(text: str, font: str, size: float, width: float) -> str:
    """`text`, or its longest prefix + "…" that fits `width` points.

    A binary search over the prefix length: O(n log n) width computations of the prefix
    rather than one per character removed (a 10,000-character name used to take minutes).
    """
    if text_width(text, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix whose "prefix…" fits
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid] + "…", font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"
