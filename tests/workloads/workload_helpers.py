"""Helpers for the workload store tests (a plain module: tests/ has no packages)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "awr"
SYNTHETIC = FIXTURES / "synthetic"
CSV = REPO / "tests" / "fixtures" / "csv"
SCENARIOS = REPO / "data" / "scenarios"
SCENARIO = SCENARIOS / "small_gige_lto.toml"

MIT_REPORTS = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".txt", ".html"))
"""The seven MIT-licensed real reports (five distinct: two reports exist as text and HTML)."""


def sysstat_csv(
    path: Path,
    *,
    hours: int = 48,
    instances: int = 1,
    db_name: str = "PROD",
    dbid: int = 1234,
    start: datetime = datetime(2024, 3, 1, 0, 0),
    first_snap: int = 100,
) -> Path:
    """A DBA_HIST_SYSSTAT redo export with hourly snapshots and a daily redo profile.

    Instance i generates (2 + sin(hour) + i) MB/s in hour h, so the series has a clear
    busiest hour and p95 below peak.
    """
    lines = [
        "DBID,DB_NAME,INSTANCE_NUMBER,SNAP_ID,BEGIN_INTERVAL_TIME,END_INTERVAL_TIME,"
        "STARTUP_TIME,REDO_SIZE"
    ]
    for inst in range(1, instances + 1):
        total = 1_000_000_000
        for h in range(hours + 1):
            end = start + timedelta(hours=h)
            begin = end - timedelta(hours=1)
            if h:
                rate = (2.0 + math.sin(h * 2 * math.pi / 24) + inst) * 1e6
                total += int(rate * 3600)
            lines.append(
                f"{dbid},{db_name},{inst},{first_snap + h},{begin:%Y-%m-%d %H:%M:%S},"
                f"{end:%Y-%m-%d %H:%M:%S},2024-01-01 00:00:00,{total}"
            )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def rows(store, sql: str, params: list | None = None) -> list[tuple]:
    return store.read(lambda cur: cur.execute(sql, params or []).fetchall())


def count(store, where: str = "TRUE", params: list | None = None) -> int:
    return rows(store, f"SELECT count(*) FROM workload WHERE {where}", params)[0][0]
