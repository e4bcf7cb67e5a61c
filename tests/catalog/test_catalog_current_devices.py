"""Issue 23 item 3: current devices — Exadata X8M+ HC storage servers, the Recovery
Appliance (kind `backup_appliance`) and object storage (kind `object_storage`, a rate per
RMAN channel) — are catalog items that become stages and plan, through real scenarios."""

from __future__ import annotations

import re

import pytest

from rtoplanner.core import catalog as core_catalog
from rtoplanner.core import scenario as core_scenario
from rtoplanner.core.catalog import shipped_catalog
from rtoplanner.core.engine.notes import sbt_stage
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.estate.model import SHAREABLE_KINDS
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario_text
from rtoplanner.core.wording import stage_kind_words

EXADATA_HC = "Exadata storage server HC (X8M–X11M)"
EXADATA_EF = "Exadata storage server EF (X11M)"
ZDLRA = "Recovery Appliance RA23 (ZDLRA) rack"
RA26 = "Recovery Appliance RA26 (ZDLRA) rack"
S3 = "Amazon S3, one RMAN channel"
OCI = "OCI Object Storage, one RMAN channel"

HEAD = """\
format = 1
name = "{title}"

[database]
size = "20 TB"

[backup]
compression_ratio = 2.0
channels = {channels}
"""

SCENARIO = (
    HEAD.replace("{title}", "current devices")
    + """
[[path]]
kind = "{kind}"
name = "{name}"
{count}
[[path]]
kind = "network"
name = "100 GbE"
count = 4

[[path]]
kind = "storage_write"
name = "{target}"
count = {servers}
write_factor = 3

[targets]
rto = "8 h"
"""
)


def _scenario(kind: str, name: str, *, channels: int = 8, count: str = "",
              target: str = EXADATA_HC, servers: int = 14) -> core_scenario.Scenario:  # fmt: skip
    text = SCENARIO.format(
        kind=kind, name=name, channels=channels, count=count, target=target, servers=servers
    )
    return load_scenario_text(text)


def test_the_scenario_format_and_the_catalog_know_the_same_stage_kinds() -> None:
    assert core_catalog.STAGE_KINDS == core_scenario.STAGE_KINDS
    for kind in ("backup_appliance", "object_storage"):
        assert shipped_catalog().by_kind(kind), kind


def test_object_storage_is_a_rate_per_rman_channel_both_ways() -> None:
    """8 channels × 85 MB/s of backup bytes (S3's per-request GET figure) × 2:1 RMAN
    compression restores 1.36 GB/s of data; backups take the PUT figure, 45 MB/s each;
    twice the channels, twice the rate (the links and the storage are far from full)."""
    plan = compute_plan(_scenario("object_storage", S3))
    assert plan.restore_path.rate_Bps == pytest.approx(8 * 85e6 * 2)
    assert plan.restore_path.bottleneck == "channels"  # more channels would help
    assert "more channels would help" in plan.restore_path.explain()
    assert plan.backup_path.rate_Bps == pytest.approx(8 * 45e6 * 2)
    wider = compute_plan(_scenario("object_storage", S3, channels=16))
    assert wider.restore_path.rate_Bps == pytest.approx(2 * plan.restore_path.rate_Bps)
    assert wider.recovery.total_s < plan.recovery.total_s


def test_object_storage_is_reached_through_sbt_and_not_shared() -> None:
    scenario = _scenario("object_storage", OCI)
    assert sbt_stage(scenario) is scenario.path[0]
    assert "object_storage" not in SHAREABLE_KINDS
    assert stage_kind_words("object_storage") == "object storage (per channel)"


def test_object_storage_units_are_refused_in_one_line() -> None:
    with pytest.raises(ScenarioError) as err:
        _scenario("object_storage", S3, count="count = 4")
    assert err.value.key == "path[0].count"
    assert "one RMAN channel" in str(err.value) and "\n" not in str(err.value)


def test_recovery_appliance_is_a_shared_source_of_backup_pieces() -> None:
    """One rack's 60 TB/h of backup pieces at 2:1 is 33 GB/s of data; fourteen HC storage
    servers writing three ASM copies take 14 × 1.8 GB/s ÷ 3 = 8.4 GB/s: the datafile
    storage, not the appliance, decides, and more channels do not change that."""
    scenario = _scenario("backup_appliance", ZDLRA, channels=4, count="count = 1")
    plan = compute_plan(scenario)
    appliance = plan.restore_path.stages[0]
    assert appliance.carries == "backup" and not appliance.per_channel_only
    assert appliance.total_Bps == pytest.approx(60e12 / 3600 * 2)
    hc = shipped_catalog().find("storage_write", EXADATA_HC)
    assert plan.restore_path.rate_Bps == pytest.approx(14 * hc.practical_rate_Bps / 3)
    assert plan.restore_path.bottleneck_index == 2
    assert sbt_stage(scenario) is scenario.path[0]  # named a Recovery Appliance
    assert "backup_appliance" in SHAREABLE_KINDS
    assert stage_kind_words("backup_appliance") == "backup appliance"


def test_exadata_hc_storage_servers_read_and_write_at_their_disks() -> None:
    """As a backup source (`disk`) and as a restore target (`storage_write`, with the
    ASM write factor): the X11M data sheets' disk bandwidth per storage server, each
    figure marked ⚠ with what would replace it."""
    cat = shipped_catalog()
    for kind in ("disk", "storage_write"):
        item = cat.find(kind, EXADATA_HC)
        assert item is not None and item.practical_rate_Bps == 1.8e9, kind
        assert "⚠" in item.source and "V$RMAN_BACKUP_JOB_DETAILS" in item.notes
    assert "bypass the flash cache" in cat.find("storage_write", EXADATA_HC).source
    plan = compute_plan(_scenario("disk", EXADATA_HC, channels=64, count="count = 3",
                                  servers=3))  # fmt: skip
    # A backup reads one copy from three servers; a restore writes three to three.
    read = 3 * cat.find("disk", EXADATA_HC).practical_rate_Bps * 2  # backup bytes at 2:1
    assert plan.restore_path.stages[0].total_Bps == pytest.approx(read)
    assert plan.restore_path.rate_Bps == pytest.approx(3 * 1.8e9 / 3)
    assert plan.restore_path.bottleneck == EXADATA_HC


def _rack_figures(source: str) -> list[tuple[float, int]]:
    """(GB/s, storage servers) of each 'N GB/s for … (S storage servers|S)' the source quotes."""
    found = re.findall(r"(\d+(?:\.\d+)?) GB/s for Elastic Example \d \((\d+)", source)
    return [(float(rate), int(servers)) for rate, servers in found]


def test_the_hc_figure_is_the_data_sheets_rack_figures_per_server() -> None:
    """The per-server rate is a derivation from per-rack figures and says so: every rack
    figure the source quotes, divided by that rack's storage servers, gives the item's
    rate (within the data sheet's rounding)."""
    item = shipped_catalog().find("disk", EXADATA_HC)
    racks = _rack_figures(item.source)
    assert [servers for _, servers in racks] == [3, 8, 14]
    for rate_GBps, servers in racks:
        assert rate_GBps * 1e9 / servers == pytest.approx(item.rate_Bps, rel=0.01)
    assert "divided by its storage servers" in item.source
    assert "data sheet" in item.source and "version 1.6" in item.source


EF_SCENARIO = (
    HEAD.replace("{title}", "restore from an FRA on Extreme Flash")
    + """
[[path]]
kind = "disk"
name = "Exadata storage server EF (X11M)"
count = 3

[[path]]
kind = "network"
name = "RoCE 100 Gb/s (Exadata X8M–X11M)"
count = 6

[[path]]
kind = "storage_write"
name = "datafiles"
rate = "200 GB/s"

[targets]
rto = "8 h"
"""
)


def test_an_extreme_flash_backup_source_is_bounded_by_its_roce_ports() -> None:
    """Issue 23 item 3: an EF storage server reads at 100 GB/s (data sheet, per server);
    three of them hold the backup pieces and reach the database servers over their six
    RoCE ports. The item becomes a stage that plans; the fabric, not the flash, is the
    smallest shared capacity, and decides once channels stop deciding. There is no EF
    restore-target item: no write bandwidth is published."""
    cat = shipped_catalog()
    ef = cat.find("disk", EXADATA_EF)
    assert ef is not None and ef.rate_Bps == 100e9 and not ef.for_sale
    assert cat.find("storage_write", EXADATA_EF) is None
    assert "no EF restore-target" in ef.notes
    roce = cat.find("network", "RoCE 100 Gb/s (Exadata X8M–X11M)")
    plan = compute_plan(load_scenario_text(EF_SCENARIO.format(channels=64)))
    flash, fabric, _ = plan.restore_path.stages
    assert flash.total_Bps == pytest.approx(3 * 100e9 * 2)  # backup bytes at 2:1
    assert fabric.total_Bps == pytest.approx(6 * roce.practical_rate_Bps * 2)
    assert fabric.total_Bps < flash.total_Bps
    assert plan.restore_path.bottleneck == "channels" and plan.recovery.total_s > 0
    wide = compute_plan(load_scenario_text(EF_SCENARIO.format(channels=512)))
    assert wide.restore_path.bottleneck == "RoCE 100 Gb/s (Exadata X8M–X11M)"
    assert wide.restore_path.rate_Bps == pytest.approx(fabric.total_Bps)


def test_the_ra26_rack_is_a_shared_source_like_the_ra23() -> None:
    """The RA26 generation, rated 'up to 60 TB/hour' in Oracle's June 2026 announcement
    (a secondary transcription, ⚠): a valid stage, SBT, and a restore from it plans."""
    item = shipped_catalog().find("backup_appliance", RA26)
    assert item is not None and item.rate_Bps == pytest.approx(60e12 / 3600)
    scenario = _scenario("backup_appliance", RA26, channels=4, count="count = 1")
    plan = compute_plan(scenario)
    assert plan.restore_path.stages[0].total_Bps == pytest.approx(60e12 / 3600 * 2)
    assert sbt_stage(scenario) is scenario.path[0]
    assert plan.recovery.total_s > 0


@pytest.mark.parametrize("name", [EXADATA_HC, EXADATA_EF, ZDLRA, RA26, S3, OCI])
def test_every_new_item_says_where_its_figure_is_and_how_it_is_known(name: str) -> None:
    items = [i for i in shipped_catalog() if i.name == name]
    assert items
    for item in items:
        assert len(item.source) > 150  # title, where in it, and the quote or the parts
        assert "⚠" in item.source + item.notes


NOT_FOR_SALE = {
    ("disk", "Exadata cell SAS (V1)"), ("storage_write", "Exadata cell SAS (V1)"),
    ("storage_write", "Exadata cell SATA (V1)"), ("disk", EXADATA_HC),
    ("storage_write", EXADATA_HC), ("disk", EXADATA_EF),
    ("disk", "HDD FRA (SanDisk 2014 test)"),
    ("disk", "SSD FRA (SanDisk 2014 test)"), ("nas_head", "NAS head on one 1 GbE path"),
    ("network", "RoCE 100 Gb/s (Exadata X8M–X11M)"),
}  # fmt: skip


def test_what_it_takes_buys_no_platform_part_old_cell_or_test_rig() -> None:
    """What it takes proposed "Replace SAN LUNs with 3 × Exadata cell SAS (V1)" (2008
    hardware) and, with the refresh, Exadata storage servers in place of a SAN disk group:
    items that say `not_for_sale` are figures to plan with, not purchases."""
    from pathlib import Path

    from rtoplanner.core.catalog import CatalogItem
    from rtoplanner.core.fix import what_it_takes
    from rtoplanner.core.scenario import load_scenario

    cat = shipped_catalog()
    assert {(i.kind, i.name) for i in cat if not i.for_sale} == NOT_FOR_SALE
    assert all(len(i.extra["not_for_sale"]) > 20 for i in cat if not i.for_sale)
    demos = Path(__file__).resolve().parents[2] / "data" / "scenarios"
    for name in ("small_gige_lto", "ssd_restore_destination"):
        result = what_it_takes(load_scenario(demos / f"{name}.toml"))
        words = [c.words for p in result.frontier for c in p.changes]
        assert words, name
        assert not [w for w in words if "Exadata" in w or "SanDisk" in w], name
    # An item of your own is for sale unless it says otherwise.
    assert CatalogItem(kind="disk", name="My array", source="my quote", rate_Bps=1e9).for_sale
