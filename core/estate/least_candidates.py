"""What the estate's least-hardware search may buy (DESIGN §9 with §8): for each
`[[shared]]` resource, §8's hardware candidates — more units (those there are owned) or
another catalog item of the same kind (all its units bought) — priced by §8's
`PriceBook`, with edits keyed `shared[i]` as the estate file spells them.

One copy of the candidate rules: `core.fix.candidates` builds the options
(`more_units`, `other_items`, `stage_dimension`); this module only says how a catalog
item becomes a shared resource's stage (through the estate loader's own stage checks)
and how much one shared stage carries (the stage's capacity in the first database that
uses it, by the plan's path model).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..catalog import Catalog, CatalogItem
from ..errors import CoreError
from ..fix import candidates as cand
from ..fix.engine import stage_capacity
from ..fix.prices import PriceBook
from ..scenario import Stage
from ..scenario.load import _Loader
from ..units import exact_rate
from .model import Estate, SharedResource, _shared_resources


@dataclass(frozen=True)
class SharedDimension:
    """One shared resource's choices: option 0 keeps it as it is."""

    resource: str
    index: int
    """Its position in the estate's `[[shared]]` list (edits are keyed `shared[index]`)."""
    dim: cand.Dimension

    @property
    def options(self) -> tuple[cand.Option, ...]:
        return self.dim.options


def _item_values(item: CatalogItem, kind: str) -> dict[str, Any]:
    """A catalog item's figures as `[[shared]]` keys: the item (its tape mechanics come
    with it) and its figures, written out (the file says what the answer bought). None
    removes a key the item has no figure for. A tape
    library keeps its `hw_compression`: how well the data compresses is the data's, not
    the drive's (§8 takes the catalog's figure for a scenario's own stage)."""
    tape = kind == "tape_drive"
    return {
        "item": item.name,  # and with it a tape drive's mechanics
        "rate": exact_rate(item.rate_Bps or 0.0),
        "efficiency": item.derate,
        "backup_rate": exact_rate(item.backup_rate_Bps) if item.backup_rate_Bps else None,
        "max_rate": exact_rate(item.compressed_rate_Bps)
        if tape and item.compressed_rate_Bps
        else None,
    }


def _edited_entry(entry: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    for key, value in values.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _resolver(estate: Estate, index: int, catalog: Catalog) -> cand.ItemResolver:
    """A catalog item as one unit of shared resource `index`, checked by the estate
    loader as the edited file would be. The item that is the resource's own hardware
    (the same native rate and efficiency) is not offered: more of it is "more units"."""
    res = estate.shared[index]
    raw = list(estate.raw.get("shared", []))
    entry = raw[index] if index < len(raw) else None

    def resolve(item: CatalogItem) -> tuple[Stage, dict[str, Any]] | None:
        if entry is None:
            return None
        values = _item_values(item, res.stage.kind)
        try:
            loaded = _shared_resources(
                _Loader(estate.source, {}), [_edited_entry(entry, {**values, "count": 1})], catalog
            )
        except CoreError:
            return None
        stage = loaded[0].stage
        if (stage.rate_Bps, stage.efficiency) == (res.stage.rate_Bps, res.stage.efficiency):
            return None
        return stage, {f"shared[{index}].{k}": v for k, v in values.items()}

    return resolve


def _units_word(kind: str, n: int) -> str:
    word = KIND_UNITS.get(kind, "unit")
    return word if n == 1 else word + "s"


KIND_UNITS = {"tape_drive": "tape drive", "media_server": "media server", "disk": "disk",
              "nas_head": "NAS head", "network": "link", "cpu": "CPU",
              "storage_write": "storage unit", "backup_appliance": "appliance rack"}  # fmt: skip
"""What one unit of a shared resource is called, by kind."""


def _estate_words(res: SharedResource, opt: cand.Option) -> cand.Option:
    """§8's words name a scenario's stage; a shared resource is named by what it holds:
    "Add 2 tape drives to LTO-8 library (10 → 12)"."""
    change, st = opt.change, res.stage
    if change is None or opt.stage is None:
        return opt
    n = opt.stage.count
    if change.item == (st.kind, st.name or st.label):
        words = f"Add {n - st.count} {_units_word(st.kind, n - st.count)} to {res.name} " \
                f"({st.count} → {n})"  # fmt: skip
    else:
        item = change.item[1] if change.item else "?"
        words = f"Replace the {st.count} {_units_word(st.kind, st.count)} of {res.name} " \
                f"with {n} × {item}"  # fmt: skip
    return replace(opt, change=replace(change, words=words))


def _capacity(estate: Estate, name: str) -> cand.Capacity | None:
    """How much a stage standing for resource `name` carries, measured in the first
    database whose path uses it (None: no database uses it)."""
    for db in estate.databases:
        scen = db.estate_scenario
        for j, st in enumerate(scen.path):
            if st.shared == name:

                def capacity(stage: Stage, scen=scen, j=j) -> tuple[float, float]:
                    path = tuple(stage if k == j else s for k, s in enumerate(scen.path))
                    return stage_capacity(replace(scen, path=path), j)

                return capacity
    return None


def shared_dimensions(
    estate: Estate,
    catalog: Catalog,
    prices: PriceBook,
    at_least: Mapping[str, int] | None = None,
) -> list[SharedDimension]:
    """Every shared resource's candidates; `at_least[name]` extends the unit counts
    considered beyond §8's ×2 / +4 (a library serving many databases may need more)."""
    out: list[SharedDimension] = []
    for index, res in enumerate(estate.shared):
        if res.stage.kind in cand.NO_HARDWARE_KINDS:
            continue
        capacity = _capacity(estate, res.name)
        if capacity is None:
            continue
        n = (at_least or {}).get(res.name, 0)
        prefix = f"shared[{index}]"
        options = [
            _estate_words(res, o)
            for o in (
                *cand.more_units(res.stage, prefix, prices, n),
                *cand.other_items(
                    res.stage, prefix, catalog, prices, _resolver(estate, index, catalog), n
                ),
            )
        ]
        dim = cand.stage_dimension(prefix, res.stage, options, capacity)
        if dim is not None:
            out.append(SharedDimension(res.name, index, dim))
    return out


def with_shared_stages(estate: Estate, stages: Mapping[str, Stage]) -> Estate:
    """The estate with some shared resources' stages replaced (a candidate purchase):
    the resource and every database stage standing for it."""
    if not stages:
        return estate
    shared = tuple(
        SharedResource(r.name, replace(stages[r.name], shared=r.name)) if r.name in stages else r
        for r in estate.shared
    )
    by_name = {r.name: r.stage for r in shared}
    dbs = []
    for db in estate.databases:
        path = tuple(
            by_name[st.shared] if st.shared in stages else st for st in db.estate_scenario.path
        )
        dbs.append(replace(db, estate_scenario=replace(db.estate_scenario, path=path)))
    return replace(estate, shared=shared, databases=tuple(dbs))


_SHARED_KEY = re.compile(r"shared\[(\d+)\]\.(\w+)")


def with_shared_edits(estate: Estate, edits: Mapping[str, Any], catalog: Catalog) -> Estate:
    """The estate with `shared[i].key` edits made as in its file (None removes a key): the
    `[[shared]]` entries edited, each edited resource loaded by the estate loader's own
    checks, the databases' stages following — what loading the edited file gives, and
    what `dump_estate` writes back."""
    raw = [dict(e) for e in estate.raw.get("shared", [])]
    touched: set[int] = set()
    for key, value in edits.items():
        m = _SHARED_KEY.fullmatch(key)
        if m is None or int(m.group(1)) >= len(raw):
            raise CoreError(f"{key}: not a key of a [[shared]] entry of {estate.source}")
        index = int(m.group(1))
        raw[index] = _edited_entry(raw[index], {m.group(2): value})
        touched.add(index)
    loader = _Loader(estate.source, {})
    stages = {}
    for index in sorted(touched):
        (res,) = _shared_resources(loader, [raw[index]], catalog)
        stages[res.name] = res.stage
    edited = with_shared_stages(estate, stages)
    return replace(edited, raw={**estate.raw, "shared": raw})
