"""What each database must do after the site loss, taken from its own plan.

A database's recovery is the plan's phases (DESIGN §3.4), computed by the plan's own
engine on the estate's hardware (`compute_recovery` of the scenario whose shared stages are
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
- `pool`: the shared resource whose units each channel holds (a tape library), if any;
- `channel_alone_Bps`: what one channel moves alone (`PathModel.channel_alone_Bps`), the
  rate of the first channel's largest piece and of the last channel's load.

A transfer carries the plan's channel assignment (`channel_loads`, largest first): the
largest piece the first channel moves and the load of the last channel to start, each
with the load + locate of the cartridges it spans (`cartridge_time`). What the plan adds
beyond that (`tail_s`) is computed as the plan's duration minus what the simulator takes
alone, so the identity is exact by construction; it is the per-job overhead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..engine.flow import cartridge_time, channel_loads, ramp_time
from ..engine.path import PathModel
from ..engine.recovery import _largest_piece
from ..engine.routes import failover_timeline
from ..plan import compute_recovery
from ..result import Phase, RecoveryResult
from .halves import in_two, worth_two
from .model import FAILOVER, Estate, EstateDatabase
from .policy import ranks

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
    piece_cart_s: float = 0.0
    """Transfers: load + locate of the cartridges the largest piece spans, paid by the
    first channel before it moves the piece."""
    last_bytes: float = 0.0
    """Transfers: the last channel's load (`channel_loads(...).rest`: RMAN hands the
    channels their files up front, so the last channel to start moves these itself)."""
    last_cart_s: float = 0.0
    """Transfers: load + locate of the cartridges the last channel's load spans, paid
    after its start-up, before it moves its load."""
    tail_s: float = 0.0
    """Transfers: fixed time after everything is through, which the plan adds beyond what
    the simulator moves: the per-job overhead (`backup.job_overhead`), nothing else."""
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
    """Its place in the sharing (1 first): its tier, and the runbook's order within it
    (`policy.ranks`)."""
    steps: tuple[Step, ...]
    channel_init_s: float
    channels: int
    per_channel_Bps: float
    channel_alone_Bps: float
    """What one channel moves alone (the plan's `PathModel.channel_alone_Bps`)."""
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
    tier: int = 1
    """Its tier in the estate (`priority` in the file)."""
    start_s: float = 0.0
    """The runbook's start for its tier: its first restore waits until then."""


def _pieces(db: EstateDatabase, recovery: RecoveryResult) -> dict[str, float | None]:
    scenario = db.estate_scenario
    return {
        "restore_level0": _largest_piece(scenario, scenario.database.largest_file_bytes),
        "restore_incremental": _largest_piece(
            scenario, recovery.failure.largest_incremental_piece_bytes
        ),
        "restore_archivelogs": None,
    }


@dataclass(frozen=True)
class _Channels:
    """The channels' part of a transfer (the largest piece, the last channel's load),
    and what the simulator's transfer takes alone."""

    piece_cart_s: float
    last_bytes: float
    last_cart_s: float
    alone_s: float


class _Assigner:
    """A database's channel assignment of each transfer, from the plan's own formulas
    (`channel_loads`, `cartridge_time`, `ramp_time`) and its path (read once)."""

    def __init__(self, model: PathModel, init_s: float) -> None:
        self.model, self.init_s = model, init_s
        self.m = model.active_channels
        self.c = model.channel_alone_Bps
        self.cart, self.h = model.cartridge_data_bytes, model.cartridge_s

    def cartridges_s(self, load: float) -> float:
        return float(cartridge_time(load, self.cart, self.h)) if self.h > 0 and load > 0 else 0.0

    def transfer(self, volume: float, piece: float) -> _Channels:
        """The last channel's load (`channel_loads`), the cartridges each clock pays, and
        the time alone: the fluid ramp, the largest piece through the first channel and
        the last channel's load, each channel's clock starting at its start-up (k × init)
        plus its cartridges. That is the plan's max(ramp, first, last) (`move`): in the
        plan the first channel holds max(piece, volume ÷ m), which exceeds the piece only
        when the loads are even, and then the last channel (same load, later start)
        decides anyway."""
        init, c = self.init_s, self.c
        last = float(channel_loads(volume, self.m, piece).rest)
        piece_cart, last_cart = self.cartridges_s(piece), self.cartridges_s(last)
        t = max(ramp_time(volume, self.model, init), self.m * init + last_cart + last / c)
        if piece > 0:
            t = max(t, init + piece_cart + piece / c)
        return _Channels(piece_cart, last, last_cart, t)


def _redo_beside_level0(recovery: RecoveryResult) -> float:
    """Archived redo restored in the level 0's job (`archivelog_restore = "parallel"`)."""
    level0 = recovery.phase("restore_level0")
    logs = recovery.phase("restore_archivelogs")
    if logs.data_bytes > 0 and logs.duration_s > 0 and logs.start_s == level0.start_s:
        return logs.data_bytes
    return 0.0


def _own_time(p: Phase, restore: Phase | None) -> float:
    """A phase beside a restore, on its own: the plan's applying of incrementals lasts
    max(apply, restore) (it ends when both are done, DESIGN §3.7). Where the restore
    decides, the apply ends with the estate's restore (never shorter than alone), so it
    adds nothing of its own: 0, rather than the plan's restore time, which a restore
    that took exactly as long would miss by a rounding error — a gap in which a lower
    tier took the drives (issue 22.1)."""
    if restore is not None and p.name == "apply_incremental" and p.duration_s <= restore.duration_s:
        return 0.0
    return p.duration_s


def _steps(db: EstateDatabase, recovery: RecoveryResult, model: PathModel) -> tuple[Step, ...]:
    pieces = _pieces(db, recovery)
    assign = _Assigner(model, db.estate_scenario.backup.channel_init_s)
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
            beside = by_start[p.start_s]
            steps.append(Step(p.name, False, duration_s=_own_time(p, prev), overlaps=beside))
        elif p.name in TRANSFER_PHASES and p.data_bytes > 0 and p.duration_s > 0:
            # With the archived redo restored beside the level 0, one RMAN job moves both.
            volume = p.data_bytes + (beside if p.name == "restore_level0" else 0.0)
            piece = min(pieces.get(p.name) or 0.0, volume)
            ch = assign.transfer(volume, piece)
            tail = max(0.0, p.duration_s - ch.alone_s)
            steps.append(
                Step(
                    p.name,
                    True,
                    volume_bytes=volume,
                    piece_bytes=piece,
                    piece_cart_s=ch.piece_cart_s,
                    last_bytes=ch.last_bytes,
                    last_cart_s=ch.last_cart_s,
                    tail_s=tail,
                )
            )
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


def _own_job(db: EstateDatabase, resource_index: dict[str, int]) -> Job:
    """The database's job from its own plan (the engine's formulas), before its place in
    the estate (`index`, `name`, `priority`, `tier`, `start_s`) is set."""
    restore, recovery = compute_recovery(db.estate_scenario)
    private, fluid, pool = _limits(db, restore, resource_index)
    failover = _failover(db, recovery)
    if failover is None:
        steps = _steps(db, recovery, restore)
    else:
        recovery, fluid, pool = failover, [], None
        steps = tuple(Step(p.name, False, duration_s=p.duration_s) for p in failover.phases)
    return Job(
        index=0,
        name="",
        priority=0,
        steps=steps,
        channel_init_s=db.estate_scenario.backup.channel_init_s,
        channels=restore.active_channels,
        per_channel_Bps=restore.per_channel_Bps,
        channel_alone_Bps=restore.channel_alone_Bps,
        private_Bps=private,
        fluid=tuple(fluid),
        pool=pool,
        alone=recovery,
        rto_s=recovery.rto_s,
        risk_margin_s=recovery.risk_margin_s,
    )


class JobCache:
    """Databases' own jobs by what they are computed from — the scenario's database,
    backup, path, recovery and targets (all `compute_core` reads), its route and which
    shared resources its stages are — so that databases with the same scenario (an
    estate of many alike) and the same database across the trials of a search (another
    runbook, a purchase of a resource it does not use) are planned once (issue 22.3).
    Holds the jobs of the last two estates built with it (`build_jobs`), no more."""

    def __init__(self) -> None:
        self._now: dict[object, Job] = {}
        self._before: dict[object, Job] = {}

    def next_estate(self) -> None:
        if self._now:
            self._before, self._now = self._now, {}

    def own_job(self, db: EstateDatabase, resource_index: dict[str, int]) -> Job:
        key = _key(db, resource_index)
        if key is None:  # a value that cannot be a key: planned every time
            return _own_job(db, resource_index)
        job = self._now.get(key)
        if job is None:
            job = (self._before.get(key) if self._before else None) or _own_job(
                db, resource_index)  # fmt: skip
            self._now[key] = job
        return job

    def plan_ahead(self, dbs: tuple[EstateDatabase, ...], resource_index: dict[str, int]) -> None:
        """A large estate's plans not cached yet, computed in two processes
        (`halves.in_two`) into the cache; one that fails is left to `own_job`, which
        raises its error in its place, as it does without this."""
        if not worth_two(len(dbs)):
            return
        todo: dict[_Key, EstateDatabase] = {}
        for db in dbs:
            key = _key(db, resource_index)
            if key is not None and key not in self._now and key not in self._before:
                todo.setdefault(key, db)
        jobs = in_two(lambda db: _job_or_none(db, resource_index), list(todo.values()))
        for key, job in zip(todo, jobs, strict=True):
            if job is not None:
                self._now[key] = job


def _key(db: EstateDatabase, resource_index: dict[str, int]) -> _Key | None:
    """What a database's own job is computed from (`JobCache`); None when a value cannot
    be hashed."""
    s = db.estate_scenario
    used = tuple(resource_index.get(st.shared) for st in s.path if st.shared is not None)
    try:
        return _Key((db.route, used, s.database, s.backup, s.path, s.recovery, s.targets))
    except TypeError:
        return None


def _job_or_none(db: EstateDatabase, resource_index: dict[str, int]) -> Job | None:
    try:
        return _own_job(db, resource_index)
    except Exception:  # raised by `own_job` in its place
        return None


class _Key:
    """A cache key whose hash is worked out once: hashing a scenario's tables walks every
    field of each, and a key is looked up once or twice and stored (issue 22.3)."""

    __slots__ = ("hash", "parts")

    def __init__(self, parts: tuple) -> None:
        self.parts = parts
        self.hash = hash(parts)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and self.hash == other.hash and self.parts == other.parts


def build_jobs(estate: Estate, cache: JobCache | None = None) -> list[Job]:
    """One Job per database, each from its own plan (the engine's formulas, run once per
    distinct scenario: `JobCache`; pass one to reuse the plans across estates).
    A database that fails over to its standby reads no backup: its phases are fixed and
    it uses nothing shared."""
    cache = JobCache() if cache is None else cache
    cache.next_estate()
    resource_index = {r.name: i for i, r in enumerate(estate.shared)}
    cache.plan_ahead(estate.databases, resource_index)
    rank = ranks(estate.databases, estate.policy)
    return [
        replace(
            cache.own_job(db, resource_index),
            index=i,
            name=db.name,
            priority=rank[i],
            tier=db.priority,
            start_s=estate.policy.start_of(db.priority),
        )
        for i, db in enumerate(estate.databases)
    ]
