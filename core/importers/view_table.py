"""A V$ view export as a table, whether it was written as CSV or printed by SQL*Plus.

docs/evidence.md gives each query twice: with `SET MARKUP CSV ON` (SQL*Plus 12.2+, SQL
Developer) and as plain SQL*Plus text with wide enough `LINESIZE`. Both become the same
`CsvTable` (upper-case columns, rows with their line numbers), so each view's reader has
one code path and the same one-line errors (file, line, column).
"""

from __future__ import annotations

from .csv_common import CsvTable, read_csv_bytes
from .detect import decode
from .sqlplus_table import find_text_table


def read_view_table(data: bytes, source: str) -> CsvTable:
    """The table in `data`: SQL*Plus text when it has a header underlined with dashes,
    else CSV. Errors (binary, empty, unreadable CSV) name `source`."""
    text = decode(data) if b"\x00" not in data[:4096] else ""
    table = find_text_table(text) if text else None
    if table is None:
        return read_csv_bytes(data, source)
    return CsvTable(source=source, columns=table.columns, rows=table.rows, data=data)


__all__ = ["read_view_table"]
