"""Assumptions ledger: every input of the scenario format with its value, unit,
provenance and range (DESIGN §10). A figure (a rate, size, time, share or ratio the plan
uses) says where it comes from — exact, measured, catalog figure, class default or
estimate — with its source and, under its value, the range "How sure is this plan" drew
it from; a setting (a count, a choice, a schedule, a target) is given or left at the
format's default. Figures only the catalog gives (a tape drive's load and locate times,
the per-core compression rates) have rows of their own."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from ...engine.recovery import INCREMENTAL_APPLY_DEFAULT
from ...scenario import SECTIONS, STAGE_FIELDS, FieldSpec, label_for_key
from ...scenario.provenance import EXTRA_FIGURES, KIND_WORDS
from ...uncertainty.result import InputRow
from ...units import format_duration, format_fraction, format_rate, format_size, typed_per_second
from ...wording import choice_words, for_reader
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
        lead += r.paras(f"The scenario file says: {part.file_note}", "small")
    out = r.section("Assumptions ledger", *lead)
    widths = [44 * mm, 30 * mm, 27 * mm, 15 * mm]  # a prior's range reads on one line
    widths.append(r.width - sum(widths))
    out.append(r.table(part.assumptions, widths))
    if part.model_notes:
        out.append(r.para("What the plan says about these inputs and its model:"))
        out += [r.para(f"• {for_reader(note)}", "small") for note in part.model_notes]
    return out


_EXTRA_UNITS = {
    "load_time": "time per cartridge",
    "locate_time": "time per cartridge",
    "compress_rate": "data bytes/s per core",
    "decompress_rate": "data bytes/s per core",
    "channel_rate": "data bytes/s per channel",
    "incremental_apply_factor": "× the incremental restore's rate",
}
"""The units of the figures only the catalog gives (not keys of the field table)."""
_TITLES = {
    "database": "Database",
    "backup": "Backup schedule and RMAN",
    "recovery": "Recovery",
    "targets": "Targets",
}
_CATALOG_STAGE_KEYS = ("rate", "efficiency", "hw_compression", "backup_rate", "max_rate")
"""Stage keys a catalog item fills when the scenario names it and gives no rate."""


class _Ledger:
    def __init__(self, ctx: ReportContext) -> None:
        self.b = ctx
        self.s = ctx.s
        self.inputs = _inputs(ctx)
        self.rows: list[tuple[str, ...]] = []
        self.groups: list[int] = []
        self.counts: dict[str, int] = {}

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
        if kind == "choice":
            return choice_words(str(value))
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
            return g.text if g else spec.unset
        value = getattr(obj, spec.attr) if spec.attr else None
        if value is None:
            return "as fast as restored" if self.rule_default(dotted) else spec.unset
        return self.fmt(spec, value)

    def row(self, key: str, value: str, unit: str, origin: str, source: str,
            label: str | None = None) -> tuple[str, ...]:  # fmt: skip
        """The input in words, its key below in small print, then its figures."""
        words = label or label_for_key(key)
        return (f"{words}\n{key}", value, unit, origin, for_reader(source))

    def origin(self, dotted: str, given: Any, catalog_source: str | None) -> tuple[str, str]:
        """(origin in words, source) of one ledger row: a figure's provenance, else a
        setting given or left at the default."""
        note = self.s.comments.get(dotted, "")
        row = self.inputs.get(dotted)
        if row is not None:
            source = row.source if row.default_origin != "estimate" or not note else note
            if row.source.startswith("imported: "):
                source = row.source.removeprefix("imported: ")
            if note and source != note:
                source = f"{source} — {note}"
            return KIND_WORDS[row.default_origin], source
        if dotted in self.s.provenance:
            return "measured", self.s.provenance[dotted] + (f" — {note}" if note else "")
        if given is not None:
            return "given", note
        if catalog_source:
            return "catalog figure", catalog_source
        return "default", self.rule_default(dotted)

    def rule_default(self, dotted: str) -> str:
        """The rule that sets a figure the scenario leaves out, where one does (issue 23.9)."""
        s = self.s
        if (dotted == "recovery.incremental_apply_rate" and s.backup.level1 != "none"
                and s.recovery.incremental_apply_rate_Bps is None):  # fmt: skip
            return INCREMENTAL_APPLY_DEFAULT
        return ""

    def value_with_range(self, dotted: str, value: str) -> str:
        row = self.inputs.get(dotted)
        if row is None:
            return value
        where = ", stated" if row.origin == "uncertainty" else ""
        return f"{value}\nrange {row.range_text}{where}"

    def add(self, dotted: str, spec: FieldSpec, given: Any, model_text: str, unit: str,
            catalog_source: str | None = None, label: str | None = None) -> None:  # fmt: skip
        """One input's row: its value (text as written, "18 TiB/h"; bare numbers as the
        model reads them) and range, unit, provenance and source."""
        shown = _spaced(spec.kind, given) if isinstance(given, str) else model_text
        if spec.kind == "rate" and isinstance(given, str) and not typed_per_second(given):
            shown = f"{shown} ({model_text})"  # "500 GB/h (139 MB/s)", as the phases read
        if spec.kind == "choice" and isinstance(given, str):
            shown = choice_words(given)
        origin, source = self.origin(dotted, given, catalog_source)
        self.counts[origin] = self.counts.get(origin, 0) + 1
        value = self.value_with_range(dotted, shown if given is not None else model_text)
        self.rows.append(self.row(dotted, value, unit, origin, source, label))

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
            src = catalog_sources.get(spec.dotted, "")
            cat = src[len("catalog:") :].strip() if src.startswith("catalog:") else None
            self.add(spec.dotted, spec, table.get(spec.key), self.model_value(section, spec),
                     spec.unit, cat)  # fmt: skip
        self.extra_rows(section, None)

    def build(self) -> tuple[Table, str]:
        for section in ("database", "backup"):
            self.section_rows(section)
        raw_path = self.s.raw.get("path") or [{} for _ in self.s.path]
        for i, st in enumerate(self.s.path):
            stage_note = self.s.comments.get(f"path[{i}]", "")
            self.group(f"Path stage {i + 1}: {st.label} ({st.kind.replace('_', ' ')})"
                       + (f" — {stage_note}" if stage_note else ""))  # fmt: skip
            self.stage_rows(i, raw_path[i] if i < len(raw_path) else {})
        for section in ("recovery", "targets"):
            self.section_rows(section)
        table = Table(("Input", "Value", "Unit", "Origin", "Source"), tuple(self.rows),
                      "lllll", group_rows=tuple(self.groups))  # fmt: skip
        return table, _ledger_text(self.counts)

    def stage_rows(self, i: int, stage_raw: Mapping[str, Any]) -> None:
        st = self.s.path[i]
        cat = st.source[len("catalog:") :].strip() if st.source.startswith("catalog:") else None
        for spec in STAGE_FIELDS:
            key = spec.key
            if key == "name":
                continue
            if key == "hw_compression" and st.kind != "tape_drive":
                continue
            if key == "write_factor" and st.kind != "storage_write":
                continue
            value = getattr(st, spec.attr, None) if spec.attr else None
            if value is None and key not in stage_raw:
                continue  # an optional ceiling or override nobody set
            unit = spec.unit
            if spec.kind == "rate":
                unit = f"{st.carries} bytes/s per unit"
            from_catalog = cat if key in _CATALOG_STAGE_KEYS else None
            self.add(f"path[{i}].{key}", spec, stage_raw.get(key), self.fmt(spec, value), unit,
                     from_catalog)  # fmt: skip
        self.extra_rows("path", i)

    def extra_rows(self, section: str, index: int | None) -> None:
        """Rows for the figures only the catalog gives, when the plan uses them."""
        for extra in EXTRA_FIGURES.get(section, ()):
            dotted = f"path[{index}].{extra.spec.key}" if index is not None else (
                f"{section}.{extra.spec.key}")  # fmt: skip
            row = self.inputs.get(dotted)
            if row is not None:
                unit = _EXTRA_UNITS.get(extra.spec.key, extra.spec.unit)
                # a figure only the catalog gives: its own name, not its key's words
                text = self.fmt(extra.spec, row.value)
                self.add(dotted, extra.spec, None, text, unit, label=extra.spec.label)


_COUNT_WORDS = (
    ("exact", "exact"),
    ("measured", "measured"),
    ("catalog figure", "from the hardware catalog"),
    ("class default", "class defaults"),
    ("estimate", "estimates (±25 % unless stated)"),
    ("given", "settings given"),
    ("default", "left at the default"),
)


_GLUED = re.compile(r"(?<=[0-9])(?=[A-DF-Za-df-z])|(?<=[A-DF-Za-df-z])(?=[0-9])")
"""Between a number and its unit, and a unit and the next number ("1h30min"); an
exponent's e (1e3) is neither."""


def _spaced(kind: str, text: str) -> str:
    """A figure as written, its number and unit apart as everywhere else in the plan:
    "1h" read beside "8 h" (issue 23.6), "7d" beside "7 d"."""
    if kind not in ("duration", "size", "rate"):
        return text
    return _GLUED.sub(" ", text)


def _ledger_text(counts: Mapping[str, int]) -> str:
    parts = [f"{counts[k]} {words}" for k, words in _COUNT_WORDS if counts.get(k)]
    listed = ", ".join(parts[:-1]) + (f" and {parts[-1]}" if len(parts) > 1 else parts[0])
    return (
        f"Every input of the model, as the plan used it: {listed}. Each figure says where "
        "it comes from (how the scenario says it is known, an import, the catalog with its "
        "source, a class default, or typed: an estimate) and, under its value, the range "
        "'How sure is this plan' drew it from — a catalog figure or class default its "
        "prior (a lognormal fitted to published measurements, its P10..P90), an estimate "
        "±25 %, an exact figure ±0. Defaults for fixed times are 0 s: the plan never "
        "contains a time nobody stated. The source of a typed figure is the scenario "
        "file's comment beside or above it."
    )


def _inputs(ctx: ReportContext) -> dict[str, InputRow]:
    """The figures of the report's Monte Carlo run, by key: provenance and range."""
    from .confidence import risk_of

    return {row.key: row for row in risk_of(ctx).inputs}


SECTION = Section("assumptions", "assumptions", build, render)
