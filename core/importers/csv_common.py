"""Reading the CSV exports described in docs/importing.md.

SQL Developer, SQL*Plus `SET MARKUP CSV ON`, Toad and spreadsheets all write slightly
different CSV: comma, semicolon or tab; quoted or bare headers in any case; a BOM; CRLF.
Columns are found by name, never by position, and every message names the file and line.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from .detect import decode
from .errors import CsvImportError
from .numbers import parse_number, parse_oracle_datetime
from .readfile import read_input


@dataclass(frozen=True)
class CsvTable:
    """A CSV file: upper-case column names and rows as dicts, with 1-based line numbers."""

    source: str
    columns: tuple[str, ...]
    rows: tuple[tuple[int, dict[str, str]], ...]
    data: bytes

    def require(self, *names: str, what: str) -> None:
        """Refuse the file, naming the missing columns, when one of `names` is absent."""
        missing = [n for n in names if n not in self.columns]
        if missing:
            raise CsvImportError(
                f"not a {what} export: column(s) {', '.join(missing)} missing "
                f"(found {', '.join(self.columns) or 'none'})",
                source=self.source,
                line=1,
                hint="export with the query in docs/importing.md",
            )

    def number(
        self, line: int, row: dict[str, str], name: str, *, required: bool = True
    ) -> float | None:
        text = row.get(name, "")
        # the common case first (a plain integer, as DBA_HIST_* exports print counters)
        value = float(text) if text.isascii() and text.isdigit() else parse_number(text)
        if value is None and required:
            raise CsvImportError(f"{name} is {text!r}, not a number", source=self.source, line=line)
        return value

    def dbid(self, line: int, row: dict[str, str], name: str = "DBID") -> int | None:
        """A database id: a whole number of at most 10 digits (Oracle's DBID is below
        2^32), or None for an empty cell. `inf`, a 400-digit number or `12.5` is one
        line naming the file, line and column (issue 25), never an OverflowError."""
        text = row.get(name, "").strip()
        if not text:
            return None
        value = _dbid_value(text)
        if value is None:
            shown = text if len(text) <= 40 else text[:40] + "…"
            raise CsvImportError(
                f"column {name} is {shown!r}, not a database id (a whole number of up to "
                "10 digits such as 1380142923)",
                source=self.source,
                line=line,
                hint="export DBID as the number V$DATABASE gives",
            )
        return value

    def when(
        self, line: int, row: dict[str, str], name: str, *, required: bool = True
    ) -> datetime | None:
        text = row.get(name, "")
        value = _iso_seconds(text) or parse_oracle_datetime(text)
        if value is None and required:
            raise CsvImportError(
                f"{name} is {text!r}, not a date and time such as 2024-03-04 09:00:12",
                source=self.source,
                line=line,
            )
        return value


@lru_cache(maxsize=256)
def _dbid_value(text: str) -> int | None:
    """The DBID in `text` (a whole number of up to 10 digits), else None; cached, as every
    row of an export repeats its few DBIDs."""
    digits = text[:-2] if text.endswith(".0") else text
    if digits.isascii() and digits.isdigit() and 0 < len(digits) <= 10:
        return int(digits)
    return None


def _iso_seconds(text: str) -> datetime | None:
    """`2024-05-06 08:00:00` (the ISO form exports mostly print) without a regex; anything
    else is None and goes to `parse_oracle_datetime`."""
    if len(text) != 19 or text[4] != "-" or text[10] != " " or not text.isascii():
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t", "|")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


ROWS_PER_REPORT = 10_000
"""`rows_read(done, total)` is called every this many lines of a large CSV."""


def read_csv_bytes(
    data: bytes, source: str, rows_read: Callable[[int, int], None] | None = None
) -> CsvTable:
    """Parse CSV bytes into a `CsvTable`; raise `CsvImportError` when it is not a table.

    `rows_read(lines done, lines in all)` every `ROWS_PER_REPORT` lines (an import's
    progress within a large file; what it raises goes on to the caller)."""
    if b"\x00" in data[:4096]:
        raise CsvImportError("binary file, not a CSV export", source=source)
    text = decode(data)
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise CsvImportError("empty file, not a CSV export", source=source)
    reader = csv.reader(io.StringIO("\n".join(lines[first:])), delimiter=_delimiter(lines[first]))
    try:
        header = next(reader)
        columns = tuple(c.strip().strip('"').upper() for c in header)
        rows: list[tuple[int, dict[str, str]]] = []
        total = len(lines) - first - 1
        for offset, cells in enumerate(reader):
            if rows_read is not None and offset % ROWS_PER_REPORT == 0:
                rows_read(offset, total)
            if not any(c.strip() for c in cells):
                continue
            rows.append(
                (first + offset + 2, dict(zip(columns, (c.strip() for c in cells), strict=False)))
            )
    except csv.Error as exc:
        raise CsvImportError(f"not a readable CSV file: {exc}", source=source) from exc
    return CsvTable(source=source, columns=columns, rows=tuple(rows), data=data)


def read_csv(path: str | os.PathLike[str]) -> CsvTable:
    """Read a CSV export from disk (errors name the file)."""
    data = read_input(path, error=CsvImportError)
    return read_csv_bytes(data, str(path))


def by_key(rows: Iterable[tuple[int, dict[str, str]]], *names: str) -> Iterator[tuple]:
    """Group key for rows: the values of `names` (absent columns give '')."""
    for line, row in rows:
        yield tuple(row.get(n, "") for n in names), line, row
