"""V$RECOVERY_PROGRESS read as snapshots of a media recovery in progress.

recovery_progress.py reads the view for its apply rates; the recovery clock and a drill
need more: when the snapshot was taken and how far the recovery is. Items read (Oracle
Database Reference, V$RECOVERY_PROGRESS): `Redo Applied` (Megabytes = MiB), `Active
Apply Rate` / `Average Apply Rate` (KB/sec, KB = 1024 bytes), `Log Files` (count),
`Elapsed Time` and `Active Time` (seconds), `Apply Time per Log` and `Checkpoint Time per
Log` (seconds). The moment is SNAPSHOT_TIME (SYSDATE in the query of docs/evidence.md),
else START_TIME + `Elapsed Time`.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..units import KiB, MiB
from .csv_common import CsvTable
from .errors import EvidenceError
from .readfile import read_input
from .view_table import read_view_table

_ITEMS = {
    "REDO APPLIED": ("redo_applied_bytes", MiB),
    "ACTIVE APPLY RATE": ("active_Bps", KiB),
    "AVERAGE APPLY RATE": ("average_Bps", KiB),
    "LOG FILES": ("log_files", 1.0),
    "ELAPSED TIME": ("elapsed_s", 1.0),
    "ACTIVE TIME": ("active_s", 1.0),
    "APPLY TIME PER LOG": ("apply_per_log_s", 1.0),
    "CHECKPOINT TIME PER LOG": ("checkpoint_per_log_s", 1.0),
}


@dataclass(frozen=True)
class RecoverySnapshot:
    """One media recovery's progress at `at`."""

    at: datetime
    start: datetime | None
    recovery_type: str
    redo_applied_bytes: float | None = None
    active_Bps: float | None = None
    average_Bps: float | None = None
    log_files: float | None = None
    elapsed_s: float | None = None
    active_s: float | None = None
    apply_per_log_s: float | None = None
    checkpoint_per_log_s: float | None = None
    source: str = ""


def is_recovery_snapshot_table(table: CsvTable) -> bool:
    return {"ITEM", "SOFAR"} <= set(table.columns)


def _key(table: CsvTable, line: int, row: dict[str, str]) -> tuple:
    snap = table.when(line, row, "SNAPSHOT_TIME", required=False)
    start = table.when(line, row, "START_TIME", required=False)
    return snap, start, row.get("TYPE", "")


def snapshots_from_table(table: CsvTable) -> list[RecoverySnapshot]:
    table.require("ITEM", "SOFAR", what="V$RECOVERY_PROGRESS")
    groups: dict[tuple, dict[str, float]] = defaultdict(dict)
    for line, row in table.rows:
        item = _ITEMS.get(" ".join(row.get("ITEM", "").upper().split()))
        if item is None:
            continue
        value = table.number(line, row, "SOFAR", required=False)
        if value is not None:
            if value < 0:
                raise EvidenceError(f"{row['ITEM']} is negative", source=table.source, line=line)
            groups[_key(table, line, row)][item[0]] = value * item[1]
    return _assemble(groups, table.source)


def _assemble(groups: dict[tuple, dict[str, float]], source: str) -> list[RecoverySnapshot]:
    out = []
    for (snap, start, rtype), values in groups.items():
        at = snap
        if at is None and start is not None and values.get("elapsed_s") is not None:
            at = start + timedelta(seconds=values["elapsed_s"])
        if at is None:
            raise EvidenceError(
                "V$RECOVERY_PROGRESS rows without SNAPSHOT_TIME, or START_TIME and 'Elapsed "
                "Time': when were they taken?",
                source=source,
                hint="add SYSDATE AS snapshot_time as in docs/evidence.md",
            )
        out.append(
            RecoverySnapshot(at=at, start=start, recovery_type=rtype, source=source, **values)
        )
    if not out:
        raise EvidenceError("no V$RECOVERY_PROGRESS item such as 'Redo Applied'", source=source)
    return sorted(out, key=lambda s: s.at)


def load_recovery_snapshots_bytes(data: bytes, source: str = "<data>") -> list[RecoverySnapshot]:
    return snapshots_from_table(read_view_table(data, source))


def load_recovery_snapshots(path: str | os.PathLike[str]) -> list[RecoverySnapshot]:
    return load_recovery_snapshots_bytes(read_input(path, error=EvidenceError), str(path))


__all__ = [
    "RecoverySnapshot",
    "is_recovery_snapshot_table",
    "load_recovery_snapshots",
    "load_recovery_snapshots_bytes",
    "snapshots_from_table",
]
