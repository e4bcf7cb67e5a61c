"""Model v3 (issue 20 item 2): a disk or NFS path with no stage that limits one RMAN
channel gets a class default per-channel ceiling — cited, with a prior, visible in the
plan's notes, the ledger and the risk inputs — so restores scale with channels."""

from __future__ import annotations

import dataclasses

import pytest

from rtoplanner.core.plan import compute_core, compute_plan
from rtoplanner.core.report import build_report_data
from rtoplanner.core.scenario import load_scenario_text
from rtoplanner.core.scenario.channel_rate import DISK_CHANNEL_BPS, default_channel_rate
from rtoplanner.core.uncertainty.inputs import uncertain_inputs

TEMPLATE = """\
format = 1
name = "disk restore"

[database]
size = "4 TB"

[backup]
channels = {channels}

[[path]]
kind = "{kind}"
name = "FRA"
rate = "4 GB/s"
{extra}
[[path]]
kind = "storage_write"
name = "DATA"
rate = "4 GB/s"

[targets]
rto = "24 h"
"""


def scenario(channels: int = 2, kind: str = "disk", extra: str = ""):
    return load_scenario_text(TEMPLATE.format(channels=channels, kind=kind, extra=extra))


def restore_rate(s) -> float:
    return compute_core(s)[0].rate_Bps


@pytest.mark.parametrize("kind", ["disk", "nas_head"])
def test_a_disk_or_nfs_path_scales_with_channels_up_to_the_path(kind):
    # Before: 4 GB/s whatever the channel count (no stage limited one channel).
    for n in (1, 2, 4):
        assert restore_rate(scenario(n, kind)) == pytest.approx(n * DISK_CHANNEL_BPS)
    assert restore_rate(scenario(16, kind)) == pytest.approx(4e9)  # the path again
    model = compute_core(scenario(2, kind))[0]
    assert model.per_channel_default and model.bottleneck == "channels"
    assert "class default" in model.explain() and "more channels would help" in model.explain()


def test_a_stage_that_limits_a_channel_replaces_the_default():
    extra = '\n[[path]]\nkind = "channel"\nrate = "1 GB/s"\n'
    s = scenario(2, extra=extra)
    assert s.backup.channel_rate_Bps is None
    assert restore_rate(s) == pytest.approx(2e9)
    for kind in ("tape_drive", "object_storage", "media_server"):
        s = scenario(2, kind=kind)
        assert s.backup.channel_rate_Bps is None and default_channel_rate(s.path) is None


def test_an_edit_that_adds_a_channel_stage_drops_the_default_in_the_engine():
    s = scenario(2)
    channel = dataclasses.replace(s.path[0], kind="channel", name="measured channel",
                                  rate_Bps=1e9)  # fmt: skip
    edited = dataclasses.replace(s, path=(*s.path, channel))
    assert edited.backup.channel_rate_Bps == DISK_CHANNEL_BPS  # loaded before the edit
    assert restore_rate(edited) == pytest.approx(2e9)


def test_the_default_is_a_ranged_input_with_its_prior_and_source():
    rows = {i.key: i for i in uncertain_inputs(scenario(2))}
    row = rows["backup.channel_rate"]
    assert row.origin == "default" and row.distribution == "lognormal"
    assert row.low == pytest.approx(0.5 * DISK_CHANNEL_BPS, rel=1e-6)
    assert row.high == pytest.approx(2.0 * DISK_CHANNEL_BPS, rel=1e-6)
    assert "400 MB/sec or greater" in row.source and "Oracle MAA" in row.prior_source
    assert row.label == "RMAN channel ceiling (class default)"  # not the bare "channel rate"


def test_the_plan_notes_and_the_ledger_say_it_is_a_default():
    plan = compute_plan(scenario(2))
    assert any("class default for a disk or NFS path" in n for n in plan.notes)
    ledger = build_report_data(plan).assumptions
    by_key = {r[0].split("\n")[-1]: r for r in ledger.rows}
    row = by_key["backup.channel_rate"]
    assert row[0].startswith("RMAN channel ceiling (class default)\n")  # was "Channel rate"
    assert row[3] == "class default" and "(P10..P90)" in row[1]
    assert "400 MB/sec" in row[4]
