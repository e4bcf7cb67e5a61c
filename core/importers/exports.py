"""Recognise a CSV export by its columns and read it with the right reader.

For `rto-planner import` and the GUI's file drop: the user hands over a file; which view it
was exported from is decided by its header, never by its name.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from .csv_common import read_csv_bytes
from .errors import CsvImportError
from .readfile import read_input
from .recovery_progress import (
    RedoApplyRate,
    is_recovery_progress_csv,
    load_recovery_progress_bytes,
    rates_from_table,
)
from .rman_csv import BackupJob, is_rman_jobs_csv, jobs_from_table
from .series import RedoInterval
from .sysstat_csv import intervals_from_sysstat, is_sysstat_csv


@dataclass(frozen=True)
class Export:
    """What an export file held: `kind` is sysstat | rman_jobs | recovery_progress."""

    source: str
    kind: str
    redo_intervals: tuple[RedoInterval, ...] = ()
    backup_jobs: tuple[BackupJob, ...] = ()
    apply_rates: tuple[RedoApplyRate, ...] = ()


def read_export_bytes(
    data: bytes, source: str = "<data>", rows_read: Callable[[int, int], None] | None = None
) -> Export:
    """Read a CSV export (or a SQL*Plus V$RECOVERY_PROGRESS listing); `rows_read` as
    `read_csv_bytes` takes it."""
    table = read_csv_bytes(data, source, rows_read)
    if is_sysstat_csv(table):
        return Export(source, "sysstat", redo_intervals=tuple(intervals_from_sysstat(table)))
    if is_rman_jobs_csv(table):
        return Export(source, "rman_jobs", backup_jobs=tuple(jobs_from_table(table)))
    if is_recovery_progress_csv(table):
        return Export(source, "recovery_progress", apply_rates=tuple(rates_from_table(table)))
    if b"Apply Rate" in data:  # a SQL*Plus listing rather than a CSV
        rates = load_recovery_progress_bytes(data, source)
        return Export(source, "recovery_progress", apply_rates=tuple(rates))
    raise CsvImportError(
        "not an export we read: expected the columns of DBA_HIST_SYSSTAT redo, "
        f"V$RMAN_BACKUP_JOB_DETAILS or V$RECOVERY_PROGRESS (found {', '.join(table.columns)})",
        source=source,
        line=1,
        hint="see docs/importing.md for the queries",
    )


def read_export(path: str | os.PathLike[str]) -> Export:
    data = read_input(path, error=CsvImportError)
    return read_export_bytes(data, str(path))
