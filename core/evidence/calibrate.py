"""Calibration from a drill: a Bayesian update of each figure the drill measured.

For each phase the drill timed (on the wall clock or by the channels; typed phases are
not measurements) the figure that decides it in the plan is updated:

* `restore_level0` → the restore path's bottleneck stage rate (`path[i].rate`);
* `apply_incremental` → `recovery.incremental_apply_rate` when the apply, not the path,
  sets that phase;
* `redo_apply` → `recovery.redo_apply_rate`;
* `open` → `recovery.open`.

**The measurement.** The value of the figure that makes the plan's own engine reproduce
the drill's phase time, for the drill's state (`compare.plan_for_drill`), found by
bisection (the phase time is monotonic in the figure), with the spread of a measured
figure: ±10 % for a phase on the wall clock (DESIGN §10's floor), ±20 % for one timed by
the channels' elapsed times (they read short).

**The prior** is the figure's distribution now (`core.uncertainty`): a catalog or class
prior's lognormal as it is; a triangular range (`[uncertainty]`, a measured or estimated
spread) as the lognormal of the same mean and variance in log space. An `exact` figure
(±0) is not calibrated: the user said so.

**The posterior** of two lognormals is lognormal: in log space the precision-weighted
mean, μ = (μ₀/σ₀² + μ₁/σ₁²) ÷ (1/σ₀² + 1/σ₁²), and σ = (1/σ₀² + 1/σ₁²)^(−1/2), narrower
than both. The figure becomes the posterior median, stated `measured ±Y%: drill N, DATE
…` (`scenario.provenance.state_posterior`) with Y the symmetric triangle of the same
log-variance (σ√6), at least the ±10 % a measured figure keeps. Applied as one validated
scenario: one undoable step in the GUI, a new version in the store.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..catalog import Catalog
from ..engine.path import RESTORE, build_path_model
from ..errors import CoreError
from ..result import PHASE_TITLES
from ..scenario import Scenario
from ..units import exact_duration, format_duration, format_rate
from .compare import plan_for_drill
from .drill import Drill

MEASURED = {"wall": 0.10, "channels": 0.20}
"""A drill's measurement is known to ±10 % (wall clock) or ±20 % (channels' elapsed)."""
MIN_MEASURED = 0.10


class CalibrationError(CoreError, ValueError):
    """A drill from which no figure of the scenario can be calibrated."""


@dataclass(frozen=True)
class Update:
    """One figure's Bayesian update."""

    key: str
    label: str
    phase: str
    kind: str  # rate | duration
    prior: float
    prior_range: str
    prior_sigma: float
    measured: float
    posterior: float
    posterior_sigma: float
    spread: float
    """The ±fraction stated with the posterior (`measured ±Y%`)."""
    source: str
    table_key: str

    @property
    def range_text(self) -> str:
        return (
            f"±{self.spread * 100:.0f}%"
            if self.spread * 100 == round(self.spread * 100)
            else f"±{self.spread * 100:.1f}%"
        )


CALIBRATION_HEADER = ("Figure", "Before", "Range", "Drill", "After", "Range")


def calibration_rows(updates: tuple[Update, ...]) -> list[list[str]]:
    """The diff as printed (CLI) and shown (GUI): one row per figure, CALIBRATION_HEADER."""
    from ..uncertainty.inputs import describe_value

    return [
        [
            u.label,
            describe_value(u.kind, u.prior),
            u.prior_range,
            describe_value(u.kind, u.measured),
            describe_value(u.kind, u.posterior),
            u.range_text,
        ]
        for u in updates
    ]


@dataclass(frozen=True)
class Calibration:
    scenario: Scenario
    updates: tuple[Update, ...]
    notes: tuple[str, ...]
    plan_before_s: float
    plan_after_s: float
    actual_s: float


# ------------------------------------------------------------------------ the math


def log_moments_of_triangle(low: float, mode: float, high: float) -> tuple[float, float]:
    """(mean, sd) of ln X for X triangular on [low, high] with that mode, by the midpoint
    rule over its quantiles (4,096 of them: exact to about 1e-6 for any sensible range)."""
    import numpy as np

    from ..uncertainty.sampling import triangular

    u = (np.arange(4096) + 0.5) / 4096
    x = np.log(np.maximum(triangular(u, low, mode, high), 1e-300))
    return float(x.mean()), float(x.std())


def prior_moments(item: Any) -> tuple[float, float]:
    """(μ, σ) in log space of an input's distribution now."""
    if item.distribution == "lognormal":
        return math.log(item.value * item.median_factor), item.sigma
    return log_moments_of_triangle(item.low, item.value, item.high)


def measured_sigma(spread: float) -> float:
    """The log-sd of a measured figure known to ±`spread` (a symmetric triangle)."""
    return log_moments_of_triangle(1 - spread, 1.0, 1 + spread)[1]


def posterior(mu0: float, s0: float, mu1: float, s1: float) -> tuple[float, float]:
    """The product of two lognormal densities (normal in log space): (μ, σ)."""
    w0, w1 = 1.0 / s0**2, 1.0 / s1**2
    return (mu0 * w0 + mu1 * w1) / (w0 + w1), (w0 + w1) ** -0.5


def stated_spread(sigma: float) -> float:
    """±Y of the symmetric triangle whose log-sd is `sigma` (Y ≈ σ√6), at least ±10 %."""
    return max(MIN_MEASURED, sigma * math.sqrt(6))


def solve(phase_s: Callable[[float], float], target: float, start: float) -> float | None:
    """The value v with phase_s(v) = target, phase_s monotonic; None when out of reach
    (within 1/1000 .. 1000 × start)."""
    lo, hi = math.log(start) - math.log(1000), math.log(start) + math.log(1000)
    f_lo, f_hi = phase_s(math.exp(lo)) - target, phase_s(math.exp(hi)) - target
    if f_lo * f_hi > 0:
        return None
    for _ in range(60):
        mid = (lo + hi) / 2
        f_mid = phase_s(math.exp(mid)) - target
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return math.exp((lo + hi) / 2)


# ------------------------------------------------------------------------ which figure


def _keys(scenario: Scenario, drill: Drill) -> list[tuple[str, str]]:
    """(phase, key) of each timed phase's deciding figure."""
    out = []
    timed = {p.name: p for p in drill.phases if p.how in MEASURED}
    if "restore_level0" in timed:
        out += _restore_key(scenario)
    if "apply_incremental" in timed:
        out += _apply_key(scenario, drill)
    out += [(phase, key) for phase, key in _RECOVERY_KEYS if phase in timed]
    return out


_RECOVERY_KEYS = (("redo_apply", "recovery.redo_apply_rate"), ("open", "recovery.open"))
"""The phases a recovery figure decides alone, and that figure."""


def _restore_key(scenario: Scenario) -> list[tuple[str, str]]:
    """The level 0 restore's deciding figure: the rate of its path's bottleneck stage."""
    idx = build_path_model(scenario, RESTORE).bottleneck_index
    return [] if idx is None else [("restore_level0", f"path[{idx}].rate")]


def _apply_key(scenario: Scenario, drill: Drill) -> list[tuple[str, str]]:
    """The incremental apply rate, when it (not the restore beside it) decides the phase."""
    rec, _, _ = plan_for_drill(scenario, drill)
    if rec.phase("apply_incremental").bottleneck == "incremental_apply_rate":
        return [("apply_incremental", "recovery.incremental_apply_rate")]
    return []


def _phase_time(
    scenario: Scenario, drill: Drill, target: Any, phase: str
) -> Callable[[float], float]:
    from ..uncertainty.inputs import apply_values

    def at(v: float) -> float:
        rec, _, _ = plan_for_drill(apply_values(scenario, {target: v}), drill)
        return rec.phase(phase).duration_s

    return at


def _source(drill: Drill, number: int, phase: str, measured_s: float, v: float, item: Any) -> str:
    fmt = format_rate if item.kind == "rate" else format_duration
    when = f", {drill.started:%Y-%m-%d}" if isinstance(drill.started, datetime) else ""
    return (
        f"drill {number}{when}: {PHASE_TITLES[phase].lower()} {format_duration(measured_s)} "
        f"gives {fmt(v)}; Bayesian update of {fmt(item.value)} ({item.range_text})"
    )


def _update(
    scenario: Scenario, drill: Drill, number: int, phase: str, item: Any, notes: list[str]
) -> Update | None:
    measured_phase = drill.phase(phase)
    assert measured_phase is not None
    if item.is_zero:
        notes.append(f"{item.label} is exact (±0): not calibrated")
        return None
    v = solve(
        _phase_time(scenario, drill, item.target, phase), measured_phase.duration_s, item.value
    )
    if v is None:
        notes.append(_out_of_reach(item, phase, measured_phase.duration_s))
        return None
    mu0, s0 = prior_moments(item)
    mu, s = posterior(mu0, s0, math.log(v), measured_sigma(MEASURED[measured_phase.how]))
    return Update(
        key=item.key,
        label=item.label,
        phase=phase,
        kind=item.kind,
        prior=item.value,
        prior_range=item.range_text,
        prior_sigma=s0,
        measured=v,
        posterior=math.exp(mu),
        posterior_sigma=s,
        spread=stated_spread(s),
        source=_source(drill, number, phase, measured_phase.duration_s, v, item),
        table_key=item.table_key,
    )


def _out_of_reach(item: Any, phase: str, measured_s: float) -> str:
    """The note for a figure no value of which gives the drill's time."""
    return (
        f"{item.label}: no value of it gives the drill's {PHASE_TITLES[phase].lower()} "
        f"time of {format_duration(measured_s)}: not calibrated"
    )


def calibrate(
    scenario: Scenario, drill: Drill, number: int, catalog: Catalog | None = None
) -> Calibration:
    """The scenario updated by drill `number` (see the module docstring)."""
    from ..uncertainty.inputs import uncertain_inputs
    from .compare import compare_drill

    items = {i.key: i for i in uncertain_inputs(scenario, catalog)}
    notes: list[str] = []
    updates = []
    for phase, key in _keys(scenario, drill):
        if key not in items:
            notes.append(f"{key} is not a figure of the scenario: not calibrated")
            continue
        u = _update(scenario, drill, number, phase, items[key], notes)
        if u is not None:
            updates.append(u)
    if not updates:
        raise CalibrationError(
            "the drill times no phase a figure of the plan decides",
            hint="record a drill with a timed restore or recovery",
        )
    new = _apply(scenario, updates, catalog)
    before, after = compare_drill(scenario, drill), compare_drill(new, drill)
    return Calibration(
        new, tuple(updates), tuple(notes), before.plan_s, after.plan_s, before.actual_s
    )


def _value_text(u: Update) -> str:
    """Four significant figures (a rate) or whole seconds: finer than any drill measures."""
    if u.kind == "rate":
        return format_rate(u.posterior, sig=4)
    return exact_duration(round(u.posterior))


def _apply(scenario: Scenario, updates: list[Update], catalog: Catalog | None) -> Scenario:
    """One validated scenario: each figure at its posterior, stated measured ±Y%."""
    from ..scenario import scenario_from_mapping
    from ..scenario.edit import set_dotted
    from ..scenario.provenance import state_posterior

    raw = copy.deepcopy(dict(scenario.raw))
    for u in updates:
        set_dotted(raw, u.key, _value_text(u))
        state_posterior(raw, u.table_key, u.source, u.range_text)
    return scenario_from_mapping(raw, source=scenario.name, catalog=catalog)


__all__ = [
    "CALIBRATION_HEADER",
    "Calibration",
    "CalibrationError",
    "Update",
    "calibrate",
    "calibration_rows",
    "log_moments_of_triangle",
    "measured_sigma",
    "posterior",
    "prior_moments",
    "solve",
    "stated_spread",
]
