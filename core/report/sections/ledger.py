"""Assumptions ledger: every input of the scenario format with its value, unit and
origin: measured (scenario `[provenance]`), catalog (with the catalog source), given (in
the scenario file) or default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from ...scenario import SECTIONS, STAGE_FIELDS, FieldSpec, label_for_key
from ...units import format_duration, format_fraction, format_rate, format_size
from ..model import ReportContext, Section, Table

if TYPE_CHECKING:
    from ..pdf import ReportRenderer


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


class _Ledger:
    def __init__(self, ctx: ReportContext) -> None:
        self.b = ctx
        self.s = ctx.s

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
            return g.text if g else spec.unset
        value = getattr(obj, spec.attr) if spec.attr else None
        if value is None:
            return spec.unset
        return self.fmt(spec, value)

    def row(self, key: str, value: str, unit: str, origin: str, source: str) -> tuple[str, ...]:
        """The input in words, its key below in small print, then its figures."""
        return (f"{label_for_key(key)}\n{key}", value, unit, origin, source)

    def build(self) -> tuple[Table, str]:
        s = self.s
        raw = s.raw
        prov = s.provenance
        notes = s.comments
        rows: list[tuple[str, ...]] = []
        groups: list[int] = []
        counts = {"measured": 0, "catalog": 0, "given": 0, "default": 0}
        ranges = _ranges(self.b)

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
            note = notes.get(dotted, "")
            if dotted in prov:
                source = prov[dotted] + (f" — {note}" if note else "")
                origin, value = "measured", shown
            elif given is not None:
                origin, source, value = "given", note, shown
            elif catalog_source:
                origin, source, value = "catalog", catalog_source, model_text
            else:
                origin, source, value = "default", "", model_text
            counts[origin] += 1
            if dotted in ranges:  # the spread "How sure is this plan" drew it from
                value = f"{value}\nrange {ranges[dotted]}"
            rows.append(self.row(dotted, value, unit, origin, source))

        def group(title: str) -> None:
            groups.append(len(rows))
            rows.append((title, "", "", "", ""))

        titles = {
            "database": "Database",
            "backup": "Backup schedule and RMAN",
            "recovery": "Recovery",
            "targets": "Targets",
        }
        catalog_sources = {
            "backup.compression_ratio": s.backup.compression_source or "",
            "recovery.redo_apply_rate": s.recovery.redo_apply_source,
        }

        def section_rows(section: str) -> None:
            group(titles[section])
            table = raw.get(section) or {}
            for spec in SECTIONS[section]:
                dotted = f"{section}.{spec.key}"
                unit = spec.unit
                src = catalog_sources.get(dotted, "")
                cat = src[len("catalog:") :].strip() if src.startswith("catalog:") else None
                add(dotted, spec, table.get(spec.key), self.model_value(section, spec), unit, cat)

        for section in ("database", "backup"):
            section_rows(section)
        raw_path = raw.get("path") or [{} for _ in s.path]
        for i, st in enumerate(s.path):
            stage_note = notes.get(f"path[{i}]", "")
            group(
                f"Path stage {i + 1}: {st.label} ({st.kind.replace('_', ' ')})"
                + (f" — {stage_note}" if stage_note else "")
            )
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
                value = getattr(st, spec.attr, None) if spec.attr else None
                if value is None and key not in stage_raw:
                    continue  # an optional ceiling or override nobody set
                unit = spec.unit
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
            section_rows(section)
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
            "are 0 s: the plan never contains a time nobody stated. The source of a given "
            "figure is the scenario file's comment beside or above it; under a value, its "
            "range: the spread 'How sure is this plan' drew it from."
        )
        return table, text


def _ranges(ctx: ReportContext) -> dict[str, str]:
    """The ranges of the figures that vary in the report's Monte Carlo run, by key."""
    from .confidence import risk_of

    return {row.key: row.range_text for row in risk_of(ctx).varied}


SECTION = Section("assumptions", "assumptions", build, render)
