"""Model v2 (DESIGN §3.7): no input dropped or misread, and the physics of short jobs,
compression CPU, tape mechanics and routes. Each test failed on the first model."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rtoplanner.core.engine.backups import backup_jobs
from rtoplanner.core.engine.path import BACKUP, RESTORE, build_path_model
from rtoplanner.core.engine.recovery import failure_state
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.plan import compute_core, compute_plan, plan_to_json
from rtoplanner.core.scenario import load_scenario_text, with_values
from rtoplanner.core.units import DAY, HOUR

BASE = """\
format = 1
name = "v2"

[database]
size = "10 TB"
redo_rate = "10 MB/s"
daily_change = "5%"

[backup]
channels = 8
level0_every = "7d"
level1 = "cumulative"
level1_every = "1d"
block_change_tracking = true

[[path]]
kind = "media_server"
count = 1
rate = "1.6 GB/s"

[[path]]
kind = "channel"
rate = "400 MB/s"

[[path]]
kind = "storage_write"
rate = "2 GB/s"
write_factor = 2

[recovery]
incremental_apply_rate = "10 TB/h"
redo_apply_rate = "100 MB/s"

[targets]
rto = "24 h"
"""


def base(**changes):
    s = load_scenario_text(BASE)
    return with_values(s, changes) if changes else s


def phase(s, name):
    return compute_core(s)[2].phase(name)


def job(s, name):
    return next(j for j in compute_core(s)[3] if j.name == name)


# ------------------------------------------------------------ 1. no input dropped


def test_incremental_size_without_level1_is_refused():
    with pytest.raises(ScenarioError) as exc:
        base(**{"backup.level1": "none", "backup.level1_every": None,
                "recovery.incremental_size": "1 TB"})  # fmt: skip
    assert exc.value.key == "recovery.incremental_size"
    assert "no level 1" in str(exc.value)


def test_differential_incremental_size_is_per_backup_in_jobs_and_timeline():
    s = base(**{"backup.level1": "differential", "recovery.incremental_size": "100 GB"})
    assert phase(s, "restore_incremental").data_bytes == pytest.approx(6 * 100e9)
    assert job(s, "level1").data_bytes == pytest.approx(100e9)


def test_overrides_scale_across_the_cycle():
    """The first model applied a full interval of redo one hour after the level 0."""
    s = base(**{"recovery.redo_volume": "864 GB", "recovery.incremental_size": "2 TB"})
    early = failure_state(s, 2 * HOUR)
    assert early.redo_bytes == pytest.approx(864e9 * 2 / 24)
    assert early.incremental_bytes == 0
    day2 = failure_state(s, 2 * DAY + HOUR)  # two cumulative level 1s of six
    assert 0 < day2.incremental_bytes < 2e12
    worst = failure_state(s, 7 * DAY - 1)
    assert worst.redo_bytes == pytest.approx(864e9, rel=1e-4)
    assert worst.incremental_bytes == pytest.approx(2e12)


def test_overrides_and_redo_grow_with_the_database():
    s = base(**{"recovery.incremental_size": "2 TB"})
    grown = failure_state(s, 7 * DAY - 1, 20e12)
    assert grown.incremental_bytes == pytest.approx(4e12)
    assert grown.redo_bytes == pytest.approx(2 * 10e6 * (DAY - 1), rel=1e-6)
    const = with_values(s, {"database.redo_growth": "constant"})
    assert failure_state(const, 7 * DAY - 1, 20e12).redo_bytes == pytest.approx(
        10e6 * (DAY - 1), rel=1e-6
    )
    assert backup_jobs(s, build_path_model(s, BACKUP), 20e12)[1].data_bytes == pytest.approx(4e12)


def test_write_factor_divides_restore_writes_only():
    s = base()
    restore = build_path_model(s, RESTORE).stages[2]
    backup = build_path_model(s, BACKUP).stages[2]
    assert restore.total_Bps == pytest.approx(1e9)  # ASM normal: every byte written twice
    assert backup.total_Bps == pytest.approx(2e9)  # a backup reads one copy


def test_any_write_factor_of_at_least_one():
    assert base(**{"path[2].write_factor": 1.333}).path[2].write_factor == pytest.approx(1.333)
    with pytest.raises(ScenarioError) as exc:
        base(**{"path[2].write_factor": 0.5})
    assert exc.value.key == "path[2].write_factor"


def test_without_a_channel_stage_one_channel_does_not_take_the_whole_path():
    s = base(**{"path[1]": None, "database.largest_file": "4 TB"})
    s = load_scenario_text(BASE.replace('[[path]]\nkind = "channel"\nrate = "400 MB/s"\n', ""))
    s = with_values(s, {"database.largest_file": "4 TB"})
    level0 = phase(s, "restore_level0")
    # One channel alone gets its fair share, 1 GB/s ÷ 8: 4 TB takes 32000 s, not 4000 s.
    assert level0.duration_s == pytest.approx(4e12 / (1e9 / 8))
    assert level0.bottleneck == "largest_file"
    assert any("No stage limits one RMAN channel" in n for n in compute_plan(s).notes)


def test_redo_volume_alone_gives_an_archivelog_backup_that_counts_in_the_rpo():
    s = base(**{"database.redo_rate": None, "recovery.redo_volume": "864 GB",
                "targets.rpo": "2 h"})  # fmt: skip
    arch = job(s, "archivelog")
    # redo_volume is the worst case's redo: a day plus the level 0's duration (a failure
    # during the next level 0 still uses the old chain); one hour's share is backed up.
    level0_s = job(s, "level0").duration_s
    assert arch.data_bytes == pytest.approx(864e9 * 3600 / (86400 + level0_s), rel=1e-4)
    r = compute_core(s)[4]
    assert dict(r.site_loss_parts)["archived-log backup duration"] == pytest.approx(arch.duration_s)
    assert arch.duration_s > 0


def test_redo_apply_detail_says_the_volume_was_given():
    s = base(**{"recovery.redo_volume": "500 GB"})
    assert "recovery.redo_volume" in phase(s, "redo_apply").detail


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"backup.transport_lag": "30 s"}, "backup.transport_lag"),
        ({"recovery.failover": "10 min"}, "recovery.failover"),
        ({"backup.section_size": "64 GB"}, "backup.section_size"),
    ],
)
def test_inputs_that_cannot_matter_are_refused(changes, key):
    with pytest.raises(ScenarioError) as exc:
        base(**changes)
    assert exc.value.key == key


def test_inputs_without_effect_here_are_named_in_the_plan():
    s = base(**{"backup.level1": "none", "recovery.incremental_size": None,
                "database.workload": "batch"})  # fmt: skip
    notes = compute_plan(s, include_cycle=False, include_growth=False).notes
    assert any(n.startswith("backup.level1_every is not used") for n in notes)
    assert any(n.startswith("database.workload does not set") for n in notes)


@pytest.mark.parametrize("level", [None, "none"])
def test_cpu_cores_without_a_compression_level_is_a_valid_state_named_in_the_notes(level):
    """Issue 23.1: the cores were refused until a level was named, so "compression off"
    with the host's cores could not be evaluated."""
    changes = {"database.cpu_cores": 16, "backup.compression": level}
    s = base(**changes)
    notes = compute_plan(s, include_cycle=False, include_growth=False).notes
    assert any(n.startswith("CPU cores for RMAN (16) is not used") for n in notes)
    assert compute_plan(base(), include_cycle=False, include_growth=False).recovery.total_s == (
        pytest.approx(compute_plan(s, include_cycle=False, include_growth=False).recovery.total_s)
    )


def test_compression_none_with_a_ratio_left_from_a_level_is_evaluated_uncompressed():
    """Issue 23.1: choosing "none" after a level with a ratio made the scenario invalid."""
    s = base(**{"backup.compression": "none", "backup.compression_ratio": 4.4})
    assert s.backup.compression_ratio == 1.0
    notes = compute_plan(s, include_cycle=False, include_growth=False).notes
    assert any(n.startswith("RMAN compression ratio (4.4) is not used") for n in notes)


# ------------------------------------------------------------ 4. compression CPU


def test_high_compression_costs_days_of_cpu():
    """The first model: a 10 TB HIGH backup in 17.6 min; per-core figures give days."""
    s = base(**{"backup.compression": "high", "database.cpu_cores": 16,
                "backup.channels": 16})  # fmt: skip
    assert s.backup.compression_ratio == pytest.approx(4.5)  # catalog
    level0 = job(s, "level0")
    assert level0.duration_s == pytest.approx(10e12 / (16 * 1.6e6), rel=0.01)  # ≈ 4.5 days
    assert "HIGH compression CPU" in level0.bottleneck
    # Restores decompress, faster, on as many cores as channels.
    assert build_path_model(s, RESTORE).stages[-1].unit_Bps == pytest.approx(70e6)


def test_compression_without_cpu_cores_says_so():
    s = base(**{"backup.compression": "medium"})
    notes = compute_plan(s, include_cycle=False, include_growth=False).notes
    assert any(n.startswith("Compression CPU is not modelled") for n in notes)
    measured = base(**{"backup.compression": "medium", "backup.compression_ratio": 2.0})
    assert measured.backup.compression_ratio == 2.0  # a measured ratio wins


# ------------------------------------------------------------ 6. the rest of the physics


def test_without_block_change_tracking_a_level1_reads_the_whole_database():
    on = job(base(), "level1")
    off = job(base(**{"backup.block_change_tracking": False}), "level1")
    # The whole 10 TB through the database side: 8 channels × 400 MB/s (storage reads 2 GB/s).
    assert off.duration_s == pytest.approx(10e12 / 2e9, rel=0.01)
    assert off.duration_s > 2.5 * on.duration_s
    assert off.bottleneck.startswith("full scan")


def test_archived_redo_restored_in_parallel_shares_the_path():
    s = base(**{"recovery.archivelogs_on_disk": False, "backup.job_overhead": "2 min"})
    serial = compute_core(s)[2]
    par = compute_core(with_values(s, {"recovery.archivelog_restore": "parallel"}))[2]
    arch, level0 = par.phase("restore_archivelogs"), par.phase("restore_level0")
    assert arch.start_s == level0.start_s
    assert arch.end_s == level0.end_s
    # The path is shared, so the bytes take as long; one RMAN job's overhead is saved.
    assert par.total_s == pytest.approx(serial.total_s - 120)


def test_tape_load_and_locate_per_cartridge():
    text = BASE.replace(
        'kind = "media_server"\ncount = 1\nrate = "1.6 GB/s"',
        'kind = "tape_drive"\nname = "LTO-9"\ncount = 8',
    )
    s = with_values(load_scenario_text(text), {"backup.channels": 1, "database.size": "100 TB"})
    m = build_path_model(s, RESTORE)
    assert m.cartridge_s == pytest.approx(17 + 45)  # catalog: load 17 s, locate 45 s
    assert m.cartridge_data_bytes == pytest.approx(18e12 * 2.5)  # drive compression 2.5:1
    bare = replace(s, path=(replace(s.path[0], load_s=0.0, locate_s=0.0), *s.path[1:]))
    with_mechanics = phase(s, "restore_level0").duration_s
    without = phase(bare, "restore_level0").duration_s
    # One channel reads all 100 TB: ⌈100 ÷ 45⌉ = 3 cartridges, each loaded and located.
    assert with_mechanics - without == pytest.approx(3 * 62)


def test_shoe_shine_warning_names_the_fix():
    text = BASE.replace(
        'kind = "media_server"\ncount = 1\nrate = "1.6 GB/s"',
        'kind = "tape_drive"\nname = "LTO-9"\ncount = 8\n\n[[path]]\nkind = "network"\n'
        'rate = "1 Gb/s"',
    )
    notes = compute_plan(load_scenario_text(text), include_cycle=False).notes
    assert any("shoe-shine" in n and "fewer drives" in n for n in notes)


def test_failover_is_a_route_with_its_own_verdict():
    s = base(**{"backup.standby": "sync", "recovery.failover": "20 min",
                "recovery.detect": "10 min", "targets.rto": "1 h"})  # fmt: skip
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    routes = {r.name: r for r in plan.routes}
    assert routes["failover"].total_s == pytest.approx(1800)
    assert routes["failover"].verdict == "meets"
    assert routes["restore"].verdict == "misses"
    assert plan.decided_by == "recovery"
    doc = plan_to_json(plan)
    assert {r["name"] for r in doc["routes"]} == {"restore", "failover"}
