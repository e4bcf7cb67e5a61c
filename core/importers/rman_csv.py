"""Measured backup rates and compression ratios from RMAN job history.

A CSV export of V$RMAN_BACKUP_JOB_DETAILS (query in docs/importing.md) lists every backup
job with its input bytes (data read from datafiles or archived logs), output bytes (what
went into backup pieces), device type and elapsed time. Grouped by device type and input
type, they give the measured rates a scenario's `measured` stage needs, and the compression
ratio that RMAN achieved (data bytes per backup byte, DESIGN §3.1).
"""

from __future__ import annotations

import os
import statistics
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..jsonable import json_ready
from .csv_common import CsvTable, read_csv, read_csv_bytes
from .errors import CsvImportError

REQUIRED = ("INPUT_TYPE", "STATUS", "OUTPUT_DEVICE_TYPE", "INPUT_BYTES", "OUTPUT_BYTES")
TIME_COLUMNS = ("START_TIME", "END_TIME", "ELAPSED_SECONDS")
GOOD_STATUS = ("COMPLETED", "COMPLETED WITH WARNINGS")
MIN_ELAPSED_S = 60.0
"""Jobs shorter than this measure channel start-up more than throughput: left out."""


@dataclass(frozen=True)
class BackupJob:
    """One row of V$RMAN_BACKUP_JOB_DETAILS."""

    session_key: str | None
    input_type: str
    status: str
    device_type: str
    start: datetime | None
    end: datetime | None
    elapsed_s: float
    input_bytes: float
    output_bytes: float

    @property
    def input_Bps(self) -> float:
        return self.input_bytes / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def compression_ratio(self) -> float | None:
        return self.input_bytes / self.output_bytes if self.output_bytes > 0 else None


@dataclass(frozen=True)
class BackupRate:
    """Measured rates of the completed jobs of one device type and input type."""

    device_type: str
    input_type: str
    jobs: int
    input_bytes: float
    output_bytes: float
    elapsed_s: float
    input_Bps: float
    output_Bps: float
    median_input_Bps: float
    max_input_Bps: float
    compression_ratio: float | None
    first: datetime | None
    last: datetime | None

    def to_dict(self) -> dict[str, Any]:
        return json_ready(self)


def is_rman_jobs_csv(table: CsvTable) -> bool:
    return {"INPUT_TYPE", "OUTPUT_DEVICE_TYPE", "INPUT_BYTES"} <= set(table.columns)


def jobs_from_table(table: CsvTable) -> list[BackupJob]:
    table.require(*REQUIRED, what="V$RMAN_BACKUP_JOB_DETAILS")
    if "ELAPSED_SECONDS" not in table.columns:
        table.require("START_TIME", "END_TIME", what="V$RMAN_BACKUP_JOB_DETAILS")
    jobs = []
    for line, row in table.rows:
        start = table.when(line, row, "START_TIME", required=False)
        end = table.when(line, row, "END_TIME", required=False)
        elapsed = table.number(line, row, "ELAPSED_SECONDS", required=False)
        if elapsed is None:
            if start is None or end is None:
                raise CsvImportError(
                    "neither ELAPSED_SECONDS nor START_TIME and END_TIME",
                    source=table.source,
                    line=line,
                )
            elapsed = (end - start).total_seconds()
        jobs.append(
            BackupJob(
                session_key=row.get("SESSION_KEY") or None,
                input_type=row["INPUT_TYPE"].upper() or "UNKNOWN",
                status=row["STATUS"].upper(),
                device_type=row["OUTPUT_DEVICE_TYPE"].upper() or "UNKNOWN",
                start=start,
                end=end,
                elapsed_s=float(elapsed),
                input_bytes=table.number(line, row, "INPUT_BYTES") or 0.0,
                output_bytes=table.number(line, row, "OUTPUT_BYTES") or 0.0,
            )
        )
    return jobs


def backup_rates(
    jobs: list[BackupJob], *, min_elapsed_s: float = MIN_ELAPSED_S
) -> list[BackupRate]:
    """Rates per (device type, input type) over completed jobs of at least `min_elapsed_s`.

    `input_Bps` is total input bytes over total elapsed time (what a long job achieves);
    `median_input_Bps` and `max_input_Bps` show the spread between jobs.
    """
    groups: dict[tuple[str, str], list[BackupJob]] = defaultdict(list)
    for job in jobs:
        if job.status in GOOD_STATUS and job.elapsed_s >= min_elapsed_s and job.input_bytes > 0:
            groups[(job.device_type, job.input_type)].append(job)
    out = []
    for (device, input_type), group in sorted(groups.items()):
        inp = sum(j.input_bytes for j in group)
        outp = sum(j.output_bytes for j in group)
        elapsed = sum(j.elapsed_s for j in group)
        rates = [j.input_Bps for j in group]
        starts = [j.start for j in group if j.start]
        out.append(
            BackupRate(
                device_type=device,
                input_type=input_type,
                jobs=len(group),
                input_bytes=inp,
                output_bytes=outp,
                elapsed_s=elapsed,
                input_Bps=inp / elapsed,
                output_Bps=outp / elapsed,
                median_input_Bps=statistics.median(rates),
                max_input_Bps=max(rates),
                compression_ratio=inp / outp if outp > 0 else None,
                first=min(starts) if starts else None,
                last=max(starts) if starts else None,
            )
        )
    return out


def load_rman_jobs(path: str | os.PathLike[str]) -> list[BackupJob]:
    """Read a V$RMAN_BACKUP_JOB_DETAILS export from disk (see docs/importing.md)."""
    return jobs_from_table(read_csv(path))


def load_rman_jobs_bytes(data: bytes, source: str = "<data>") -> list[BackupJob]:
    return jobs_from_table(read_csv_bytes(data, source))
