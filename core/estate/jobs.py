"""What each database must do after the site loss, taken from its own plan.

A database's recovery is the plan's phases (DESIGN §3.4), computed by the plan's own
engine on the estate's hardware (`compute_core` of the scenario whose shared stages are
the estate's resources). Phases that move bytes through the path (restore level 0,
incrementals, archived redo) become *transfers* the estate simulates together; every
other phase (declare, recall, apply, redo apply, open) runs on the database's own
hosts and keeps the plan's duration.

A transfer's limits come from the plan's `PathModel` (DESIGN §3.2), split into what the
database has to itself and what it shares:

- `private_Bps`: the smallest total of its own shared-by-its-channels stages;
- `per_channel_Bps`: the per-channel ceiling (c_channel), whoever owns the stage;
- `channels`: the channels that can stream (RMAN channels, own and shared drive counts);
- `fluid`: for each shared resource it does not bind channels on, its capacity in this
  database's data bytes/s (compression differs between databases);
- `pool`: the shared resource whose units each channel holds (a tape library), if any.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine.flow import ramp_time
from ..engine.path import PathModel
from ..engine.recovery import _largest_piece
from ..engine.routes import failover_timeline
from ..plan import compute_core
from ..result import Phase, RecoveryResult
from .model import FAILOVER, Estate, EstateDatabase

TRANSFER_PHASES = ("restore_level0", "restore_incremental", "restore_archivelogs")


@dataclass(frozen=True)
class Step:
    """One phase of a database's recovery in the estate."""

    name: str
    transfer: bool
    duration_s: float = 0.0
    """Fixed phases: the plan's duration."""
    volume_bytes: float = 0.0
    piece_bytes: float = 0.0
    """Transfers: the largest piece one channel must move alone (0 with none)."""
    tail_s: float = 0.0
    """Transfers: fixed time after the bytes are through, which the plan adds beyond the
    shared fluid (per-job overhead, the last channels' ramp-down, tape cartridges)."""
    overlaps: str | None = None
    """Fixed phases that run beside an earlier one (DESIGN §3.7: applying incrementals
    overlaps their restore; archived redo restored in parallel with the level 0): the
    phase starts when that one started."""


@dataclass(frozen=True)
class Job:
    """A database's recovery as the simulator runs it."""

    index: int
    name: str
    priority: int
    steps: tuple[Step, ...]
    channel_init_s: float
    channels: int
    per_channel_Bps: float
    private_Bps: float
    fluid: tuple[tuple[int, float], ...]
    """(shared resource index, that resource's total capacity in this database's data
    bytes/s) for every shared stage that does not bind channels."""
    pool: int | None
    """Index of the shared resource each channel holds one unit of, if any."""
    alone: RecoveryResult
    """The database's own plan on the estate's hardware, with nothing else running."""
    rto_s: float
    risk_margin_s: float


def _pieces(db: EstateDatabase, recovery: RecoveryResult) -> dict[str, float | None]:
    scenario = db.estate_scenario
    return {
        "restore_level0": _largest_piece(scenario, scenario.database.largest_file_bytes),
        "restore_incremental": _largest_piece(
            scenario, recovery.failure.largest_incremental_piece_bytes
        ),
        "restore_archivelogs": None,
    }


def _fluid_s(model: PathModel, init_s: float, volume: float, piece: float) -> float:
    """What the simulator's shared fluid takes alone: the ramp, and the largest piece
    through one channel."""
    t = ramp_time(volume, model, init_s)
    if piece > 0:
        t = max(t, init_s + piece / model.single_channel_Bps)
    return t


def _redo_beside_level0(recovery: RecoveryResult) -> float:
    """Archived redo restored in the level 0's job (`archivelog_restore = "parallel"`)."""
    level0 = recovery.phase("restore_level0")
    logs = recovery.phase("restore_archivelogs")
    if logs.data_bytes > 0 and logs.duration_s > 0 and logs.start_s == level0.start_s:
        return logs.data_bytes
    return 0.0


def _steps(db: EstateDatabase, recovery: RecoveryResult, model: PathModel) -> tuple[Step, ...]:
    pieces = _pieces(db, recovery)
    init_s = db.estate_scenario.backup.channel_init_s
    steps = []
    prev: Phase | None = None
    by_start: dict[float, str] = {}
    for p in recovery.phases:
        if p.duration_s > 0:
            by_start.setdefault(p.start_s, p.name)
    beside = _redo_beside_level0(recovery)
    for p in recovery.phases:
        overlapping = prev is not None and p.duration_s > 0 and p.start_s < prev.end_s - 1e-9
        if overlapping:
            steps.append(Step(p.name, False, duration_s=p.duration_s, overlaps=by_start[p.start_s]))
        elif p.name in TRANSFER_PHASES and p.data_bytes > 0 and p.duration_s > 0:
            # With the archived redo restored beside the level 0, one RMAN job moves both.
            volume = p.data_bytes + (beside if p.name == "restore_level0" else 0.0)
            piece = min(pieces.get(p.name) or 0.0, volume)
            tail = max(0.0, p.duration_s - _fluid_s(model, init_s, volume, piece))
            steps.append(Step(p.name, True, volume_bytes=volume, piece_bytes=piece, tail_s=tail))
        else:
            steps.append(Step(p.name, False, duration_s=p.duration_s))
        if p.duration_s > 0 and not overlapping:
            prev = p
    return tuple(steps)


def _limits(
    db: EstateDatabase, model: PathModel, resource_index: dict[str, int]
) -> tuple[float, list[tuple[int, float]], int | None]:
    private = math.inf
    fluid: list[tuple[int, float]] = []
    pool = None
    path = db.estate_scenario.path
    for st in model.stages[len(path) :]:
        # Stages the engine adds (compression CPU on the database hosts) are private.
        if not st.binds_channel:
            private = min(private, st.total_Bps)
    for st, stage in zip(model.stages[: len(path)], path, strict=True):
        if stage.shared is not None:
            r = resource_index[stage.shared]
            if st.binds_channel:
                pool = r
            elif not st.per_channel_only:
                fluid.append((r, st.total_Bps))
        elif not (st.binds_channel or st.per_channel_only):
            private = min(private, st.total_Bps)
    return private, fluid, pool


def _failover(db: EstateDatabase, recovery: RecoveryResult) -> RecoveryResult | None:
    """The database's failover timeline when it fails over (its route), else None."""
    if db.route != FAILOVER:
        return None
    return failover_timeline(db.estate_scenario, recovery)


def build_jobs(estate: Estate) -> list[Job]:
    """One Job per database, each from its own plan (the engine's formulas, run once).
    A database that fails over to its standby reads no backup: its phases are fixed and
    it uses nothing shared."""
    resource_index = {r.name: i for i, r in enumerate(estate.shared)}
    jobs = []
    for i, db in enumerate(estate.databases):
        restore, _backup, recovery, _jobs, _rpo = compute_core(db.estate_scenario)
        private, fluid, pool = _limits(db, restore, resource_index)
        steps = _steps(db, recovery, restore)
        if (failover := _failover(db, recovery)) is not None:
            recovery, fluid, pool = failover, [], None
            steps = tuple(Step(p.name, False, duration_s=p.duration_s) for p in failover.phases)
        jobs.append(
            Job(
                index=i,
                name=db.name,
                priority=db.priority,
                steps=steps,
                channel_init_s=db.estate_scenario.backup.channel_init_s,
                channels=restore.active_channels,
                per_channel_Bps=restore.per_channel_Bps,
                private_Bps=private,
                fluid=tuple(fluid),
                pool=pool,
                alone=recovery,
                rto_s=recovery.rto_s,
                risk_margin_s=recovery.risk_margin_s,
            )
        )
    return jobs
