"""Redo by snapshot from a CSV export of DBA_HIST_SYSSTAT joined to DBA_HIST_SNAPSHOT.

The export holds the cumulative `redo size` statistic per instance at each snapshot (query
in docs/importing.md). Consecutive snapshots of one instance give the redo of the interval
between them; a restart (new STARTUP_TIME, or a value that goes down) resets the counter,
so that interval is left out rather than counted as negative or as the whole history.
"""

from __future__ import annotations

import os
from collections import defaultdict

from .csv_common import CsvTable, read_csv, read_csv_bytes
from .errors import CsvImportError
from .series import RedoInterval

REQUIRED = ("DBID", "INSTANCE_NUMBER", "SNAP_ID", "END_INTERVAL_TIME", "REDO_SIZE")
OPTIONAL = ("DB_NAME", "BEGIN_INTERVAL_TIME", "STARTUP_TIME")


def is_sysstat_csv(table: CsvTable) -> bool:
    cols = set(table.columns)
    return {"DBID", "INSTANCE_NUMBER", "SNAP_ID", "END_INTERVAL_TIME"} <= cols and bool(
        {"REDO_SIZE", "VALUE"} & cols
    )


def intervals_from_sysstat(table: CsvTable) -> list[RedoInterval]:
    """Redo intervals, one per pair of consecutive snapshots of one instance."""
    if "REDO_SIZE" not in table.columns and "VALUE" in table.columns:
        value_col = "VALUE"
    else:
        value_col = "REDO_SIZE"
    table.require(
        *(c if c != "REDO_SIZE" else value_col for c in REQUIRED), what="DBA_HIST_SYSSTAT"
    )
    by_instance: dict[tuple[str, str], list[tuple[float, int, dict[str, str]]]] = defaultdict(list)
    for line, row in table.rows:
        table.dbid(line, row)  # one line naming the cell, never an OverflowError later
        snap = table.number(line, row, "SNAP_ID")
        by_instance[(row["DBID"], row["INSTANCE_NUMBER"])].append((snap or 0.0, line, row))
    out: list[RedoInterval] = []
    for (dbid_text, inst), rows in sorted(by_instance.items()):
        rows.sort(key=lambda r: r[0])
        prev = None
        for _snap, line, row in rows:
            end = table.when(line, row, "END_INTERVAL_TIME")
            value = table.number(line, row, value_col)
            startup = row.get("STARTUP_TIME", "")
            if prev is not None:
                p_end, p_value, p_startup = prev
                delta = (value or 0.0) - (p_value or 0.0)
                if startup == p_startup and delta >= 0 and end and p_end and end > p_end:
                    dbid = table.dbid(line, row)
                    out.append(
                        RedoInterval(
                            db=str(dbid) if dbid is not None else dbid_text,
                            instance=inst,
                            begin=p_end,
                            end=end,
                            redo_bytes=delta,
                            source=f"{table.source}:{line}",
                            db_name=row.get("DB_NAME") or None,
                            dbid=dbid,
                        )
                    )
            prev = (end, value, startup)
    if not out:
        raise CsvImportError(
            "no two consecutive snapshots of one instance: no interval to measure redo over",
            source=table.source,
        )
    return out


def load_sysstat_csv(path: str | os.PathLike[str]) -> list[RedoInterval]:
    """Read a DBA_HIST_SYSSTAT redo export from disk (see docs/importing.md)."""
    return intervals_from_sysstat(read_csv(path))


def load_sysstat_csv_bytes(data: bytes, source: str = "<data>") -> list[RedoInterval]:
    return intervals_from_sysstat(read_csv_bytes(data, source))
