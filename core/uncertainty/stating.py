"""Stating a figure's provenance (DESIGN §10, issue 20.1): what an editor offers for one
figure and the `[provenance]` text it writes.

The GUI's ranges table shows each figure's provenance (exact, measured, catalog figure,
class default, estimate) and its source, and edits them; every edit is one text of the
scenario's `[provenance]` table, `"kind: source"` (`"measured: drill 3, 2026-10-12"`,
`"exact: DBA_DATA_FILES"`, a bare `"estimate"`), checked here before it is written. This
module is numpy-free.
"""

from __future__ import annotations

from ..catalog import Catalog
from ..errors import UnitError
from ..scenario import Scenario, spec_for_key
from ..scenario.provenance import KIND_WORDS, KINDS, extra_figure, parse_provenance, prior_of

ALWAYS = ("exact", "measured", "estimate")
"""Kinds any figure may be stated as; `catalog` and `default` need a prior."""


def _prior_kind(key: str) -> str:
    """`catalog` or `default`: what a prior of this figure is (the field table's
    `provenance` column; the catalog's extra figures are class defaults)."""
    spec = spec_for_key(key)
    if spec is not None and spec.provenance:
        return spec.provenance
    section, _, name = key.partition(".")
    extra = extra_figure("path" if section.startswith("path[") else section, name)
    return "default" if extra is not None else ""


def provenance_choices(
    key: str, scenario: Scenario, catalog: Catalog | None = None
) -> tuple[str, ...]:
    """The kinds `key` may be stated as, in the order KINDS lists them: exact, measured
    and estimate always; a catalog figure or class default when the catalog has a prior
    for it."""
    allowed = set(ALWAYS)
    kind = _prior_kind(key)
    if kind and prior_of(key, scenario, catalog) is not None:
        allowed.add(kind)
    return tuple(k for k in KINDS if k in allowed)


def provenance_text(kind: str, source: str = "") -> str:
    """The `[provenance]` text: `"measured: drill 3"`, or the bare kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown provenance kind {kind!r}")
    source = " ".join(source.split())
    return f"{kind}: {source}" if source else kind


def stated_source(text: str | None) -> str:
    """The source of a `[provenance]` text ("" when it states none or is not one)."""
    if not text:
        return ""
    try:
        return parse_provenance(text).source
    except UnitError:
        return ""


def provenance_problem(
    key: str, text: str, scenario: Scenario, catalog: Catalog | None = None
) -> str | None:
    """Why `text` cannot be `key`'s provenance (None when it can)."""
    try:
        p = parse_provenance(text)
    except UnitError as exc:
        return str(exc)
    if p.legacy:
        return f'start with one of {", ".join(KINDS)} (e.g. "measured: drill 3")'
    if p.kind not in provenance_choices(key, scenario, catalog):
        return f"the catalog has no {KIND_WORDS[p.kind]} prior for this figure: mark it " \
            "measured, estimate or exact"  # fmt: skip
    return None
