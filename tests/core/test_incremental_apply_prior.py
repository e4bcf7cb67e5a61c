"""Issue 20 item 4: the incremental apply's class default (it keeps pace with its own
restore) is a figure with a prior of its own, so a risk run ranges it."""

from __future__ import annotations

import pytest
from test_incremental_apply_default import BASE  # the same level 1 scenario

from rtoplanner.core.plan import compute_core, compute_plan
from rtoplanner.core.report import build_report_data
from rtoplanner.core.scenario import load_scenario_text
from rtoplanner.core.uncertainty.inputs import Target, apply_values, uncertain_inputs

FACTOR = Target("recovery", None, "incremental_apply_factor")


def scenario(rate: str = ""):
    return load_scenario_text(BASE.format(rate=rate))


def phases(s):
    rec = compute_core(s)[2]
    return rec.phase("restore_incremental"), rec.phase("apply_incremental")


def test_the_default_is_a_factor_on_the_restore_rate_only_when_no_rate_is_given():
    assert scenario().recovery.incremental_apply_factor == 1.0
    assert scenario('incremental_apply_rate = "1 TB/h"').recovery.incremental_apply_factor is None


def test_a_slower_apply_outlasts_its_restore():
    s = scenario()
    restore, apply = phases(apply_values(s, {FACTOR: 0.5}))
    assert apply.duration_s == pytest.approx(2 * restore.duration_s + 90.0 * restore.count)
    _, fast = phases(apply_values(s, {FACTOR: 2.0}))  # faster: it ends with its restore
    assert fast.duration_s == pytest.approx(restore.duration_s)


def test_the_factor_is_a_ranged_class_default_with_its_prior():
    rows = {i.key: i for i in uncertain_inputs(scenario())}
    row = rows["recovery.incremental_apply_factor"]  # before: no such input, no range
    assert row.origin == "default" and row.distribution == "lognormal"
    assert (row.low, row.high) == (pytest.approx(0.5), pytest.approx(1.0))
    assert row.median_factor == pytest.approx(0.5**0.5)  # the default is the fast end
    assert "keeps pace" in row.source and "Applying incremental backups is faster" in (
        row.prior_source)  # fmt: skip
    given = {i.key for i in uncertain_inputs(scenario('incremental_apply_rate = "1 TB/h"'))}
    assert "recovery.incremental_apply_factor" not in given


def test_the_ledger_names_it_a_class_default():
    plan = compute_plan(scenario())
    by_key = {r[0].split("\n")[-1]: r for r in build_report_data(plan).assumptions.rows}
    row = by_key["recovery.incremental_apply_factor"]
    assert row[3] == "class default" and "(P10..P90)" in row[1]
