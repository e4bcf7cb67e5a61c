"""What the PDF plan prints, computed once from a `Plan` (STYLE §14).

`ReportData` is frozen plain data: the numbers the charts need and every sentence, table
cell and figure already formatted with `core.units`. The renderer (`pdf.py`) and the
charts (`charts.py`) only lay it out, so a test can check the wording without reportlab
and the GUI could show the same text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from .. import __version__
from ..advice import best_changes
from ..catalog import Catalog
from ..clock import source_date_epoch
from ..clock import today as report_date
from ..decisive import decisive_assumptions
from ..engine.verdict import verdict_title
from ..errors import CoreError
from ..plan import Plan
from ..result import PHASE_TITLES
from ..scenario import SECTIONS, STAGE_FIELDS, FieldSpec, Scenario
from ..units import DAY, YEAR, format_duration, format_fraction, format_rate, format_size
from ..wording import VERDICT_WORDS, describe_cycle_time

REPORT_TITLE = "Restore and recovery plan"

# ----------------------------------------------------------------------------- input


@dataclass(frozen=True)
class RedoSample:
    """Redo generated in one interval of imported workload reports."""

    start: datetime
    end: datetime
    redo_Bps: float
    """Average redo generation over the interval [bytes/s]."""


@dataclass(frozen=True)
class WorkloadEvidence:
    """What imported AWR / Statspack reports show (filled by the importers).

    `ReportData.workload` is None when nothing was imported; the section is left out.
    """

    period_start: datetime
    period_end: datetime
    reports: int
    redo_avg_Bps: float
    redo_p95_Bps: float
    redo_peak_Bps: float
    series: tuple[RedoSample, ...] = ()
    db_name: str = ""
    source: str = ""
    """Where the figures come from, e.g. "168 AWR reports from db01 (snapshots 4711-4879)"."""


# ----------------------------------------------------------------------------- output


@dataclass(frozen=True)
class Table:
    """A table as the report prints it: header, rows of strings, alignment per column
    ('l' or 'r'), rows to print bold and rows that are group headings (one cell)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str
    bold_rows: tuple[int, ...] = ()
    group_rows: tuple[int, ...] = ()


@dataclass(frozen=True)
class KeyFigure:
    label: str
    value: str
    note: str = ""
    ok: bool | None = None
    """True/False colours the figure green/red; None leaves it neutral."""


@dataclass(frozen=True)
class GanttBar:
    name: str
    label: str
    start_s: float
    duration_s: float
    text: str
    style: str
    """fixed | restore | apply | redo: picks the colour."""


@dataclass(frozen=True)
class CapacityRow:
    label: str
    kind: str
    capacity_Bps: float
    """What the stage delivers with the channels the plan runs [data bytes/s]."""
    load: float
    """Share of the capacity the path's rate uses (1.0 at the bottleneck)."""
    bottleneck: bool


@dataclass(frozen=True)
class JobBar:
    label: str
    duration_s: float
    window_s: float | None
    fits: bool | None
    text: str


@dataclass(frozen=True)
class RpoPart:
    label: str
    duration_s: float
    text: str


@dataclass(frozen=True)
class CycleSeries:
    period_s: float
    points: tuple[tuple[float, float], ...]
    """(time since the level 0 [s], total recovery [s])."""
    worst_s: float
    worst_at_s: float
    level1_every_s: float | None


@dataclass(frozen=True)
class GrowthSeries:
    as_of: date
    points: tuple[tuple[float, float, float, float], ...]
    """(years from as-of, size [bytes], worst recovery [s], level 0 backup [s])."""
    breaks_at_years: float | None
    breaks_on_text: str


@dataclass(frozen=True)
class AdviceLine:
    description: str
    new_total_text: str
    saving_text: str
    new_verdict_words: str


@dataclass(frozen=True)
class Formula:
    title: str
    formula: str
    explanation: str


@dataclass(frozen=True)
class ReportData:
    """Everything the PDF plan prints. Times in seconds, rates in data bytes/s; every
    `*_text` is formatted for print."""

    # Cover and metadata
    title: str
    scenario_name: str
    customer: str
    author: str
    notes: str
    as_of: date
    as_of_text: str
    generated: datetime
    """Creation time of the document (SOURCE_DATE_EPOCH when set)."""
    producer: str
    units_note: str
    binary: bool

    # Verdict and summary
    verdict: str
    verdict_words: str
    verdict_line: str
    key_figures: tuple[KeyFigure, ...]
    summary: tuple[str, ...]
    advice: tuple[AdviceLine, ...]

    # Recovery
    total_s: float
    rto_s: float
    margin_s: float
    risk_margin_s: float
    total_text: str
    rto_text: str
    margin_text: str
    failure_text: str
    gantt: tuple[GanttBar, ...]
    phase_table: Table
    phase_notes: tuple[str, ...]

    # Path
    path_text: str
    capacity: tuple[CapacityRow, ...]
    path_rate_Bps: float
    path_table: Table
    backup_path_text: str

    # Backups
    window_text: str
    jobs: tuple[JobBar, ...]
    jobs_table: Table
    jobs_text: str

    # RPO
    rpo_verdict: str
    rpo_text: str
    rpo_target_s: float | None
    rpo_parts: tuple[RpoPart, ...]
    rpo_table: Table

    # Cycle and growth (None when not computed)
    cycle: CycleSeries | None
    cycle_text: str
    growth: GrowthSeries | None
    growth_text: str
    growth_table: Table | None

    # Evidence, assumptions, formulas
    workload: WorkloadEvidence | None
    workload_table: Table | None
    workload_text: str
    assumptions: Table
    assumptions_text: str
    formulas: tuple[Formula, ...]

    # Headline (DESIGN §3.7): which check decides, and the defaults that decide the time
    verdict_title: str = ""
    decided_by: str = "recovery"
    decisive: tuple[tuple[str, str, str, str, str], ...] = ()
    """(figure, value, share of the recovery, source, how to measure) per decisive default."""

    @property
    def document_title(self) -> str:
        return f"{self.title} — {self.scenario_name}"

    @property
    def subject(self) -> str:
        who = f" for {self.customer}" if self.customer else ""
        return (
            f"Worst-case restore and recovery time against the RTO{who}: "
            f"{self.verdict_words} ({self.total_text} against {self.rto_text})"
        )


# ----------------------------------------------------------------------------- helpers


def _long_date(d: date) -> str:
    months = (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    )
    return f"{d.day} {months[d.month - 1]} {d.year}"


def _pct(x: float) -> str:
    return format_fraction(x, sig=2) if x else "0%"


_PSEUDO_BOTTLENECKS = {
    "fixed": "fixed time",
    "—": "",
    "redo_apply_rate": "redo apply rate",
    "incremental_apply_rate": "incremental apply rate",
    "largest_file": "largest file on one channel",
    "channels": "RMAN channel count",
}


def bottleneck_words(name: str) -> str:
    """A stage label as it is, a pseudo-bottleneck in words."""
    return _PSEUDO_BOTTLENECKS.get(name, name)


_PHASE_STYLE = {
    "detect": "fixed",
    "tape_recall": "fixed",
    "restore_level0": "restore",
    "restore_incremental": "restore",
    "apply_incremental": "apply",
    "restore_archivelogs": "restore",
    "redo_apply": "redo",
    "open": "fixed",
}


# ----------------------------------------------------------------------------- builder


class _Builder:
    def __init__(self, plan: Plan, binary: bool) -> None:
        self.plan = plan
        self.s: Scenario = plan.scenario
        self.binary = binary

    def size(self, b: float | None) -> str:
        return format_size(b, binary=self.binary) if b else "—"

    def rate(self, r: float | None, per: str = "s") -> str:
        if r is None or not math.isfinite(r) or r <= 0:
            return "—"
        return format_rate(r, binary=self.binary, per=per)

    # ---------------------------------------------------------------- recovery

    def recovery(self) -> dict[str, Any]:
        rec = self.plan.recovery
        s = self.s
        f = rec.failure
        inc = (
            f"{f.incremental_count} {s.backup.level1} level 1 backup"
            + ("s" if f.incremental_count != 1 else "")
            if f.incremental_count
            else "no level 1 backup"
        )
        failure_text = (
            f"Worst case of the backup cycle: a failure just before the next level 0, so "
            f"the restore needs the level 0, {inc} and "
            f"{format_duration(f.redo_since_s)} of redo."
        )
        gantt = tuple(
            GanttBar(
                p.name,
                PHASE_TITLES[p.name],
                p.start_s,
                p.duration_s,
                format_duration(p.duration_s),
                _PHASE_STYLE[p.name],
            )
            for p in rec.phases
            if p.duration_s > 0
        )
        rows = []
        for p in rec.phases:
            rows.append(
                (
                    PHASE_TITLES[p.name],
                    format_duration(p.start_s),
                    format_duration(p.duration_s) if p.duration_s else "—",
                    self.size(p.data_bytes),
                    self.rate(p.rate_Bps, "h"),
                    bottleneck_words(p.bottleneck) if p.duration_s else "",
                )
            )
        rows.append(("Total", "", format_duration(rec.total_s), "", "", ""))
        rows.append(("RTO", "", format_duration(rec.rto_s), "", "", ""))
        rows.append(
            (
                "Margin" if rec.margin_s >= 0 else "Over the RTO by",
                "",
                format_duration(abs(rec.margin_s)),
                "",
                "",
                f"{_pct(abs(rec.margin_s) / rec.rto_s)} of the RTO" if rec.rto_s else "",
            )
        )
        table = Table(
            ("Phase", "Starts", "Duration", "Volume", "Rate", "Limited by"),
            tuple(rows),
            "lrrrrl",
            bold_rows=(len(rows) - 3, len(rows) - 1),
        )
        notes = []
        for p in rec.phases:
            if p.duration_s > 0 and p.name not in ("detect", "open"):
                notes.append(f"{PHASE_TITLES[p.name]}: {p.detail}.")
        return {
            "total_s": rec.total_s,
            "rto_s": rec.rto_s,
            "margin_s": rec.margin_s,
            "risk_margin_s": rec.risk_margin_s,
            "total_text": format_duration(rec.total_s),
            "rto_text": format_duration(rec.rto_s),
            "margin_text": format_duration(rec.margin_s),
            "failure_text": failure_text,
            "gantt": gantt,
            "phase_table": table,
            "phase_notes": tuple(notes),
        }

    # ---------------------------------------------------------------- path

    def path(self) -> dict[str, Any]:
        model = self.plan.restore_path
        rate = model.rate_Bps
        n = model.active_channels
        bidx = model.bottleneck_index
        caps: list[CapacityRow] = []
        rows = []
        bold = []
        for i, st in enumerate(model.stages):
            cap = model.capacity_at_Bps(i)
            if st.per_channel_only:
                units = f"{n} ch."
                note = "each channel"
            elif st.binds_channel:
                units = f"{n} of {st.count}" if n < st.count else str(st.count)
                note = "one channel per unit"
            else:
                units = str(st.count)
                note = "all channels"
            load = model.load(i)
            is_bn = i == bidx
            # A stage as loaded as the bottleneck (a tie) is just as limiting: mark it too.
            saturated = is_bn or load >= 0.9995
            caps.append(CapacityRow(st.label, st.kind, cap, min(load, 1.0), saturated))
            if is_bn:
                bold.append(len(rows))
            rows.append(
                (
                    f"{st.label}\n{st.kind.replace('_', ' ')}",
                    units,
                    self.rate(st.unit_Bps),
                    self.rate(cap),
                    _pct(min(load, 1.0)),
                    note,
                )
            )
        if bidx is None:
            bold.append(len(rows))
            caps.append(
                CapacityRow(f"RMAN channels ({model.channels})", "channels", rate, 1.0, True)
            )
            rows.append(
                (
                    f"RMAN channels ({model.channels})\nchannel count",
                    str(model.channels),
                    self.rate(model.per_channel_Bps),
                    self.rate(rate),
                    "100%",
                    "too few channels",
                )
            )
        table = Table(
            ("Stage", "Units", "Per unit", "Capacity", "Load", "Serves"),
            tuple(rows),
            "lrrrrl",
            bold_rows=tuple(bold),
        )
        path_text = (
            f"Restores run at {self.rate(rate)} ({self.rate(rate, 'h')}) of datafile bytes "
            f"with {n} of {model.channels} RMAN channel(s) streaming. "
            f"What limits it: {model.explain()}."
        )
        bp = self.plan.backup_path
        if abs(bp.rate_Bps - rate) > 1e-6 * max(rate, 1.0) or bp.bottleneck != model.bottleneck:
            backup_text = (
                f"Backups run the other way at {self.rate(bp.rate_Bps)}, limited by "
                f"{bottleneck_words(bp.bottleneck)}."
            )
        else:
            backup_text = "Backups run the other way through the same stages at the same rate."
        return {
            "path_text": path_text,
            "capacity": tuple(caps),
            "path_rate_Bps": rate,
            "path_table": table,
            "backup_path_text": backup_text,
        }

    # ---------------------------------------------------------------- backups

    def backups(self) -> dict[str, Any]:
        window = self.s.targets.backup_window_s
        bars = []
        rows = []
        misses = []
        for j in self.plan.jobs:
            fits = {True: "yes", False: "NO", None: "—"}[j.fits_window]
            if j.fits_window is False:
                misses.append(j.title)
            bars.append(
                JobBar(
                    j.title, j.duration_s, j.window_s, j.fits_window, format_duration(j.duration_s)
                )
            )
            rows.append(
                (
                    j.title,
                    format_duration(j.duration_s),
                    self.size(j.data_bytes),
                    self.size(j.backup_bytes),
                    self.rate(j.effective_rate_Bps, "h"),
                    bottleneck_words(j.bottleneck),
                    format_duration(j.window_s) if j.window_s else "—",
                    fits,
                )
            )
        table = Table(
            (
                "Job",
                "Duration",
                "Data",
                "Backup pieces",
                "Effective rate",
                "Limited by",
                "Window",
                "Fits",
            ),
            tuple(rows),
            "lrrrrlrl",
        )
        if window is None:
            text = "No backup window was given, so the jobs are not checked against one."
        elif misses:
            text = f"{' and '.join(misses)} overrun(s) the {format_duration(window)} window."
        else:
            text = f"Every backup fits the {format_duration(window)} window."
        text += (
            " Effective rate = database size ÷ backup time for level 0 and level 1 (as "
            "vendors quote it), serial channel start-up included; archived-log backups must "
            "finish before the next one starts."
        )
        return {
            "window_text": format_duration(window) if window else "none given",
            "jobs": tuple(bars),
            "jobs_table": table,
            "jobs_text": text,
        }

    # ---------------------------------------------------------------- rpo

    def rpo(self) -> dict[str, Any]:
        r = self.plan.rpo
        parts = tuple(RpoPart(label, v, format_duration(v)) for label, v in r.site_loss_parts)
        rows = [("Media failure, online redo intact", format_duration(r.media_failure_s))]
        rows += [(f"+ {p.label}", p.text) for p in parts]
        rows.append(("Site loss, worst case", format_duration(r.site_loss_s)))
        bold = [len(rows) - 1]
        if r.target_s is not None:
            rows.append(("RPO target", format_duration(r.target_s)))
        table = Table(("Data lost", "Worst case"), tuple(rows), "lr", bold_rows=tuple(bold))
        if r.target_s is None:
            text = (
                f"A site loss loses up to {format_duration(r.site_loss_s)} of data; no RPO "
                "target was given."
            )
        else:
            verb = "meets" if r.verdict == "meets" else "misses"
            text = (
                f"A media failure with the online redo intact loses no committed data; a "
                f"site loss loses up to {format_duration(r.site_loss_s)}, which {verb} the "
                f"RPO of {format_duration(r.target_s)}."
            )
        return {
            "rpo_verdict": r.verdict,
            "rpo_text": text,
            "rpo_target_s": r.target_s,
            "rpo_parts": parts,
            "rpo_table": table,
        }

    # ---------------------------------------------------------------- cycle, growth

    def cycle(self) -> dict[str, Any]:
        c = self.plan.cycle
        if c is None:
            return {"cycle": None, "cycle_text": ""}
        b = self.s.backup
        series = CycleSeries(
            period_s=b.level0_every_s,
            points=tuple((p.since_level0_s, p.total_s) for p in c.points),
            worst_s=c.worst_s,
            worst_at_s=c.worst_at_s,
            level1_every_s=b.level1_every_s if b.level1 != "none" else None,
        )
        text = (
            f"A failure at any hour of the {format_duration(b.level0_every_s)} level 0 cycle "
            f"was evaluated. Recovery is slowest for a failure "
            f"{describe_cycle_time(c.worst_at_s, b.level0_every_s)} "
            f"({format_duration(c.worst_s)}) and fastest just after a backup "
            f"({format_duration(c.best_s)}). "
            + (
                f"In {c.hours_missing} hour(s) of the cycle a failure would miss the RTO."
                if c.hours_missing
                else "Every hour of the cycle meets the RTO."
            )
        )
        return {"cycle": series, "cycle_text": text}

    def growth(self) -> dict[str, Any]:
        g = self.plan.growth
        gr = self.s.database.growth
        if g is None or gr is None:
            return {
                "growth": None,
                "growth_text": "No growth rate was given, so the outlook is not computed.",
                "growth_table": None,
            }
        pts = []
        rows = []
        for p in g.points:
            years = (p.on - g.as_of).days * DAY / YEAR
            pts.append((years, p.size_bytes, p.worst_recovery_s, p.level0_backup_s))
            ok_rec = p.worst_recovery_s <= self.s.targets.rto_s
            win = self.s.targets.backup_window_s
            ok_l0 = win is None or p.level0_backup_s <= win
            rows.append(
                (
                    p.on.isoformat(),
                    self.size(p.size_bytes),
                    format_duration(p.worst_recovery_s),
                    format_duration(p.level0_backup_s),
                    "holds" if ok_rec and ok_l0 else "breaks",
                )
            )
        breaks_years = None
        if g.breaks_on and g.breaks_on <= g.as_of:
            breaks_years = 0.0
            text = (
                f"The plan already fails at today's size: {g.reason}. At {gr.text} growth "
                "the gap only widens; the table shows by how much. Redo generation and the "
                "largest file are held constant."
            )
        elif g.breaks_on:
            breaks_years = (g.breaks_on - g.as_of).days * DAY / YEAR
            text = (
                f"At {gr.text} growth the plan breaks on {_long_date(g.breaks_on)}: "
                f"{g.reason} (database {self.size(g.size_at_break_bytes)}). Redo generation "
                "and the largest file are held constant."
            )
        else:
            text = (
                f"At {gr.text} growth the plan holds for the next "
                f"{g.horizon_years:.0f} years. Redo generation and the largest file are "
                "held constant."
            )
        table = Table(
            ("Date", "Database", "Worst recovery", "Level 0 backup", "Plan"),
            tuple(rows),
            "lrrrl",
        )
        series = GrowthSeries(
            g.as_of,
            tuple(pts),
            breaks_years,
            _long_date(g.breaks_on) if g.breaks_on else "",
        )
        return {"growth": series, "growth_text": text, "growth_table": table}

    # ---------------------------------------------------------------- workload

    def workload(self, w: WorkloadEvidence | None) -> dict[str, Any]:
        if w is None:
            return {"workload": None, "workload_table": None, "workload_text": ""}
        rows = (
            ("Period", f"{w.period_start:%Y-%m-%d %H:%M} – {w.period_end:%Y-%m-%d %H:%M}"),
            ("Reports", str(w.reports)),
            ("Redo, average", f"{self.rate(w.redo_avg_Bps)} ({self.rate(w.redo_avg_Bps, 'h')})"),
            (
                "Redo, 95th percentile",
                f"{self.rate(w.redo_p95_Bps)} ({self.rate(w.redo_p95_Bps, 'h')})",
            ),
            ("Redo, peak", f"{self.rate(w.redo_peak_Bps)} ({self.rate(w.redo_peak_Bps, 'h')})"),
            ("Redo rate in the plan", self.rate(self.s.database.redo_rate_Bps)),
        )
        who = f" of {w.db_name}" if w.db_name else ""
        text = (
            f"The workload figures{who} come from {w.source or 'imported reports'}. "
            "The plan's redo volume uses the redo rate shown last; the peak shows how much "
            "worse a failure after a busy period can be."
        )
        table = Table(("Measure", "Value"), rows, "ll")
        return {"workload": w, "workload_table": table, "workload_text": text}


# ----------------------------------------------------------------------------- ledger

_UNIT_BY_KIND = {
    "size": "data bytes",
    "rate": "bytes/s",
    "duration": "time",
    "fraction": "share",
    "ratio": "ratio",
    "int": "count",
    "float": "factor",
    "bool": "yes/no",
    "choice": "choice",
    "growth": "per year",
    "margin": "share of RTO or time",
    "str": "text",
}
_UNIT_BY_KEY = {
    "database.redo_rate": "redo bytes/s",
    "database.daily_change": "share of the database per day",
    "backup.compression_ratio": "data bytes per backup byte",
    "backup.channels": "channels",
    "backup.channel_init": "time per channel",
    "backup.section_size": "data bytes per piece",
    "recovery.incremental_apply_rate": "data bytes/s",
    "recovery.redo_apply_rate": "redo bytes/s",
    "recovery.incremental_overhead": "time per backup",
    "recovery.incremental_size": "data bytes",
    "recovery.redo_volume": "redo bytes",
    "count": "units",
    "efficiency": "share of the rate",
    "hw_compression": "data bytes per tape byte",
    "write_factor": "writes per data byte",
}
_UNSET = {
    "database.largest_file": "not set (no single-file bound)",
    "database.growth": "not set (no outlook)",
    "backup.section_size": "not set (no multisection)",
    "recovery.incremental_apply_rate": "not set",
    "recovery.redo_apply_rate": "not set",
    "recovery.incremental_size": "not set (from the daily change)",
    "recovery.redo_volume": "not set (from the redo rate)",
    "targets.rpo": "not set",
    "targets.backup_window": "not set",
}
_SUFFIX = {"size": "_bytes", "rate": "_Bps", "duration": "_s"}
_CATALOG_STAGE_KEYS = ("rate", "efficiency", "hw_compression", "backup_rate", "max_rate")
"""Stage keys a catalog item fills when the scenario names it and gives no rate."""


class _Ledger:
    def __init__(self, builder: _Builder) -> None:
        self.b = builder
        self.s = builder.s

    def fmt(self, spec: FieldSpec, value: Any) -> str:
        if value is None:
            return "not set"
        kind = spec.kind
        if kind == "size":
            return format_size(value, binary=self.b.binary)
        if kind == "rate":
            return format_rate(value, binary=self.b.binary)
        if kind == "duration":
            return format_duration(value)
        if kind == "fraction":
            return format_fraction(value)
        if kind in ("ratio", "float"):
            return f"{value:g}"
        if kind == "bool":
            return "yes" if value else "no"
        return str(value)

    def model_value(self, section: str, spec: FieldSpec) -> str:
        dotted = f"{section}.{spec.key}"
        obj = getattr(self.s, section)
        if dotted == "targets.risk_margin":
            t = self.s.targets
            if t.risk_margin_s is not None:
                return format_duration(t.risk_margin_s)
            return f"{format_fraction(t.risk_margin_fraction or 0.0)} of the RTO"
        if dotted == "database.growth":
            g = self.s.database.growth
            return g.text if g else _UNSET[dotted]
        value = getattr(obj, spec.key + _SUFFIX.get(spec.kind, ""))
        if value is None:
            return _UNSET.get(dotted, "not set")
        return self.fmt(spec, value)

    def row(
        self, key: str, help_text: str, value: str, unit: str, origin: str, source: str
    ) -> tuple[str, ...]:
        return (f"{key}\n{help_text}" if help_text else key, value, unit, origin, source)

    def build(self) -> tuple[Table, str]:
        s = self.s
        raw = s.raw
        prov = s.provenance
        rows: list[tuple[str, ...]] = []
        groups: list[int] = []
        counts = {"measured": 0, "catalog": 0, "given": 0, "default": 0}

        def add(
            dotted: str,
            spec: FieldSpec,
            given: Any,
            model_text: str,
            unit: str,
            catalog_source: str | None = None,
        ) -> None:
            # Text is shown as written ("18 TiB/h"); bare numbers as the model reads them.
            shown = given if isinstance(given, str) else model_text
            if dotted in prov:
                origin, source, value = "measured", prov[dotted], shown
            elif given is not None:
                origin, source, value = "given", "", shown
            elif catalog_source:
                origin, source, value = "catalog", catalog_source, model_text
            else:
                origin, source, value = "default", "", model_text
            counts[origin] += 1
            help_text = spec.help
            if dotted.startswith("path[") and not dotted.startswith("path[0]"):
                help_text = ""  # said once, for the first stage
            rows.append(self.row(dotted, help_text, value, unit, origin, source))

        def group(title: str) -> None:
            groups.append(len(rows))
            rows.append((title, "", "", "", ""))

        titles = {
            "database": "Database",
            "backup": "Backup schedule and RMAN",
            "recovery": "Recovery",
            "targets": "Targets",
        }
        for section in ("database", "backup"):
            group(titles[section])
            table = raw.get(section) or {}
            for spec in SECTIONS[section]:
                dotted = f"{section}.{spec.key}"
                unit = _UNIT_BY_KEY.get(dotted, _UNIT_BY_KIND[spec.kind])
                add(dotted, spec, table.get(spec.key), self.model_value(section, spec), unit)
        raw_path = raw.get("path") or [{} for _ in s.path]
        for i, st in enumerate(s.path):
            group(f"Path stage {i + 1}: {st.label} ({st.kind.replace('_', ' ')})")
            stage_raw = raw_path[i] if i < len(raw_path) else {}
            cat = st.source[len("catalog:") :].strip() if st.source.startswith("catalog:") else None
            for spec in STAGE_FIELDS:
                key = spec.key
                if key == "name":
                    continue
                if key == "hw_compression" and st.kind != "tape_drive":
                    continue
                if key == "write_factor" and st.kind != "storage_write":
                    continue
                attr = key + _SUFFIX.get(spec.kind, "")
                value = getattr(st, attr, None)
                if value is None and key not in stage_raw:
                    continue  # an optional ceiling or override nobody set
                unit = _UNIT_BY_KEY.get(key, _UNIT_BY_KIND[spec.kind])
                if spec.kind == "rate":
                    unit = f"{st.carries} bytes/s per unit"
                from_catalog = cat if key in _CATALOG_STAGE_KEYS else None
                add(
                    f"path[{i}].{key}",
                    spec,
                    stage_raw.get(key),
                    self.fmt(spec, value),
                    unit,
                    from_catalog,
                )
        for section in ("recovery", "targets"):
            group(titles[section])
            table = raw.get(section) or {}
            for spec in SECTIONS[section]:
                dotted = f"{section}.{spec.key}"
                unit = _UNIT_BY_KEY.get(dotted, _UNIT_BY_KIND[spec.kind])
                cat = None
                if dotted == "recovery.redo_apply_rate" and s.recovery.redo_apply_source.startswith(
                    "catalog:"
                ):
                    cat = s.recovery.redo_apply_source[len("catalog:") :].strip()
                add(dotted, spec, table.get(spec.key), self.model_value(section, spec), unit, cat)
        table = Table(
            ("Input", "Value", "Unit", "Origin", "Source"),
            tuple(rows),
            "lllll",
            group_rows=tuple(groups),
        )
        text = (
            f"Every input of the model, as the plan used it: {counts['measured']} measured "
            f"(imported from the customer's reports or job history), {counts['catalog']} from "
            f"the hardware catalog (with its source), {counts['given']} given in the "
            f"scenario and {counts['default']} left at the default. Defaults for fixed times "
            "are 0 s: the plan never contains a time nobody stated."
        )
        return table, text


# ----------------------------------------------------------------------------- formulas

FORMULAS = (
    Formula(
        "Stage capacity",
        "capacity = count × rate × efficiency × (r if the stage carries backup bytes) "
        "× (hw_compression if a tape drive and r = 1) ÷ write_factor",
        "Every capacity is in datafile (data) bytes per second. r is the RMAN compression "
        "ratio (data bytes per backup byte); write_factor is 2 or 3 under ASM normal or high "
        "redundancy.",
    ),
    Formula(
        "Path rate and bottleneck",
        "R(k) = min( C_shared , min(k, N_bind) × c_channel )",
        "C_shared is the smallest capacity of the stages all channels share, c_channel the "
        "smallest per-channel ceiling and N_bind the unit count of the channel-binding stage "
        "(a tape drive serves one channel at a time). The bottleneck is the stage that sets "
        "R(n) for the n channels allocated.",
    ),
    Formula(
        "Serial channel start-up",
        "channel k starts at k × channel_init;  T is the smallest time with "
        "∫₀ᵀ R(k(t)) dt = V;  T ≥ channel_init + largest piece ÷ R(1)",
        "Short phases never reach the full rate; the effective rate V ÷ T shows it. Without "
        "multisection one channel must move the largest file alone.",
    ),
    Formula(
        "Recovery time",
        "total = detect + tape recall + restore level 0 + restore incrementals + apply "
        "incrementals + restore archived redo + redo apply + open",
        "Phases run one after another. Applying incrementals takes volume ÷ "
        "incremental_apply_rate + incremental_overhead per backup; redo apply takes redo "
        "volume ÷ redo_apply_rate.",
    ),
    Formula(
        "Verdict",
        "misses if total > RTO;  at risk if RTO − total < risk margin;  else meets",
        "The risk margin defaults to 10 % of the RTO.",
    ),
    Formula(
        "Incremental and redo volumes",
        "cumulative level 1 after d days = size × (1 − (1 − p)^d);  "
        "redo = redo rate × time since the last incremental",
        "p is the daily distinct change. A differential holds one interval's change and all "
        "differentials since the level 0 are restored and applied in turn.",
    ),
    Formula(
        "Effective backup rate",
        "effective rate = database size ÷ backup time (level 0 and level 1)",
        "As vendors quote it, channel start-up included; archived logs: volume ÷ time.",
    ),
    Formula(
        "Data loss (RPO)",
        "site loss = archived-log backup interval + its duration + log switch interval "
        "+ off-site delay",
        "A media failure with the online redo intact loses nothing; a Data Guard standby "
        "replaces the sum by its transport lag (0 when synchronous).",
    ),
    Formula(
        "Growth",
        "size(t) = size × (1 + g)^t  (or size + g × t for a linear rate)",
        "The break date is the first day on which the worst-case recovery misses the RTO or "
        "a level 0 or level 1 backup overruns its window.",
    ),
)


# ----------------------------------------------------------------------------- entry


def _advice_lines(
    plan: Plan, advice: Sequence[Any] | None, catalog: Catalog | None
) -> tuple[AdviceLine, ...]:
    if advice is None:
        try:
            advice = best_changes(plan.scenario, plan, catalog=catalog, limit=3)
        except CoreError:
            return ()
    out = []
    for a in advice:
        out.append(
            AdviceLine(
                a.description,
                format_duration(a.new_total_s),
                format_duration(a.saving_s),
                VERDICT_WORDS.get(getattr(a, "new_verdict", ""), ""),
            )
        )
    return tuple(out)


def _summary(b: _Builder, advice: tuple[AdviceLine, ...]) -> tuple[str, ...]:
    plan, s = b.plan, b.s
    rec = plan.recovery
    total, rto = format_duration(rec.total_s), format_duration(rec.rto_s)
    share = _pct(abs(rec.margin_s) / rec.rto_s) if rec.rto_s else ""
    if rec.verdict == "misses":
        first = (
            f"If the database is lost at the worst moment of the backup cycle, restoring and "
            f"recovering it takes {total}. That misses the RTO of {rto} by "
            f"{format_duration(-rec.margin_s)}."
        )
    elif rec.verdict == "at_risk":
        first = (
            f"If the database is lost at the worst moment of the backup cycle, restoring and "
            f"recovering it takes {total}, inside the RTO of {rto} with a margin of "
            f"{format_duration(rec.margin_s)} ({share} of the RTO). That is less than the "
            f"{format_duration(rec.risk_margin_s)} safety margin, so the plan is at risk."
        )
    else:
        first = (
            f"If the database is lost at the worst moment of the backup cycle, restoring and "
            f"recovering it takes {total}. That meets the RTO of {rto} with a margin of "
            f"{format_duration(rec.margin_s)} ({share} of the RTO)."
        )
    out = [first]
    r = plan.rpo
    if r.target_s is not None:
        verb = "within" if r.verdict == "meets" else "beyond"
        out.append(
            f"A media failure with the online redo logs intact loses no committed data. A "
            f"loss of the whole site loses up to {format_duration(r.site_loss_s)} of data, "
            f"{verb} the RPO of {format_duration(r.target_s)}."
        )
    else:
        out.append(
            f"A media failure with the online redo logs intact loses no committed data; a "
            f"loss of the whole site loses up to {format_duration(r.site_loss_s)}."
        )
    lp = rec.longest_phase
    lp_share = _pct(lp.duration_s / rec.total_s) if rec.total_s else ""
    rate_h = b.rate(plan.restore_path.rate_Bps, "h")
    head = (
        f"The longest phase is {PHASE_TITLES[lp.name].lower()} "
        f"({format_duration(lp.duration_s)}, {lp_share} of the recovery)"
    )
    if lp.name in ("restore_level0", "restore_incremental", "restore_archivelogs"):
        if lp.bottleneck == "largest_file":
            why = "one channel must move the largest file alone (multisection would help)"
        else:
            why = plan.restore_path.explain()
        out.append(f"{head}: {why}, so restores move data at {rate_h}.")
    else:
        if lp.name == "redo_apply":
            why = f"media recovery applies redo at {b.rate(lp.rate_Bps, 'h')}"
        elif lp.name == "apply_incremental":
            why = f"incrementals are applied at {b.rate(lp.rate_Bps, 'h')}"
        else:
            why = lp.detail
        out.append(
            f"{head}: {why}. Restores move data at {rate_h}, limited by "
            f"{bottleneck_words(plan.restore_path.bottleneck)}."
        )
    if plan.decided_by != "recovery":
        out.append(f"The plan's verdict is decided by {plan.deciding.sentence()}.")
    for a in decisive_assumptions(plan):
        out.append(a.sentence())
    if advice:
        a = advice[0]
        out.append(
            f"The single change that helps most: {a.description}. It brings the worst case "
            f"to {a.new_total_text}, {a.saving_text} sooner."
        )
    window = s.targets.backup_window_s
    l0 = plan.job("level0")
    if l0 is not None and window is not None:
        verdict = "fits" if l0.fits_window else "does not fit"
        out.append(
            f"The level 0 backup takes {format_duration(l0.duration_s)} and {verdict} the "
            f"{format_duration(window)} backup window."
        )
    g = plan.growth
    if g is not None and s.database.growth is not None:
        if g.breaks_on and g.breaks_on <= g.as_of:
            out.append(
                f"The plan already fails at today's size ({g.reason}); at "
                f"{s.database.growth.text} growth the gap widens every year."
            )
        elif g.breaks_on:
            out.append(
                f"At {s.database.growth.text} growth the plan breaks on "
                f"{_long_date(g.breaks_on)} ({g.reason})."
            )
        else:
            out.append(
                f"At {s.database.growth.text} growth the plan holds for the next "
                f"{g.horizon_years:.0f} years."
            )
    return tuple(out)


def _key_figures(b: _Builder) -> tuple[KeyFigure, ...]:
    plan = b.plan
    rec = plan.recovery
    figs = [
        KeyFigure(
            "Worst-case recovery",
            format_duration(rec.total_s),
            "failure just before the next level 0",
            rec.verdict != "misses",
        ),
        KeyFigure("RTO", format_duration(rec.rto_s), "recovery time objective"),
        KeyFigure(
            "Margin" if rec.margin_s >= 0 else "Over the RTO by",
            format_duration(abs(rec.margin_s)),
            f"{_pct(abs(rec.margin_s) / rec.rto_s)} of the RTO" if rec.rto_s else "",
            rec.verdict == "meets",
        ),
    ]
    r = plan.rpo
    figs.append(
        KeyFigure(
            "Data loss, site",
            format_duration(r.site_loss_s),
            f"RPO {format_duration(r.target_s)}" if r.target_s is not None else "no RPO given",
            None if r.verdict == "unknown" else r.verdict == "meets",
        )
    )
    figs.append(
        KeyFigure(
            "Restore rate",
            b.rate(plan.restore_path.rate_Bps, "h"),
            "limited by " + bottleneck_words(plan.restore_path.bottleneck),
        )
    )
    l0 = plan.job("level0")
    if l0 is not None:
        window = b.s.targets.backup_window_s
        figs.append(
            KeyFigure(
                "Level 0 backup",
                format_duration(l0.duration_s),
                f"window {format_duration(window)}" if window else "no window given",
                l0.fits_window,
            )
        )
    return tuple(figs)


def build_report_data(
    plan: Plan,
    *,
    workload: WorkloadEvidence | None = None,
    binary: bool = False,
    advice: Sequence[Any] | None = None,
    catalog: Catalog | None = None,
    generated: datetime | None = None,
) -> ReportData:
    """Everything the PDF prints, from a computed plan.

    `advice`: the changes to print (objects with `description`, `new_total_s`,
    `saving_s`); None asks `core.advice.best_changes` when it is available, () prints
    none. `generated` defaults to SOURCE_DATE_EPOCH, else now (UTC).
    """
    b = _Builder(plan, binary)
    s = plan.scenario
    rec = plan.recovery
    advice_lines = _advice_lines(plan, advice, catalog)
    if generated is None:
        generated = source_date_epoch() or datetime.now(tz=UTC).replace(microsecond=0)
    words = VERDICT_WORDS[plan.verdict]
    if rec.verdict == "misses":
        line = (
            f"Worst-case recovery {format_duration(rec.total_s)} misses the RTO of "
            f"{format_duration(rec.rto_s)} by {format_duration(-rec.margin_s)}"
        )
    else:
        line = (
            f"Worst-case recovery {format_duration(rec.total_s)} against an RTO of "
            f"{format_duration(rec.rto_s)}: margin {format_duration(rec.margin_s)}"
        )
    if plan.decided_by != "recovery":
        line = f"Decided by {plan.deciding.sentence()}. {line}"
    ledger, ledger_text = _Ledger(b).build()
    units = (
        "Sizes in binary units (TiB = 2⁴⁰ bytes); "
        if binary
        else "Sizes in decimal units (TB = 10¹² bytes, GB = 10⁹ bytes); "
    ) + "volumes and rates count datafile (data) bytes unless named backup pieces."
    fields: dict[str, Any] = {
        "title": REPORT_TITLE,
        "scenario_name": s.name,
        "customer": s.customer,
        "author": s.author,
        "notes": s.notes,
        "as_of": plan.as_of,
        "as_of_text": _long_date(plan.as_of),
        "generated": generated,
        "producer": f"RTO Planner {__version__}",
        "units_note": units,
        "binary": binary,
        "verdict": plan.verdict,
        "verdict_words": words,
        "verdict_title": verdict_title(plan.deciding),
        "decided_by": plan.decided_by,
        "decisive": tuple(
            (a.title, a.value, f"{a.share * 100:.0f} %", a.source, a.how_to_measure)
            for a in decisive_assumptions(plan)
        ),
        "verdict_line": line,
        "key_figures": _key_figures(b),
        "summary": _summary(b, advice_lines),
        "advice": advice_lines,
        "assumptions": ledger,
        "assumptions_text": ledger_text,
        "formulas": FORMULAS,
    }
    fields.update(b.recovery())
    fields.update(b.path())
    fields.update(b.backups())
    fields.update(b.rpo())
    fields.update(b.cycle())
    fields.update(b.growth())
    fields.update(b.workload(workload))
    return ReportData(**fields)


__all__ = [
    "REPORT_TITLE",
    "AdviceLine",
    "CapacityRow",
    "CycleSeries",
    "Formula",
    "GanttBar",
    "GrowthSeries",
    "JobBar",
    "KeyFigure",
    "RedoSample",
    "ReportData",
    "RpoPart",
    "Table",
    "WorkloadEvidence",
    "bottleneck_words",
    "build_report_data",
    "report_date",
    "source_date_epoch",
]
