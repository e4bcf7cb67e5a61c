"""One engine, two shapes: random scenarios and random trials through the scalar plan and
through the batch (the same engine on arrays) give the same totals and verdicts."""

from __future__ import annotations

import numpy as np
import pytest

from rtoplanner.core.engine.batch import backup_durations, recovery_totals, worst_and_at
from rtoplanner.core.engine.path import BACKUP, RESTORE, build_path_model
from rtoplanner.core.engine.recovery import VERDICT_CODES, recovery_total_s, verdict_code
from rtoplanner.core.errors import CoreError
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario_text, with_values
from rtoplanner.core.uncertainty.analysis import run_risk
from rtoplanner.core.uncertainty.inputs import apply_values, uncertain_inputs

SCENARIOS = 120
TRIALS = 10  # per scenario: 1,200 trials at the worst moment and 1,200 at a random moment
REL = 1e-9

_STAGES = (
    ('kind = "tape_drive"', "count = {n}", 'rate = "{r} MB/s"', "hw_compression = {h}"),
    ('kind = "media_server"', "count = {n}", 'rate = "{R} MB/s"'),
    ('kind = "network"', "count = {n}", 'rate = "{R} MB/s"', "efficiency = {e}"),
    ('kind = "nas_head"', "count = {n}", 'rate = "{R} MB/s"'),
    ('kind = "channel"', 'rate = "{r} MB/s"'),
    ('kind = "storage_write"', "count = {n}", 'rate = "{R} MB/s"', "write_factor = {w}"),
    ('kind = "disk"', "count = {n}", 'rate = "{R} MB/s"', 'max_rate = "{M} MB/s"'),
    ('kind = "tape_drive"', 'name = "LTO-8"', "count = {n}"),  # catalog: load/locate drawn
)


def random_scenario_text(rng: np.random.Generator, i: int) -> str:
    """A valid scenario with random figures and a random shape (stages, level 1 kind,
    overrides, archived logs from disk or tape, serial or parallel, job overhead …)."""

    def pick(*options):
        return options[int(rng.integers(len(options)))]

    def u(lo, hi):
        return float(rng.uniform(lo, hi))

    size_tb = u(0.3, 40)
    level1 = pick("none", "cumulative", "differential")
    lines = [
        "format = 1",
        f'name = "random {i}"',
        "[database]",
        f'size = "{size_tb:.3f} TB"',
        f'redo_rate = "{u(0.2, 40):.2f} MB/s"',
        f'daily_change = "{u(0.5, 25):.2f}%"',
        f'redo_growth = "{pick("with_size", "constant")}"',
    ]
    if rng.random() < 0.6:
        lines.append(f'largest_file = "{u(1, 400):.1f} GB"')
    lines += [
        "[backup]",
        f"compression_ratio = {pick(1.0, 1.0, round(u(1.2, 5), 2))}",
        f"channels = {int(rng.integers(1, 40))}",
        f'channel_init = "{pick(0, round(u(1, 90), 1))} s"',
        f'level1 = "{level1}"',
        f'level0_every = "{pick("7d", "14d", "3d")}"',
        f'level1_every = "{pick("1d", "12h")}"',
        f'job_overhead = "{pick(0, round(u(5, 600)))} s"',
        f"block_change_tracking = {pick('true', 'false')}",
    ]
    if rng.random() < 0.3:
        lines.append(f'section_size = "{u(8, 128):.0f} GB"')
    n_stages = int(rng.integers(1, 5))
    for _ in range(n_stages):
        template = _STAGES[int(rng.integers(len(_STAGES)))]
        lines.append("[[path]]")
        for field in template:
            lines.append(field.format(n=int(rng.integers(1, 16)), r=round(u(40, 900)),
                                      R=round(u(100, 20000)), h=round(u(1, 3), 2),
                                      e=round(u(0.5, 1), 2), w=pick(1, 2, 3),
                                      M=round(u(200, 30000))))  # fmt: skip
    lines += [
        "[recovery]",
        f'detect = "{round(u(0, 60))} min"',
        f'tape_recall = "{pick(0, round(u(0, 6), 1))} h"',
        f'incremental_apply_rate = "{u(0.1, 20):.2f} TB/h"',
        f'incremental_overhead = "{round(u(0, 300))} s"',
        f'redo_apply_rate = "{u(5, 300):.1f} MB/s"',
        f"archivelogs_on_disk = {pick('true', 'false')}",
        f'archivelog_restore = "{pick("serial", "parallel")}"',
        f'open = "{round(u(0, 30))} min"',
    ]
    if level1 != "none" and rng.random() < 0.25:
        lines.append(f'incremental_size = "{u(0.01, 0.3) * size_tb:.3f} TB"')
    if rng.random() < 0.25:
        lines.append(f'redo_volume = "{u(10, 3000):.0f} GB"')
    lines += ["[targets]", f'rto = "{u(1, 72):.2f} h"', f'risk_margin = "{pick("10%", "30 min")}"']
    return "\n".join(lines) + "\n"


def random_scenarios(count: int, seed: int):
    rng = np.random.default_rng(seed)
    out, i = [], 0
    while len(out) < count:
        i += 1
        try:
            out.append((load_scenario_text(random_scenario_text(rng, i)), rng))
        except CoreError:
            continue  # a combination the format refuses (e.g. an unused override)
    return out


def draws(scenario, rng, trials: int):
    """Every figure of the scenario drawn independently between 0.6 and 1.4 × its value."""
    values = {}
    for item in uncertain_inputs(scenario):
        x = item.value * rng.uniform(0.6, 1.4, trials)
        if item.kind == "fraction":
            x = np.clip(x, 0.0, 1.0)
        values[item.target] = x
    return values


def scalar_total_at(scenario, since_s: float) -> float:
    restore = build_path_model(scenario, RESTORE)
    level0_s, level1_s = backup_durations(scenario, build_path_model(scenario, BACKUP))
    return recovery_total_s(scenario, restore, since_s, level0_s=level0_s, level1_s=level1_s)


def test_scalar_plan_and_batch_agree_trial_by_trial():
    checked = 0
    for scenario, rng in random_scenarios(SCENARIOS, seed=20261122):
        values = draws(scenario, rng, TRIALS)
        period = scenario.backup.level0_every_s
        times = rng.uniform(0, period, TRIALS)
        batch = apply_values(scenario, values)
        worst, at = worst_and_at(batch, times)
        assert np.allclose(worst, recovery_totals(batch), rtol=REL, atol=0)
        rto, risk = scenario.targets.rto_s, scenario.targets.risk_margin_abs_s
        codes = verdict_code(np.asarray(worst), rto, risk)
        for i in range(TRIALS):
            one = apply_values(scenario, {t: float(v[i]) for t, v in values.items()})
            plan = compute_plan(one, include_cycle=False, include_growth=False)
            assert worst[i] == pytest.approx(plan.recovery.total_s, rel=REL, abs=0), (
                scenario.name, i)  # fmt: skip
            assert VERDICT_CODES[codes[i]] == plan.recovery.verdict, (scenario.name, i)
            assert at[i] == pytest.approx(scalar_total_at(one, float(times[i])), rel=REL, abs=0)
            checked += 1
    assert checked >= 1000


def test_the_cycle_scan_is_one_batch_that_agrees_with_each_hour():
    for scenario, _ in random_scenarios(15, seed=7):
        plan = compute_plan(scenario, include_growth=False)
        for point in plan.cycle.points[:: max(1, len(plan.cycle.points) // 12)]:
            expected = scalar_total_at(scenario, point.since_level0_s)
            assert point.total_s == pytest.approx(expected, rel=REL, abs=0)
        assert plan.cycle.worst_s >= plan.recovery.total_s * (1 - REL)


def test_floats_in_floats_out():
    scenario, _ = random_scenarios(1, seed=3)[0]
    plan = compute_plan(scenario, include_growth=False)
    for phase in plan.recovery.phases:
        assert type(phase.duration_s) in (float, int), phase
        assert type(phase.start_s) in (float, int), phase
    assert type(plan.recovery.total_s) is float
    assert type(plan.recovery.verdict) is str
    assert all(type(j.duration_s) is float for j in plan.jobs)


def test_the_cycle_points_are_in_time_order_with_the_worst_instant_inside():
    scenario, _ = random_scenarios(1, seed=11)[0]
    plan = compute_plan(scenario, include_growth=False)
    times = [p.since_level0_s for p in plan.cycle.points]
    assert times == sorted(times)
    assert any(p.since_level0_s == plan.cycle.worst_at_s for p in plan.cycle.points)


ONE_DISK_NO_REDO = """\
format = 1
name = "one disk, no redo"
[database]
size = "1 TB"
[backup]
channels = 4
[[path]]
kind = "disk"
rate = "500 MB/s"
[targets]
rto = "4 h"
[provenance]
"database.size" = "exact: DBA_DATA_FILES"
"path[0].rate" = "exact"
"""


def _some_exact(scenario, rng):
    """The scenario with a random share of its figures marked exact (none, some, all)."""
    keys = [i.key for i in uncertain_inputs(scenario)]
    share = rng.choice([0.0, 0.5, 1.0])
    exact = {k: "exact: test" for k in keys if rng.random() < share}
    return with_values(scenario, {}, provenance=exact) if exact else scenario


def test_risk_runs_on_every_shape_with_one_total_per_trial():
    """Issue 20.4: `risk` ended in an IndexError when no ranged input reached the total
    (one disk stage, no redo, every figure exact); every shape gives one total per trial."""
    cases = [(load_scenario_text(ONE_DISK_NO_REDO), np.random.default_rng(1))]
    cases += random_scenarios(25, seed=909)
    for scenario, rng in cases:
        scenario = _some_exact(scenario, rng) if scenario.name != "one disk, no redo" else scenario
        r = run_risk(scenario, trials=40, seed=5)
        plan = compute_plan(scenario, include_cycle=False, include_growth=False)
        assert r.deterministic_s == pytest.approx(plan.recovery.total_s, rel=REL)
        for d in (r.worst, r.uniform):
            assert sum(d.hist_counts) + d.hist_below + d.hist_beyond == 40, scenario.name
            assert d.p_meets + d.p_at_risk + d.p_misses == pytest.approx(1.0)
            assert np.isfinite(d.cdf_s).all()
        # Risk covers the whole plan: every check of the plan, each with its odds.
        assert [c.name for c in r.checks] == [c.name for c in plan.checks], scenario.name
        assert 0.0 <= r.p_meets_all <= min(c.p_met for c in r.checks) <= 1.0
        assert all(np.isfinite(list(c.percentiles_s.values())).all() for c in r.checks)
        if not r.varied:
            assert r.worst.min_s == r.worst.max_s == plan.recovery.total_s
            assert r.p_meets_all == (1.0 if plan.verdict != "misses" else 0.0)
