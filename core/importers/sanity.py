"""Physically possible figures only: checked after parsing, before anything is stored.

A report or export is a file anyone can edit, damage or forge. A figure no database can
produce (a negative redo rate, a backup that wrote 0 bytes of a 1 TB input, 1e308 bytes of
redo in an hour) would be stored, summarised and applied to a scenario, where it makes a
plan look fine or breaks every later summary. So a file with one is refused whole, with
the figure, the row and the reason — the store is left as it was (docs/importing.md).

The bounds are generous on purpose: they catch the impossible, not the unusual.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..units import format_size
from .errors import ReportError
from .exports import Export
from .model import WorkloadReport
from .recovery_progress import RedoApplyRate
from .rman_csv import GOOD_STATUS, BackupJob
from .series import RedoInterval

MAX_REDO_Bps = 100e9
"""100 GB/s of redo: an order of magnitude above the busiest databases ever measured
(a few GB/s on the largest Exadata systems)."""

MAX_APPLY_Bps = 100e9
"""100 GB/s of redo apply: likewise far above any recovery rate on record."""

MAX_BYTES = 1e20
"""100 EB: more than any single backup or redo volume can hold."""

MAX_INTERVAL_S = 5 * 366 * 86400.0
"""Five years: AWR keeps snapshots for weeks, RMAN jobs run for hours or days."""


def _bad(source: str, what: str, value: float, why: str) -> ReportError:
    return ReportError(
        f"{what} is {value:g}, {why}; nothing of this file was stored",
        source=source,
        hint="the file looks damaged or edited: export it again from the database",
    )


def _check(source: str, what: str, value: float | None, upper: float, unit: str) -> None:
    """`value` must be finite, ≥ 0 and ≤ `upper` (None means "not in the file")."""
    if value is None:
        return
    if not math.isfinite(value):
        raise _bad(source, what, value, "not a number a database reports")
    if value < 0:
        raise _bad(source, what, value, "negative, which no database produces")
    if value > upper:
        raise _bad(source, what, value, f"above the physical bound of {upper:g} {unit}")


_REPORT_RATES = (
    "redo_bytes_per_s", "io_redo_bytes_per_s", "io_redo_write_bytes_per_s",
)  # fmt: skip
_REPORT_COUNTS = (
    "txn_per_s", "block_changes_per_s", "logical_reads_per_s", "physical_reads_per_s",
    "physical_writes_per_s", "executes_per_s", "user_calls_per_s", "redo_bytes_per_txn",
    "block_changes_per_txn", "logical_reads_per_txn", "physical_reads_per_txn",
    "physical_writes_per_txn", "executes_per_txn", "db_time_s", "redo_size_bytes",
    "redo_wastage_bytes", "redo_blocks_written", "redo_writes", "log_switches",
    "log_switches_per_hour",
)  # fmt: skip


def check_report(r: WorkloadReport) -> None:
    """A parsed AWR or Statspack interval; raises `ReportError` on an impossible figure."""
    src = r.file
    _check(src, "the Elapsed time (s)", r.elapsed_s, MAX_INTERVAL_S, "s")
    if r.elapsed_s <= 0:
        raise _bad(src, "the Elapsed time (s)", r.elapsed_s, "not a positive interval")
    for name in _REPORT_RATES:
        _check(src, f"the redo figure {name}", getattr(r, name), MAX_REDO_Bps, "bytes/s")
    for name in _REPORT_COUNTS:
        _check(src, f"the figure {name}", getattr(r, name), MAX_BYTES, "")
    for inst in r.instance_rates:
        _check(src, f"instance {inst.inst_num}'s redo rate", inst.redo_bytes_per_s,
               MAX_REDO_Bps, "bytes/s")  # fmt: skip


def check_interval(iv: RedoInterval) -> None:
    """A DBA_HIST_SYSSTAT interval (its `source` is `file:line`)."""
    _check(iv.source, "REDO_SIZE's increase (bytes)", iv.redo_bytes, MAX_BYTES, "bytes")
    _check(iv.source, "the redo rate (bytes/s)", iv.redo_bytes_per_s, MAX_REDO_Bps, "bytes/s")


def check_job(job: BackupJob, source: str, index: int) -> None:
    """A V$RMAN_BACKUP_JOB_DETAILS row (`index` counts data rows from 1)."""
    where = f"{source}: row {index}" + (
        f" (SESSION_KEY {job.session_key})" if job.session_key else ""
    )
    for column, value in (("INPUT_BYTES", job.input_bytes), ("OUTPUT_BYTES", job.output_bytes)):
        _check(where, column, value, MAX_BYTES, "bytes")
        if value is not None and value != int(
            value
        ):  # 1e-320 bytes moved the compression ratio (issue 25.9)
            raise _bad(where, column, value, "not a whole number of bytes")
    _check(where, "the elapsed time (s)", job.elapsed_s, MAX_INTERVAL_S, "s")
    if job.status in GOOD_STATUS and job.input_bytes > 0 and job.output_bytes <= 0:
        raise ReportError(
            f"a completed backup read {format_size(job.input_bytes)} and wrote "
            "OUTPUT_BYTES = 0, which RMAN cannot do (it would give a compression ratio of "
            "infinity); nothing of this file was stored",
            source=where,
            hint="the file looks damaged or edited: export it again from the database",
        )


def check_apply_rate(rate: RedoApplyRate) -> None:
    src = rate.source
    for what, value in (
        ("the average apply rate", rate.average_Bps),
        ("the active apply rate", rate.active_Bps),
        ("the maximum apply rate", rate.maximum_Bps),
    ):
        _check(src, what + " (bytes/s)", value, MAX_APPLY_Bps, "bytes/s")
    _check(src, "Redo Applied (bytes)", rate.redo_applied_bytes, MAX_BYTES, "bytes")
    _check(src, "the elapsed time (s)", rate.elapsed_s, MAX_INTERVAL_S, "s")
    _check(src, "the active time (s)", rate.active_s, MAX_INTERVAL_S, "s")


def check_reports(reports: Iterable[WorkloadReport]) -> None:
    for r in reports:
        check_report(r)


def check_export(export: Export) -> None:
    """Every row of a CSV export (sysstat intervals, RMAN jobs, recovery progress)."""
    for iv in export.redo_intervals:
        check_interval(iv)
    for i, job in enumerate(export.backup_jobs, start=1):
        check_job(job, export.source, i)
    for rate in export.apply_rates:
        check_apply_rate(rate)


def plausible_interval(iv: RedoInterval) -> bool:
    """For rows stored before these checks existed: skip, rather than summarise, an
    impossible interval (a summary of 1e308 bytes of redo fails with OverflowError)."""
    try:
        check_interval(iv)
    except ReportError:
        return False
    return True


def plausible_job(job: BackupJob) -> bool:
    """Likewise for a stored RMAN job (a job that wrote 0 bytes inflated compression)."""
    try:
        check_job(job, "", 0)
    except ReportError:
        return False
    return True
