"""The lines of a TOML text as TOML counts them, for messages and comments.

Two things make `str.splitlines()` name the wrong line (issue 25: "line 31 for 28"):

* TOML's newline is LF (or CRLF) only, while `splitlines()` also breaks at U+2028,
  U+2029, U+0085, form feeds and other separators, which a comment or a string may hold;
* a line inside a multi-line string (`notes = \"\"\"...\"\"\"`) is text, not a key or a
  table header, however much it looks like one.

`code_lines(text)` yields each line number and line that does not start inside a
multi-line string, numbered as the TOML reader numbers its errors. Linear in the text:
`str.find` and a regular expression of fixed alternatives, no backtracking.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_TOKEN = re.compile(r"\"\"\"|'''|[\"'#]")
"""What changes the state of a line: a string's opening quote(s) or a comment."""


def code_lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based line number, line) of every line that starts outside a multi-line string;
    a CRLF line loses its CR."""
    open_delim: str | None = None
    for no, line in enumerate(text.split("\n"), start=1):
        inside = open_delim is not None
        open_delim = _open_at_end(line, open_delim)
        if not inside:
            yield no, line.removesuffix("\r")


def _open_at_end(line: str, open_delim: str | None) -> str | None:
    """The multi-line string delimiter still open at the end of `line`, or None."""
    i = 0
    if open_delim is not None:
        i = _close(line, 0, open_delim)
        if i < 0:
            return open_delim
    while True:
        m = _TOKEN.search(line, i)
        if m is None or m.group() == "#":
            return None
        delim = m.group()
        i = _close(line, m.end(), delim)
        if i < 0:
            # An unclosed one-line string is the TOML reader's error to report
            return delim if len(delim) == 3 else None


def _close(line: str, pos: int, delim: str) -> int:
    """The index just past the `delim` that closes a string from `pos`, or -1."""
    while True:
        j = line.find(delim, pos)
        if j < 0:
            return -1
        if delim[0] == '"' and _escaped(line, j):
            pos = j + 1
            continue
        end = j + len(delim)
        if len(delim) == 3:  # up to two quotes more belong to the string
            while end < len(line) and end - j < 5 and line[end] == delim[0]:
                end += 1
        return end


def _escaped(line: str, j: int) -> bool:
    """True when the quote at `j` follows an odd run of backslashes."""
    k = j
    while k > 0 and line[k - 1] == "\\":
        k -= 1
    return (j - k) % 2 == 1
