"""Recognise a file of restore evidence by its content and read it with the right reader.

For `rto-planner drills add`, `rto-planner clock`, `rto-planner preview` and the GUI's
drop: the user hands over files; what they are is decided by what they say, never by
their names. Kinds:

* `rman_log` — RMAN output (rman_log.py);
* `preview` — RESTORE … PREVIEW [SUMMARY] output (preview.py);
* `rman_status` — V$RMAN_STATUS (rman_status.py);
* `longops` — V$SESSION_LONGOPS snapshots (longops.py);
* `recovery` — V$RECOVERY_PROGRESS snapshots (recovery_snapshots.py);
* `rman_jobs` — V$RMAN_BACKUP_JOB_DETAILS (rman_csv.py).

Every failure is one `ReportError` naming the file (and line): nothing is half-read.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from .csv_common import CsvTable
from .detect import decode
from .errors import CsvImportError, EvidenceError, ReportError
from .longops import LongopsSnapshot, is_longops_table
from .longops import snapshots_from_table as longops_snapshots
from .preview import RestorePreview, is_preview, parse_preview_text
from .readfile import read_input
from .recovery_snapshots import RecoverySnapshot, is_recovery_snapshot_table
from .recovery_snapshots import snapshots_from_table as recovery_snapshots
from .rman_csv import BackupJob, is_rman_jobs_csv, jobs_from_table
from .rman_log import RmanLog, is_rman_log, parse_rman_log_text
from .rman_status import RmanOperation, is_rman_status_table, operations_from_table
from .view_table import read_view_table

KINDS = ("rman_log", "preview", "rman_status", "longops", "recovery", "rman_jobs")


@dataclass(frozen=True)
class EvidenceFile:
    """One file read: `kind` and what its reader returned (`content`)."""

    source: str
    kind: str
    content: Any

    @property
    def log(self) -> RmanLog:
        assert self.kind == "rman_log"
        return self.content

    @property
    def preview(self) -> RestorePreview:
        assert self.kind == "preview"
        return self.content

    @property
    def operations(self) -> list[RmanOperation]:
        return self.content if self.kind == "rman_status" else []

    @property
    def longops(self) -> list[LongopsSnapshot]:
        return self.content if self.kind == "longops" else []

    @property
    def recovery(self) -> list[RecoverySnapshot]:
        return self.content if self.kind == "recovery" else []

    @property
    def jobs(self) -> list[BackupJob]:
        return self.content if self.kind == "rman_jobs" else []


_TIMED_LOG_RE = re.compile(r"(?:restore|backup set) complete, elapsed time|media recovery complete")


def _table_kind(table: CsvTable) -> tuple[str, Any] | None:
    if is_longops_table(table):
        return "longops", longops_snapshots(table)
    if is_recovery_snapshot_table(table):
        return "recovery", recovery_snapshots(table)
    if is_rman_status_table(table):
        return "rman_status", operations_from_table(table)
    if is_rman_jobs_csv(table):
        return "rman_jobs", jobs_from_table(table)
    return None


def read_evidence_bytes(data: bytes, source: str = "<data>") -> EvidenceFile:
    """Read one file of evidence; `ReportError` (one line, naming `source`) otherwise."""
    if not data.strip():
        raise EvidenceError("empty file, not restore evidence", source=source)
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise EvidenceError(
            "binary file, not restore evidence",
            source=source,
            hint="give RMAN logs and V$ view exports as text or CSV",
        )
    text = decode(data)
    if is_rman_log(text) and (_TIMED_LOG_RE.search(text) or not is_preview(text)):
        return EvidenceFile(source, "rman_log", parse_rman_log_text(text, source))
    if is_preview(text):
        return EvidenceFile(source, "preview", parse_preview_text(text, source))
    return _read_table(data, source)


def _read_table(data: bytes, source: str) -> EvidenceFile:
    try:
        table = read_view_table(data, source)
    except CsvImportError:
        table = None
    found = _table_kind(table) if table is not None and table.columns else None
    if found is None:
        cols = ", ".join(table.columns[:8]) if table is not None else "none"
        raise EvidenceError(
            "not restore evidence: neither an RMAN log, RESTORE … PREVIEW output, nor an "
            f"export of V$RMAN_STATUS, V$SESSION_LONGOPS or V$RECOVERY_PROGRESS (columns: {cols})",
            source=source,
            line=1,
            hint="see docs/evidence.md for what to give and how",
        )
    return EvidenceFile(source, *found)


def read_evidence(path: str | os.PathLike[str]) -> EvidenceFile:
    return read_evidence_bytes(read_input(path, error=EvidenceError), str(path))


def read_evidence_files(paths: list[str | os.PathLike[str]]) -> list[EvidenceFile]:
    """Every file, or the first file's error: evidence is all read before anything is used."""
    return [read_evidence(p) for p in paths]


__all__ = [
    "KINDS",
    "EvidenceFile",
    "ReportError",
    "read_evidence",
    "read_evidence_bytes",
    "read_evidence_files",
]
