"""Text from user data made safe for a terminal: one helper for every printer.

A CSV header, an AWR report's database name or a scenario name can carry terminal
control sequences (`ESC ] 0 ; title BEL` sets the window title, `ESC [ 2 J` clears the
screen, C1 `CSI` does the same on some terminals, bidi overrides reorder what is shown).
The command line routes standard output and standard error through `SafeStream`, so
whatever a command prints, control characters other than newline and tab come out as
visible `\\u001b` escapes — which is also what they mean inside a JSON string, so
`--json` output stays valid and decodes to the same text.
"""

from __future__ import annotations

import io
import re
from typing import Any, TextIO

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def safe_text(text: str) -> str:
    """`text` with every control character except newline and tab shown as `\\uXXXX`."""
    return _CONTROL.sub(_escape, text)


class SafeStream(io.TextIOBase):
    """A text stream that writes `safe_text` of everything to the stream it wraps.

    `buffer` is the wrapped stream's binary buffer, for output that must go out byte for
    byte (`scenarios export` writes the stored TOML, which TOML itself keeps free of
    control characters).
    """

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self._inner = inner

    def write(self, s: str) -> int:
        self._inner.write(safe_text(s))
        return len(s)

    def flush(self) -> None:
        self._inner.flush()

    def isatty(self) -> bool:
        return self._inner.isatty()

    def fileno(self) -> int:
        return self._inner.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._inner, "encoding", "utf-8")

    @property
    def buffer(self) -> Any:
        return self._inner.buffer  # type: ignore[attr-defined]

    @property
    def inner(self) -> TextIO:
        return self._inner
