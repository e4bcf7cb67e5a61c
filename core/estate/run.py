"""The estate's answers (DESIGN §9): when each database opens, its verdict, what it
waited for, the resource that decides, and the estate Gantt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import ENGINE_VERSION
from ..engine.recovery import recovery_verdict
from ..gc_pause import without_cyclic_gc
from ..result import Phase
from ..units import format_duration
from .jobs import Job, build_jobs
from .model import Estate, SharedResource
from .simulate import DatabaseRun, PhaseRun, UsageSample, simulate

NOTHING = "—"
"""What a database waited for when the estate cost it no time."""


@dataclass(frozen=True)
class DatabaseOutcome:
    """One database's answer in the estate."""

    name: str
    priority: int
    source: str
    open_s: float
    rto_s: float
    margin_s: float
    verdict: str
    alone_s: float
    """When it would open with the estate's hardware to itself (its own plan)."""
    alone_verdict: str
    alone_phases: tuple[Phase, ...]
    """Its own plan's phases on the estate's hardware (for comparison)."""
    waited_for: str
    """The shared resource it lost most time to, or NOTHING."""
    waited_s: float
    waits_s: dict[str, float]
    phases: tuple[PhaseRun, ...]

    @property
    def delay_s(self) -> float:
        """How much later than alone it opens."""
        return self.open_s - self.alone_s


@dataclass(frozen=True)
class ResourceSummary:
    name: str
    kind: str
    count: int
    waited_s: float
    """Seconds all databases together lost to it."""
    tier1_waited_s: float
    peak_use: float | None
    """Largest share of its capacity in use (non-binding resources), when traced."""


@dataclass(frozen=True)
class EstateResult:
    estate: Estate
    databases: tuple[DatabaseOutcome, ...]
    resources: tuple[ResourceSummary, ...]
    deciding: str | None
    """The shared resource that decides: the one the priority-1 databases (else all
    databases) lost most time to; None when sharing costs nothing."""
    trace: tuple[UsageSample, ...] = ()

    @property
    def last_open_s(self) -> float:
        return max((d.open_s for d in self.databases), default=0.0)

    def database(self, name: str) -> DatabaseOutcome:
        return next(d for d in self.databases if d.name == name)

    @property
    def counts(self) -> dict[str, int]:
        out = {"meets": 0, "at_risk": 0, "misses": 0}
        for d in self.databases:
            out[d.verdict] = out.get(d.verdict, 0) + 1
        return out

    @property
    def tier1(self) -> list[DatabaseOutcome]:
        """The priority-1 databases' outcomes."""
        return [d for d in self.databases if d.priority == 1]

    @property
    def tier1_all_meet(self) -> bool:
        return all(d.verdict != "misses" for d in self.tier1)


def later_than_alone(d: DatabaseOutcome) -> list[float]:
    """How much later than in its own plan each phase leaves the database, so that the
    column adds up to `open_s − alone_s` (the PDF printed seconds lost to sharing per
    phase, which did not add up to how much later it opens, issue 22.4).

    The next phase starts when every earlier one has ended, in the estate as alone; a
    phase's figure is how much it moves that moment: (latest end so far in the estate −
    latest end so far alone), less the same before it. A phase beside another (applying
    incrementals) can take back part of its restore's delay (a negative figure); a
    runbook's wait counts in full."""
    alone = {p.name: p for p in d.alone_phases}
    out: list[float] = []
    est_end = alone_end = 0.0
    before = 0.0
    for p in d.phases:
        est_end = max(est_end, p.end_s)
        own = alone.get(p.name)
        if own is not None:
            alone_end = max(alone_end, own.end_s)
        after = est_end - alone_end
        out.append(after - before)
        before = after
    return out


def waited_words(d: DatabaseOutcome) -> str:
    """What "waited for" means for this database, in a sentence (the Estate window's
    tooltip): a library is waited for by a priority-1 database too when drives the lower
    tiers took before it asked are still restoring their backup pieces (issue 23.12)."""
    if d.waited_s <= 0:
        return f"{d.name} lost no time to sharing: it opens as it would alone."
    lost = format_duration(d.waited_s)
    text = (f"{d.name} lost {lost} to {d.waited_for}: time waiting for a free unit, or "
            "running below its own rate because the others were busy")  # fmt: skip
    if d.priority == 1:
        text += (". For a priority-1 database the units are busy with other priority-1 "
                 "restores, or with lower tiers' restores that started before it asked (a "
                 "drive goes back when its backup piece is restored); a runbook that keeps "
                 "drives for priority 1 or starts the lower tiers later avoids the "
                 "latter")  # fmt: skip
    return text + "."


def beside_earlier(phases: tuple[PhaseRun, ...]) -> list[bool]:
    """For each phase, whether it runs beside an earlier one (an apply overlapping its
    restore, archived redo restored with the level 0): charts draw it in half a row."""
    out, end = [], 0.0
    for p in phases:
        out.append(p.duration_s > 0 and p.start_s < end - 1e-6)
        end = max(end, p.end_s)
    return out


def _outcome(estate: Estate, job: Job, run: DatabaseRun) -> DatabaseOutcome:
    db = estate.databases[job.index]
    open_s = run.open_s
    waited_for, waited = _most_waited_for(run)
    return DatabaseOutcome(
        name=job.name,
        priority=job.tier,
        source=db.source,
        open_s=open_s,
        rto_s=job.rto_s,
        margin_s=job.rto_s - open_s,
        verdict=recovery_verdict(open_s, job.rto_s, job.risk_margin_s),
        alone_s=job.alone.total_s,
        alone_verdict=job.alone.verdict,
        alone_phases=job.alone.phases,
        waited_for=waited_for,
        waited_s=waited,
        waits_s=dict(run.waits_s),
        phases=run.phases,
    )


def _most_waited_for(run: DatabaseRun) -> tuple[str, float]:
    """The shared resource the database lost most time to, and how long (NOTHING: none)."""
    if not run.waits_s:
        return NOTHING, 0.0
    name, waited = max(run.waits_s.items(), key=lambda kv: kv[1])
    return (name if waited > 0 else NOTHING), waited


def _resources(
    estate: Estate,
    outcomes: list[DatabaseOutcome],
    peaks: tuple[list[float], list[int]] | None,
) -> list[ResourceSummary]:
    """Each shared resource's waits, and its peak use when the run was traced (`peaks`:
    `SimResult.peaks()`)."""
    out = []
    for r, res in enumerate(estate.shared):
        waited = sum(d.waits_s.get(res.name, 0.0) for d in outcomes)
        tier1 = sum(d.waits_s.get(res.name, 0.0) for d in outcomes if d.priority == 1)
        peak = _peak_use(peaks, r, res) if peaks else None
        out.append(ResourceSummary(res.name, res.stage.kind, res.stage.count, waited, tier1,
                                   peak))  # fmt: skip
    return out


def _peak_use(peaks: tuple[list[float], list[int]], r: int, res: SharedResource) -> float:
    """The largest share of resource `r` in use: of its rate, or of its units (channels)."""
    fluid, units_held = peaks
    if not res.binds_channel:
        return fluid[r]
    return units_held[r] / res.stage.count


def _deciding(resources: list[ResourceSummary]) -> str | None:
    if not resources:
        return None
    best = max(resources, key=lambda r: (r.tier1_waited_s, r.waited_s))
    return best.name if best.waited_s > 0 else None


@without_cyclic_gc
def run_estate(
    estate: Estate,
    *,
    trace: bool | str = True,
    should_cancel: Callable[[], bool] | None = None,
    jobs: list[Job] | None = None,
) -> EstateResult:
    """Recover every database of the estate from a site loss at time 0 (`jobs`: the
    estate's own `build_jobs(estate)`, when the caller has them already). `trace`: keep
    the usage samples (the Gantt's), only the resources' peak use (`simulate.PEAK`: the
    result's `trace` is empty), or neither (no peak use)."""
    jobs = build_jobs(estate) if jobs is None else jobs
    names = [r.name for r in estate.shared]
    units = [r.stage.count for r in estate.shared]
    reserve = [estate.policy.reserve_of(r.name) for r in estate.shared]
    sim = simulate(jobs, names, units, trace=trace, should_cancel=should_cancel, reserve=reserve)
    outcomes = [_outcome(estate, job, run) for job, run in zip(jobs, sim.runs, strict=True)]
    resources = _resources(estate, outcomes, sim.peaks())
    return EstateResult(
        estate=estate,
        databases=tuple(outcomes),
        resources=tuple(resources),
        deciding=_deciding(resources),
        trace=tuple(sim.trace),
    )


def estate_to_json(result: EstateResult) -> dict[str, Any]:
    """The JSON of `rto-planner estate --json`."""
    est = result.estate
    return {
        "estate": est.name,
        "engine_version": ENGINE_VERSION,
        "units": {"time": "s", "size": "bytes", "note": "sizes count data bytes"},
        "event": "site loss at time 0: every listed database is recovered",
        "deciding_resource": result.deciding,
        "cautions": list(est.cautions),
        "last_open_s": result.last_open_s,
        "databases": [_database_json(d) for d in result.databases],
        "shared": [
            {
                "name": r.name,
                "kind": r.kind,
                "count": r.count,
                "waited_s": r.waited_s,
                "tier1_waited_s": r.tier1_waited_s,
                "peak_use": r.peak_use,
            }
            for r in result.resources
        ],
    }


def _phase_json(p: PhaseRun) -> dict[str, Any]:
    return {
        "name": p.name,
        "start_s": p.start_s,
        "duration_s": p.duration_s,
        "data_bytes": p.data_bytes,
        "waited_s": p.waited_s,
    }


def _database_json(d: DatabaseOutcome) -> dict[str, Any]:
    return {
        "name": d.name,
        "priority": d.priority,
        "scenario": d.source,
        "open_s": d.open_s,
        "rto_s": d.rto_s,
        "margin_s": d.margin_s,
        "verdict": d.verdict,
        "alone_s": d.alone_s,
        "alone_verdict": d.alone_verdict,
        "waited_for": None if d.waited_for == NOTHING else d.waited_for,
        "waited_s": d.waited_s,
        "waits_s": d.waits_s,
        "phases": [_phase_json(p) for p in d.phases],
    }
