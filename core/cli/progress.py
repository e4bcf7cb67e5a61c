"""Progress of long work on the terminal: one line on standard error, rewritten in place.

Only when standard error is a terminal: a pipe, a file or CI's log gets nothing, so the
output a script reads never changes. The core's progress contract is
`progress(fraction, message)`; this is that callable for the command line (the GUI's is
the worker's signal).

The line's own carriage returns go to the stream under the command line's `SafeStream`
(which would show them as `\u000d`); the text, which names databases, still goes
through `safe_text`.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..textsafe import safe_text

MIN_INTERVAL_S = 0.2
"""Rewrite the line at most this often (a search reports after every simulation)."""


class TerminalProgress:
    def __init__(self, label: str, stream: TextIO) -> None:
        self.label = label
        self.stream: TextIO = getattr(stream, "inner", stream)  # under SafeStream
        self.width = 0
        self.last_s = -MIN_INTERVAL_S

    def __call__(self, fraction: float, message: str = "") -> None:
        now = time.monotonic()
        if now - self.last_s < MIN_INTERVAL_S:
            return
        self.last_s = now
        pct = max(0.0, min(1.0, fraction)) * 100
        line = safe_text(f"{self.label}: {pct:3.0f} %  {message}".rstrip())
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(line))

    def close(self) -> None:
        """Clear the line (the answer is printed after it)."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0

    def __enter__(self) -> TerminalProgress:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def terminal_progress(label: str, stream: TextIO | None = None) -> TerminalProgress | None:
    """A progress line on `stream` (standard error) if it is a terminal, else None."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream is not None and stream.isatty()
    except (AttributeError, ValueError):  # closed or not a real stream
        tty = False
    return TerminalProgress(label, stream) if tty else None
