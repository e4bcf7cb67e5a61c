"""Imported figures into a scenario, each with where it came from (`[provenance]`).

`apply_imports(store, scenario, ApplyRequest(database="PROD", ...))` returns a validated
copy of the scenario with the requested values set from what the store holds about that
database, and a provenance text per value, e.g.

    "database.redo_rate" = "p95 of hourly redo over 48 AWR reports of PROD (dbid 1234),
                            2024-03-01 09:00 → 2024-03-03 09:00"

Also recorded: `workload.database` (the name) and `workload.dbid`, so the PDF report can
find the same database's evidence again (`evidence.evidence_for_scenario`).

What can be set (each only when asked for, except the redo rate, asked for by default):

* `database.redo_rate`: the redo series' average, p95 of the hourly rates (default: redo
  apply and archived-log volumes are sized for a busy hour, not an average one) or peak.
* `database.daily_change` (`change=True`): an UPPER BOUND from the Load Profile's block
  changes per second × block size × 24 h ÷ database size. Oracle counts every change to a
  block, so a block changed a thousand times counts a thousand times (and undo and index
  blocks count too): the distinct change a level 1 backup holds is lower, often far lower.
  Capped at 100 %. Opt-in for that reason; the provenance says so.
* `backup.compression_ratio` (`compression=True`): input ÷ output bytes of the completed
  datafile backups (DB FULL / DB INCR) of one device type in the RMAN job history.
* `recovery.redo_apply_rate` (`apply_rate=True`): V$RECOVERY_PROGRESS "Average Apply
  Rate", weighted by redo applied when there are several measurements.
* a `measured` path stage (`measured_path=True`): the data rate of the full backups of
  one device type (RMAN job input bytes ÷ elapsed time) as a stage carrying data bytes.
  An existing measured stage is updated; otherwise one is appended and the hardware stages
  stay, so the plan uses the slower of the measurement and the model. It is a backup
  rate standing in for the restore rate (usually similar, confirm with a test restore).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog
from ..errors import CoreError
from ..jsonable import json_ready
from ..scenario import Scenario, with_values
from ..store import Store
from ..units import DAY, exact_fraction, format_rate, format_size
from .stored import DatabaseWorkload, DeviceSummary, database_workload

REDO_CHOICES = ("avg", "p95", "peak")
DEFAULT_BLOCK_SIZE = 8192
LONG_REPORT_S = 65 * 60.0


class ApplyError(CoreError, ValueError):
    """A requested figure that the imported data cannot give (e.g. no RMAN history)."""


@dataclass(frozen=True)
class ApplyRequest:
    """Which imported figures to put into a scenario.

    `database`: name (case-insensitive) or DBID. `redo`: avg | p95 | peak, or None to
    leave the redo rate alone. `device_type`: the RMAN device type for compression and the
    measured stage (default: the one with the most datafile backup bytes).
    """

    database: str
    redo: str | None = "p95"
    change: bool = False
    block_size: int = DEFAULT_BLOCK_SIZE
    compression: bool = False
    apply_rate: bool = False
    measured_path: bool = False
    device_type: str | None = None


@dataclass(frozen=True)
class AppliedValue:
    """One value set: dotted key, the text written, what it was before, where it came from."""

    key: str
    value: str
    previous: str | None
    provenance: str

    def to_dict(self) -> dict[str, Any]:
        return json_ready(self)


@dataclass(frozen=True)
class ApplyResult:
    scenario: Scenario
    workload: DatabaseWorkload
    values: tuple[AppliedValue, ...]
    notes: tuple[str, ...] = ()


def _when(t: Any) -> str:
    return f"{t:%Y-%m-%d %H:%M}" if t is not None else "?"


def _day(t: Any) -> str:
    return f"{t:%Y-%m-%d}" if t is not None else "?"


_READABLE_UNITS = (("MB/s", 1e5, 1e6), ("KB/s", 1e3, 1e3), ("B/s", 0.0, 1.0))
"""(unit, from this many bytes/s up, bytes/s per unit): MB/s, the unit AWR's redo and
RMAN's rates are read in, down to 0.1 MB/s; KB/s and B/s below."""


def readable_rate(rate_Bps: float, digits: int = 4) -> str:
    """A measured rate as a DBA writes it (issue 25.8): `7.9 MB/s`, not
    `28439160193.75 B/h`; four significant figures (measurements are not more exact)."""
    unit, _, per = next(u for u in _READABLE_UNITS if rate_Bps >= u[1])
    value = rate_Bps / per
    if value <= 0:
        return f"0 {unit}"
    decimals = max(digits - 1 - math.floor(math.log10(value)), 0)
    text = f"{round(value, decimals):.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text} {unit}"


def _previous(raw: Any, dotted: str) -> str | None:
    section, _, key = dotted.partition(".")
    value = (raw.get(section) or {}).get(key)
    return None if value is None else str(value)


def redo_value(w: DatabaseWorkload, which: str) -> tuple[float, str, list[str]]:
    """(bytes/s, provenance, notes) for avg | p95 | peak of the database's redo series."""
    if which not in REDO_CHOICES:
        raise ApplyError(f"--redo must be one of {', '.join(REDO_CHOICES)}, not '{which}'")
    s = w.series
    if s is None:
        raise ApplyError(
            f"no redo figures imported for {w.label} (AWR / Statspack reports or a "
            "DBA_HIST_SYSSTAT export with snapshot times)",
            hint="import them first, or pass --redo none",
        )
    rate = {"avg": s.avg_Bps, "p95": s.p95_Bps, "peak": s.peak_Bps}[which]
    stat = {
        "avg": "average redo",
        "p95": "p95 of hourly redo",
        "peak": "peak hourly redo",
    }[which]
    text = f"{stat} over {w.series_source()}, {_when(s.first)} → {_when(s.last)}"
    notes = list(s.warnings)
    if which != "avg" and s.single_figure:
        # One report, or one hour, has one figure: its p95 and peak are its average.
        single = {"1 report": "a single report", "1 hour": "a single hour"}.get(
            s.single_figure, "hours all alike"
        )
        text = f"{stat} from {single}, i.e. its average, {text[len(stat) + 1 :]}"
    if which != "avg" and s.shortest_interval_s > LONG_REPORT_S:
        text += " (reports longer than an hour: peaks are averaged away)"
    if which == "peak" and s.busiest_hour is not None:
        text += f"; busiest hour {_when(s.busiest_hour)}"
    return rate, text, notes


def change_value(
    w: DatabaseWorkload, size_bytes: float, block_size: int
) -> tuple[float, str, list[str]]:
    """(fraction, provenance, notes): the upper bound of daily change from block changes."""
    if w.block_changes_per_s is None:
        raise ApplyError(
            f"no Load Profile block changes imported for {w.label} (AWR or Statspack reports)",
            hint="import reports of this database, or leave --change off",
        )
    if block_size <= 0:
        raise ApplyError(f"block size {block_size} is not positive")
    per_day = w.block_changes_per_s * block_size * DAY
    fraction = per_day / size_bytes
    capped = fraction > 1.0
    fraction = min(fraction, 1.0)
    n = w.block_change_reports
    text = (
        f"upper bound: {w.block_changes_per_s:,.0f} block changes/s (Load Profile, "
        f"{n} report{'s' if n != 1 else ''} of {w.label}) × {format_size(block_size, binary=True)}"
        f" blocks × 24 h = {format_size(per_day)} a day of {format_size(size_bytes)}; "
        "a block changed many times counts each time, so distinct change is lower"
    )
    notes = [
        f"daily_change {exact_fraction(fraction)} is an upper bound (block changes × block "
        "size): blocks changed repeatedly count many times; replace it with a measured "
        "value (level 1 backup sizes) if you have one"
    ]
    if capped:
        text += " (capped at 100 %)"
    return fraction, text, notes


def _device(w: DatabaseWorkload, device_type: str | None) -> tuple[DeviceSummary, str]:
    if not w.devices:
        raise ApplyError(
            f"no completed RMAN datafile backups imported for {w.label} "
            "(V$RMAN_BACKUP_JOB_DETAILS export)",
            hint="import the export with --database NAME if it has no DB_NAME column",
        )
    if device_type:
        for d in w.devices:
            if d.device_type.upper() == device_type.upper():
                return d, ""
        raise ApplyError(
            f"no RMAN datafile backups to device type {device_type} for {w.label} "
            f"(found: {', '.join(d.device_type for d in w.devices)})"
        )
    best = max(w.devices, key=lambda d: d.input_bytes)
    why = "" if len(w.devices) == 1 else " (the device type with the most backup data)"
    return best, why


def compression_value(w: DatabaseWorkload, device_type: str | None) -> tuple[float, str, list[str]]:
    d, why = _device(w, device_type)
    if d.compression_ratio is None:
        raise ApplyError(f"RMAN backups to {d.device_type} of {w.label} report no output bytes")
    text = (
        f"RMAN compression on {d.device_type}{why}: {format_size(d.input_bytes)} read, "
        f"{format_size(d.output_bytes)} written by {d.jobs} datafile backup job"
        f"{'s' if d.jobs != 1 else ''} of {w.label}, {_day(d.first)} → {_day(d.last)} "
        "(V$RMAN_BACKUP_JOB_DETAILS)"
    )
    return d.compression_ratio, text, []


def measured_rate_value(
    w: DatabaseWorkload, device_type: str | None
) -> tuple[float, str, str, list[str]]:
    """(data bytes/s, stage name, provenance, notes) for a measured path stage."""
    d, why = _device(w, device_type)
    notes = [
        "the measured stage is a backup rate standing in for the restore rate; "
        "confirm it with a timed test restore"
    ]
    if d.full_Bps is not None:
        rate, jobs, what = d.full_Bps, d.full_jobs, "full backup"
    elif d.incr_Bps is not None:
        rate, jobs, what = d.incr_Bps, d.incr_jobs, "incremental backup"
        notes.append(
            f"no full backups to {d.device_type}: the rate of incremental jobs is used "
            "(a level 1 reads little and writes less, so it may understate streaming)"
        )
    else:  # pragma: no cover - a device summary always has one of the two
        raise ApplyError(f"no datafile backup rate for {d.device_type}")
    text = (
        f"RMAN {what}s to {d.device_type}{why}: input bytes ÷ elapsed time of {jobs} "
        f"job{'s' if jobs != 1 else ''} of {w.label} = {format_rate(rate)}, "
        f"{_day(d.first)} → {_day(d.last)} (V$RMAN_BACKUP_JOB_DETAILS; backup direction)"
    )
    return rate, f"RMAN {d.device_type} backups (measured)", text, notes


def apply_rate_value(w: DatabaseWorkload) -> tuple[float, str, list[str]]:
    rates = [r for r in w.apply_rates if r.average_Bps]
    if not rates:
        raise ApplyError(
            f"no V$RECOVERY_PROGRESS 'Average Apply Rate' imported for {w.label}",
            hint="import the export with --database NAME if it has no database name",
        )
    if all(r.redo_applied_bytes for r in rates):
        applied = sum(r.redo_applied_bytes or 0.0 for r in rates)
        seconds = sum((r.redo_applied_bytes or 0.0) / (r.average_Bps or 1.0) for r in rates)
        rate = applied / seconds
        how = f", weighted by the {format_size(applied, binary=True)} of redo applied"
    else:
        rate = sum(r.average_Bps or 0.0 for r in rates) / len(rates)
        how = ""
    n = len(rates)
    starts = sorted(r.start for r in rates if r.start)
    when = f", {_day(starts[0])} → {_day(starts[-1])}" if starts else ""
    text = (
        f"Average Apply Rate of {n} V$RECOVERY_PROGRESS measurement{'s' if n != 1 else ''} "
        f"of {w.label}{how}{when}"
    )
    return rate, text, []


def _measured_path(raw: Any, name: str, rate: str) -> tuple[list[dict[str, Any]], int]:
    path = [dict(s) for s in raw.get("path", [])]
    stage = {"kind": "measured", "name": name, "count": 1, "rate": rate, "carries": "data"}
    for i, s in enumerate(path):
        if s.get("kind") == "measured":
            path[i] = stage
            return path, i
    path.append(stage)
    return path, len(path) - 1


def apply_workload(
    scenario: Scenario,
    workload: DatabaseWorkload,
    request: ApplyRequest,
    catalog: Catalog | None = None,
) -> ApplyResult:
    """The scenario with the requested figures of `workload` set (no store needed)."""
    if not (
        request.redo or request.change or request.compression or request.apply_rate
        or request.measured_path
    ):  # fmt: skip
        raise ApplyError(
            "nothing to apply", hint="ask for --redo, --change, --compression, --apply-rate "
            "or --measured-path"
        )  # fmt: skip
    raw = scenario.raw
    changes: dict[str, Any] = {}
    prov: dict[str, str] = {}
    values: list[AppliedValue] = []
    notes: list[str] = []

    def put(key: str, value: Any, text: str, previous: str | None) -> None:
        changes[key] = value
        prov[key] = text
        values.append(AppliedValue(key, str(value), previous, text))

    if request.redo:
        rate, text, more = redo_value(workload, request.redo)
        put("database.redo_rate", readable_rate(rate), text, _previous(raw, "database.redo_rate"))
        notes += more
    if request.change:
        frac, text, more = change_value(workload, scenario.database.size_bytes, request.block_size)
        put(
            "database.daily_change",
            exact_fraction(frac),
            text,
            _previous(raw, "database.daily_change"),
        )
        notes += more
    if request.compression:
        ratio, text, more = compression_value(workload, request.device_type)
        put("backup.compression_ratio", ratio, text, _previous(raw, "backup.compression_ratio"))
        notes += more
    if request.apply_rate:
        rate, text, more = apply_rate_value(workload)
        put(
            "recovery.redo_apply_rate",
            readable_rate(rate),
            text,
            _previous(raw, "recovery.redo_apply_rate"),
        )
        notes += more
    if request.measured_path:
        rate, name, text, more = measured_rate_value(workload, request.device_type)
        path, i = _measured_path(raw, name, readable_rate(rate))
        old = raw.get("path", [])
        previous = old[i].get("rate") if i < len(old) and old[i].get("kind") == "measured" else None
        changes["path"] = path
        prov[f"path[{i}].rate"] = text
        values.append(AppliedValue(f"path[{i}].rate", path[i]["rate"], previous, text))
        notes += more
    prov["workload.database"] = workload.db_name or str(workload.dbid)
    if workload.dbid is not None:
        prov["workload.dbid"] = str(workload.dbid)
    new = with_values(scenario, changes, catalog=catalog, provenance=prov)
    return ApplyResult(new, workload, tuple(values), tuple(dict.fromkeys(notes)))


def apply_imports(
    store: Store, scenario: Scenario, request: ApplyRequest, catalog: Catalog | None = None
) -> ApplyResult:
    """The scenario with figures imported for `request.database` set, with provenance.

    For the GUI's "Use imported figures" dialog and `rto-planner imports apply`. Raises
    `NotFoundError` (no such database, or ambiguous) and `ApplyError` (a requested figure
    the imports cannot give); the scenario is validated like a file (`ScenarioError`).
    """
    workload = database_workload(store, request.database)
    return apply_workload(
        scenario, workload, request, catalog=catalog if catalog is not None else store.catalog()
    )


__all__ = [
    "DEFAULT_BLOCK_SIZE",
    "REDO_CHOICES",
    "AppliedValue",
    "ApplyError",
    "ApplyRequest",
    "ApplyResult",
    "apply_imports",
    "apply_workload",
]
