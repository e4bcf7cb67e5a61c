"""Workload evidence for the PDF report, from what the store holds.

`evidence_for(store, "PROD")` gives the report's `WorkloadEvidence` (period, report count,
redo average / p95 / peak and the hourly series) of one database, or None when nothing
with snapshot times was imported for it. `evidence_for_scenario(store, scenario)` finds
the database from the scenario's provenance (`workload.dbid`, else `workload.database`,
which `imports apply` records).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ..store import NotFoundError, Store
from .stored import AmbiguousDatabaseError, DatabaseWorkload, database_workload

if TYPE_CHECKING:  # the report package imports reportlab: load it only when asked
    from ..report.data import WorkloadEvidence

PROVENANCE_DATABASE = "workload.database"
PROVENANCE_DBID = "workload.dbid"


def evidence_from_workload(w: DatabaseWorkload) -> WorkloadEvidence | None:
    """The report's evidence for one database's imports (None without a redo series)."""
    from ..report.data import RedoSample, WorkloadEvidence

    s = w.series
    if s is None:
        return None
    hour = timedelta(hours=1)
    series = tuple(
        RedoSample(start=h.hour, end=h.hour + hour, redo_Bps=h.redo_bytes_per_s) for h in s.hours
    )
    source = f"{w.series_source()}, {s.first:%Y-%m-%d %H:%M} → {s.last:%Y-%m-%d %H:%M}"
    return WorkloadEvidence(
        period_start=s.first,
        period_end=s.last,
        reports=s.intervals,
        redo_avg_Bps=s.avg_Bps,
        redo_p95_Bps=s.p95_Bps,
        redo_peak_Bps=s.peak_Bps,
        series=series,
        db_name=w.db_name or (str(w.dbid) if w.dbid is not None else ""),
        source=source,
    )


def evidence_for(store: Store, database: str) -> WorkloadEvidence | None:
    """Evidence of `database` (name, case-insensitive, or DBID); None if nothing imported.

    A name that matches two databases (two DBIDs) raises `NotFoundError`: give the DBID.
    """
    try:
        w = database_workload(store, database)
    except AmbiguousDatabaseError:
        raise  # the caller must choose
    except NotFoundError:
        return None
    return evidence_from_workload(w)


def database_from_provenance(provenance: Mapping[str, str]) -> str | None:
    """The database `imports apply` recorded in a scenario (DBID preferred), or None."""
    return provenance.get(PROVENANCE_DBID) or provenance.get(PROVENANCE_DATABASE) or None


def evidence_for_scenario(store: Store, scenario: Any) -> WorkloadEvidence | None:
    """Evidence of the database a scenario's figures were imported from, or None."""
    database = database_from_provenance(getattr(scenario, "provenance", {}) or {})
    if database is None:
        return None
    return evidence_for(store, database)


__all__ = [
    "PROVENANCE_DATABASE",
    "PROVENANCE_DBID",
    "database_from_provenance",
    "evidence_for",
    "evidence_for_scenario",
    "evidence_from_workload",
]
