"""The demo scenarios of the reference papers reproduce their published figures.

Seed 002 (SanDisk, "Accelerate Oracle Backup Using SSDs", 2014) and seed 004 (HP,
"Scalable, fault-tolerant NAS for Oracle", c. 2007). Each tolerance is the one honestly
reached; docs/model.md explains the deviations.
"""

from __future__ import annotations

import pytest

from rtoplanner.core.paths import data_dir
from rtoplanner.core.plan import compute_core
from rtoplanner.core.scenario import load_scenario, with_values

SCENARIOS = data_dir() / "scenarios"
MB = 1e6


def ssd():
    return load_scenario(SCENARIOS / "ssd_restore_destination.toml")


def hdd():
    """The paper's HDD system: sixteen drives, 400 MB/s of RMAN throughput together."""
    changes = {f"path[{i}].{k}": v for i in (0, 1) for k, v in (("count", 16), ("rate", "25 MB/s"))}
    return with_values(ssd(), changes)


def level0(s):
    return next(j for j in compute_core(s)[3] if j.name == "level0")


def test_ssd_rman_throughput_1400_mb_s():
    assert level0(ssd()).effective_rate_Bps == pytest.approx(1400 * MB, rel=0.05)


def test_hdd_rman_throughput_400_mb_s():
    assert level0(hdd()).effective_rate_Bps == pytest.approx(400 * MB, rel=0.05)


def test_ssd_backup_3_5_times_faster_71_percent_shorter():
    t_ssd, t_hdd = level0(ssd()).duration_s, level0(hdd()).duration_s
    assert t_hdd / t_ssd == pytest.approx(3.5, rel=0.05)
    assert 1 - t_ssd / t_hdd == pytest.approx(0.71, abs=0.02)
    # "Four SSDs deliver 3X the throughput of 16 HDDs" (the paper's other, rounder figure).
    assert t_hdd / t_ssd == pytest.approx(3.0, rel=0.20)


def test_ssd_restore_is_as_fast_as_the_backup():
    rec = compute_core(ssd())[2]
    assert rec.phase("restore_level0").rate_Bps == pytest.approx(1400 * MB, rel=0.05)


def nas(heads: int):
    return with_values(load_scenario(SCENARIOS / "nas_two_heads.toml"), {"path[1].count": heads})


@pytest.mark.parametrize(("heads", "paper_MBps", "tolerance"), [(1, 111, 0.05), (2, 208, 0.10)])
def test_nas_writes_scale_with_heads(heads, paper_MBps, tolerance):
    """Restore writes are large multiblock writes, like the paper's tablespace creation:
    111 MB/s through one head, 208 MB/s through two (model +1 %, +7 %)."""
    rate = compute_core(nas(heads))[2].phase("restore_level0").rate_Bps
    assert rate == pytest.approx(paper_MBps * MB, rel=tolerance)


@pytest.mark.parametrize(("heads", "paper_MBps"), [(1, 98), (2, 188)])
def test_nas_reads_scale_with_heads(heads, paper_MBps):
    """A backup reads the datafiles through the heads, like the paper's full table scan:
    98 MB/s and 188 MB/s. The model's +14 %/+19 %: the scan is Oracle's own reading
    through the buffer path, not the link's ceiling."""
    rate = level0(nas(heads)).effective_rate_Bps
    assert rate == pytest.approx(paper_MBps * MB, rel=0.20)
    assert rate > paper_MBps * MB  # optimistic, as explained


def test_two_heads_scale_94_percent_in_the_paper_100_in_the_model():
    one = compute_core(nas(1))[2].phase("restore_level0").rate_Bps
    two = compute_core(nas(2))[2].phase("restore_level0").rate_Bps
    assert two / one == pytest.approx(208 / 111, rel=0.10)
