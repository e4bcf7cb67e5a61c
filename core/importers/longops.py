"""V$SESSION_LONGOPS snapshots of a restore or recovery in progress.

RMAN reports its work there while it runs (Oracle Database Reference, V$SESSION_LONGOPS):
one `RMAN: aggregate input` row per channel session for the job as a whole, and a row per
backup set (`RMAN: full datafile restore`, `RMAN: incremental datafile restore`, `RMAN:
archivelog restore` …) with SOFAR and TOTALWORK in blocks (UNITS = Blocks), START_TIME,
ELAPSED_SECONDS and Oracle's own TIME_REMAINING. Media recovery shows as `Media Recovery`
rows (V$RECOVERY_PROGRESS is a subview of this one).

A snapshot is the rows read at one moment: the query of docs/evidence.md adds SYSDATE as
SNAPSHOT_TIME (several snapshots may be spooled into one file) and the block size
(BLOCK_SIZE) that turns blocks into bytes. Without SNAPSHOT_TIME, the latest
LAST_UPDATE_TIME of the rows stands for the moment; without BLOCK_SIZE, 8 KiB (Oracle's
default block size) is assumed and said.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from .csv_common import CsvTable
from .errors import EvidenceError
from .readfile import read_input
from .view_table import read_view_table

DEFAULT_BLOCK_SIZE = 8192
REQUIRED = ("OPNAME", "SOFAR", "TOTALWORK")


@dataclass(frozen=True)
class LongOp:
    """One row of V$SESSION_LONGOPS."""

    sid: str
    opname: str
    units: str
    sofar: float
    totalwork: float
    start: datetime | None
    last_update: datetime | None
    elapsed_s: float | None
    time_remaining_s: float | None
    block_size: float
    line: int

    @property
    def kind(self) -> str:
        """aggregate_input | aggregate_output | level0 | incremental | archivelog |
        media_recovery | other."""
        op = self.opname.lower()
        for needle, kind in _KINDS:
            if needle in op:
                return kind
        return "other"

    @property
    def done_bytes(self) -> float:
        return self.sofar * self.block_size if self.units.lower() == "blocks" else self.sofar

    @property
    def total_bytes(self) -> float:
        return (
            self.totalwork * self.block_size if self.units.lower() == "blocks" else self.totalwork
        )

    @property
    def finished(self) -> bool:
        return self.totalwork > 0 and self.sofar >= self.totalwork


_KINDS = (
    ("aggregate input", "aggregate_input"),
    ("aggregate output", "aggregate_output"),
    ("incremental datafile restore", "incremental"),
    ("full datafile restore", "level0"),
    ("datafile restore", "level0"),
    ("archivelog restore", "archivelog"),
    ("archived log restore", "archivelog"),
    ("media recovery", "media_recovery"),
)


@dataclass(frozen=True)
class LongopsSnapshot:
    """The rows read at one moment `at`."""

    at: datetime
    rows: tuple[LongOp, ...]
    source: str
    assumed_block_size: bool

    def of(self, *kinds: str) -> tuple[LongOp, ...]:
        return tuple(r for r in self.rows if r.kind in kinds)


def is_longops_table(table: CsvTable) -> bool:
    return {"OPNAME", "SOFAR", "TOTALWORK"} <= set(table.columns)


def _row(table: CsvTable, line: int, row: dict[str, str], block: float) -> LongOp:
    sofar = table.number(line, row, "SOFAR")
    total = table.number(line, row, "TOTALWORK")
    assert sofar is not None and total is not None
    if sofar < 0 or total < 0:
        raise EvidenceError(
            "SOFAR and TOTALWORK cannot be negative", source=table.source, line=line
        )
    return LongOp(
        sid=row.get("SID", ""),
        opname=row["OPNAME"],
        units=row.get("UNITS", "Blocks"),
        sofar=sofar,
        totalwork=total,
        start=table.when(line, row, "START_TIME", required=False),
        last_update=table.when(line, row, "LAST_UPDATE_TIME", required=False),
        elapsed_s=table.number(line, row, "ELAPSED_SECONDS", required=False),
        time_remaining_s=table.number(line, row, "TIME_REMAINING", required=False),
        block_size=block,
        line=line,
    )


def _moment(table: CsvTable, line: int, row: dict[str, str]) -> datetime | None:
    return table.when(line, row, "SNAPSHOT_TIME", required="SNAPSHOT_TIME" in table.columns)


def snapshots_from_table(table: CsvTable) -> list[LongopsSnapshot]:
    table.require(*REQUIRED, what="V$SESSION_LONGOPS")
    if "SNAPSHOT_TIME" not in table.columns and "LAST_UPDATE_TIME" not in table.columns:
        raise EvidenceError(
            "V$SESSION_LONGOPS export without SNAPSHOT_TIME or LAST_UPDATE_TIME: when was it "
            "taken?",
            source=table.source,
            line=1,
            hint="add SYSDATE AS snapshot_time as in docs/evidence.md",
        )
    groups: dict[datetime | None, list[LongOp]] = defaultdict(list)
    for line, row in table.rows:
        block = table.number(line, row, "BLOCK_SIZE", required=False) or DEFAULT_BLOCK_SIZE
        groups[_moment(table, line, row)].append(_row(table, line, row, block))
    return _assemble(groups, table)


def _assemble(
    groups: dict[datetime | None, list[LongOp]], table: CsvTable
) -> list[LongopsSnapshot]:
    assumed = "BLOCK_SIZE" not in table.columns
    out = []
    for at, rows in groups.items():
        moment = at or max((r.last_update for r in rows if r.last_update), default=None)
        if moment is None:
            raise EvidenceError(
                "rows without SNAPSHOT_TIME or LAST_UPDATE_TIME",
                source=table.source,
                line=rows[0].line,
            )
        out.append(LongopsSnapshot(moment, tuple(rows), table.source, assumed))
    if not out:
        raise EvidenceError("V$SESSION_LONGOPS export without rows", source=table.source)
    return sorted(out, key=lambda s: s.at)


def load_longops_bytes(data: bytes, source: str = "<data>") -> list[LongopsSnapshot]:
    return snapshots_from_table(read_view_table(data, source))


def load_longops(path: str | os.PathLike[str]) -> list[LongopsSnapshot]:
    return load_longops_bytes(read_input(path, error=EvidenceError), str(path))


__all__ = [
    "DEFAULT_BLOCK_SIZE",
    "LongOp",
    "LongopsSnapshot",
    "is_longops_table",
    "load_longops",
    "load_longops_bytes",
    "snapshots_from_table",
]
