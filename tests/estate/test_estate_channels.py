"""RMAN's channel assignment in the estate: the last channel's load and the cartridges
follow the channels under sharing; only the per-job overhead is a fixed tail."""

from __future__ import annotations

import pytest

from rtoplanner.core.engine.flow import ramp_time
from rtoplanner.core.estate import run_estate
from rtoplanner.core.estate.jobs import build_jobs
from rtoplanner.core.plan import compute_core

from .estate_helpers import DRIVE, MEDIA, estate, scenario, shared_stage

LIB = {**DRIVE, "name": "LIB", "rate": "300 MB/s"}
OWN_MEDIA = {**MEDIA, "count": 10}
"""A private media server that never limits: the drives set every rate."""


def _transfers(est):
    job = build_jobs(est)[0]
    return job, [s for s in job.steps if s.transfer]


@pytest.mark.parametrize(
    "overhead, drive",
    [
        (None, DRIVE),
        ("2 min", DRIVE),
        ("2 min", {**DRIVE, "name": "LTO-8"}),  # a catalog drive: load + locate per cartridge
        (None, {**DRIVE, "name": "LTO-9", "count": 2}),
    ],
    ids=["plain", "overhead", "cartridges+overhead", "cartridges"],
)
def test_the_fixed_tail_is_only_the_job_overhead(overhead, drive):
    """The ramp-down and the cartridges are on the channel clocks now; what is left as a
    fixed time after a transfer is exactly `backup.job_overhead` (zero without it)."""
    extra = {"backup": {"job_overhead": overhead}} if overhead else {}
    scn = scenario("db", size="700 GB", channels=6, init="60 s", path=[drive, dict(MEDIA)],
                   level1="cumulative", logs_on_disk=False, largest_file="40 GB",
                   extra=extra)  # fmt: skip
    est = estate([(scn, 1)])
    restore = compute_core(est.databases[0].estate_scenario)[0]
    if drive["name"] != DRIVE["name"]:
        assert restore.cartridge_s > 0  # the case has cartridges to place
    _job, transfers = _transfers(est)
    assert len(transfers) == 3
    expected = est.databases[0].estate_scenario.backup.job_overhead_s
    for step in transfers:
        assert step.tail_s == pytest.approx(expected, abs=1e-6)
        if restore.cartridge_s > 0:
            assert step.last_cart_s > 0
    assert expected == (120.0 if overhead else 0.0)


def _phase(outcome, name):
    return next(p for p in outcome.phases if p.name == name)


def test_last_channels_waiting_for_drives_stretch_the_ramp_down():
    """Two identical databases of one tier, four channels each, six drives: each gets
    three drives and its fourth channel waits. The three move their files; then the last
    channel takes one of its database's drives (their channels are done) and moves its own
    files — a quarter of the database — through one drive."""
    scn = [
        scenario(
            n,
            size="2 TB",
            channels=4,
            init="30 s",
            detect="10 min",
            path=[shared_stage(LIB, "LIB"), dict(OWN_MEDIA)],
            extra={"backup": {"job_overhead": "2 min"}},
        )
        for n in ("a", "b")
    ]
    est = estate([(s, 1) for s in scn], shared=[{**LIB, "count": 6}])
    result = run_estate(est)
    job, transfers = _transfers(est)
    (level0,) = transfers
    c, init, v = job.channel_alone_Bps, job.channel_init_s, level0.volume_bytes
    assert c == job.per_channel_Bps and job.channels == 4
    assert level0.last_bytes == pytest.approx(v / 4)  # no file larger: even loads
    t0 = 600.0  # detect
    # drives at t0, t0 + init, t0 + init × 2 (one per start-up, fairly between the two)
    last = level0.last_bytes
    others_through = t0 + 3 * init + (v - last - 3 * c * init) / (3 * c)
    hand = others_through + last / c + level0.tail_s  # the last channel was allocated long ago
    old_tail = job.alone.phase("restore_level0").duration_s - ramp_time(
        v, compute_core(est.databases[0].estate_scenario)[0], init
    )
    for name in ("a", "b"):
        got = _phase(result.database(name), "restore_level0")
        assert got.end_s == pytest.approx(hand, rel=1e-9)
        # the old fixed tail after all the bytes through three channels said far earlier
        assert got.end_s > t0 + 3 * init + (v - 3 * c * init) / (3 * c) + old_tail + 600
        assert got.moved_bytes == pytest.approx(v, rel=1e-9)


def test_a_last_channel_slowed_by_the_sharing_moves_at_its_share():
    """A small database with a long start-up: its last channel starts at 4 × init and,
    with the other database's last channel beside it, gets half the media server — below
    one channel's rate — so it runs longer than alone."""
    ms = {**MEDIA, "name": "MS", "count": 1, "rate": "400 MB/s"}
    scn = [
        scenario(
            n,
            size="50 GB",
            channels=4,
            init="10 min",
            detect="10 min",
            path=[shared_stage(LIB, "LIB"), shared_stage(ms, "MS")],
        )
        for n in ("a", "b")
    ]
    est = estate([(s, 1) for s in scn], shared=[{**LIB, "count": 8}, ms])
    result = run_estate(est)
    job, (level0,) = _transfers(est)
    media_Bps = job.fluid[0][1]
    share = media_Bps / 2
    assert share < job.channel_alone_Bps  # the sharing cuts it below one channel's rate
    hand = 600.0 + 4 * job.channel_init_s + level0.last_bytes / share
    alone = 600.0 + 4 * job.channel_init_s + level0.last_bytes / job.channel_alone_Bps
    assert job.alone.phase("restore_level0").end_s == pytest.approx(alone, rel=1e-9)
    for name in ("a", "b"):
        got = _phase(result.database(name), "restore_level0")
        assert got.end_s == pytest.approx(hand, rel=1e-9)
        assert got.moved_bytes == pytest.approx(level0.volume_bytes, rel=1e-9)
    # the media server is never above its capacity while the two last channels run
    assert max(s.fluid[1] for s in result.trace) <= 1 + 1e-9


def test_largest_piece_and_last_channel_alone_are_the_plan_when_one_channel_fills_the_path():
    """A media server below two channels' rate (R(m) < 2c): the plan lets the first
    channel (the largest file) and the last one each run at c at once; alone in the
    estate the database still gets exactly its plan (the largest piece is a clock)."""
    scn = scenario("db", size="49.15 GB", channels=3, init="60 s",
                   path=[dict(LIB), {**MEDIA, "count": 1, "rate": "432 MB/s"}],
                   largest_file="40.37 GB")  # fmt: skip
    est = estate([(scn, 1)])
    job, (level0,) = _transfers(est)
    c, init = job.channel_alone_Bps, job.channel_init_s
    first_end = init + level0.piece_bytes / c
    last_start = 3 * init
    last_end = last_start + level0.last_bytes / c
    # the first channel still moves when the last one starts, and the last decides
    assert first_end > last_start and last_end > first_end
    assert job.alone.phase("restore_level0").end_s == pytest.approx(600 + last_end, rel=1e-9)
    plan = compute_core(est.databases[0].estate_scenario)[2]
    got = run_estate(est).databases[0]
    assert got.open_s == pytest.approx(plan.total_s, rel=1e-9)
    level0 = _phase(got, "restore_level0")
    assert level0.duration_s == pytest.approx(plan.phase("restore_level0").duration_s, rel=1e-9)
