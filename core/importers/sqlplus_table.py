"""Tables as SQL*Plus prints them: a header line, a line of dashes, then rows.

SQL*Plus pads each column to the width of its dashes, so a row is cut at the dashes'
column starts, not at spaces (an OPNAME such as `RMAN: aggregate input` holds spaces).
A header repeated on every page (`SET PAGESIZE` too small) is skipped; the feedback line
(`12 rows selected.`) and blank lines end nothing and are skipped too. docs/evidence.md
gives the `SET` options that print a table this reader takes whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DASHES_RE = re.compile(r"^\s*-+(?:\s+-+)*\s*$")
_FEEDBACK_RE = re.compile(r"^\s*(?:\d+|no) rows? selected\.?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class TextTable:
    """Upper-case column names and rows as dicts, with 1-based line numbers."""

    columns: tuple[str, ...]
    rows: tuple[tuple[int, dict[str, str]], ...]


def _spans(dashes: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"-+", dashes)]


def _cut(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """The cells of `line` at the columns' starts (the last cell runs to the end)."""
    starts = [s for s, _ in spans] + [None]
    return [line[starts[i] : starts[i + 1]].strip() for i in range(len(spans))]


def _header(line: str, spans: list[tuple[int, int]]) -> tuple[str, ...]:
    return tuple(" ".join(c.split()).upper().replace(" ", "_") for c in _cut(line, spans))


def find_text_table(text: str) -> TextTable | None:
    """The first SQL*Plus table in `text` (and its repeated pages), or None."""
    lines = text.splitlines()
    at = next((i for i in range(1, len(lines)) if _is_rule(lines, i)), None)
    if at is None:
        return None
    spans = _spans(lines[at])
    columns = _header(lines[at - 1], spans)
    rows: list[tuple[int, dict[str, str]]] = []
    i = at + 1
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and _is_rule(lines, i + 1) and _header(line, spans) == columns:
            i += 2  # the header printed again on a new page
            continue
        if line.strip() and not _FEEDBACK_RE.match(line):
            rows.append((i + 1, dict(zip(columns, _cut(line, spans), strict=True))))
        i += 1
    return TextTable(columns=columns, rows=tuple(rows))


def _is_rule(lines: list[str], i: int) -> bool:
    """Line `i` is a row of dashes under a header of words."""
    return bool(_DASHES_RE.match(lines[i])) and bool(lines[i - 1].strip())


__all__ = ["TextTable", "find_text_table"]
