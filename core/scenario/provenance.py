"""Where each figure comes from, and the spread that follows from it (DESIGN §10).

Five kinds of provenance, each with its default spread:

| kind       | what it is                                          | default spread            |
|------------|-----------------------------------------------------|---------------------------|
| `exact`    | the user says so (a size read from DBA_DATA_FILES)  | ±0                        |
| `measured` | imported, a `measured` stage, or marked measured    | ±10 % (or the stated one, |
|            |                                                     | at least ±10 %)           |
| `catalog`  | a datasheet figure of the hardware catalog          | the catalog's prior       |
| `default`  | a class default (redo apply by workload, tape load  | the class's prior         |
|            | and locate, per-core compression, …)                |                           |
| `estimate` | typed, nobody said how it is known                  | ±25 %                     |

**Stating it.** The scenario's `[provenance]` table maps a dotted key to a text. A text
that starts with a kind and a colon states the provenance — `"exact: DBA_DATA_FILES
2026-11-20"`, `"measured: drill 3, 2026-10-12"` — and so does a bare kind (`"estimate"`,
`"catalog"`, `"default"`). `measured` and `estimate` may carry their spread before the
colon: `"measured ±15%: drill 3"`. Any other text keeps its old meaning: the figure was
measured, imported from that source (±10 %). The `[uncertainty]` table still overrides
the spread of any figure.

**Calibration API** (for drills and imports): `prior_of(key, scenario)` gives the prior a
figure would have from the catalog or its class (`Prior`: a lognormal factor with its
source), `origin_of(key, scenario)` the provenance and spread it has now, and a posterior
is stated in the scenario itself — `state_posterior(raw, key, source, spread)` writes
`"measured ±X%: source"` into `[provenance]` (and drops an `[uncertainty]` range the new
evidence replaces), or give an explicit range in `[uncertainty]`.

Figures the catalog adds that are not keys of the scenario format — a tape drive's load
and locate times, the per-core compress and decompress rates of an RMAN level — are
inputs too (`EXTRA_FIGURES`), named `path[i].load_time`, `path[i].locate_time`,
`backup.compress_rate` and `backup.decompress_rate`; so is the class default ceiling of
one RMAN channel on a disk or NFS path, `backup.channel_rate` (`channel_rate.py`).
This module is numpy-free.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..bounds import APPLY_FACTOR, SHORT_DURATION, UNIT_RATE
from ..catalog import Catalog
from ..errors import UnitError
from .fields import FieldSpec, spec_for_key
from .model import Scenario
from .priors import Prior, Priors, catalog_prior, shipped_priors
from .ranges import ZERO, RangeSpec, parse_range, relative_range

KINDS = ("exact", "measured", "catalog", "default", "estimate")
KIND_WORDS = {
    "exact": "exact",
    "measured": "measured",
    "catalog": "catalog figure",
    "default": "class default",
    "estimate": "estimate",
}
MEASURED_SPREAD = relative_range(-0.10, 0.10)
"""The fallback spread of a measured figure when the catalog has no `measured` prior."""
ESTIMATE_SPREAD = relative_range(-0.25, 0.25)
"""The fallback spread of an estimate when the catalog has no `estimate` prior."""
MIN_MEASURED = 0.10
"""A measured figure varies at least ±10 % (DESIGN §10)."""

Spread = RangeSpec | Prior
"""A triangular range (mode at the value) or a lognormal prior factor."""

_STAGE_INDEX = re.compile(r"^path\[(\d+)\]\.(\w+)$")
_STATED = re.compile(
    r"^\s*(exact|measured|catalog|default|estimate)\b(.*)$", re.IGNORECASE | re.DOTALL
)


# ------------------------------------------------------------------------ figures the catalog adds


@dataclass(frozen=True)
class ExtraFigure:
    """A figure only the catalog gives: its spec, the dataclass attribute it sets and
    the prior that applies (`kind.figure`, as the field table's `prior` column)."""

    spec: FieldSpec
    attr: str
    prior: str


_EXTRA_BOUNDS = {"rate": UNIT_RATE, "duration": SHORT_DURATION, "ratio": APPLY_FACTOR}


def _extra(dotted: str, kind: str, attr: str, prior: str, label: str, help: str) -> ExtraFigure:
    section, _, key = dotted.rpartition(".")
    spec = FieldSpec(key, kind, positive=kind in ("rate", "ratio"), section=section,
                     label=label, phrase=label.lower(), help=help,
                     bound=_EXTRA_BOUNDS[kind])  # fmt: skip
    return ExtraFigure(spec, attr, prior)


EXTRA_FIGURES: dict[str, tuple[ExtraFigure, ...]] = {
    "backup": (
        _extra("backup.compress_rate", "rate", "compress_core_Bps",
               "rman_compression.compress_rate", "Compression per core",
               "Data bytes/s one core compresses at the named RMAN level (catalog)."),
        _extra("backup.decompress_rate", "rate", "decompress_core_Bps",
               "rman_compression.decompress_rate", "Decompression per core",
               "Data bytes/s one core decompresses at the named RMAN level (catalog)."),
        _extra("backup.channel_rate", "rate", "channel_rate_Bps",
               "default.backup.channel_rate", "RMAN channel ceiling (class default)",
               "Data bytes/s one RMAN channel moves at most on a disk or NFS path with no "
               "stage that limits one channel (a class default; a 'channel' stage with a "
               "measured rate replaces it)."),
    ),
    "recovery": (
        _extra("recovery.incremental_apply_factor", "ratio", "incremental_apply_factor",
               "default.recovery.incremental_apply_factor",
               "Incremental apply pace (class default)",
               "With level 1 backups and no incremental apply rate: the apply's rate as a "
               "share of the incremental restore's own (1: it keeps pace; a class default)."),
    ),
    "path": (
        _extra("path.load_time", "duration", "load_s", "tape_drive.load_time",
               "Cartridge load time", "Time to load a cartridge (catalog tape drive)."),
        _extra("path.locate_time", "duration", "locate_s", "tape_drive.locate_time",
               "Locate time", "Average locate time on a cartridge (catalog tape drive)."),
    ),
}  # fmt: skip
"""Figures only the catalog gives (not keys of the format), by section."""


def extra_figure(section: str, name: str) -> ExtraFigure | None:
    return next((f for f in EXTRA_FIGURES.get(section, ()) if f.spec.key == name), None)


# ------------------------------------------------------------------------ stated provenance


@dataclass(frozen=True)
class Provenance:
    """A `[provenance]` text read: its kind, the source in words, and the spread given
    with it (`measured ±15%: …`), if any. `legacy`: a text without a kind (imported)."""

    kind: str
    source: str
    spread: RangeSpec | None = None
    legacy: bool = False


def parse_provenance(text: str) -> Provenance:
    """Read a `[provenance]` text; UnitError for a kind with a spread that is not one.

    `"measured: drill 3"` → measured, `"estimate"` → estimate, `"measured ±15%: drill 3"`
    → measured with ±15 %; `"AWR 2024-05 (avg)"` → measured (legacy: imported from it).
    """
    m = _STATED.match(text)
    if m:
        kind, rest = m.group(1).lower(), m.group(2)
        middle, colon, source = rest.partition(":")
        middle = middle.strip()
        if not middle and (colon or not rest.strip()):
            return Provenance(kind, source.strip())
        if middle and middle[0] in "±+-−0123456789.":
            return Provenance(kind, source.strip(), _stated_spread(kind, middle))
    return Provenance("measured", f"imported: {text}", legacy=True)


def _stated_spread(kind: str, text: str) -> RangeSpec:
    spread = parse_range(text)
    if kind not in ("measured", "estimate"):
        raise UnitError(
            f"'{kind}' takes its spread from {'the catalog' if kind != 'exact' else 'nowhere'}"
            f", not from '{text}'",
            hint="give a spread to measured or estimate figures, or a range in [uncertainty]",
        )
    if kind == "measured" and min(-spread.low, spread.high) < MIN_MEASURED - 1e-12:
        raise UnitError(
            f"'{text}': a measured figure varies at least ±10 %",
            hint="write ±10% or more, or mark the figure exact",
        )
    return spread


def stated_by_key(scenario: Scenario, resolve: Callable[[str], str]) -> dict[str, str]:
    """The `[provenance]` table by canonical key (`path.LTO-8.rate` → `path[0].rate`);
    keys `resolve` cannot place stay as written (texts about the workload, old files)."""
    out: dict[str, str] = {}
    for key, text in (scenario.provenance or {}).items():
        out[resolve(key)] = text
    return out


# ------------------------------------------------------------------------ priors by key


_ITEM_OF: dict[str, Callable[[Scenario], str | None]] = {
    "redo_apply": lambda s: s.database.workload,
    "rman_compression": lambda s: s.backup.compression,
}
"""The catalog item whose prior applies, by catalog kind (a stage's is its name)."""


def _prior_column(key: str) -> str:
    """The field table's `prior` column for a figure (or an extra figure's)."""
    m = _STAGE_INDEX.match(key)
    section, name = ("path", m.group(2)) if m else key.split(".", 1)
    extra = extra_figure(section, name)
    if extra is not None:
        return extra.prior
    spec = spec_for_key(key)
    return spec.prior if spec is not None else ""


def prior_address(key: str, scenario: Scenario) -> tuple[str, str, str | None] | None:
    """(catalog kind, figure, item name) of the prior that applies to a figure (the
    field table's `prior` column), or None when none does (a database size)."""
    column = _prior_column(key)
    if not column:
        return None
    kind, _, figure = column.partition(".")
    m = _STAGE_INDEX.match(key)
    if m:
        st = scenario.path[int(m.group(1))]
        return (st.kind if kind == "stage" else kind), figure, st.name
    item = _ITEM_OF.get(kind)
    return kind, figure, item(scenario) if item else None


def prior_of(
    key: str, scenario: Scenario, catalog: Catalog | None = None, priors: Priors | None = None
) -> Prior | None:
    """The prior a figure has from the catalog or its class (None if none applies):
    a lognormal factor on the figure, with its source."""
    address = prior_address(key, scenario)
    if address is None:
        return None
    kind, figure, name = address
    return catalog_prior(priors or shipped_priors(), catalog, kind, figure, name)


# ------------------------------------------------------------------------ the origin of a figure


@dataclass(frozen=True)
class Origin:
    """Where a figure's value came from and the spread that follows (before any
    `[uncertainty]` range): `kind` one of KINDS, `source` in words, `stated` when the
    `[provenance]` table says so."""

    kind: str
    source: str
    spread: Spread
    stated: bool = False

    @property
    def text(self) -> str:
        return self.spread.text


def _catalog_words(source: str) -> str:
    return source.removeprefix("catalog:").strip()


def _with_prior(kind: str, source: str, prior: Prior | None, stated: bool = False) -> Origin:
    """The origin with its prior; without one (a kind the catalog has no evidence for),
    an estimate, saying so."""
    if prior is None:
        return Origin("estimate", f"{source}; no prior for it in the catalog: an estimate",
                      estimate_spread(), stated)  # fmt: skip
    return Origin(kind, source, prior, stated)


def estimate_spread() -> Spread:
    """The spread of a typed figure nobody said how it is known: the catalog's `estimate`
    prior (data/catalog/priors.toml: how far the plan from typed figures landed from the
    published outcome on the fidelity corpus, a lognormal whose P10..P90 is ±25 %-ish),
    else the ±25 % triangle."""
    return shipped_priors().find("estimate", "any") or ESTIMATE_SPREAD


def measured_spread() -> Spread:
    """The spread of a figure measured without a stated spread: the catalog's `measured`
    prior (data/catalog/priors.toml: how far a source's own measurement predicted its
    outcome on the fidelity corpus), else ±10 %."""
    return shipped_priors().find("measured", "any") or MEASURED_SPREAD


def _stated_origin(key: str, text: str, scenario: Scenario, catalog: Catalog | None) -> Origin:
    try:
        p = parse_provenance(text)
    except UnitError:
        p = Provenance("measured", f"imported: {text}", legacy=True)  # the loader refused it
    if p.kind == "exact":
        return Origin("exact", p.source or "exact", ZERO, True)
    if p.kind == "measured":
        return Origin("measured", p.source or "measured", p.spread or measured_spread(), True)
    if p.kind == "estimate":
        return Origin("estimate", p.source or "an estimate", p.spread or estimate_spread(), True)
    return _with_prior(p.kind, p.source or KIND_WORDS[p.kind], prior_of(key, scenario, catalog),
                       True)  # fmt: skip


_HELD_CATALOG_KEYS = ("efficiency", "max_rate")

INCREMENTAL_APPLY_SOURCE = (
    "class default: the apply keeps pace with the incremental restore it follows "
    "(docs/model.md); give recovery.incremental_apply_rate from a timed test recovery"
)


def _stage_origin(
    i: int, name: str, given: Any, scenario: Scenario, catalog: Catalog | None
) -> Origin | None:
    st = scenario.path[i]
    key = f"path[{i}].{name}"
    if st.kind == "measured" and name == "rate":
        return Origin("measured", "a measured stage (one observed rate for the whole path)",
                      measured_spread())  # fmt: skip
    if name in ("load_time", "locate_time"):
        source = f"catalog tape drive {st.name}: IBM's average"
        return _with_prior("default", source, prior_of(key, scenario, catalog))
    if given is None and st.source.startswith("catalog:"):
        source = _catalog_words(st.source)
        if name in _HELD_CATALOG_KEYS:
            return Origin("catalog", f"{source}; the rate's prior covers it", ZERO)
        if name in ("rate", "hw_compression"):
            return _with_prior("catalog", source, prior_of(key, scenario, catalog))
    if given is not None:
        return Origin("estimate", "typed in the scenario", estimate_spread())
    return None


def _section_origin(
    key: str, given: Any, scenario: Scenario, catalog: Catalog | None
) -> Origin | None:
    if given is not None:
        return Origin("estimate", "typed in the scenario", estimate_spread())
    rc, bk = scenario.recovery, scenario.backup
    if key == "recovery.redo_apply_rate" and rc.redo_apply_source.startswith("catalog:"):
        return _with_prior("default", _catalog_words(rc.redo_apply_source),
                           prior_of(key, scenario, catalog))  # fmt: skip
    if key == "recovery.redo_log_cost" and rc.redo_log_cost_source.startswith("catalog:"):
        return _with_prior("default", _catalog_words(rc.redo_log_cost_source),
                           prior_of(key, scenario, catalog))  # fmt: skip
    if key == "backup.compression_ratio" and bk.compression_source:
        return _with_prior("catalog", _catalog_words(bk.compression_source),
                           prior_of(key, scenario, catalog))  # fmt: skip
    if key == "recovery.incremental_apply_factor" and rc.incremental_apply_factor is not None:
        return _with_prior("default", INCREMENTAL_APPLY_SOURCE, prior_of(key, scenario, catalog))
    if key == "backup.channel_rate" and bk.channel_rate_source:
        return _with_prior("default", bk.channel_rate_source, prior_of(key, scenario, catalog))
    if key in ("backup.compress_rate", "backup.decompress_rate") and bk.compression_source:
        return _with_prior("default", _catalog_words(bk.compression_source),
                           prior_of(key, scenario, catalog))  # fmt: skip
    return None


def origin_of(
    key: str,
    scenario: Scenario,
    catalog: Catalog | None = None,
    stated: Mapping[str, str] | None = None,
) -> Origin | None:
    """The provenance of a figure (canonical key) and its default spread; None for a
    figure nobody gave (a format default such as an efficiency of 1: not an input).
    `stated` is the `[provenance]` table by canonical key (`stated_by_key`)."""
    stated = scenario.provenance if stated is None else stated
    if key in stated:
        return _stated_origin(key, stated[key], scenario, catalog)
    m = _STAGE_INDEX.match(key)
    raw = scenario.raw
    if m:
        i, name = int(m.group(1)), m.group(2)
        raw_path = raw.get("path") or []
        given = raw_path[i].get(name) if i < len(raw_path) else None
        return _stage_origin(i, name, given, scenario, catalog)
    section, _, name = key.partition(".")
    return _section_origin(key, (raw.get(section) or {}).get(name), scenario, catalog)


# ------------------------------------------------------------------------ posterior


def state_posterior(
    raw: dict[str, Any], key: str, source: str, spread: str | None = None, kind: str = "measured"
) -> None:
    """State a figure's provenance in a scenario's raw document (in place): `[provenance]`
    gets `"measured ±X%: source"` (or `kind: source` without a spread), and a range of
    the same key in `[uncertainty]` — about the old evidence — goes. Check the result
    by loading it (`scenario_from_mapping`): a measured spread under ±10 % is refused."""
    if kind not in KINDS:
        raise ValueError(f"unknown provenance kind {kind!r}")
    text = f"{kind} {spread}: {source}" if spread else f"{kind}: {source}"
    prov = dict(raw.get("provenance") or {})
    prov[key] = text
    raw["provenance"] = prov
    table = dict(raw.get("uncertainty") or {})
    table.pop(key, None)
    if table:
        raw["uncertainty"] = table
    else:
        raw.pop("uncertainty", None)


__all__ = [
    "ESTIMATE_SPREAD",
    "EXTRA_FIGURES",
    "KINDS",
    "KIND_WORDS",
    "MEASURED_SPREAD",
    "ExtraFigure",
    "Origin",
    "Provenance",
    "Spread",
    "estimate_spread",
    "extra_figure",
    "measured_spread",
    "origin_of",
    "parse_provenance",
    "prior_address",
    "prior_of",
    "state_posterior",
    "stated_by_key",
]
