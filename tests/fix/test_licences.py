"""Licences are costs (issue 22 item 8, DESIGN §12): the Advanced Compression Option once,
owned when the scenario already needs it; processor licences for added database cores;
Enterprise Edition for a standby host. List prices come from the catalog, with sources."""

from __future__ import annotations

import math

import pytest

from rtoplanner.core.catalog import Catalog, shipped_catalog
from rtoplanner.core.fix import PriceBook, what_it_takes
from rtoplanner.core.fix import candidates as cand
from rtoplanner.core.fix.licences import total_cost
from rtoplanner.core.scenario import load_scenario_text

from .test_exact import SCENARIO, small_catalog

EE, ACO = 47_500.0, 11_500.0  # Oracle Technology Global Price List, per processor


def licensed_catalog() -> Catalog:
    catalog = small_catalog()
    for item in shipped_catalog().by_kind("licence"):
        catalog.add(item)
    catalog.currency = "USD"
    return catalog


def _scenario(compression: str, cores: int = 8, **over):
    args = dict(size="2 TB", change="3%", arch="1 h", offsite="0 s", on_disk="false",
                rto="6 h", rpo="", window="3 h", db_extra=f"cpu_cores = {cores}",
                level1="cumulative",
                backup_extra=f'compression = "{compression}"\njob_overhead = "2 min"')  # fmt: skip
    args.update(over)
    catalog = licensed_catalog()
    return load_scenario_text(SCENARIO.format(**args), catalog=catalog), catalog


def _compression(scenario, catalog, level):
    prices = PriceBook.from_catalog(catalog)
    opts = cand.compression_options(scenario, catalog, prices)
    return next(o for o in opts if o.change.edits["backup.compression"] == level).change


def test_the_catalog_carries_list_prices_with_their_source():
    items = {i.name: i for i in shipped_catalog().by_kind("licence")}
    ee, aco = items["Oracle Database Enterprise Edition"], items["Advanced Compression Option"]
    assert (ee.price, aco.price) == (EE, ACO)
    for item in (ee, aco):
        assert "Oracle Technology Global Price List" in item.source
        assert "2025" in item.source and "Processor License Price" in item.source
        assert float(item.extra["core_factor"]) == 0.5
    assert "Core Factor Table" in ee.source


@pytest.mark.parametrize("owned", ["low", "medium", "high"])
def test_a_level_that_needs_the_option_when_it_is_owned_costs_nothing(owned):
    # MEDIUM → LOW was charged the Advanced Compression Option although MEDIUM needs it.
    scenario, catalog = _scenario(owned)
    for level in {"low", "medium", "high"} - {owned}:
        change = _compression(scenario, catalog, level)
        assert change.cost.key == total_cost([]).key, (owned, level, change.cost)


@pytest.mark.parametrize("start", ["none", "basic"])
def test_the_option_is_charged_once_per_processor_from_none_or_basic(start):
    scenario, catalog = _scenario(start, cores=8)
    for level in ("low", "medium", "high"):
        change = _compression(scenario, catalog, level)
        assert change.cost.priced and change.cost.amount == ACO * math.ceil(8 * 0.5)
    assert _compression(scenario, catalog, "basic" if start == "none" else "none").cost.amount == 0


CPU_SCENARIO = """
format = 1
name = "cores"
[database]
size = "2 TB"
redo_rate = "1 MB/s"
daily_change = "0%"
workload = "oltp"
cpu_cores = 8
[backup]
channels = 8
level0_every = "7d"
level1 = "none"
archivelog_every = "1 h"
log_switch = "15 min"
offsite_delay = "0 s"
compression = "{compression}"
{standby}
[[path]]
kind = "network"
name = "10 GbE"
count = 2
[[path]]
kind = "cpu"
name = "DB host cores"
count = 8
rate = "60 MB/s"
binds_channel = true
[recovery]
detect = "10 min"
redo_apply_rate = "200 GB/h"
archivelogs_on_disk = true
[targets]
rto = "{rto}"
rpo = "{rpo}"
backup_window = "24 h"
"""


def _cpu_scenario(compression="basic", rto="3 h", rpo="24 h", standby=""):
    catalog = licensed_catalog()
    text = CPU_SCENARIO.format(compression=compression, rto=rto, rpo=rpo, standby=standby)
    return load_scenario_text(text, catalog=catalog), catalog


@pytest.mark.parametrize("compression", ["basic", "medium"])
def test_added_database_cores_carry_processor_licences(compression):
    scenario, catalog = _cpu_scenario(compression)
    prices = PriceBook.from_catalog(catalog)
    dims = {d.name: d for d in cand.hardware_dimensions(scenario, catalog, prices)}
    cpu = dims["path[1]"]
    per = EE + (ACO if compression == "medium" else 0.0)  # the option goes with the cores
    for opt in cpu.options[1:]:
        added = math.ceil(opt.stage.count * 0.5) - 4
        assert opt.change.processors == added
        assert opt.change.cost.amount == pytest.approx(per * added), opt.change.words
        assert ("processor licence" in opt.change.words) == (added > 0)


def test_compression_newly_needing_the_option_charges_it_on_added_cores_too():
    scenario, catalog = _cpu_scenario("basic")
    prices = PriceBook.from_catalog(catalog)
    cpu = {d.name: d for d in cand.hardware_dimensions(scenario, catalog, prices)}["path[1]"]
    more = next(o for o in cpu.options if o.stage is not None and o.stage.count == 12)
    low = _compression(scenario, catalog, "low")
    together = total_cost([more.change, low])
    assert together.amount == pytest.approx(ACO * 4 + EE * 2 + ACO * 2)


def test_a_standby_host_carries_its_licences():
    scenario, catalog = _cpu_scenario("basic", rto="24 h", rpo="5 min")
    prices = PriceBook.from_catalog(catalog)
    standby = [c for o in cand.rpo_options(scenario, catalog, prices) for c in o.changes
               if c.dim == "backup.standby"]  # fmt: skip
    assert standby
    for change in standby:
        # The standby's servers are the user's quote (unpriced here); its licences are not.
        assert change.cost.amount == pytest.approx(EE * 4)
        assert change.cost.unpriced == (("Data Guard standby", 1),)
    result = what_it_takes(scenario, catalog=catalog, prices=prices)
    assert result.recommended is not None
    assert any(c.dim == "backup.standby" for c in result.recommended.changes)
    assert result.recommended.cost.amount >= EE * 4


def test_list_prices_in_another_currency_are_not_used():
    catalog = licensed_catalog()
    book = PriceBook.from_catalog(catalog, {("network", "10 GbE"): 900.0}, "EUR")
    assert book.price("licence", "Advanced Compression Option") is None
    assert book.price("network", "10 GbE") == 900.0
    # A quote given when the option was an "option" still prices the licence.
    old = PriceBook.from_catalog(catalog, {("option", "Advanced Compression Option"): 5.0})
    assert old.price("licence", "Advanced Compression Option") == 5.0
