"""The engine: capacities, the exact channel ramp, phases, backups, RPO, cycle, growth."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rtoplanner.core.engine.flow import move, ramp_curve, ramp_time
from rtoplanner.core.engine.path import BACKUP, RESTORE, build_path_model, stage_unit_capacity
from rtoplanner.core.engine.recovery import change_fraction, failure_state
from rtoplanner.core.plan import compute_core, compute_plan
from rtoplanner.core.result import PHASE_NAMES
from rtoplanner.core.scenario import load_scenario_text, with_values

BASE = """\
format = 1
name = "engine"

[database]
size = "10 TB"
redo_rate = "10 MB/s"
daily_change = "5%"

[backup]
compression_ratio = {ratio}
channels = {channels}
channel_init = "{init}"
level0_every = "7d"
level1 = "cumulative"
level1_every = "1d"
archivelog_every = "1h"
log_switch = "20 min"
offsite_delay = "24 h"

[[path]]
kind = "tape_drive"
name = "drive"
count = {drives}
rate = "{drive_rate}"
hw_compression = 2.0

[[path]]
kind = "media_server"
count = {servers}
rate = "1.6 GB/s"

[[path]]
kind = "channel"
rate = "400 MB/s"

[recovery]
detect = "15 min"
incremental_apply_rate = "10 TB/h"
redo_apply_rate = "100 MB/s"
archivelogs_on_disk = {on_disk}
open = "5 min"

[targets]
rto = "6 h"
rpo = "26 h"
backup_window = "8 h"
"""


def make(**kw):
    params = dict(ratio=1.0, channels=8, init="0 s", drives=8, drive_rate="120 MB/s",
                  servers=1, on_disk="true")  # fmt: skip
    params.update(kw)
    return load_scenario_text(BASE.format(**params))


def test_capacity_formula():
    s = make(ratio=1.0)
    drive = s.path[0]
    # A tape drive on uncompressed RMAN data gets its own compression: 120 × 2.
    assert stage_unit_capacity(drive, 1.0, RESTORE) == pytest.approx(240e6)
    # On RMAN-compressed data it does not compress again, but carries r data bytes.
    assert stage_unit_capacity(drive, 4.0, RESTORE) == pytest.approx(480e6)
    asm = load_scenario_text(BASE.format(ratio=1.0, channels=8, init="0 s", drives=8,
        drive_rate="120 MB/s", servers=1, on_disk="true").replace(
        '[[path]]\nkind = "channel"', '[[path]]\nkind = "storage_write"\ncount = 2\n'
        'write_factor = 2\nrate = "1 GB/s"\n\n[[path]]\nkind = "channel"'))  # fmt: skip
    model = build_path_model(asm)
    w = next(st for st in model.stages if st.kind == "storage_write")
    assert w.unit_Bps == pytest.approx(0.5e9) and w.total_Bps == pytest.approx(1e9)


def test_max_rate_caps_a_unit_whatever_its_compression():
    s = with_values(make(), {"path[0].max_rate": "200 MB/s"})
    drive = s.path[0]
    assert stage_unit_capacity(drive, 1.0, RESTORE) == pytest.approx(200e6)  # not 240
    # With RMAN compression the ceiling applies to backup bytes, which carry r data bytes.
    assert stage_unit_capacity(drive, 4.0, RESTORE) == pytest.approx(4 * 120e6)
    cat = load_scenario_text(BASE.format(ratio=1.0, channels=8, init="0 s", drives=8,
        drive_rate="1 MB/s", servers=1, on_disk="true").replace(
        'name = "drive"\ncount = 8\nrate = "1 MB/s"\nhw_compression = 2.0',
        'name = "LTO-9"\ncount = 8'))  # fmt: skip
    lto9 = cat.path[0]
    assert lto9.source.startswith("catalog:") and lto9.max_rate_Bps is not None
    assert stage_unit_capacity(lto9, 1.0, RESTORE) <= lto9.max_rate_Bps


def test_bottleneck_moves_from_drives_to_media_server():
    # MAA paper: with 240 MB/s per LTO-4 drive, at least 7 drives fill a 1.6 GB/s server.
    six = build_path_model(make(drives=6, channels=6))
    seven = build_path_model(make(drives=7, channels=7))
    assert six.bottleneck == "drive" and six.rate_Bps == pytest.approx(6 * 240e6)
    assert seven.bottleneck == "media_server" and seven.rate_Bps == pytest.approx(1.6e9)


def test_channel_count_can_be_the_bottleneck():
    m = build_path_model(make(drives=8, channels=4))
    assert m.active_channels == 4
    assert m.bottleneck == "channels"
    assert m.rate_Bps == pytest.approx(4 * 240e6)
    m2 = build_path_model(make(drives=4, channels=16))
    assert m2.active_channels == 4  # each drive serves one channel


def test_backup_rate_is_used_in_the_backup_direction():
    s = make()
    s2 = with_values(s, {"path[0].backup_rate": "60 MB/s"})
    assert build_path_model(s2, BACKUP).stages[0].unit_Bps == pytest.approx(120e6)
    assert build_path_model(s2, RESTORE).stages[0].unit_Bps == pytest.approx(240e6)


def test_ramp_is_integrated_exactly():
    # Two channels of 100 MB/s, 10 s apart, shared ceiling far away.
    m = build_path_model(make(drives=2, channels=2, drive_rate="50 MB/s", servers=10))
    assert m.rate(1) == pytest.approx(100e6) and m.rate(2) == pytest.approx(200e6)
    # Channel 1 streams from 10 s (1 GB by 20 s), channel 2 joins at 20 s: 1.9 GB are
    # moved at 20 + 0.9 GB / 200 MB/s = 24.5 s.
    assert ramp_time(1.9e9, m, 10.0) == pytest.approx(24.5)
    # A volume that ends while only channel 1 runs.
    assert ramp_time(0.5e9, m, 10.0) == pytest.approx(15.0)
    assert ramp_time(1e9, m, 0.0) == pytest.approx(5.0)
    curve = ramp_curve(m, 10.0, 24.5)
    assert curve == [(0.0, 0.0), (10.0, pytest.approx(100e6)), (20.0, pytest.approx(200e6)),
                     (24.5, pytest.approx(200e6))]  # fmt: skip


def test_largest_file_bound_without_multisection():
    s = make(drives=8, channels=8)
    s = with_values(s, {"database.largest_file": "2 TB"})
    plan = compute_core(s)[2]
    p = plan.phase("restore_level0")
    # One channel at 240 MB/s must move 2 TB alone: ~2.3 h, longer than the parallel flow.
    assert p.duration_s == pytest.approx(2e12 / 240e6)
    assert p.bottleneck == "largest_file"
    sectioned = with_values(s, {"backup.section_size": "64 GB"})
    assert compute_core(sectioned)[2].phase("restore_level0").bottleneck != "largest_file"


def test_phases_are_sequential_except_the_overlapped_apply():
    rec = compute_core(make(init="10 s", on_disk="false"))[2]
    assert [p.name for p in rec.phases] == list(PHASE_NAMES)
    t = 0.0
    for p in rec.phases:
        if p.name == "apply_incremental":
            # Applying a backup set overlaps reading it (DESIGN §3.7): same start, and it
            # ends when both are done.
            restore = rec.phase("restore_incremental")
            assert p.start_s == pytest.approx(restore.start_s)
            assert p.duration_s >= restore.duration_s
            t = p.end_s
            continue
        assert p.start_s == pytest.approx(t)
        t += p.duration_s
    assert rec.total_s == pytest.approx(t)
    assert rec.phase("restore_archivelogs").duration_s > 0


def test_worst_case_failure_state():
    s = make()
    f = failure_state(s, 7 * 86400 - 1)
    assert f.incremental_count == 1
    assert f.incremental_bytes == pytest.approx(10e12 * change_fraction(0.05, 6))
    assert f.redo_bytes == pytest.approx(10e6 * (86400 - 1))
    diff = with_values(s, {"backup.level1": "differential"})
    f2 = failure_state(diff, 7 * 86400 - 1)
    assert f2.incremental_count == 6
    assert f2.incremental_bytes == pytest.approx(6 * 10e12 * 0.05)
    none = with_values(s, {"backup.level1": "none"})
    assert failure_state(none, 3 * 86400).redo_bytes == pytest.approx(3 * 86400 * 10e6)


def test_change_fraction():
    assert change_fraction(0.08, 1) == pytest.approx(0.08)
    assert change_fraction(0.08, 6) == pytest.approx(1 - 0.92**6)
    assert change_fraction(0.0, 6) == 0.0


def test_overrides_win_over_the_change_model():
    s = with_values(make(), {"recovery.incremental_size": "1 TB", "recovery.redo_volume": "50 GB"})
    rec = compute_core(s)[2]
    assert rec.phase("restore_incremental").data_bytes == pytest.approx(1e12)
    assert rec.phase("redo_apply").data_bytes == pytest.approx(50e9)


def test_verdicts():
    s = make()
    total = compute_core(s)[2].total_s
    assert compute_core(with_values(s, {"targets.rto": f"{total * 2} s"}))[2].verdict == "meets"
    assert compute_core(with_values(s, {"targets.rto": f"{total * 1.05} s"}))[2].verdict == (
        "at_risk"
    )
    assert compute_core(with_values(s, {"targets.rto": f"{total * 0.9} s"}))[2].verdict == (
        "misses"
    )
    fixed = with_values(s, {"targets.rto": f"{total + 60} s", "targets.risk_margin": "30 s"})
    assert compute_core(fixed)[2].verdict == "meets"


def test_backup_jobs_and_window():
    s = make(servers=1, drives=8, channels=8)
    jobs = {j.name: j for j in compute_core(s)[3]}
    assert set(jobs) == {"level0", "level1", "archivelog"}
    assert jobs["level0"].duration_s == pytest.approx(10e12 / 1.6e9)
    assert jobs["level0"].effective_rate_Bps == pytest.approx(1.6e9)
    # Vendors quote incrementals as database size ÷ time.
    assert jobs["level1"].effective_rate_Bps == pytest.approx(10e12 / jobs["level1"].duration_s)
    assert jobs["level0"].fits_window is True
    tight = with_values(s, {"targets.backup_window": "1 h"})
    assert {j.name: j.fits_window for j in compute_core(tight)[3]}["level0"] is False


def test_rpo():
    s = make()
    r = compute_core(s)[4]
    arch = next(j for j in compute_core(s)[3] if j.name == "archivelog")
    assert r.media_failure_s == 0
    assert r.site_loss_s == pytest.approx(3600 + arch.duration_s + 1200 + 86400)
    assert r.verdict == "meets"
    assert compute_core(with_values(s, {"backup.standby": "sync"}))[4].site_loss_s == 0
    lag = with_values(s, {"backup.standby": "async", "backup.transport_lag": "30 s"})
    assert compute_core(lag)[4].site_loss_s == 30
    assert compute_core(with_values(s, {"targets.rpo": "1 h"}))[4].verdict == "misses"


def test_cycle_worst_case_is_just_before_the_next_level0_finishes():
    """A backup is usable only when it has finished (DESIGN §3.7): a failure while the
    next level 0 runs recovers from the old chain, with its redo piled up."""
    plan = compute_plan(make(), as_of=date(2026, 1, 1), include_growth=False)
    c = plan.cycle
    level0_s = plan.job("level0").duration_s
    assert len(c.points) == 7 * 24 + 1
    assert c.worst_s == pytest.approx(plan.recovery.total_s)
    assert c.worst_at_s == pytest.approx(level0_s, abs=1)
    assert plan.recovery.failure.redo_since_s == pytest.approx(86400 + level0_s, abs=1)
    # At hour 0 the new level 0 is not usable yet: worse than once it has finished.
    after = next(p for p in c.points if p.since_level0_s >= level0_s)
    assert c.points[0].total_s > after.total_s
    assert c.best_s <= after.total_s < c.worst_s
    # Recovery time drops once a level 1 has finished (less redo), not before.
    level1_s = plan.job("level1").duration_s
    done = next(p for p in c.points if p.since_level0_s >= 86400 + level1_s)
    assert done.total_s < c.points[23].total_s
    assert c.points[24].total_s > c.points[23].total_s  # level 1 still running


def test_growth_date_is_the_first_failing_day():
    s = with_values(make(), {"database.growth": "25%/y"})
    plan = compute_plan(s, as_of=date(2026, 1, 1))
    g = plan.growth
    assert g is not None and g.breaks_on is not None
    years = (g.breaks_on - g.as_of).days
    from rtoplanner.core.engine.growth import size_after
    from rtoplanner.core.engine.recovery import recovery_total_s, worst_failure_offset
    from rtoplanner.core.units import YEAR

    def fails(days: int) -> bool:
        size = size_after(s, days * 86400 / YEAR)
        l0 = size / plan.backup_path.rate_Bps
        tot = recovery_total_s(s, plan.restore_path, worst_failure_offset(s, l0), size,
                               level0_s=l0, level1_s=0.0)  # fmt: skip
        return tot > s.targets.rto_s or l0 > s.targets.backup_window_s

    assert fails(years) and not fails(years - 1)
    assert compute_plan(make(), as_of=date(2026, 1, 1)).growth is None
    flat = with_values(s, {"database.growth": "0%/y"})
    assert compute_plan(flat, as_of=date(2026, 1, 1)).growth.breaks_on is None


# ---------------------------------------------------------------- properties (hypothesis)

params = st.fixed_dictionaries({
    "channels": st.integers(1, 64),
    "drives": st.integers(1, 32),
    "servers": st.integers(1, 4),
    "init": st.sampled_from(["0 s", "5 s", "10 s", "1 min"]),
    "ratio": st.sampled_from([1.0, 2.0, 4.4]),
    "drive_rate": st.sampled_from(["80 MB/s", "120 MB/s", "300 MB/s"]),
    "on_disk": st.sampled_from(["true", "false"]),
})  # fmt: skip


def _durations(s):
    return {p.name: p.duration_s for p in compute_core(s)[2].phases}


@settings(max_examples=60, deadline=None)
@given(params, st.sampled_from(["channels", "drives", "servers"]), st.integers(1, 16))
def test_more_hardware_never_slows_a_phase(kw, what, extra):
    if what != "servers":
        # With serial start-up, more channels can slow a short job: RMAN hands every
        # channel its files up front, and the last one starts last (the MAA paper saw
        # the first channels finish before the last were allocated). See the test below.
        kw = {**kw, "init": "0 s"}
    before = _durations(make(**kw))
    more = dict(kw)
    more[what] = kw[what] + extra
    after = _durations(make(**more))
    for name in before:
        assert after[name] <= before[name] * (1 + 1e-9), name


@settings(max_examples=60, deadline=None)
@given(params, st.floats(1e9, 1e14))
def test_doubling_every_rate_halves_the_flow_time(kw, volume):
    s = make(**kw)
    m = build_path_model(s)
    doubled = {f"path[{i}].rate": f"{st_.rate_Bps * 2!r} B/s" for i, st_ in enumerate(s.path)}
    m2 = build_path_model(with_values(s, doubled))
    init = s.backup.channel_init_s
    # Halving the start-up too makes the whole flow exactly twice as fast.
    assert ramp_time(volume, m2, init / 2) == pytest.approx(ramp_time(volume, m, init) / 2)
    assert ramp_time(volume, m2, 0) == pytest.approx(ramp_time(volume, m, 0) / 2)


@settings(max_examples=60, deadline=None)
@given(params)
def test_total_is_when_the_last_phase_ends(kw):
    rec = compute_core(make(**kw))[2]
    assert rec.total_s == pytest.approx(max(p.end_s for p in rec.phases))
    restore = rec.phase("restore_incremental")
    overlap = min(restore.duration_s, rec.phase("apply_incremental").duration_s)
    assert rec.total_s == pytest.approx(sum(p.duration_s for p in rec.phases) - overlap)
    assert rec.margin_s == pytest.approx(rec.rto_s - rec.total_s)


@settings(max_examples=60, deadline=None)
@given(params, st.floats(0.1, 600), st.floats(1e9, 1e14))
def test_a_longer_channel_start_up_never_helps(kw, longer, volume):
    s = make(**kw)
    m = build_path_model(s)
    init = s.backup.channel_init_s
    assume(longer > 0)
    assert ramp_time(volume, m, init + longer) >= ramp_time(volume, m, init)
    f1 = move(volume, m, init, 1e11)
    f2 = move(volume, m, init + longer, 1e11)
    assert f2.duration_s >= f1.duration_s


def test_capacity_at_and_load():
    m = build_path_model(make(drives=8, channels=4, servers=2))
    drive, server, channel = 0, 1, 2
    # Four channels can use only four of the eight drives.
    assert m.capacity_at_Bps(drive) == pytest.approx(4 * 240e6)
    assert m.capacity_at_Bps(server) == pytest.approx(3.2e9)
    assert m.capacity_at_Bps(channel) == pytest.approx(4 * 400e6)
    assert m.load(drive) == pytest.approx(1.0)  # the drives in use are saturated
    assert m.load(server) == pytest.approx(960e6 / 3.2e9)
