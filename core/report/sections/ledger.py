"""Assumptions ledger: every input of the scenario format with its value, unit and
origin: measured (scenario `[provenance]`), catalog (with the catalog source), given (in
the scenario file) or default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from ...scenario import SECTIONS, STAGE_FIELDS, FieldSpec, Stage, label_for_key
from ...units import format_duration, format_fraction, format_rate, format_size
from ..model import ReportContext, Section, Table

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


@dataclass(frozen=True)
class LedgerPart:
    assumptions: Table
    """Each input: its name in words over its key, value, unit, origin and source (the
    import it was measured by, the catalog's source or the scenario file's comment)."""
    assumptions_text: str
    file_note: str
    """The scenario file's opening comment (where its figures come from), or ""."""
    model_notes: tuple[str, ...] = ()
    """What the plan says about its inputs and model: inputs without effect here and why,
    assumptions to check (compression CPU, per-channel ceiling, shoe-shine)."""


def build(ctx: ReportContext) -> LedgerPart:
    table, text = _Ledger(ctx).build()
    return LedgerPart(table, text, ctx.s.comments.get("", ""), ctx.plan.notes)


def render(r: ReportRenderer, part: LedgerPart) -> list[Flowable]:
    lead = [r.para(part.assumptions_text)]
    if part.file_note:
        lead.append(r.para(f"The scenario file says: {part.file_note}", "small"))
    out = r.section("Assumptions ledger", *lead)
    widths = [50 * mm, 24 * mm, 27 * mm, 15 * mm]
    widths.append(r.width - sum(widths))
    out.append(r.table(part.assumptions, widths))
    if part.model_notes:
        out.append(r.para("What the plan says about these inputs and its model:"))
        out += [r.para(f"• {note}", "small") for note in part.model_notes]
    return out


_CATALOG_STAGE_KEYS = ("rate", "efficiency", "hw_compression", "backup_rate", "max_rate")
"""Stage keys a catalog item fills when the scenario names it and gives no rate."""


_TITLES = {
    "database": "Database",
    "backup": "Backup schedule and RMAN",
    "recovery": "Recovery",
    "targets": "Targets",
}
_TEXT = (
    "Every input of the model, as the plan used it: {measured} measured (imported from the "
    "customer's reports or job history), {catalog} from the hardware catalog (with its "
    "source), {given} given in the scenario and {default} left at the default. Defaults for "
    "fixed times are 0 s: the plan never contains a time nobody stated. The source of a "
    "given figure is the scenario file's comment beside or above it; under a value, its "
    "range: the spread 'How sure is this plan' drew it from."
)


def _catalog_source(source: str) -> str | None:
    """The catalog's source of a figure ("catalog: X" → "X"), None when not the catalog's."""
    return source[len("catalog:") :].strip() if source.startswith("catalog:") else None


class _Ledger:
    """The ledger's rows, group by group: each input with its value, unit and origin."""

    def __init__(self, ctx: ReportContext) -> None:
        self.b = ctx
        self.s = ctx.s
        self.rows: list[tuple[str, ...]] = []
        self.groups: list[int] = []
        self.counts = {"measured": 0, "catalog": 0, "given": 0, "default": 0}
        self.ranges = _ranges(ctx)

    def fmt(self, spec: FieldSpec, value: Any) -> str:
        if value is None:
            return "not set"
        kind = spec.kind
        if kind in ("size", "rate"):
            fmt = format_size if kind == "size" else format_rate
            return fmt(value, binary=self.b.binary)
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
        if dotted == "targets.risk_margin":
            t = self.s.targets
            if t.risk_margin_s is not None:
                return format_duration(t.risk_margin_s)
            return f"{format_fraction(t.risk_margin_fraction or 0.0)} of the RTO"
        if dotted == "database.growth":
            g = self.s.database.growth
            return g.text if g else spec.unset
        value = getattr(getattr(self.s, section), spec.attr) if spec.attr else None
        return spec.unset if value is None else self.fmt(spec, value)

    def row(self, key: str, value: str, unit: str, origin: str, source: str) -> tuple[str, ...]:
        """The input in words, its key below in small print, then its figures."""
        return (f"{label_for_key(key)}\n{key}", value, unit, origin, source)

    def add(self, dotted: str, given: Any, model_text: str, unit: str,
            catalog_source: str | None = None) -> None:  # fmt: skip
        """One input's row: measured, given, from the catalog or the default."""
        # Text is shown as written ("18 TiB/h"); bare numbers as the model reads them.
        shown = given if isinstance(given, str) else model_text
        note = self.s.comments.get(dotted, "")
        if dotted in self.s.provenance:
            source = self.s.provenance[dotted] + (f" — {note}" if note else "")
            origin, value = "measured", shown
        elif given is not None:
            origin, source, value = "given", note, shown
        elif catalog_source:
            origin, source, value = "catalog", catalog_source, model_text
        else:
            origin, source, value = "default", "", model_text
        self.counts[origin] += 1
        if dotted in self.ranges:  # the spread "How sure is this plan" drew it from
            value = f"{value}\nrange {self.ranges[dotted]}"
        self.rows.append(self.row(dotted, value, unit, origin, source))

    def group(self, title: str) -> None:
        self.groups.append(len(self.rows))
        self.rows.append((title, "", "", "", ""))

    def section_rows(self, section: str) -> None:
        self.group(_TITLES[section])
        table = self.s.raw.get(section) or {}
        catalog_sources = {
            "backup.compression_ratio": self.s.backup.compression_source or "",
            "recovery.redo_apply_rate": self.s.recovery.redo_apply_source,
        }
        for spec in SECTIONS[section]:
            cat = _catalog_source(catalog_sources.get(spec.dotted, ""))
            self.add(spec.dotted, table.get(spec.key), self.model_value(section, spec),
                     spec.unit, cat)  # fmt: skip

    def stage_rows(self, i: int, st: Stage, stage_raw: Mapping[str, Any]) -> None:
        stage_note = self.s.comments.get(f"path[{i}]", "")
        self.group(
            f"Path stage {i + 1}: {st.label} ({st.kind.replace('_', ' ')})"
            + (f" — {stage_note}" if stage_note else "")
        )
        cat = _catalog_source(st.source)
        for spec in STAGE_FIELDS:
            value = getattr(st, spec.attr, None) if spec.attr else None
            if not _shows(spec.key, st) or (value is None and spec.key not in stage_raw):
                continue  # not this kind's, or an optional ceiling or override nobody set
            unit = f"{st.carries} bytes/s per unit" if spec.kind == "rate" else spec.unit
            from_catalog = cat if spec.key in _CATALOG_STAGE_KEYS else None
            self.add(f"path[{i}].{spec.key}", stage_raw.get(spec.key), self.fmt(spec, value),
                     unit, from_catalog)  # fmt: skip

    def build(self) -> tuple[Table, str]:
        for section in ("database", "backup"):
            self.section_rows(section)
        raw_path = self.s.raw.get("path") or [{} for _ in self.s.path]
        for i, st in enumerate(self.s.path):
            self.stage_rows(i, st, raw_path[i] if i < len(raw_path) else {})
        for section in ("recovery", "targets"):
            self.section_rows(section)
        table = Table(("Input", "Value", "Unit", "Origin", "Source"), tuple(self.rows),
                      "lllll", group_rows=tuple(self.groups))  # fmt: skip
        return table, _TEXT.format(**self.counts)


def _shows(key: str, st: Stage) -> bool:
    """Whether the ledger lists a stage key for this stage's kind."""
    if key == "name":
        return False
    if key == "hw_compression":
        return st.kind == "tape_drive"
    return key != "write_factor" or st.kind == "storage_write"


def _ranges(ctx: ReportContext) -> dict[str, str]:
    """The ranges of the figures that vary in the report's Monte Carlo run, by key."""
    from .confidence import risk_of

    return {row.key: row.range_text for row in risk_of(ctx).varied}


SECTION = Section("assumptions", "assumptions", build, render)
