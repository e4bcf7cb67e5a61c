"""V$RMAN_STATUS: every RMAN session, command and recursive operation with its times and
bytes (Oracle Database Reference, V$RMAN_STATUS).

A restore drill's session gives one row per command: `RESTORE` (control file, then the
database), `RECOVER`, and `BACKUP` rows for backup runs, each with START_TIME, END_TIME
and, for restores and backups, the bytes read (INPUT_BYTES) and written (OUTPUT_BYTES).
Those times and volumes are what a drill needs when the RMAN log was not kept, and the
volume a log never prints. The query (docs/evidence.md) formats the dates
`YYYY-MM-DD HH24:MI:SS`; CSV and SQL*Plus text are both read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime

from .csv_common import CsvTable
from .errors import EvidenceError
from .readfile import read_input
from .view_table import read_view_table

REQUIRED = ("OPERATION", "STATUS", "START_TIME")


@dataclass(frozen=True)
class RmanOperation:
    """One row of V$RMAN_STATUS."""

    operation: str
    status: str
    row_type: str
    start: datetime
    end: datetime | None
    input_bytes: float | None
    output_bytes: float | None
    object_type: str
    device_type: str
    session: str
    line: int

    @property
    def elapsed_s(self) -> float | None:
        return (self.end - self.start).total_seconds() if self.end else None

    @property
    def completed(self) -> bool:
        return self.status.startswith("COMPLETED")

    @property
    def data_bytes(self) -> float | None:
        """What the operation moved in data bytes: a restore writes datafiles
        (OUTPUT_BYTES), a backup reads them (INPUT_BYTES)."""
        return self.output_bytes if self.operation.startswith("RESTORE") else self.input_bytes


def is_rman_status_table(table: CsvTable) -> bool:
    return {"OPERATION", "STATUS", "START_TIME"} <= set(table.columns) and (
        "ROW_TYPE" in table.columns or "MBYTES_PROCESSED" in table.columns
    )


def _bytes(table: CsvTable, line: int, row: dict[str, str], name: str) -> float | None:
    value = table.number(line, row, name, required=False)
    if value is None and name == "OUTPUT_BYTES":
        mb = table.number(line, row, "MBYTES_PROCESSED", required=False)
        return None if mb is None else mb * 1024**2
    return value


def operations_from_table(table: CsvTable) -> list[RmanOperation]:
    table.require(*REQUIRED, what="V$RMAN_STATUS")
    out = []
    for line, row in table.rows:
        start = table.when(line, row, "START_TIME")
        assert start is not None
        end = table.when(line, row, "END_TIME", required=False)
        if end is not None and end < start:
            raise EvidenceError(
                f"END_TIME {row['END_TIME']} is before START_TIME {row['START_TIME']}",
                source=table.source,
                line=line,
            )
        out.append(
            RmanOperation(
                operation=" ".join(row["OPERATION"].upper().split()),
                status=row["STATUS"].upper(),
                row_type=row.get("ROW_TYPE", "").upper(),
                start=start,
                end=end,
                input_bytes=_bytes(table, line, row, "INPUT_BYTES"),
                output_bytes=_bytes(table, line, row, "OUTPUT_BYTES"),
                object_type=row.get("OBJECT_TYPE", "").upper(),
                device_type=row.get("OUTPUT_DEVICE_TYPE", "").upper(),
                session=row.get("SESSION_RECID") or row.get("SESSION_KEY") or "",
                line=line,
            )
        )
    if not out:
        raise EvidenceError("V$RMAN_STATUS export without rows", source=table.source)
    return out


def load_rman_status_bytes(data: bytes, source: str = "<data>") -> list[RmanOperation]:
    return operations_from_table(read_view_table(data, source))


def load_rman_status(path: str | os.PathLike[str]) -> list[RmanOperation]:
    return load_rman_status_bytes(read_input(path, error=EvidenceError), str(path))


__all__ = [
    "RmanOperation",
    "is_rman_status_table",
    "load_rman_status",
    "load_rman_status_bytes",
    "operations_from_table",
]
