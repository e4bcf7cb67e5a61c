"""Importers: AWR / Statspack reports and CSV exports turned into workload figures.

Public API (everything in bytes, seconds and per-second floats; datetimes naive):

* `parse_file(path)`, `parse_bytes(data, source)` → `list[WorkloadReport]` (two for a
  compare-period report); `parse_paths(paths)` walks directories and yields one
  `ParseOutcome` per file, carrying on past failures.
* `redo_series(items)` / `series_by_database(items)` → `RedoSeries` (hourly redo, average,
  p95, peak, per day, busiest hour; RAC instances added up) from reports or `RedoInterval`s.
* `read_export(path)` → `Export` for the CSV exports of docs/importing.md:
  DBA_HIST_SYSSTAT redo (`redo_intervals`), V$RMAN_BACKUP_JOB_DETAILS (`backup_jobs`, then
  `backup_rates(jobs)`), V$RECOVERY_PROGRESS (`apply_rates`).
* Errors are `ReportError` subclasses (`NotAReportError`, `UnsupportedReportError`,
  `TruncatedReportError`, `CsvImportError`), all `CoreError`s naming the file.

Module map: detect (what a file is), numbers (Oracle numbers and dates), text_common /
awr_text / statspack (text layouts), awr_html (HTML layouts), extract (label normalisation,
checks, assembly), model (dataclasses, content hash), reader (entry points), series,
csv_common / sysstat_csv / rman_csv / recovery_progress / exports (CSV exports).

Into the store and into scenarios (imported from their modules, not here, so that parsing
does not load DuckDB): store_import (`import_file`, `import_paths`: one transaction per
file, duplicates by content; a plain DBA_HIST_SYSSTAT export read by DuckDB in
sysstat_sql, its rows held until stored in duck_batch, in the store's own DuckDB), stored
(`workload_summaries`, `database_workload`, `list_imports`), apply (`ApplyRequest`,
`apply_imports`: figures with provenance), evidence (`evidence_for`,
`evidence_for_scenario`: the PDF report's workload section).
"""

from .errors import (
    CsvImportError,
    NotAReportError,
    ReportError,
    TruncatedReportError,
    UnsupportedReportError,
)
from .exports import Export, read_export, read_export_bytes
from .model import InstanceRates, LoadProfileRow, WorkloadReport, content_hash
from .reader import ParseOutcome, iter_report_files, parse_bytes, parse_file, parse_paths
from .recovery_progress import RedoApplyRate, load_recovery_progress
from .rman_csv import BackupJob, BackupRate, backup_rates, load_rman_jobs
from .series import HourlyRedo, RedoInterval, RedoSeries, redo_series, series_by_database
from .sysstat_csv import load_sysstat_csv

__all__ = [
    "BackupJob",
    "BackupRate",
    "CsvImportError",
    "Export",
    "HourlyRedo",
    "InstanceRates",
    "LoadProfileRow",
    "NotAReportError",
    "ParseOutcome",
    "RedoApplyRate",
    "RedoInterval",
    "RedoSeries",
    "ReportError",
    "TruncatedReportError",
    "UnsupportedReportError",
    "WorkloadReport",
    "backup_rates",
    "content_hash",
    "iter_report_files",
    "load_recovery_progress",
    "load_rman_jobs",
    "load_sysstat_csv",
    "parse_bytes",
    "parse_file",
    "parse_paths",
    "read_export",
    "read_export_bytes",
    "redo_series",
    "series_by_database",
]
