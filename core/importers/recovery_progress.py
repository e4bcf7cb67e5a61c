"""Measured redo apply rate from V$RECOVERY_PROGRESS.

During (or right after) a media recovery or on a Data Guard standby, V$RECOVERY_PROGRESS
reports `Average Apply Rate` and `Active Apply Rate` in KB/sec (Oracle's KB: 1024 bytes)
and `Redo Applied` in Megabytes (MiB). A measured rate beats any workload-class default
(DESIGN §3.4). Accepted: the CSV export of docs/importing.md, or the SQL*Plus listing of
`SELECT item, units, sofar FROM v$recovery_progress`.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..jsonable import json_ready
from ..units import KiB, MiB
from .csv_common import CsvTable, read_csv_bytes
from .detect import decode
from .errors import CsvImportError
from .numbers import parse_number, parse_oracle_datetime
from .readfile import read_input

_UNIT_BYTES = {"KB/SEC": KiB, "MEGABYTES": MiB, "SECONDS": 1.0}


@dataclass(frozen=True)
class RedoApplyRate:
    """One recovery's measured apply rates (bytes/s) and volume, as V$RECOVERY_PROGRESS says."""

    start: datetime | None
    recovery_type: str | None
    average_Bps: float | None
    active_Bps: float | None
    maximum_Bps: float | None
    redo_applied_bytes: float | None
    elapsed_s: float | None
    active_s: float | None
    source: str

    def to_dict(self) -> dict[str, Any]:
        return json_ready(self)


_ITEMS = {
    "AVERAGE APPLY RATE": "average_Bps",
    "ACTIVE APPLY RATE": "active_Bps",
    "MAXIMUM APPLY RATE": "maximum_Bps",
    "REDO APPLIED": "redo_applied_bytes",
    "ELAPSED TIME": "elapsed_s",
    "ACTIVE TIME": "active_s",
}


def _convert(item: str, units: str, value: float | None) -> float | None:
    if value is None:
        return None
    unit = units.strip().upper()
    factor = _UNIT_BYTES.get(unit)
    if factor is None:
        factor = KiB if "RATE" in item else 1.0
    return value * factor


def _from_items(
    groups: dict[tuple[str, str], dict[str, float | None]], source: str
) -> list[RedoApplyRate]:
    out = []
    for (start_text, rtype), values in groups.items():
        if not any(values.get(k) is not None for k in ("average_Bps", "active_Bps")):
            continue
        out.append(
            RedoApplyRate(
                start=parse_oracle_datetime(start_text),
                recovery_type=rtype or None,
                average_Bps=values.get("average_Bps"),
                active_Bps=values.get("active_Bps"),
                maximum_Bps=values.get("maximum_Bps"),
                redo_applied_bytes=values.get("redo_applied_bytes"),
                elapsed_s=values.get("elapsed_s"),
                active_s=values.get("active_s"),
                source=source,
            )
        )
    if not out:
        raise CsvImportError(
            "no 'Average Apply Rate' or 'Active Apply Rate' item: not V$RECOVERY_PROGRESS output",
            source=source,
            hint="export with the query in docs/importing.md during or right after a recovery",
        )
    return out


def rates_from_table(table: CsvTable) -> list[RedoApplyRate]:
    table.require("ITEM", "UNITS", "SOFAR", what="V$RECOVERY_PROGRESS")
    groups: dict[tuple[str, str], dict[str, float | None]] = defaultdict(dict)
    for line, row in table.rows:
        key = _ITEMS.get(" ".join(row.get("ITEM", "").upper().split()))
        if key is None:
            continue
        value = table.number(line, row, "SOFAR", required=False)
        group = (row.get("START_TIME", ""), row.get("TYPE", ""))
        groups[group][key] = _convert(key, row.get("UNITS", ""), value)
    return _from_items(groups, table.source)


_LISTING_RE = re.compile(
    r"^\s*(?P<item>Average Apply Rate|Active Apply Rate|Maximum Apply Rate|Redo Applied|"
    r"Elapsed Time|Active Time)\s+(?P<units>KB/sec|Megabytes|Seconds)\s+(?P<sofar>[\d,.]+)",
    re.IGNORECASE | re.MULTILINE,
)


def is_recovery_progress_csv(table: CsvTable) -> bool:
    return {"ITEM", "UNITS", "SOFAR"} <= set(table.columns)


def load_recovery_progress_bytes(data: bytes, source: str = "<data>") -> list[RedoApplyRate]:
    """Parse the CSV export, or failing that a SQL*Plus listing of item, units, sofar."""
    text = decode(data)
    first = text.lstrip().split("\n", 1)[0].upper()
    if "ITEM" in first and ("," in first or ";" in first or "\t" in first):
        return rates_from_table(read_csv_bytes(data, source))
    groups: dict[tuple[str, str], dict[str, float | None]] = defaultdict(dict)
    for m in _LISTING_RE.finditer(text):
        key = _ITEMS[" ".join(m.group("item").upper().split())]
        groups[("", "")][key] = _convert(key, m.group("units"), parse_number(m.group("sofar")))
    return _from_items(groups, source)


def load_recovery_progress(path: str | os.PathLike[str]) -> list[RedoApplyRate]:
    """Read V$RECOVERY_PROGRESS output (CSV or SQL*Plus listing) from disk."""
    data = read_input(path, error=CsvImportError)
    return load_recovery_progress_bytes(data, str(path))
