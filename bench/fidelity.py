"""The fidelity corpus: the model against published outcomes (issue 20, DESIGN §10).

Every case in bench/fidelity/cases/ is a scenario written from a public source's hardware
and description, with the published outcome in its `#@` block (bench/fidelity/README.md).
For each case this prints the published outcome, the plan's figure, its error, and the
model's own P10..P90 and P5..P95 band (the Monte Carlo of the plan's ranges); then the
summary: median |error|, the share within 20 %, the coverage of both bands and the
sharpness (median P90/P10). It does it twice: with the scenario's own provenance
("default"), and with the deciding inputs marked measured ("measured": the `[case.measured]`
table, with the value the source measured where it gives one).

Run: .venv/bin/python bench/fidelity.py [--trials N] [--json] [--case ID]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rtoplanner.core.engine.backups import backup_jobs
from rtoplanner.core.engine.batch import backup_durations
from rtoplanner.core.engine.path import BACKUP, RESTORE, build_path_model
from rtoplanner.core.engine.recovery import failure_state, recovery_timeline, worst_failure_offset
from rtoplanner.core.errors import UnitError
from rtoplanner.core.scenario import Scenario, load_scenario, with_values
from rtoplanner.core.uncertainty.inputs import apply_values, uncertain_inputs
from rtoplanner.core.uncertainty.sampling import default_seed, draw_inputs
from rtoplanner.core.units import format_duration, parse_duration, parse_rate

CASES = Path(__file__).resolve().parent / "fidelity" / "cases"
MODES = ("default", "measured")
MEASURED_SOURCE = "fidelity corpus: measured in the case's source"
BANDS = {"p10": 10, "p90": 90, "p5": 5, "p95": 95}


@dataclass(frozen=True)
class Case:
    """One corpus case: its scenario, what the source measured and its `#@` metadata."""

    path: Path
    meta: dict[str, Any]
    scenario: Scenario

    @property
    def id(self) -> str:
        return str(self.meta["id"])

    @property
    def measure(self) -> str:
        return str(self.meta["measure"])

    @property
    def measured(self) -> dict[str, str]:
        return dict(self.meta.get("measured") or {})


def read_meta(path: Path) -> dict[str, Any]:
    """The `#@ ` lines of a case file, as TOML: the `[case]` table."""
    lines = [ln[3:] for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("#@ ")]
    meta = tomllib.loads("\n".join(lines)).get("case")
    if not isinstance(meta, dict) or not {"id", "measure", "published"} <= meta.keys():
        raise ValueError(f"{path.name}: the '#@ [case]' block needs id, measure and published")
    return meta


def load_case(path: Path) -> Case:
    return Case(path, read_meta(path), load_scenario(path))


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


def scenario_for(case: Case, mode: str) -> Scenario:
    """The case's scenario as written ("default"), or with its deciding inputs measured:
    the `[case.measured]` values replace the scenario's, and every listed key is marked
    measured (it takes the measured range)."""
    if mode == "default" or not case.measured:
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


def evaluate(case: Case, mode: str, trials: int) -> Outcome:
    s = scenario_for(case, mode)
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


def run(cases: list[Case], trials: int) -> dict[str, dict[str, Outcome]]:
    return {c.id: {m: evaluate(c, m, trials) for m in MODES} for c in cases}


def _t(seconds: float) -> str:
    return format_duration(seconds)


def print_table(cases: list[Case], results: dict[str, dict[str, Outcome]]) -> None:
    head = (f"{'case':24} {'kind':10} {'medium':8} {'published':>11} {'model':>11} {'error':>7}"
            f" {'P10..P90':>23} {'in':>3} {'P5..P95':>23} {'in':>3} │ {'measured: model':>15}"
            f" {'P10..P90':>23} {'in':>3}")  # fmt: skip
    print(head)
    for c in cases:
        d, m = results[c.id]["default"], results[c.id]["measured"]
        mark = "*" if c.meta.get("seed") else " "
        print(f"{c.id + mark:24} {c.meta.get('kind', ''):10} {c.meta.get('medium', ''):8}"
              f" {_t(d.published_s):>11} {_t(d.model_s):>11} {100 * d.error:+6.0f}%"
              f" {_t(d.band_s['p10']) + '..' + _t(d.band_s['p90']):>23}"
              f" {'✓' if d.inside('p10', 'p90') else '·':>3}"
              f" {_t(d.band_s['p5']) + '..' + _t(d.band_s['p95']):>23}"
              f" {'✓' if d.inside('p5', 'p95') else '·':>3} │ {_t(m.model_s):>15}"
              f" {_t(m.band_s['p10']) + '..' + _t(m.band_s['p90']):>23}"
              f" {'✓' if m.inside('p10', 'p90') else '·':>3}")  # fmt: skip
    print("* from shared/seeds (the others come from elsewhere); error = model ÷ published − 1")
    for mode in MODES:
        s = summary([results[c.id][mode] for c in cases])
        print(f"{mode + ' provenance':20} {s['cases']} cases: median |error| "
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
    return {"cases": rows,
            "summary": {m: summary([results[c.id][m] for c in cases]) for m in MODES}}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20_000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--case", action="append", help="only these case ids")
    args = ap.parse_args(argv)
    cases = [c for c in load_cases() if not args.case or c.id in args.case]
    results = run(cases, args.trials)
    if args.json:
        json.dump(as_json(cases, results), sys.stdout, indent=2)
        print()
    else:
        print_table(cases, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
