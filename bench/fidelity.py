"""The fidelity corpus: the model against published outcomes (issue 20, DESIGN §10).

Every case in bench/fidelity/cases/ is a scenario written from a public source's hardware
and description, with the published outcome in its `#@` block (bench/fidelity/README.md).
For each case this prints the published outcome, the plan's figure, its error, and the
model's own P10..P90 and P5..P95 band (the Monte Carlo of the plan's ranges); then the
summary: median |error|, the share within 20 %, the coverage of both bands and the
sharpness (median P90/P10). It does it three times:

* "default": what the tool assigns when the user states nothing — the case loaded without
  its `[provenance]` and `[uncertainty]` tables, so every typed figure is an estimate
  (±25 %) and catalog figures and class defaults take their priors (the issue's "default
  provenance", the headline row);
* "stated": with the case's own `[provenance]` and `[uncertainty]` (exact sizes, guessed
  hardware a factor of 5 either way);
* "measured": the stated case with its deciding inputs marked measured (the
  `[case.measured]` table, with the value the source measured where it gives one).

Run: .venv/bin/python bench/fidelity.py [--trials N] [--json] [--case ID]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from rtoplanner.core.engine.backups import backup_jobs
from rtoplanner.core.engine.batch import backup_durations
from rtoplanner.core.engine.path import BACKUP, RESTORE, build_path_model
from rtoplanner.core.engine.recovery import failure_state, recovery_timeline, worst_failure_offset
from rtoplanner.core.errors import UnitError
from rtoplanner.core.scenario import (
    Scenario,
    load_scenario,
    provenance,
    scenario_from_mapping,
    with_values,
)
from rtoplanner.core.scenario.priors import Point, Prior, fit_random_effects, fit_spread
from rtoplanner.core.uncertainty.inputs import Target, apply_values, uncertain_inputs
from rtoplanner.core.uncertainty.sampling import default_seed, draw_inputs
from rtoplanner.core.units import format_duration, parse_duration, parse_rate

CASES = Path(__file__).resolve().parent / "fidelity" / "cases"
MODES = ("default", "stated", "measured")
MEASURED_SOURCE = "fidelity corpus: measured in the case's source"
BANDS = {"p10": 10, "p90": 90, "p5": 5, "p95": 95}


@dataclass(frozen=True)
class Case:
    """One corpus case: its scenario, what the source measured and its `#@` metadata."""

    path: Path
    meta: dict[str, Any]
    scenario: Scenario
    bare: Scenario
    """The same scenario with nothing stated about how its figures are known."""

    @property
    def id(self) -> str:
        return str(self.meta["id"])

    @property
    def measure(self) -> str:
        return str(self.meta["measure"])

    @property
    def measured(self) -> dict[str, str]:
        return dict(self.meta.get("measured") or {})

    @property
    def has_measurement(self) -> bool:
        """The source measured the deciding inputs: a `[case.measured]` table that gives a
        value, or marks a published figure measured. A guess marked measured is no
        measurement: such a case is left out of the "measured" row."""
        given = self.measured
        valued = any(v != "" for v in given.values())
        return bool(given) and (not self.meta.get("guessed") or valued)


def read_meta(path: Path) -> dict[str, Any]:
    """The `#@ ` lines of a case file, as TOML: the `[case]` table."""
    lines = [ln[3:] for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("#@ ")]
    meta = tomllib.loads("\n".join(lines)).get("case")
    if not isinstance(meta, dict) or not {"id", "measure", "published"} <= meta.keys():
        raise ValueError(f"{path.name}: the '#@ [case]' block needs id, measure and published")
    return meta


UNSTATED = ("provenance", "uncertainty")
"""The tables a user who states nothing does not write (the "default" mode drops them)."""


def load_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    bare = {k: v for k, v in tomllib.loads(text).items() if k not in UNSTATED}
    return Case(path, read_meta(path), load_scenario(path),
                scenario_from_mapping(bare, source=str(path)))  # fmt: skip


def load_cases(directory: Path = CASES) -> list[Case]:
    return [load_case(p) for p in sorted(directory.glob("*.toml"))]


# ------------------------------------------------------------------ what was measured


def measure(scenario: Scenario, what: str) -> tuple[Any, Any]:
    """(duration, rate basis in bytes) of `what` — `backup.<job>` or `recovery.<phase>` —
    by the plan's own engine; floats, or arrays for a batch of trials."""
    section, _, name = what.partition(".")
    if section == "backup":
        job = _job(scenario, name)
        basis = scenario.database.size_bytes if name in ("level0", "level1") else job.data_bytes
        return job.duration_s, basis
    if section == "recovery":
        phase = _phase(scenario, name)
        return phase.duration_s, phase.data_bytes
    raise ValueError(f"measure {what!r}: write backup.<job> or recovery.<phase>")


def _job(scenario: Scenario, name: str):
    jobs = backup_jobs(scenario, build_path_model(scenario, BACKUP))
    try:
        return next(j for j in jobs if j.name == name)
    except StopIteration:
        raise ValueError(f"no backup job {name!r} in this scenario") from None


def _phase(scenario: Scenario, name: str):
    level0_s, level1_s = backup_durations(scenario, build_path_model(scenario, BACKUP))
    t = worst_failure_offset(scenario, level0_s)
    state = failure_state(scenario, t, level0_s=level0_s, level1_s=level1_s)
    rec = recovery_timeline(scenario, build_path_model(scenario, RESTORE), state)
    try:
        return next(p for p in rec.phases if p.name == name)
    except StopIteration:
        raise ValueError(f"no recovery phase {name!r}") from None


def published_s(case: Case, scenario: Scenario) -> float:
    """The published outcome as a duration: given as one, or a rate over the measure's
    basis (the database size for level 0/1 backups, else the volume moved)."""
    text = str(case.meta["published"])
    try:
        return parse_duration(text)
    except (UnitError, ValueError):  # not a duration: a rate
        _, basis = measure(scenario, case.measure)
        return float(basis) / parse_rate(text)


# ------------------------------------------------------------------ the two modes


def as_v2(scenario: Scenario) -> Scenario:
    """The scenario under model v2: no cost per archived log (the v3 figures dropped)."""
    return replace(scenario, recovery=replace(scenario.recovery, redo_log_cost_s=None))


def scenario_for(case: Case, mode: str) -> Scenario:
    """The case's scenario with nothing stated ("default"), as written ("stated"), or
    with its deciding inputs measured: the `[case.measured]` values replace the
    scenario's, and every listed key is marked measured (it takes the measured range)."""
    if mode == "default":
        return case.bare
    if mode == "stated" or not case.measured:
        return case.scenario
    values = {k: v for k, v in case.measured.items() if v != ""}
    marks = dict.fromkeys(case.measured, MEASURED_SOURCE)
    return with_values(case.scenario, values, provenance=marks)


@dataclass
class Outcome:
    """One case in one mode: the plan's figure and its band, against the published one."""

    model_s: float
    published_s: float
    band_s: dict[str, float] = field(default_factory=dict)
    varied: int = 0

    @property
    def error(self) -> float:
        return self.model_s / self.published_s - 1.0

    def inside(self, low: str, high: str) -> bool:
        return self.band_s[low] <= self.published_s <= self.band_s[high]

    @property
    def sharpness(self) -> float:
        return self.band_s["p90"] / self.band_s["p10"] if self.band_s["p10"] > 0 else float("inf")


def evaluate(case: Case, mode: str, trials: int, v2: bool = False) -> Outcome:
    s = scenario_for(case, mode)
    s = as_v2(s) if v2 else s
    model, _ = measure(s, case.measure)
    varied = [i for i in uncertain_inputs(s) if not i.is_zero]
    draws, _ = draw_inputs(varied, trials, default_seed(s))
    batch, _ = measure(apply_values(s, draws), case.measure)
    totals = np.broadcast_to(np.asarray(batch, dtype=float), (trials,))
    qs = np.percentile(totals, list(BANDS.values()))
    band = {k: float(v) for k, v in zip(BANDS, qs, strict=True)}
    return Outcome(float(model), published_s(case, s), band, len(varied))


# ------------------------------------------------------------------ the summary


def summary(outcomes: list[Outcome]) -> dict[str, float]:
    n = len(outcomes)
    errs = [abs(o.error) for o in outcomes]
    return {
        "cases": n,
        "median_abs_error": statistics.median(errs),
        "within_20": sum(e <= 0.20 for e in errs) / n,
        "coverage_p10_p90": sum(o.inside("p10", "p90") for o in outcomes) / n,
        "coverage_p5_p95": sum(o.inside("p5", "p95") for o in outcomes) / n,
        "sharpness_p90_p10": statistics.median(o.sharpness for o in outcomes),
    }


def run(cases: list[Case], trials: int, v2: bool = False) -> dict[str, dict[str, Outcome]]:
    return {c.id: {m: evaluate(c, m, trials, v2) for m in MODES} for c in cases}


def _t(seconds: float) -> str:
    return format_duration(seconds)


def _band(o: Outcome, low: str = "p10", high: str = "p90") -> str:
    inside = "✓" if o.inside(low, high) else "·"
    return f"{_t(o.band_s[low]) + '..' + _t(o.band_s[high]):>23} {inside}"


def print_table(
    cases: list[Case],
    results: dict[str, dict[str, Outcome]],
    loo: dict[str, list[Outcome]] | None = None,
) -> None:
    print(f"{'case':24} {'kind':10} {'medium':8} {'published':>11} {'model':>11} {'error':>7}"
          f" {'default P10..P90':>25} {'P5..P95':>25} │ {'stated P10..P90':>25} │"
          f" {'measured: model':>15} {'P10..P90':>25}")  # fmt: skip
    for c in cases:
        d, st, m = (results[c.id][mode] for mode in MODES)
        mark = "*" if c.meta.get("seed") else " "
        print(f"{c.id + mark:24} {c.meta.get('kind', ''):10} {c.meta.get('medium', ''):8}"
              f" {_t(d.published_s):>11} {_t(d.model_s):>11} {100 * d.error:+6.0f}%"
              f" {_band(d)} {_band(d, 'p5', 'p95')} │ {_band(st)} │ {_t(m.model_s):>15}"
              f" {_band(m)}")  # fmt: skip
    print("* from shared/seeds (the others come from elsewhere); error = model ÷ published − 1")
    published = [c for c in cases if not c.meta.get("guessed")]
    for mode in MODES:
        rows = measured_cases(cases) if mode == "measured" else cases
        _print_summary(f"{mode} provenance", [results[c.id][mode] for c in rows])
        _print_summary("  without guesses", [results[c.id][mode] for c in rows
                                              if c in published])  # fmt: skip
        if loo is not None and mode in loo:
            _print_summary("  leave-one-out", loo[mode])


def measured_cases(cases: list[Case]) -> list[Case]:
    """The cases whose source measured the deciding inputs (the "measured" row)."""
    return [c for c in cases if c.has_measurement]


def _print_summary(label: str, outcomes: list[Outcome]) -> None:
    if outcomes:
        s = summary(outcomes)
        print(f"{label:20} {s['cases']} cases: median |error| "
              f"{100 * s['median_abs_error']:.0f} %, within 20 %: {100 * s['within_20']:.0f} %, "
              f"P10..P90 coverage {100 * s['coverage_p10_p90']:.0f} %, P5..P95 coverage "
              f"{100 * s['coverage_p5_p95']:.0f} %, sharpness (median P90/P10) "
              f"{s['sharpness_p90_p10']:.2f}")  # fmt: skip


def as_json(cases: list[Case], results: dict[str, dict[str, Outcome]]) -> dict[str, Any]:
    rows = []
    for c in cases:
        row = {k: c.meta.get(k) for k in ("id", "kind", "medium", "measure", "source", "seed")}
        for mode in MODES:
            o = results[c.id][mode]
            row[mode] = {**asdict(o), "error": o.error, "sharpness": o.sharpness}
        rows.append(row)
    picks = {m: measured_cases(cases) if m == "measured" else cases for m in MODES}
    sums = {m: summary([results[c.id][m] for c in picks[m]]) for m in MODES}
    return {"cases": rows, "summary": sums}


# ------------------------------------------------------------------ fitting the priors
#
# Each case names the figure that decides its outcome (`decides`, a model attribute) and
# the prior that figure takes (`prior`, "kind.figure"). Its *factor* is what that figure
# would have to be multiplied by for the plan to reproduce the published outcome — the
# case's `achieved ÷ planned`. A prior is a lognormal factor fitted across the cases of
# its group (never one case): the log-mean, and the 80 % prediction interval of one more
# case as P10..P90 (Student's t, n − 1 degrees of freedom, × √(1 + 1/n)) — the method of
# core/scenario/priors.py. Leave-one-out: each case is judged by the prior fitted on
# the other cases of its group.

POOLS = {"media_server.rate": "*.rate", "network.rate": "*.rate", "nas_head.rate": "*.rate"}
"""Device kinds with too few corpus cases each are pooled (the catalog's "*" prior)."""
NOT_PRIORS = ("estimate.",)
"""Groups that are no catalog prior: a guess's spread is the scenario author's to state."""

Z90 = 1.2815515655446004
_T90 = (3.078, 1.886, 1.638, 1.533, 1.476, 1.440, 1.415, 1.397, 1.383, 1.372)


def target_of(attr: str) -> Target:
    """ "path[1].rate_Bps" → Target("path", 1, "rate_Bps"); "backup.job_overhead_s" → …"""
    head, _, name = attr.rpartition(".")
    if head.startswith("path["):
        return Target("path", int(head[5:-1]), name)
    return Target(head, None, name)


def value_at(scenario: Scenario, target: Target) -> float:
    obj = scenario.path[target.index or 0] if target.section == "path" else getattr(
        scenario, target.section)  # fmt: skip
    return float(getattr(obj, target.attr) or 0.0)


def solve_factor(case: Case, lo: float = 1e-3, hi: float = 1e3) -> float | None:
    """The factor on the deciding figure that makes the plan reproduce the published
    outcome (bisection in log space); None when no factor in [lo, hi] does."""
    target = target_of(case.meta["decides"])
    base = value_at(case.scenario, target)
    if base <= 0:
        return None
    goal = published_s(case, case.scenario)

    def gap(f: float) -> float:
        s = apply_values(case.scenario, {target: base * f})
        return float(measure(s, case.measure)[0]) - goal

    g_lo, g_hi = gap(lo), gap(hi)
    if g_lo * g_hi > 0:
        return None
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        g = gap(mid)
        if (g < 0) == (g_lo < 0):
            lo, g_lo = mid, g
        else:
            hi = mid
    return math.sqrt(lo * hi)


def fit_lognormal(ratios: list[float]) -> tuple[float, float]:
    """(median, sigma) of a lognormal factor: log-mean, and the log-sd widened to the 80 %
    prediction interval of one more case; at least ±10 % (P10..P90)."""
    logs = [math.log(r) for r in ratios]
    n = len(logs)
    mean = sum(logs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (n - 1))
    t = _T90[n - 2] if n - 1 <= len(_T90) else Z90
    sigma = sd * math.sqrt(1 + 1 / n) * t / Z90
    return math.exp(mean), max(sigma, math.log(1.10) / Z90)


@dataclass
class Fitted:
    """One case under the fitted priors: its factor, and its band when its group's prior
    is fitted without it (leave-one-out) and with it (in sample)."""

    case: str
    prior: str
    factor: float | None
    loo: Outcome | None = None
    inside: Outcome | None = None


def band_with_prior(case: Case, median: float, sigma: float, trials: int) -> Outcome:
    """The case's band with its deciding figure drawn from a lognormal prior (value ×
    median × e^(sigma·z)) and every other figure from its default range."""
    s, target = case.scenario, target_of(case.meta["decides"])
    others = [i for i in uncertain_inputs(s) if not i.is_zero and i.target != target]
    draws, _ = draw_inputs(others, trials, default_seed(s))
    z = np.random.default_rng(default_seed(s) ^ 0x5F1D).standard_normal(trials)
    draws[target] = value_at(s, target) * median * np.exp(sigma * z)
    batch, _ = measure(apply_values(s, draws), case.measure)
    totals = np.broadcast_to(np.asarray(batch, dtype=float), (trials,))
    band = {k: float(v) for k, v in zip(BANDS, np.percentile(totals, list(BANDS.values())),
                                        strict=True)}  # fmt: skip
    model, _ = measure(apply_values(s, {target: value_at(s, target) * median}), case.measure)
    return Outcome(float(model), published_s(case, s), band, len(others) + 1)


def fit(cases: list[Case], trials: int) -> tuple[dict[str, tuple[float, float, int]], list[Fitted]]:
    """The prior of every group (median, sigma, points) and each case leave-one-out."""
    rows = [Fitted(c.id, POOLS.get(c.meta["prior"], c.meta["prior"]), solve_factor(c))
            for c in cases if not c.meta["prior"].startswith(NOT_PRIORS)]  # fmt: skip
    by_id = {c.id: c for c in cases}
    groups: dict[str, list[Fitted]] = {}
    for r in rows:
        if r.factor is not None:
            groups.setdefault(r.prior, []).append(r)
    priors = {}
    for name, members in groups.items():
        if len(members) >= 2:
            median, sigma = fit_lognormal([m.factor for m in members])
            priors[name] = (median, sigma, len(members))
    for r in rows:
        if value_at(by_id[r.case].scenario, target_of(by_id[r.case].meta["decides"])) <= 0:
            continue  # nothing to scale: the plan has no such figure (a 0 s overhead)
        members = [m for m in groups.get(r.prior, []) if m.case != r.case]
        if len(members) >= 2:
            median, sigma = fit_lognormal([m.factor for m in members])
            r.loo = band_with_prior(by_id[r.case], median, sigma, trials)
        if r.prior in priors:
            median, sigma, _ = priors[r.prior]
            r.inside = band_with_prior(by_id[r.case], median, sigma, trials)
    return priors, rows


def prior_points(cases: list[Case], rows: list[Fitted]) -> str:
    """The fitted factors as `points` for the catalog's `[[prior]]` tables: one point per
    case, its source and where the factor comes from (`kind.figure` before each list)."""
    by_id = {c.id: c for c in cases}
    out: dict[str, list[str]] = {}
    for r in rows:
        if r.factor is None:
            continue
        c = by_id[r.case]
        src = (f"fidelity corpus {c.id}: {c.meta['source']} — the factor on "
               f"{c.meta['decides']} that reproduces the published "
               f"{c.meta['published']}")  # fmt: skip
        src = src.replace('"', "'")
        out.setdefault(c.meta["prior"], []).append(
            f'  {{ ratio = {r.factor:.3g}, source = "{src}" }},')  # fmt: skip
    return "\n".join(f"# {name}\npoints = [\n" + "\n".join(lines) + "\n]"
                     for name, lines in sorted(out.items()))  # fmt: skip


def measured_point(c: Case, v2: bool = False, trials: int = 2000) -> Point:
    """What one case says about a measured figure's spread (`fit_random_effects`): the
    ratio published ÷ the plan run with the source's measurements; `other_sigma`, the
    log-sd of the outcome when only the case's *other* figures are drawn (their own
    ranges, the measured ones held) — spread the band already has, not to be counted
    twice; `weight`, the root sum of squares of the measured figures' elasticities
    (d ln time ÷ d ln figure, by a 1 % step): 1 where one measured rate sets the time,
    about 0.7 each where a rate and a per-log cost share it, 0 where a measured figure
    is not what sets the outcome (then the point says nothing about it)."""
    s = scenario_for(c, "measured")
    s = as_v2(s) if v2 else s
    o = evaluate(c, "measured", 200, v2)
    rows = [i for i in uncertain_inputs(s) if not i.is_zero]
    mine = [i for i in rows if i.origin == "measured"]
    others = [i for i in rows if i.origin != "measured"]
    base = math.log(o.model_s)
    elastic = []
    for i in mine:
        t = float(measure(apply_values(s, {i.target: i.value * 1.01}), c.measure)[0])
        elastic.append((math.log(t) - base) / math.log(1.01))
    other_sigma = 0.0
    if others:
        draws, _ = draw_inputs(others, trials, default_seed(s))
        batch, _ = measure(apply_values(s, draws), c.measure)
        totals = np.broadcast_to(np.asarray(batch, dtype=float), (trials,))
        p10, p90 = np.percentile(totals, [10, 90])
        other_sigma = math.log(p90 / p10) / (2 * Z90)
    weight = math.sqrt(sum(e * e for e in elastic))
    return Point(o.published_s / o.model_s, other_sigma, weight)


def measured_points(cases: list[Case], trials: int) -> str:
    """How far a source's own measurement predicts its outcome: for each case whose source
    measured the deciding inputs, the point `measured_point` gives (the `points` of the
    catalog's `measured` prior, data/catalog/priors.toml), and the spread
    `fit_random_effects` fits on them."""
    lines, points = [], []
    for c in measured_cases(cases):
        pt = measured_point(c)
        points.append(pt)
        what = ", ".join(f"{k} {v or '(as written)'}" for k, v in c.measured.items())
        src = f"fidelity corpus {c.id}: {c.meta['source']} — published ÷ the plan with {what}"
        src = src.replace('"', "'")
        fields = f"other_sigma = {pt.other_sigma:.3f}, weight = {pt.weight:.2f}"
        lines.append(f'  {{ ratio = {pt.ratio:.3g}, source = "{src}", {fields} }},')
    return _points_text(lines, fit_random_effects, points, "{:.4f}")


def _estimate_decided(c: Case) -> bool:
    """The case's deciding figure is typed with no provenance (an estimate) when nothing
    is stated — the cases the catalog's `estimate` prior is fitted on."""
    target = target_of(c.meta["decides"])
    row = next((i for i in uncertain_inputs(c.bare) if i.target == target), None)
    return row is not None and row.origin == "estimate"


def _held_out(
    cases: list[Case],
    fitted: list[Case],
    mode: str,
    point,
    fit,
    spread: str,
    trials: int,
    v2: bool,
) -> list[Outcome]:
    """Each case of `fitted` judged with the prior `provenance.<spread>()` refitted by `fit`
    on the `point`s of the *other* cases of `fitted` (leave-one-out); the rest of `cases`
    as they are."""
    points = {c.id: point(c, mode, v2) for c in fitted}
    kind = spread.removesuffix("_spread")
    out = []
    for c in cases:
        if c.id not in points:
            out.append(evaluate(c, mode, trials, v2))
            continue
        median, sigma = fit([p for k, p in points.items() if k != c.id])
        prior = Prior(kind, "any", median, sigma, "leave-one-out", fit.__name__)
        saved = getattr(provenance, spread)
        setattr(provenance, spread, lambda prior=prior: prior)
        try:
            out.append(evaluate(c, mode, trials, v2))
        finally:
            setattr(provenance, spread, saved)
    return out


def _ratio(c: Case, mode: str, v2: bool) -> float:
    o = evaluate(c, mode, 200, v2)
    return o.published_s / o.model_s


def estimate_loo(cases: list[Case], trials: int, v2: bool = False) -> list[Outcome]:
    """The "default" row, honestly: every case whose deciding figure is an estimate is
    judged with the estimate spread fitted on the *other* such cases (leave-one-out);
    the other cases as in the default mode (their deciding figure has another prior)."""
    fitted = [c for c in cases if _estimate_decided(c)]
    return _held_out(cases, fitted, "default", _ratio, fit_spread, "estimate_spread", trials,
                     v2)  # fmt: skip


def measured_loo(cases: list[Case], trials: int, v2: bool = False) -> list[Outcome]:
    """The "measured" row, honestly: each case whose source measured its deciding inputs,
    judged with the catalog's `measured` prior refitted (fit_random_effects, as shipped)
    on the *other* such cases' points (leave-one-out)."""
    rows = measured_cases(cases)
    return _held_out(rows, rows, "measured", lambda c, _mode, v2: measured_point(c, v2),
                     fit_random_effects, "measured_spread", trials, v2)  # fmt: skip


def estimate_points(cases: list[Case], trials: int) -> str:
    """How far a plan from typed figures lands from the published outcome: for each case
    whose deciding figure is typed with no provenance (an estimate, in the "default"
    mode), published ÷ the plan; and the spread `fit_spread` fits on them (the catalog's
    `estimate` prior, data/catalog/priors.toml)."""
    lines, ratios = [], []
    for c in cases:
        if not _estimate_decided(c):
            continue
        o = evaluate(c, "default", trials)
        ratios.append(o.published_s / o.model_s)
        src = (f"fidelity corpus {c.id}: {c.meta['source']} — published ÷ the plan with "
               f"{c.meta['decides']} as typed").replace('"', "'")  # fmt: skip
        lines.append(f'  {{ ratio = {ratios[-1]:.3g}, source = "{src}" }},')
    return _points_text(lines, fit_spread, ratios, "{:.3f}")


def _points_text(lines: list[str], fit, points: list, sigma_format: str) -> str:
    """The `points = [...]` block of a [[prior]] and, under it, what `fit` makes of them."""
    median, sigma = fit(points)
    p10, p90 = median * math.exp(-Z90 * sigma), median * math.exp(Z90 * sigma)
    return ("points = [\n" + "\n".join(lines) + "\n]\n"
            f"# {fit.__name__} over {len(points)} points: sigma {sigma_format.format(sigma)}, "
            f"p10 = {p10:.3f}, p90 = {p90:.3f}")  # fmt: skip


def print_fit(priors: dict[str, tuple[float, float, int]], rows: list[Fitted]) -> None:
    print(f"{'prior':34} {'points':>6} {'median':>7} {'P10':>6} {'P90':>6}")
    for name, (median, sigma, n) in sorted(priors.items()):
        print(f"{name:34} {n:6d} {median:7.2f} {median * math.exp(-Z90 * sigma):6.2f}"
              f" {median * math.exp(Z90 * sigma):6.2f}")  # fmt: skip
    print()
    print(f"{'case':24} {'prior':30} {'factor':>7} │ {'leave-one-out P10..P90':>27} {'in':>3}"
          f" {'P5..P95':>25} {'in':>3}")  # fmt: skip
    for r in rows:
        f = "—" if r.factor is None else f"{r.factor:.2f}"
        o = r.loo
        band = "(fewer than 2 other points)" if o is None else (
            f"{_t(o.band_s['p10'])}..{_t(o.band_s['p90'])}")  # fmt: skip
        ins = "" if o is None else ("✓" if o.inside("p10", "p90") else "·")
        b95 = "" if o is None else f"{_t(o.band_s['p5'])}..{_t(o.band_s['p95'])}"
        in95 = "" if o is None else ("✓" if o.inside("p5", "p95") else "·")
        print(f"{r.case:24} {r.prior:30} {f:>7} │ {band:>27} {ins:>3} {b95:>25} {in95:>3}")
    for label, pick in (("leave-one-out", lambda r: r.loo), ("in sample", lambda r: r.inside)):
        outs = [pick(r) for r in rows if pick(r) is not None]
        if outs:
            s = summary(outs)
            print(
                f"{label:14} {s['cases']} cases: median |error| "
                f"{100 * s['median_abs_error']:.0f} %, P10..P90 coverage "
                f"{100 * s['coverage_p10_p90']:.0f} %, P5..P95 coverage "
                f"{100 * s['coverage_p5_p95']:.0f} %, sharpness {s['sharpness_p90_p10']:.2f}"
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20_000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--case", action="append", help="only these case ids")
    ap.add_argument("--fit", action="store_true", help="fit the priors on the corpus")
    ap.add_argument("--v2", action="store_true", help="model v2: no cost per archived log")
    ap.add_argument("--points", action="store_true", help="the fitted factors as [[prior]] points")
    ap.add_argument(
        "--estimate-triangle",
        action="store_true",
        help="before the estimate prior: typed figures a ±25 %% triangle (the second round)",
    )
    ap.add_argument(
        "--estimate-points",
        action="store_true",
        help="published ÷ plan where a typed estimate decides, and their fitted spread",
    )
    ap.add_argument(
        "--measured-points",
        action="store_true",
        help="published ÷ plan with the sources' measurements, as points",
    )
    args = ap.parse_args(argv)
    cases = [c for c in load_cases() if not args.case or c.id in args.case]
    if args.estimate_triangle:  # the "before" of docs/risk.md's third round
        provenance.estimate_spread = lambda: provenance.ESTIMATE_SPREAD
    if args.estimate_points:
        print(estimate_points(cases, 200))
        return 0
    if args.measured_points:
        print(measured_points(cases, 200))
        return 0
    if args.fit or args.points:
        priors, rows = fit(cases, args.trials)
        print(prior_points(cases, rows) if args.points else "", end="")
        if args.fit:
            print_fit(priors, rows)
        return 0
    results = run(cases, args.trials, args.v2)
    if args.json:
        json.dump(as_json(cases, results), sys.stdout, indent=2)
        print()
    else:
        loo = {"measured": measured_loo(cases, args.trials, args.v2)}
        if not args.estimate_triangle:  # the triangle is no fitted prior to leave a case out of
            loo["default"] = estimate_loo(cases, args.trials, args.v2)
        print_table(cases, results, loo)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
