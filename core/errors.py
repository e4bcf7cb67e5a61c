"""Error types of the core.

Every error a user can cause (a bad unit, an unknown key, a truncated report, a locked
database file) is a `CoreError`. The command line and the GUI catch `CoreError` and show
its message; anything else is a bug. Subclasses also derive from `ValueError` so callers
that only know the standard library still catch them sensibly.
"""

from __future__ import annotations

import re

ECHO_CHARS = 200
"""A word of an error message (a key, a value, a path) longer than this is cut."""
_LONG_WORD = re.compile(rf"\S{{{ECHO_CHARS + 1},}}")


def cut_echo(text: str) -> str:
    """`text` with every word over ECHO_CHARS characters cut to its start and end and its
    length: an error line echoes what the user gave, not 100 KB of it (issue 25)."""
    if len(text) <= ECHO_CHARS:
        return text
    return _LONG_WORD.sub(_cut, text)


def _cut(m: re.Match[str]) -> str:
    word = m.group()
    return f"{word[:60]}…{word[-20:]} ({len(word):,} characters)"


class CoreError(Exception):
    """Root of every error the core raises on purpose; the message is for the user."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class UnitError(CoreError, ValueError):
    """A quantity that cannot be parsed, or whose unit does not fit what is expected."""


class ScenarioError(CoreError, ValueError):
    """A scenario file or form that is not valid.

    `key` is the dotted key (`backup.channels`, `path[2].rate`), `line` the 1-based line in
    the TOML file when known, `source` the file name when known.
    """

    def __init__(
        self,
        message: str,
        *,
        key: str | None = None,
        line: int | None = None,
        source: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.key = key
        self.line = line
        self.source = source
        message = cut_echo(message)
        key = cut_echo(key) if key else key
        where = []
        if source:
            where.append(source + (f":{line}" if line else ""))
        elif line:
            where.append(f"line {line}")
        if key:
            where.append(key)
        prefix = ": ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message, hint=hint)
        self.reason = message


class ScenarioVersionError(ScenarioError):
    """A scenario written by a newer version of the format than this program reads."""


class ModelError(CoreError, ValueError):
    """A scenario that is valid on its own but cannot be evaluated (e.g. an empty path)."""
