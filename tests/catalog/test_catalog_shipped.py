"""The shipped hardware catalog: every figure has a source, and the families are complete."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from rtoplanner.core.catalog import (
    CATALOG_KINDS,
    STAGE_KINDS,
    CatalogError,
    CatalogItem,
    item_from_mapping,
    item_to_mapping,
    load_catalog_file,
    shipped_catalog,
    shipped_catalog_files,
)
from rtoplanner.core.errors import CoreError
from rtoplanner.core.scenario import load_scenario_text

ITEMS = list(shipped_catalog())


def _names(kind: str) -> set[str]:
    return {i.name for i in ITEMS if i.kind == kind}


def test_every_file_loads_and_no_item_is_shadowed_by_another() -> None:
    seen: dict[tuple[str, str], Path] = {}
    for path in shipped_catalog_files():
        for item in load_catalog_file(path):
            key = (item.kind, re.sub(r"[^a-z0-9]", "", item.name.lower()))
            assert key not in seen, f"{item.name} in {path.name} and {seen[key].name}"
            seen[key] = path
    assert len(seen) == len(ITEMS)


@pytest.mark.parametrize("item", ITEMS, ids=lambda i: f"{i.kind}:{i.name}")
def test_item_has_source_sane_figures_and_round_trips(item: CatalogItem) -> None:
    assert item.kind in CATALOG_KINDS
    assert len(item.source) > 10
    assert 0.3 <= item.derate <= 1.0
    if item.kind not in ("rman_compression", "licence"):
        assert item.rate_Bps and item.rate_Bps > 0
    if "⚠" in item.source or "unverified" in item.source.lower():
        assert "⚠" in item.source + item.notes
    assert item_from_mapping(item_to_mapping(item), where="round trip") == item


def test_tape_drives() -> None:
    tapes = {i.name: i for i in ITEMS if i.kind == "tape_drive"}
    for gen in range(1, 11):
        lto = tapes[f"LTO-{gen}"]
        assert lto.hw_compression == (2.0 if gen <= 5 else 2.5)
        assert lto.compressed_rate_Bps and lto.compressed_rate_Bps > lto.rate_Bps
        assert 0.8 <= lto.derate <= 0.9
    assert tapes["LTO-4"].compressed_rate_Bps == 240e6  # Oracle MAA 2009: ~240 MB/s
    assert tapes["LTO-3"].compressed_rate_Bps == 160e6
    assert tapes["LTO-9"].load_s == 17 and tapes["LTO-9"].locate_s == 45
    for name, item in tapes.items():
        if name.startswith("IBM TS11"):
            assert item.hw_compression == 3.0


def test_every_figure_rests_on_a_document() -> None:
    """A figure remembered, not read, is no source (the T10000D's rate was an "unverified
    recollection"): every shipped item names a document it was read from."""
    for item in ITEMS:
        assert item.source.strip(), item.name
        assert "recollection" not in item.source.lower(), item.name


def test_links() -> None:
    net = {i.name: i for i in ITEMS if i.kind == "network"}
    for n in ("1 GbE", "10 GbE", "25 GbE", "40 GbE", "100 GbE"):
        assert n in net
    for n in ("SDR", "DDR", "QDR", "FDR", "EDR", "HDR"):
        assert f"InfiniBand {n}" in net
    for n in (1, 2, 4, 8, 16, 32, 64):
        assert f"{n}GFC" in net
    assert net["InfiniBand DDR"].practical_rate_Bps == pytest.approx(1.6e9)  # MAA 2009
    assert net["1 GbE"].practical_rate_Bps == pytest.approx(110e6)
    assert net["8GFC"].practical_rate_Bps == pytest.approx(752e6)


def test_other_families() -> None:
    assert {"BASIC", "LOW", "MEDIUM", "HIGH"} <= _names("rman_compression")
    rman = {i.name: i for i in ITEMS if i.kind == "rman_compression"}
    assert rman["HIGH"].cpu_cost > 5 * rman["BASIC"].cpu_cost > 5 * rman["LOW"].cpu_cost
    assert {"oltp", "mixed", "batch"} <= _names("redo_apply")
    assert "Media server (IB DDR HCA)" in _names("media_server")
    assert _names("nas_head") and _names("storage_write") and _names("channel")
    assert any("ZFS" in n for n in _names("nas_head"))
    assert any("Exadata" in n for n in _names("storage_write"))


def test_demo_scenario_names_resolve_in_the_catalog() -> None:
    """The demo's media server is a catalog item: leaving out its rate takes 1.6 GB/s."""
    cat = shipped_catalog()
    assert cat.find("media_server", "media server (IB DDR HCA)").rate_Bps == 1.6e9
    assert cat.find("tape_drive", "lto4").name == "LTO-4"


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(CatalogError, match="unknown kind 'toaster'"):
        item_from_mapping({"kind": "toaster", "name": "x", "source": "y"}, where="t")


def test_files_are_plain_item_tables() -> None:
    for path in shipped_catalog_files():
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        # [[item]] tables, and [[prior]] tables: the evidence of the figures' spreads
        # (core/scenario/priors.py); nothing else.
        assert doc and set(doc) <= {"item", "prior"}, path.name


STAGE_ITEMS = [i for i in ITEMS if i.kind in STAGE_KINDS]


@pytest.mark.parametrize("item", STAGE_ITEMS, ids=lambda i: f"{i.kind}:{i.name}")
def test_every_stage_item_is_accepted_when_picked_from_the_catalog(item: CatalogItem) -> None:
    """Issue 23 item 3: picking the catalog's own "ZFS Storage Appliance head" (a stage
    named after an item, no rate typed) was refused as "not in the catalog"."""
    text = (
        'format = 1\nname = "picked"\n[database]\nsize = "2 TB"\n[targets]\nrto = "8 h"\n'
        f'[[path]]\nkind = "{item.kind}"\nname = "{item.name}"\n'
    )
    stage = load_scenario_text(text).path[0]
    assert stage.rate_Bps == item.rate_Bps
    assert stage.source.startswith(f"catalog: {item.name}")


def test_a_catalog_item_without_a_rate_is_named_as_such() -> None:
    """An item the catalog has but with no rate is not called "not in the catalog"."""
    from rtoplanner.core.catalog import Catalog

    bare = CatalogItem(kind="nas_head", name="Bare head", source="a test item, no rate")
    text = (
        'format = 1\nname = "x"\n[database]\nsize = "2 TB"\n[targets]\nrto = "8 h"\n'
        '[[path]]\nkind = "nas_head"\nname = "Bare head"\n'
    )
    with pytest.raises(CoreError) as err:
        load_scenario_text(text, catalog=Catalog([bare]))
    assert "has no rate" in str(err.value) and "not in the catalog" not in str(err.value)


def test_current_devices_are_in_the_catalog() -> None:
    """Issue 23 item 3: current devices with their sources (LTO-8/9, 25/100 GbE, the
    Exadata X8M+ RoCE fabric)."""
    for kind, name in (("tape_drive", "LTO-8"), ("tape_drive", "LTO-9"),
                       ("network", "25 GbE"), ("network", "100 GbE"),
                       ("network", "RoCE 100 Gb/s (Exadata X8M–X11M)")):  # fmt: skip
        item = shipped_catalog().find(kind, name)
        assert item is not None and item.rate_Bps and len(item.source) > 40, name
