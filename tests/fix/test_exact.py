"""What it takes is exact for its candidate set: brute force over every combination of
the candidates gives the same frontier and the same cheapest plan that meets."""

from __future__ import annotations

import itertools

import pytest

from rtoplanner.core.catalog import Catalog, CatalogItem, shipped_catalog
from rtoplanner.core.fix import PriceBook, what_it_takes
from rtoplanner.core.fix import candidates as cand
from rtoplanner.core.fix.engine import outcome_of_edits
from rtoplanner.core.fix.licences import total_cost
from rtoplanner.core.fix.model import FREE, MIN_GAIN
from rtoplanner.core.scenario import load_scenario_text

MBps = 1e6


def small_catalog() -> Catalog:
    items = [
        CatalogItem("tape_drive", "LTO-5", "t", rate_Bps=140 * MBps, derate=0.9,
                    hw_compression=2.0, price=3000.0),
        CatalogItem("tape_drive", "LTO-7", "t", rate_Bps=300 * MBps, derate=0.9,
                    hw_compression=2.5, price=7000.0),
        CatalogItem("network", "1 GbE", "t", rate_Bps=125 * MBps, derate=0.88, price=200.0),
        CatalogItem("network", "10 GbE", "t", rate_Bps=1250 * MBps, derate=0.84,
                    price=1500.0),
        CatalogItem("redo_apply", "oltp", "t", rate_Bps=47 * MBps),
        CatalogItem("redo_apply", "mixed", "t", rate_Bps=72 * MBps),
        CatalogItem("redo_apply", "batch", "t", rate_Bps=112 * MBps),
    ]  # fmt: skip
    items += shipped_catalog().by_kind("rman_compression")  # ratios and CPU per level
    return Catalog(items, currency="EUR")


SCENARIO = """
format = 1
name = "brute force"
[database]
size = "{size}"
redo_rate = "1 MB/s"
daily_change = "{change}"
workload = "oltp"
{db_extra}
[backup]
channels = 1
channel_init = "30 s"
level0_every = "7d"
level1 = "{level1}"
archivelog_every = "{arch}"
log_switch = "15 min"
offsite_delay = "{offsite}"
{backup_extra}
[[path]]
kind = "tape_drive"
name = "LTO-5"
count = 1
[[path]]
kind = "network"
name = "1 GbE"
count = 1
[recovery]
detect = "10 min"
redo_apply_rate = "200 GB/h"
archivelogs_on_disk = {on_disk}
incremental_apply_rate = "2 TB/h"
[targets]
rto = "{rto}"
{rpo}
backup_window = "{window}"
"""

CASES = {
    "hardware only": dict(size="3 TB", change="0%", arch="1 h", offsite="0 s",
                          on_disk="true", rto="4 h", rpo="", window="24 h"),
    "window decides": dict(size="2 TB", change="0%", arch="1 h", offsite="0 s",
                           on_disk="true", rto="12 h", rpo="", window="2 h"),
    "rpo and archived logs": dict(size="2 TB", change="3%", arch="4 h", offsite="0 s",
                                  on_disk="false", rto="5 h", rpo='rpo = "1 h"',
                                  window="24 h"),
    "v2 keys: tracking, parallel logs, compression with cores": dict(
        size="2 TB", change="3%", arch="1 h", offsite="0 s", on_disk="false", rto="6 h",
        rpo="", window="3 h", db_extra="cpu_cores = 4",
        level1="cumulative",
        backup_extra='block_change_tracking = false\ncompression = "basic"\n'
                     'job_overhead = "2 min"'),
}  # fmt: skip
for _case in CASES.values():
    _case.setdefault("db_extra", "")
    _case.setdefault("backup_extra", "")
    _case.setdefault("level1", "none")


def _brute_force(scenario, catalog, prices):
    """Every combination of every candidate, judged on the fully validated edited file."""
    hw = []
    for i, _st in enumerate(scenario.path):
        opts = [None, *cand._more_units(scenario, i, prices)]
        opts += cand._other_items(scenario, i, catalog, prices)
        hw.append(opts)
    free = [None, *cand.free_changes(scenario, catalog)]
    level1 = [None, *cand.level1_options(scenario, catalog)]
    compression = [None, *cand.compression_options(scenario, catalog, prices)]
    rpo = [None, *cand.rpo_options(scenario, catalog, prices)]
    on_disk = [None, *cand.archivelog_disk_options(scenario, catalog, prices)]
    points = []
    for combo in itertools.product(*hw, cand.CHANNEL_CHOICES, level1, compression, on_disk, rpo):
        *stages, channels, l1, comp, disk, r = combo
        path = [
            o.stage if o is not None else s for o, s in zip(stages, scenario.path, strict=False)
        ]
        n = cand.channel_count(scenario, path, channels)
        changes = [o.change for o in stages if o is not None]
        changes += [c for c in (cand.channel_change(scenario, n),
                                cand.section_change(scenario, n)) if c]  # fmt: skip
        if l1 is not None:
            changes.append(l1.change)
        if comp is not None:
            changes.append(comp.change)
        if disk is not None:
            changes.append(disk.change)
        if r is not None:
            changes += list(r.changes)
        for subset in itertools.product(*[[None, f] for f in free[1:]]):
            all_changes = changes + [f.change for f in subset if f is not None]
            edits = {}
            for c in all_changes:
                edits.update(c.edits)
            cost = total_cost(all_changes)
            points.append((cost.key, outcome_of_edits(scenario, edits, catalog)))
    return points


def _front(points):
    out, best = [], float("inf")
    for key, o in sorted(points, key=lambda p: (p[0], p[1].recovery_s)):
        if o.recovery_s < best - 0.5:
            out.append((key, round(o.recovery_s)))
            best = o.recovery_s
    return out


def _significant(front, rec):
    """The points shown: each at least MIN_GAIN faster than every cheaper one kept."""
    out, best = [], float("inf")
    # At one cost the recommended point (the fewest changes) comes first.
    for key, t in sorted(front, key=lambda p: (p[0], p != rec, p[1])):
        if (key, t) == rec or t < best * (1 - MIN_GAIN):
            out.append((key, t))
            best = min(best, t)
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_frontier_and_cheapest_match_brute_force(case):
    catalog = small_catalog()
    prices = PriceBook.from_catalog(catalog)
    scenario = load_scenario_text(SCENARIO.format(**CASES[case]), catalog=catalog)
    brute = _brute_force(scenario, catalog, prices)
    result = what_it_takes(scenario, catalog=catalog, prices=prices, max_points=1000)

    brute_meets = [k for k, o in brute if o.verdict == "meets"]
    if brute_meets:
        assert result.recommended is not None
        assert result.recommended.cost.key == min(brute_meets)
    else:
        assert result.recommended is None
    # Every frontier point of the search is a brute-force frontier point and vice versa
    # (the point "no change at all" is shown as today, not on the frontier).
    brute_front = [p for p in _front(brute) if p[0] != FREE.key or p[1] != round(
        result.today.recovery_s)]  # fmt: skip
    if result.recommended is not None:  # shown even when a cheaper point is faster
        rec = (result.recommended.cost.key, round(result.recommended.recovery_s))
        brute_front = sorted({*brute_front, rec})
    else:
        rec = None
    brute_front = _significant(brute_front, rec)
    ours = [(p.cost.key, round(p.recovery_s)) for p in result.frontier]
    assert sorted(ours) == sorted(brute_front)
