"""Model v3 (DESIGN §10): redo apply pays a cost per archived log, a short job is limited
by its fixed time (not by the channel count), and the silent omissions are named."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rtoplanner.core.engine.flow import (
    JOB_OVERHEAD_LABEL,
    RAMP_DOWN_LABEL,
    STARTUP_LABEL,
    short_job_limiter,
)
from rtoplanner.core.engine.recovery import (
    DEFAULT_LOG_SWITCH_S,
    REDO_LOG_COST_LABEL,
    archived_log_size,
    redo_apply_s,
)
from rtoplanner.core.plan import compute_core, compute_plan
from rtoplanner.core.scenario import load_scenario_text
from rtoplanner.core.units import GB, MB

BASE = """\
format = 1
name = "v3"

[database]
size = "1 TB"
redo_rate = "{redo_rate}"
{database}

[backup]
channels = {channels}
level1 = "none"
{backup}

[[path]]
kind = "{kind}"
name = "{name}"
count = 4
rate = "200 MB/s"

[recovery]
archivelogs_on_disk = true
{recovery}

[targets]
rto = "24 h"
"""


TYPED = 'redo_apply_rate = "50 MB/s"\nredo_log_cost = "39 s"'


def scenario(*, database="", backup="", recovery=TYPED, redo_rate="10 MB/s", channels=4,
             kind="disk", name="backup disk"):  # fmt: skip
    return load_scenario_text(BASE.format(database=database, backup=backup, recovery=recovery,
                                          redo_rate=redo_rate, channels=channels, kind=kind,
                                          name=name))  # fmt: skip


def redo_phase(s):
    return compute_core(s)[2].phase("redo_apply")


# ------------------------------------------------------------------ the per-log cost


def test_redo_apply_is_volume_over_rate_plus_logs_times_the_per_log_cost():
    s = scenario(database='log_size = "1 GB"',
                 recovery='redo_apply_rate = "50 MB/s"\nredo_log_cost = "30 s"')  # fmt: skip
    phase = redo_phase(s)
    redo = phase.data_bytes
    assert redo > 0
    assert phase.duration_s == pytest.approx(redo / (50 * MB) + redo / GB * 30)


def test_a_workload_class_brings_its_catalog_per_log_cost_with_its_source():
    s = scenario(database='log_size = "1 GB"', recovery="")
    assert s.recovery.redo_log_cost_s == pytest.approx(39.0)
    assert s.recovery.redo_log_cost_source.startswith("catalog: oltp workload class")
    assert "V$RECOVERY_PROGRESS" in s.recovery.redo_log_cost_source


def test_the_class_per_log_cost_is_a_class_default_with_its_prior():
    from rtoplanner.core.uncertainty.inputs import uncertain_inputs

    s = scenario(database='log_size = "1 GB"', recovery="")
    item = next(i for i in uncertain_inputs(s) if i.key == "recovery.redo_log_cost")
    assert item.origin == "default"
    assert item.low < 39.0 < item.high
    assert item.label == "apply cost per archived log"  # the field table's phrase


def test_a_typed_apply_rate_keeps_its_meaning_no_per_log_cost_is_added():
    """A typed rate is a timed recovery's redo ÷ time: it holds the cost of each log."""
    s = scenario(recovery='redo_apply_rate = "50 MB/s"')
    assert s.recovery.redo_log_cost_s is None
    phase = redo_phase(s)
    assert phase.duration_s == pytest.approx(phase.data_bytes / (50 * MB))


def test_without_a_log_size_the_redo_of_one_log_switch_is_one_log_and_the_notes_say_so():
    given = scenario(database='log_size = "2 GB"', backup='log_switch = "20 min"')
    assert archived_log_size(given) == pytest.approx(2 * GB)
    s = scenario(backup='log_switch = "20 min"')
    assert archived_log_size(s) == pytest.approx(10 * MB * 1200)
    assert archived_log_size(scenario()) == pytest.approx(10 * MB * DEFAULT_LOG_SWITCH_S)
    phase = redo_phase(s)
    logs = phase.data_bytes / (10 * MB * 1200)
    assert phase.duration_s == pytest.approx(phase.data_bytes / (50 * MB) + logs * 39)
    notes = compute_plan(s, include_cycle=False, include_growth=False).notes
    assert any("is counted with logs of" in n and "3.0 logs per hour" in n
               and "backup.log_switch" in n for n in notes)  # fmt: skip
    notes = compute_plan(scenario(), include_cycle=False, include_growth=False).notes
    assert any("Oracle's sizing guidance" in n and "4.0 logs per hour" in n for n in notes)


def test_smaller_logs_take_longer_to_apply():
    big = redo_phase(scenario(database='log_size = "4 GB"')).duration_s
    small = redo_phase(scenario(database='log_size = "50 MB"')).duration_s
    assert small > big


def test_many_tiny_logs_are_limited_by_the_per_log_cost_and_the_plan_says_so():
    phase = redo_phase(scenario(database='log_size = "1 MB"'))
    assert phase.bottleneck == REDO_LOG_COST_LABEL
    assert "archived logs" in phase.detail


def test_the_banner_says_the_per_log_cost_in_words():
    from rtoplanner.core.engine.verdict import phase_sentence

    rec = compute_core(scenario(database='log_size = "1 MB"'))[2]
    assert phase_sentence(rec).endswith("limited by the apply cost per archived log")


def test_without_a_log_size_nor_a_redo_rate_the_cost_is_not_counted_and_said():
    s = scenario(redo_rate="0 MB/s", recovery=TYPED + '\nredo_volume = "100 GB"')
    assert archived_log_size(s) is None
    assert redo_phase(s).duration_s == pytest.approx(100 * GB / (50 * MB))
    notes = compute_plan(s, include_cycle=False, include_growth=False).notes
    assert any("is not counted: neither the archived log size nor a redo rate" in n
               for n in notes)  # fmt: skip
    given = scenario(database='log_size = "1 GB"')
    notes = compute_plan(given, include_cycle=False, include_growth=False).notes
    assert not any("is counted with logs of" in n for n in notes)


@given(
    redo=st.lists(st.floats(1e6, 1e13), min_size=1, max_size=6),
    rate=st.floats(1e6, 5e8),
    size=st.floats(1e5, 1e10),
    cost=st.floats(0, 600),
)
def test_redo_apply_on_arrays_equals_the_formula_trial_by_trial(redo, rate, size, cost):
    """One engine: the per-log cost on numpy arrays (one value per trial) is the scalar
    formula of each trial, against a deliberately plain re-statement."""
    s = scenario()
    rates = np.full(len(redo), rate)
    batch = with_arrays(s, rates, np.full(len(redo), size), np.full(len(redo), cost))
    stream, logs = redo_apply_s(batch, np.array(redo))
    for i, v in enumerate(redo):
        assert stream[i] + logs[i] == pytest.approx(v / rate + (v / size) * cost)


def with_arrays(s, rate, size, cost):
    from dataclasses import replace

    return replace(
        s,
        database=replace(s.database, log_size_bytes=size),
        recovery=replace(s.recovery, redo_apply_rate_Bps=rate, redo_log_cost_s=cost),
    )


# ------------------------------------------------------------------ short jobs


def test_a_small_sbt_archivelog_job_is_limited_by_its_job_overhead_not_channels():
    s = scenario(kind="tape_drive", name="LTO-6", redo_rate="0.5 MB/s",
                 backup='job_overhead = "2.5 min"\narchivelog_every = "1h"')  # fmt: skip
    job = next(j for j in compute_core(s)[3] if j.name == "archivelog")
    assert job.bottleneck == JOB_OVERHEAD_LABEL


def test_a_short_job_with_slow_channel_start_up_is_limited_by_the_start_up():
    s = scenario(channels=4, redo_rate="1 MB/s",
                 backup='channel_init = "60 s"\narchivelog_every = "1h"')  # fmt: skip
    job = next(j for j in compute_core(s)[3] if j.name == "archivelog")
    assert job.bottleneck == STARTUP_LABEL


def test_a_long_job_is_still_limited_by_its_device():
    s = scenario(backup='job_overhead = "2.5 min"\nchannel_init = "10 s"')
    level0 = next(j for j in compute_core(s)[3] if j.name == "level0")
    assert level0.bottleneck == "backup disk"


def test_the_limiter_rule_against_a_hand_count():
    # (streaming, moving, until the last channel starts, overhead)
    assert short_job_limiter(10, 40, 20, 60) == JOB_OVERHEAD_LABEL
    assert short_job_limiter(10, 90, 70, 5) == STARTUP_LABEL
    assert short_job_limiter(10, 120, 20, 5) == RAMP_DOWN_LABEL  # 90 s run alone at the end
    assert short_job_limiter(100, 130, 20, 10) is None  # streaming is most of it


# ------------------------------------------------------------------ silent omissions


def notes_of(s):
    return compute_plan(s, include_cycle=False, include_growth=False).notes


def test_a_ratio_without_a_compression_level_is_named():
    notes = notes_of(scenario(backup="compression_ratio = 2.0"))
    assert any("no compression level is named" in n for n in notes)
    named = scenario(backup='compression = "basic"\ncompression_ratio = 2.0')
    assert not any("no compression level is named" in n for n in notes_of(named))


def test_a_media_server_path_without_job_overhead_is_named_not_only_tape():
    notes = notes_of(scenario(kind="media_server", name="NetWorker storage node"))
    assert any("backup.job_overhead is 0 s on an SBT path" in n for n in notes)
    boost = notes_of(scenario(kind="disk", name="Data Domain (DD Boost)"))
    assert any("SBT path (Data Domain (DD Boost))" in n for n in boost)
    assert not any("SBT path" in n for n in notes_of(scenario()))


def test_a_site_loss_rpo_without_an_offsite_delay_is_named():
    assert any("offsite_delay is not given" in n for n in notes_of(scenario()))
    stated = scenario(backup='offsite_delay = "0 s"')
    assert not any("offsite_delay is not given" in n for n in notes_of(stated))


# ------------------------------------------------------------------ restore is not backup


def test_a_stage_may_restore_at_its_own_rate_and_back_up_at_the_rate():
    plain = scenario(redo_rate="0 MB/s")
    text = BASE.format(database="", backup="", recovery="", redo_rate="0 MB/s", channels=4,
                       kind="disk", name="backup disk")  # fmt: skip
    slow = load_scenario_text(
        text.replace('rate = "200 MB/s"', 'rate = "200 MB/s"\nrestore_rate = "50 MB/s"')
    )
    restore = compute_core(slow)[2].phase("restore_level0")
    assert restore.duration_s == pytest.approx(1e12 / (4 * 50 * MB), rel=1e-6)
    level0 = lambda s: next(j for j in compute_core(s)[3] if j.name == "level0")  # noqa: E731
    assert level0(slow).duration_s == pytest.approx(level0(plain).duration_s)
