"""Issue 23 item 3: a Recovery Appliance rack (kind `backup_appliance`) is hardware
databases share in a site loss; its catalog item gives the rack's rate."""

from __future__ import annotations

import pytest

from rtoplanner.core.catalog import shipped_catalog
from rtoplanner.core.estate import run_estate

from .estate_helpers import estate, scenario, shared_stage

ZDLRA = "Recovery Appliance RA23 (ZDLRA) rack"
RACK = {"name": "ZDLRA", "item": ZDLRA, "kind": "backup_appliance", "count": 1}
OWN = {"kind": "backup_appliance", "name": ZDLRA, "count": 1}
TARGET = {"kind": "storage_write", "name": "datafiles", "count": 1, "rate": "12 GB/s"}


def on_rack(name: str):
    return scenario(name, size="40 TB", channels=32, init="1 s",
                    path=[shared_stage(OWN, "ZDLRA"), dict(TARGET)])  # fmt: skip


def test_two_databases_on_one_rack_share_its_rate():
    """Alone, a database restores at its own 12 GB/s (the rack moves 16.7); two at once
    on the one rack get 8.3 GB/s each: both open later, and the rack decides."""
    assert shipped_catalog().find("backup_appliance", ZDLRA).rate_Bps == pytest.approx(60e12 / 3600)
    a, b = on_rack("a"), on_rack("b")
    both = run_estate(estate([(a, 1), (b, 1)], shared=[RACK]))
    alone = run_estate(estate([(a, 1)], shared=[RACK])).database("a")
    assert both.database("a").open_s == pytest.approx(both.database("b").open_s, rel=1e-9)
    assert both.database("a").open_s > alone.open_s
    assert both.deciding == "ZDLRA"
