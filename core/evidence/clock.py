"""The recovery clock: during a real recovery, when will the database open?

From the snapshots so far (V$SESSION_LONGOPS during the restores, V$RECOVERY_PROGRESS
during media recovery; progress.py), for the latest one:

* the **running phase** finishes after (total − done) ÷ the measured rate: the rate
  between the last snapshots of that phase (up to three intervals), with their spread as
  its uncertainty, at least ±10 % (a measured figure, DESIGN §10), drawn triangular;
* **what remains after it** is the plan's own engine (`recovery_timeline`) for the
  restore under way — volumes from RESTORE PREVIEW where given, else the plan's — run on
  the plan's uncertainty trials (`core.uncertainty`): the time from the end of the
  running phase to the open, per trial;
* the open is the snapshot's time + both, per trial: P50 and P90, and the chance to open
  before the RTO runs out (failure time + RTO).

Every snapshot gives a forecast from the snapshots up to it (`history`): the clock
re-forecasts as snapshots arrive, and on a replayed recovery its P50 converges on the
actual open (tests/evidence/test_clock.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ..engine.path import RESTORE, build_path_model
from ..engine.recovery import recovery_timeline
from ..errors import CoreError
from ..importers.restore_evidence import EvidenceFile
from ..jsonable import json_ready
from ..result import PHASE_NAMES, PHASE_TITLES, FailureState
from ..scenario import Scenario
from ..units import format_percent, format_rate
from .compare import drill_state, plan_for_drill
from .drill import Drill, _Acc, _from_preview
from .progress import Progress, measured_rates, progress_points

DEFAULT_TRIALS = 2000
MIN_SPREAD = 0.10
"""A measured rate is known to ±10 % at best (DESIGN §10's floor for measured figures)."""
RECENT = 3
"""Rate intervals the running phase's rate is taken over."""


class ClockError(CoreError, ValueError):
    """Evidence from which no forecast can be made."""


@dataclass(frozen=True)
class PlanTrials:
    """Per trial of the plan: each phase's end and the open, for the restore under way."""

    ends: dict[str, np.ndarray]
    total: np.ndarray
    durations_p50: dict[str, float]
    notes: tuple[str, ...]

    def after(self, phase: str) -> np.ndarray:
        """Seconds from the end of `phase` to the open, per trial."""
        end = self.ends["apply_incremental" if phase == "restore_incremental" else phase]
        return np.maximum(self.total - end, 0.0)


@dataclass(frozen=True)
class Forecast:
    """The open as forecast at one snapshot."""

    at: datetime
    phase: str
    fraction: float | None
    rate_Bps: float | None
    remaining_phase_s: float
    open_p50: datetime
    open_p90: datetime
    p_by_deadline: float | None


@dataclass(frozen=True)
class ClockPhase:
    name: str
    status: str  # done | running | to come
    start: datetime | None
    end: datetime | None
    """Actual (done), forecast P50 (running, to come)."""


@dataclass(frozen=True)
class RecoveryClock:
    scenario: str
    now: Forecast
    history: tuple[Forecast, ...]
    phases: tuple[ClockPhase, ...]
    failed_at: datetime
    deadline: datetime
    trials: int
    notes: tuple[str, ...] = field(default=())

    def headline(self) -> str:
        """`expected open 14:20, 90 % by 15:05; restore 62 % done at 1.9 GB/s`."""
        n = self.now
        return f"expected open {_hm(n.open_p50)}, 90 % by {_hm(n.open_p90)}" + _progress_words(n)

    def to_dict(self) -> dict[str, Any]:
        out = json_ready(self)
        out["headline"] = self.headline()
        return out


def _progress_words(n: Forecast) -> str:
    """`; restore 62 % done at 1.9 GB/s`, without the share when no total is known."""
    title = PHASE_TITLES[n.phase].lower()
    if n.fraction is not None and n.rate_Bps:
        return f"; {title} {format_percent(n.fraction, 0)} done at {format_rate(n.rate_Bps)}"
    if n.rate_Bps:
        return f"; {title} at {format_rate(n.rate_Bps)}"
    return ""


def _hm(t: datetime) -> str:
    return f"{t:%H:%M}"


# ---------------------------------------------------------------------- the plan's part


def _trial_scenario(scenario: Scenario, trials: int, seed: int | None) -> Scenario:
    """The scenario with each uncertain figure an array of draws (the risk engine's)."""
    from ..uncertainty.inputs import apply_values, uncertain_inputs
    from ..uncertainty.sampling import default_seed, draw_inputs

    varied = [i for i in uncertain_inputs(scenario) if not i.is_zero]
    draws, _ = draw_inputs(varied, trials, default_seed(scenario) if seed is None else seed)
    return apply_values(scenario, draws)


def plan_trials(scenario: Scenario, drill: Drill, trials: int, seed: int | None) -> PlanTrials:
    """The plan's timeline for the restore under way, on `trials` draws of its figures."""
    rec0, _, notes = plan_for_drill(scenario, drill)
    many = _trial_scenario(scenario, trials, seed)
    state = _per_trial_state(drill_state(scenario, drill, rec0.failure)[0], trials)
    size = drill.level0_bytes or scenario.database.size_bytes
    rec = recovery_timeline(many, build_path_model(many, RESTORE), state, size_bytes=size)
    ends = {p.name: _per_trial(p.end_s, trials) for p in rec.phases}
    total = _per_trial(rec.total_s, trials)
    p50 = {p.name: p.duration_s for p in rec0.phases}
    return PlanTrials(ends, total, p50, tuple(notes))


def _per_trial_state(state: FailureState, trials: int) -> FailureState:
    """The state at failure with its volumes one per trial (for the array engine)."""
    ones = np.ones(trials)
    return replace(
        state, incremental_bytes=ones * state.incremental_bytes, redo_bytes=ones * state.redo_bytes
    )


def _per_trial(value: float | np.ndarray, trials: int) -> np.ndarray:
    """A figure of the engine as one value per trial (a constant repeated)."""
    return np.broadcast_to(np.asarray(value, dtype=float), (trials,))


# ---------------------------------------------------------------------- the measured part


def _rate_and_spread(points: list[Progress], k: int) -> tuple[float | None, float]:
    rates = measured_rates(points, k)[-RECENT:]
    if not rates:
        return None, MIN_SPREAD
    mean = float(np.mean(rates))
    cv = float(np.std(rates) / mean) if len(rates) > 1 and mean > 0 else 0.0
    return mean, max(MIN_SPREAD, cv)


def _remaining(point: Progress, rate: float | None, plan: PlanTrials) -> float:
    """Seconds left in the running phase at the snapshot (P50, before the rate's spread)."""
    if point.finished:
        return 0.0
    if point.total_bytes is not None and rate:
        return (point.total_bytes - point.done_bytes) / rate
    return _planned_remaining(point, plan)


def _planned_remaining(point: Progress, plan: PlanTrials) -> float:
    """Without a measured rate: the plan's P50 for the phase less the time spent in it."""
    planned = plan.durations_p50.get(point.phase, 0.0)
    spent = (point.at - point.started).total_seconds() if point.started else 0.0
    return max(planned - spent, 0.0)


def _factor(u: np.ndarray, spread: float) -> np.ndarray:
    """Triangular draws of rate ÷ measured rate on [1 − spread, 1 + spread], mode 1."""
    lo, hi = 1.0 - spread, 1.0 + spread
    x = np.where(
        u < 0.5,
        lo + np.sqrt(u * (hi - lo) * (1 - lo)),
        hi - np.sqrt((1 - u) * (hi - lo) * (hi - 1)),
    )
    return np.maximum(x, 0.05)


def forecast_at(
    points: list[Progress], k: int, plan: PlanTrials, deadline: datetime, u: np.ndarray
) -> Forecast:
    """The open as seen from snapshot k (snapshots after k are not used)."""
    point = points[k]
    rate, spread = _rate_and_spread(points, k)
    left = _remaining(point, rate, plan)
    seconds = left / _factor(u, spread) + plan.after(point.phase)
    p50, p90 = np.percentile(seconds, [50, 90])
    limit = (deadline - point.at).total_seconds()
    return Forecast(
        at=point.at,
        phase=point.phase,
        fraction=point.fraction,
        rate_Bps=rate,
        remaining_phase_s=left,
        open_p50=point.at + timedelta(seconds=float(p50)),
        open_p90=point.at + timedelta(seconds=float(p90)),
        p_by_deadline=float(np.mean(seconds <= limit)),
    )


# ---------------------------------------------------------------------- putting it together


def _drill_facts(files: list[EvidenceFile], scenario: Scenario) -> Drill:
    """The volumes RESTORE PREVIEW gives the restore under way (a Drill without phases)."""
    acc = _Acc()
    for f in files:
        if f.kind == "preview":
            _from_preview(acc, f.preview, scenario.backup.compression_ratio)
            _archived_redo(acc, f)
    g = acc.facts.get
    return Drill(
        phases=(),
        level0_bytes=g("level0_bytes"),
        incremental_bytes=g("incremental_bytes"),
        incremental_count=g("incremental_count"),
        redo_bytes=g("redo_bytes"),
    )


def _archived_redo(acc: _Acc, f: EvidenceFile) -> None:
    """The archived logs' volume a RESTORE PREVIEW lists: the redo to apply."""
    arch = [s.size_bytes for s in f.preview.of_level("archivelog") if s.size_bytes]
    if arch:
        acc.fact("redo_bytes", sum(arch))


def _phases(points: list[Progress], now: Forecast, plan: PlanTrials) -> tuple[ClockPhase, ...]:
    """Each phase: done (before the running one), running, or to come at the plan's P50
    durations from the running phase's end (the incremental restore and apply overlap)."""
    started = {p.phase: p.started for p in points}
    last = {p.phase: p for p in points}
    t = now.at + timedelta(seconds=now.remaining_phase_s)
    order = list(PHASE_NAMES)
    current = order.index(now.phase)
    out = [
        ClockPhase(n, "done", started.get(n), last[n].at if n in last else None)
        for n in order[:current]
    ]
    status = "done" if last[now.phase].finished else "running"
    out.append(ClockPhase(now.phase, status, started.get(now.phase), t))
    for name in order[current + 1 :]:
        end = t + timedelta(seconds=plan.durations_p50.get(name, 0.0))
        out.append(ClockPhase(name, "to come", t, end))
        if name != "restore_incremental":  # it ends with apply_incremental
            t = end
    return tuple(out)


def recovery_clock(
    scenario: Scenario,
    files: list[EvidenceFile],
    *,
    failed_at: datetime | None = None,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
) -> RecoveryClock:
    """Forecast the open from the evidence so far (see the module docstring)."""
    facts = _drill_facts(files, scenario)
    plan = plan_trials(scenario, facts, trials, seed)
    redo_total = facts.redo_bytes or plan_for_drill(scenario, facts)[0].failure.redo_bytes
    points = _progress(files, redo_total)
    notes = list(plan.notes)
    if facts.redo_bytes is None:
        notes.append(WORST_CASE_REDO)
    failed_at, deadline = _deadline(scenario, points, plan, failed_at, notes)
    u = np.random.default_rng(seed if seed is not None else 11).random(trials)
    history = tuple(forecast_at(points, k, plan, deadline, u) for k in range(len(points)))
    return RecoveryClock(
        scenario=scenario.name,
        now=history[-1],
        history=history,
        phases=_phases(points, history[-1], plan),
        failed_at=failed_at,
        deadline=deadline,
        trials=trials,
        notes=tuple(dict.fromkeys(notes)),
    )


WORST_CASE_REDO = (
    "the redo to apply is the plan's worst case: give RESTORE PREVIEW for "
    "the archived logs' own volume"
)


def _progress(files: list[EvidenceFile], redo_total: float) -> list[Progress]:
    """The recovery's progress snapshots in the evidence; an error when there are none."""
    longops = [s for f in files for s in f.longops]
    points = progress_points(longops, [s for f in files for s in f.recovery], redo_total)
    if not points:
        raise ClockError(
            "no snapshot of a recovery in progress in the evidence: give V$SESSION_LONGOPS "
            "or V$RECOVERY_PROGRESS snapshots (docs/evidence.md)"
        )
    return points


def _deadline(
    scenario: Scenario,
    points: list[Progress],
    plan: PlanTrials,
    failed_at: datetime | None,
    notes: list[str],
) -> tuple[datetime, datetime]:
    if failed_at is None:
        failed_at = _failure_time(points, plan)
        notes.append(
            f"failure time not given: taken as the restore's start less "
            f"the plan's declare/prepare and tape recall ({_hm(failed_at)})"
        )
    return failed_at, failed_at + timedelta(seconds=scenario.targets.rto_s)


def _failure_time(points: list[Progress], plan: PlanTrials) -> datetime:
    """When not given: the restore's start less the plan's declare/prepare and tape recall."""
    first = min((p.started or p.at) for p in points)
    before = plan.durations_p50.get("detect", 0.0) + plan.durations_p50.get("tape_recall", 0.0)
    return first - timedelta(seconds=before)


__all__ = [
    "ClockError",
    "ClockPhase",
    "Forecast",
    "PlanTrials",
    "RecoveryClock",
    "forecast_at",
    "plan_trials",
    "recovery_clock",
]
