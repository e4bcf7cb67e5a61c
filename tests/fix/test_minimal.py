"""The cheapest point is minimal (issue 22 item 7, DESIGN §12): no change it does not need,
the fewest changes among equal costs; archived logs kept on disk cost the disk to hold
them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rtoplanner.core.catalog import shipped_catalog
from rtoplanner.core.fix import PriceBook, what_it_takes
from rtoplanner.core.fix import candidates as cand
from rtoplanner.core.fix.engine import outcome_of_edits, worst_redo_bytes
from rtoplanner.core.fix.licences import total_cost
from rtoplanner.core.fix.prices import ARCHIVE_DISK, OPTION_KIND
from rtoplanner.core.scenario import load_scenario_text, with_values

from .test_exact import SCENARIO, small_catalog
from .test_rules import DEMOS, doubled


def _scenario(**over):
    args = dict(size="2 TB", change="3%", arch="4 h", offsite="0 s", on_disk="false",
                rto="24 h", rpo='rpo = "2 h"', window="24 h", db_extra="", backup_extra="",
                level1="cumulative")  # fmt: skip
    args.update(over)
    catalog = small_catalog()
    return load_scenario_text(SCENARIO.format(**args), catalog=catalog), catalog


def test_one_change_that_meets_alone_is_the_whole_point():
    # The RPO misses only by the archived-log interval: backing them up every hour meets
    # every target; the answer bundled free changes (logs on disk, level 1 schedule) with it.
    scenario, catalog = _scenario()
    prices = PriceBook.from_catalog(catalog)
    result = what_it_takes(scenario, catalog=catalog, prices=prices)
    assert result.today.verdict == "misses" and result.today.decided_by == "rpo"
    alone = outcome_of_edits(scenario, {"backup.archivelog_every": "1 h"}, catalog)
    assert alone.verdict == "meets"
    rec = result.recommended
    assert rec is not None
    assert [c.dim for c in rec.changes] == ["backup.archivelog_every"], [
        c.words for c in rec.changes
    ]
    assert rec.verdict == "meets"


def test_keeping_archived_logs_on_disk_costs_the_disk_to_hold_them():
    scenario, catalog = _scenario()
    free = PriceBook.from_catalog(catalog)
    held = worst_redo_bytes(with_values(scenario, {"recovery.archivelogs_on_disk": True},
                                        catalog=catalog))  # fmt: skip
    assert held > 0
    (opt,) = cand.archivelog_disk_options(scenario, catalog, free)
    tb = math.ceil(held / 1e12)
    assert opt.change.cost.unpriced == ((ARCHIVE_DISK, tb),)
    assert "of disk to hold them" in opt.change.words
    priced = PriceBook.from_catalog(catalog, {(OPTION_KIND, ARCHIVE_DISK): 700.0})
    (opt,) = cand.archivelog_disk_options(scenario, catalog, priced)
    assert opt.change.cost.amount == 700.0 * tb
    assert not any(o.change.dim == "recovery.archivelogs_on_disk"
                   for o in cand.free_changes(scenario, catalog))  # fmt: skip


@pytest.mark.parametrize("name", DEMOS)
def test_the_recommended_point_has_no_change_it_does_not_need(demo_paths, name):
    path = next(p for p in demo_paths if p.stem == name)
    scenario = doubled(path)
    catalog = shipped_catalog()
    rec = what_it_takes(scenario).recommended
    if rec is None:
        return
    for change in rec.changes:
        rest = [c for c in rec.changes if c is not change]
        edits = {}
        for c in rest:
            edits.update(c.edits)
        after = outcome_of_edits(scenario, edits, catalog)
        assert after.verdict != "meets" or total_cost(rest).key > rec.cost.key, (
            f"{Path(path).stem}: '{change.words}' is not needed"
        )
