"""The plain data the PDF plan is made of, shared by every section (STYLE §14).

`ReportData` holds what every page needs (title, dates, the verdict and its figures) and
`parts`: one frozen data object per section, built by that section's module in
`core.report.sections`. Nothing here imports reportlab, so a test can check the wording
without it and the GUI could show the same text.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from ..catalog import Catalog
from ..plan import Plan
from ..scenario import Scenario
from ..units import format_fraction, format_rate, format_size

if TYPE_CHECKING:
    from reportlab.lib.colors import Color
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Flowable, Paragraph, TableStyle

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
class Formula:
    title: str
    formula: str
    explanation: str


@dataclass(frozen=True)
class ReportData:
    """Everything the PDF plan prints. Times in seconds, rates in data bytes/s; every
    `*_text` is formatted for print.

    The fields here are what every page shares; each section's own data is
    `part(key)`. The fields of the sections' data are also readable flat
    (`data.phase_table`): `build_report_data` checks that no two sections use one name.
    """

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

    # The verdict and the figures behind it
    verdict: str
    verdict_words: str
    verdict_line: str
    total_s: float
    rto_s: float
    margin_s: float
    risk_margin_s: float
    total_text: str
    rto_text: str
    margin_text: str
    verdict_title: str = ""
    """The cover's big words: 'MISSES the RPO', 'MEETS every target' (DESIGN §3.7)."""
    decided_by: str = "recovery"
    """Which check sets the headline verdict: recovery, rpo or backup.<job>."""

    parts: Mapping[str, Any] = field(default_factory=dict)
    """Section key → that section's data, in print order (see `core.report.sections`)."""

    def part(self, key: str) -> Any:
        """The data a section built, or None when it left itself out."""
        return self.parts.get(key)

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: a field of one section's data.
        if name.startswith("_") or name == "parts":
            raise AttributeError(name)
        for part in self.__dict__.get("parts", {}).values():
            if dataclasses.is_dataclass(part) and name in _field_names(part):
                return getattr(part, name)
        raise AttributeError(f"ReportData has no field {name!r}")

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


def _field_names(obj: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(obj))


def freeze_parts(header: Mapping[str, Any], parts: Mapping[str, Any]) -> Mapping[str, Any]:
    """`parts` read-only, after checking that no two sections (or a section and the
    shared fields) use one field name, so `data.<field>` is never ambiguous."""
    seen = {name: "ReportData" for name in header}
    for key, part in parts.items():
        if not dataclasses.is_dataclass(part):
            continue
        for name in _field_names(part):
            if name in seen:
                raise ValueError(
                    f"report section {key!r} reuses the field name {name!r} of {seen[name]}; "
                    "rename it"
                )
            seen[name] = f"section {key!r}"
    return MappingProxyType(dict(parts))


# ----------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class ReportContext:
    """What a section builds its data from: the plan, the options of the report and the
    formatting every section shares."""

    plan: Plan
    binary: bool = False
    workload: WorkloadEvidence | None = None
    advice: Any = None
    """What it takes: a `core.fix.FixResult` to print; None computes it when the plan does
    not meet every target; () prints none."""
    catalog: Catalog | None = None
    prices: Any = None
    """A `core.fix.PriceBook` (the user's quotes); None: the catalog's prices alone."""
    drills: tuple[Any, ...] = ()
    """The scenario's drills (`core.store.drills.StoredDrill`) for the Evidence section."""
    cache: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """Results two sections share (computed once per report)."""

    @property
    def scenario(self) -> Scenario:
        return self.plan.scenario

    @property
    def s(self) -> Scenario:
        return self.plan.scenario

    def level0_rate_text(self) -> str:
        """The level 0 restore's effective rate, as the phase table prints it: the one
        restore rate the cover and the summary quote (per second, as rates are typed)."""
        phase = next((p for p in self.plan.recovery.phases if p.name == "restore_level0"), None)
        rate = phase.rate_Bps if phase is not None and phase.rate_Bps else None
        return self.rate(rate or self.plan.restore_path.rate_Bps)

    def size(self, b: float | None) -> str:
        return format_size(b, binary=self.binary) if b else "—"

    def rate(self, r: float | None) -> str:
        """A rate per second, as rates are typed (issue 23.6)."""
        if r is None or not math.isfinite(r) or r <= 0:
            return "—"
        return format_rate(r, binary=self.binary)


class Renderer(Protocol):
    """What a section's `render` uses of the PDF renderer (`pdf.ReportRenderer`, which
    implements it). Sections depend on this model, the renderer on the sections'
    registry, and nothing back: the report has no import circle."""

    data: ReportData
    width: float
    styles: Mapping[str, ParagraphStyle]
    compact: bool
    """Lay the appendices out tighter: set when the plain layout leaves a last page of a
    few lines (issue 23)."""

    def p(self, text: str) -> str: ...

    def table_style(self, commands: list[Any]) -> TableStyle: ...

    def verdict_colour(self, verdict: str) -> Color: ...

    def heading(self, text: str, level: int) -> Paragraph: ...

    def section(self, text: str, *lead: Flowable) -> list[Flowable]: ...

    def para(self, text: str, style: str = "body") -> Paragraph: ...

    def paras(self, text: str, style: str = "body") -> list[Flowable]: ...

    def table(
        self, t: Table, widths: list[float], *, extra: list[Any] | None = None,
        repeat: bool = True, min_rows: int = 0,
    ) -> Flowable: ...  # fmt: skip


Build = Callable[[ReportContext], Any]
"""A section's data from the context; None leaves the section out of the report."""
Render = Callable[[Renderer, Any], "list[Flowable]"]
"""A section's flowables from the renderer (styles, width, tables…) and its data."""


@dataclass(frozen=True)
class CapacityRow:
    """One stage of the restore path as the path section and its chart show it."""

    label: str
    kind: str
    capacity_Bps: float
    """What the stage delivers with the channels the plan runs [data bytes/s]."""
    load: float
    """Share of the capacity the path's rate uses (1.0 at the bottleneck)."""
    bottleneck: bool


@dataclass(frozen=True)
class Section:
    """One section of a report: a key for its data, a name for progress messages, how to
    build its data and how to lay it out."""

    key: str
    name: str
    build: Build
    render: Render


# ----------------------------------------------------------------------------- wording


_MONTHS = (
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


def long_date(d: date) -> str:
    """ "1 March 2027"."""
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def pct(x: float) -> str:
    """A share in two significant figures ("8.3 %", "0 %"), the house style."""
    return format_fraction(x, sig=2)
