"""A deliberately simple estate simulator, written from DESIGN §9 and §12 and the model
section of docs/estate.md alone, to check `core.estate.simulate` against (issue 22).

It shares no code with the fast simulator: no `build_jobs`, no `share.py`, no arrays,
no incremental re-sharing. Every channel is an object that waits for a drive, starts up
and streams; at every event every rate is computed again from nothing (strict priority
across tiers, max-min fairness within a tier by progressive filling), and time jumps to
the next event. It is slow (quadratic and worse) and meant for a handful of databases.

Its domain is what the comparison needs and no more: restores from a path with or
without a shared tape library and shared bandwidth, level 1 none or cumulative,
archived redo on disk or restored after the incrementals, RMAN compression, a per-job
overhead, one to eight channels. Not in it: the largest file (no first-channel clock),
tape cartridges, failover, archived redo restored beside the level 0 — `covered`
says whether an estate is inside.

The rules, as the documents state them:

* at the site loss every database starts its plan's phases (the plan's own durations
  and volumes: `compute_core`); a fixed phase lasts its duration; applying incrementals
  runs beside their restore and ends no sooner than it (DESIGN §3.7);
* a restore starts its channels one after another; a channel on a shared library first
  needs a drive, then takes `channel_init`, then streams; the next channel asks only
  when the previous one streams;
* the last channel to start moves its own load (volume ÷ channels) at most at one
  channel's rate alone (`c`), the other bytes are moved by whichever channels stream,
  at most `per_channel` each and within the database's own stages;
* a database asks the sharing for min(own stages, streaming channels × per channel)
  while other bytes remain, else for `c` for its last channel; the sharing is strict
  priority across tiers, max-min fair within one, in data bytes weighted by each
  database's use of a resource (its compression);
* a drive goes to the waiting channel of the highest tier, then of the database holding
  the fewest, then first come, whenever it is free, after every event of that instant;
  a lower tier gets one only while more are free than the higher tiers' started
  restores still ask for;
* a channel that has moved its files gives its drive back (one backup piece per channel,
  RMAN's default), but the last ones keep theirs through the per-job overhead; when the
  other bytes are through before the last channel started, the channels between do not
  start, and the last one starts on a drive its database holds, no sooner than
  `channels × init` after its first channel began;
* the restore ends when all its bytes are through; the per-job overhead follows with the
  drives still held; then they go back and the next phase starts.

And the runbook (`[policy]`, DESIGN §12): the databases it orders go first within their
tier, one after another, before the rest of the tier (a finer priority); a lower tier's
first restore waits for its tier's start; the lower tiers hold at most a library's units
less those kept for priority 1 while any priority-1 database has a restore to come
through it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rtoplanner.core.engine.path import build_path_model
from rtoplanner.core.estate import Estate
from rtoplanner.core.plan import compute_core

MOVES = ("restore_level0", "restore_incremental", "restore_archivelogs")


@dataclass
class Transfer:
    volume: float
    others: float  # bytes moved by whichever channels stream
    last: float  # the last channel's own load
    overhead: float
    channels: int
    streaming: int = 0
    initing: bool = False
    waiting: bool = False
    last_started: bool = False
    own_drives: bool = False
    held: int = 0
    first_init_at: float | None = None
    ask_time: float = 0.0
    done_at: float | None = None  # when the bytes were through (the overhead runs)


@dataclass
class Db:
    index: int
    name: str
    tier: int  # the place in the sharing: tier, then the runbook's order
    business_tier: int
    start_at: float
    phases: list  # (name, kind, duration, volume); kind 'fixed', 'move', 'beside'
    channels: int
    c: float
    per_channel: float
    private: float
    fluid: dict[int, float]  # resource → capacity in this database's data bytes/s
    pool: int | None
    init: float
    overhead: float
    step: int = -1
    started: float = 0.0
    timer: float | None = None
    transfer: Transfer | None = None
    record: list = field(default_factory=list)  # (name, start, duration)
    held_back: bool = False


def covered(estate: Estate) -> bool:
    """Whether the estate is inside this simulator's domain."""
    for db in estate.databases:
        s = db.estate_scenario
        if db.route != "restore" or s.database.largest_file_bytes is not None:
            return False
        if s.recovery.archivelog_restore != "serial":
            return False
        model = build_path_model(s)
        if model.cartridge_s > 0:
            return False
    return True


def _place(estate: Estate, index: int) -> int:
    """(tier, position in the runbook's order or after it), numbered from 1."""
    order = list(estate.policy.order)

    def key(d) -> tuple[int, int]:
        return (d.priority, order.index(d.name) if d.name in order else len(order))

    keys = sorted({key(d) for d in estate.databases})
    return keys.index(key(estate.databases[index])) + 1


def _db(estate: Estate, index: int, names: list[str]) -> Db:
    entry = estate.databases[index]
    scen = entry.estate_scenario
    restore, _b, recovery, _j, _r = compute_core(scen)
    model = restore
    private, fluid, pool = math.inf, {}, None
    n = len(scen.path)
    for k, st in enumerate(model.stages):
        shared = scen.path[k].shared if k < n else None
        if shared is not None and st.binds_channel:
            pool = names.index(shared)
        elif shared is not None and not st.per_channel_only:
            fluid[names.index(shared)] = st.total_Bps
        elif shared is None and not (st.binds_channel or st.per_channel_only):
            private = min(private, st.total_Bps)
    phases = []
    restore_s = recovery.phase("restore_incremental").duration_s
    for p in recovery.phases:
        if p.name == "apply_incremental" and p.duration_s > 0:
            # the plan's phase lasts max(apply, restore): the apply's own time, when longer
            own = p.duration_s if p.duration_s > restore_s else 0.0
            phases.append((p.name, "beside", own, 0.0))
        elif p.name in MOVES and p.data_bytes > 0 and p.duration_s > 0:
            phases.append((p.name, "move", 0.0, p.data_bytes))
        else:
            phases.append((p.name, "fixed", p.duration_s, 0.0))
    start = dict(estate.policy.start).get(entry.priority, 0.0)
    return Db(index, entry.name, _place(estate, index), entry.priority, start, phases,
              model.active_channels,
              model.channel_alone_Bps, model.per_channel_Bps, private, fluid, pool,
              scen.backup.channel_init_s, scen.backup.job_overhead_s)  # fmt: skip


class Reference:
    def __init__(self, estate: Estate) -> None:
        names = [r.name for r in estate.shared]
        self.dbs = [_db(estate, i, names) for i in range(len(estate.databases))]
        self.free = [r.stage.count if r.binds_channel else 0 for r in estate.shared]
        self.capacity: dict[int, float] = {}
        for d in self.dbs:  # each resource in the data bytes/s of the first that uses it
            for r, cap in d.fluid.items():
                self.capacity.setdefault(r, cap)
        self.units = [r.stage.count for r in estate.shared]
        self.kept = [dict(estate.policy.reserve).get(r.name, 0) for r in estate.shared]
        self.now = 0.0
        self.asks = 0

    # ------------------------------------------------------------------ phases

    def begin(self, d: Db) -> None:
        d.step += 1
        if d.step >= len(d.phases):
            return
        name, kind, duration, volume = d.phases[d.step]
        d.started = self.now
        if kind == "fixed":
            d.timer = self.now + duration
        elif kind == "beside":  # with the restore before it, ending no sooner than it
            start = d.record[-1][1]
            end = max(self.now, start + duration)
            d.record.append((name, start, end - start))
            d.timer = end
        elif d.start_at > self.now and not d.held_back:  # the runbook's start for its tier
            d.held_back = True
            d.record.append(("held", self.now, d.start_at - self.now))
            d.step -= 1
            d.timer = d.start_at
            d.holding = True
        else:
            last = volume / d.channels
            d.transfer = Transfer(volume, volume - last, last, d.overhead, d.channels)
            self.want(d)

    def end_phase(self, d: Db) -> None:
        if getattr(d, "holding", False):
            d.holding = False
            d.timer = None
            self.begin(d)
            return
        name, kind, _dur, _vol = d.phases[d.step]
        if kind != "beside":
            d.record.append((name, d.started, self.now - d.started))
        d.timer = None
        self.begin(d)

    # ------------------------------------------------------------------ channels

    def want(self, d: Db) -> None:
        t = d.transfer
        if t is None or t.initing or t.waiting or t.streaming >= t.channels:
            return
        if t.own_drives:
            t.streaming = t.channels - 1
            t.initing = True
            t.init_end = max(self.now, t.first_init_at + t.channels * d.init)
            return
        if d.pool is None:
            self.start_init(d)
            return
        t.waiting = True
        t.ask_time = self.now
        self.asks += 1
        t.ask_seq = self.asks

    def start_init(self, d: Db) -> None:
        t = d.transfer
        if t.first_init_at is None:
            t.first_init_at = self.now
        t.initing = True
        t.init_end = self.now + d.init

    def owed(self, d: Db) -> int:
        t = d.transfer
        if t is None or d.pool is None or t.own_drives or t.done_at is not None:
            return 0
        return t.channels - t.held

    def grant(self) -> None:
        for pool in range(len(self.free)):
            while self.free[pool] > 0:
                waiting = [d for d in self.dbs if d.pool == pool and d.transfer is not None
                           and d.transfer.waiting]  # fmt: skip
                if not waiting:
                    break
                d = min(waiting, key=lambda d: (d.tier, d.transfer.held, d.transfer.ask_time,
                                                d.index))  # fmt: skip
                above = sum(self.owed(o) for o in self.dbs if o.pool == pool and o.tier < d.tier)
                if self.free[pool] <= above:
                    break
                if d.business_tier > 1 and self.lower_full(pool):
                    break
                self.free[pool] -= 1
                d.transfer.held += 1
                d.transfer.waiting = False
                self.start_init(d)

    def lower_full(self, pool: int) -> bool:
        """The lower tiers hold all the runbook leaves them while priority 1 has restores
        to come through this library."""
        if not self.kept[pool]:
            return False
        to_come = [
            d
            for d in self.dbs
            if d.business_tier == 1 and d.pool == pool and self.restores_to_come(d)
        ]
        if not to_come:
            return False
        held = sum(o.transfer.held for o in self.dbs
                   if o.business_tier > 1 and o.pool == pool and o.transfer)  # fmt: skip
        return held >= self.units[pool] - self.kept[pool]

    @staticmethod
    def restores_to_come(d: Db) -> bool:
        moves = [k for k, ph in enumerate(d.phases) if ph[1] == "move"]
        if not moves:
            return False
        return d.step < moves[-1] or (d.step == moves[-1] and d.transfer is not None)

    def streams(self, d: Db) -> None:
        t = d.transfer
        t.initing = False
        t.streaming += 1
        if t.streaming == t.channels:
            t.last_started = True
        self.check_done(d)
        if d.transfer is t and t.done_at is None:
            self.want(d)

    def spare(self, d: Db) -> None:
        """Drives of channels whose files are moved go back (once the others are through)."""
        t = d.transfer
        if d.pool is None or t.others > 0 or (t.last_started and t.last <= 0):
            return  # (all through: the drives stay for the per-job overhead)
        needed = max(int(not t.last_started or t.last > 0), int(t.initing))
        if t.held > needed:
            self.free[d.pool] += t.held - needed
            t.held = needed

    def others_through(self, d: Db) -> None:
        t = d.transfer
        if not t.own_drives:
            t.own_drives = True
            if t.waiting:
                t.waiting = False
                self.want(d)
        self.spare(d)

    def check_done(self, d: Db) -> None:
        t = d.transfer
        if t.done_at is None and t.others <= 0 and t.last_started and t.last <= 0:
            t.done_at = self.now
            t.tail_end = self.now + t.overhead

    def finish_transfer(self, d: Db) -> None:
        t = d.transfer
        if d.pool is not None:
            self.free[d.pool] += t.held
        d.transfer = None
        self.end_phase(d)

    # ------------------------------------------------------------------ rates

    def demands(self) -> dict[int, float]:
        out = {}
        for d in self.dbs:
            t = d.transfer
            if t is None or t.done_at is not None or t.streaming == 0:
                continue
            if t.others > 0:
                out[d.index] = min(d.private, t.streaming * d.per_channel)
            elif t.last_started and t.last > 0:
                out[d.index] = min(d.private, d.c)
        return out

    def share(self) -> dict[int, float]:
        """Strict priority across tiers, max-min fair within one (progressive filling)."""
        demand = self.demands()
        room = dict(self.capacity)
        rate: dict[int, float] = {}
        for tier in sorted({self.dbs[i].tier for i in demand}):
            live = {i for i in demand if self.dbs[i].tier == tier}
            level = 0.0
            while live:
                use = {i: {r: self.capacity[r] / cap for r, cap in self.dbs[i].fluid.items()}
                       for i in live}  # fmt: skip
                # the level at which the first resource fills or the first cap is reached
                step = min(demand[i] for i in live) - level
                for r in room:
                    users = sum(use[i].get(r, 0.0) for i in live)
                    if users > 0:
                        step = min(step, room[r] / users)
                step = max(step, 0.0)
                level += step
                for r in room:
                    room[r] -= step * sum(use[i].get(r, 0.0) for i in live)
                full = {r for r in room if room[r] <= 1e-9 * self.capacity[r]}
                done = {i for i in live if demand[i] <= level * (1 + 1e-12)
                        or any(r in full for r in use[i])}  # fmt: skip
                for i in done:
                    rate[i] = min(level, demand[i])
                live -= done
        return rate

    # ------------------------------------------------------------------ the loop

    def run(self) -> dict[str, list[tuple[str, float, float]]]:
        for d in self.dbs:
            self.begin(d)
        self.instant()
        for _ in range(100_000):
            rate = self.share()
            nxt = math.inf
            for d in self.dbs:
                if d.timer is not None:
                    nxt = min(nxt, d.timer)
                t = d.transfer
                if t is None:
                    continue
                if t.initing:
                    nxt = min(nxt, t.init_end)
                if t.done_at is not None:
                    nxt = min(nxt, t.tail_end)
                x = rate.get(d.index, 0.0)
                last_x = min(x, d.c) if t.last_started and t.last > 0 else 0.0
                others_x = x - last_x if t.others > 0 else 0.0
                t.rates = (others_x, last_x)
                if others_x > 0:
                    nxt = min(nxt, self.now + t.others / others_x)
                if last_x > 0:
                    nxt = min(nxt, self.now + t.last / last_x)
            if nxt == math.inf:
                break
            dt = nxt - self.now
            for d in self.dbs:
                t = d.transfer
                if t is not None and t.done_at is None and hasattr(t, "rates"):
                    others_x, last_x = t.rates
                    # (a part with under 1e-9 of the volume left is through: two parts
                    # due at one instant can be computed an ulp apart)
                    tol = 1e-9 * max(t.volume, 1.0)
                    if others_x > 0:
                        left = t.others - others_x * dt
                        t.others = 0.0 if self.now + t.others / others_x <= nxt or \
                            left <= tol else left  # fmt: skip
                    if last_x > 0:
                        left = t.last - last_x * dt
                        t.last = 0.0 if self.now + t.last / last_x <= nxt or \
                            left <= tol else left  # fmt: skip
            self.now = nxt
            for d in self.dbs:
                t = d.transfer
                had_others = t is not None and t.volume - t.last > 0
                if had_others and t.done_at is None and t.others <= 0 and not t.own_drives:
                    self.others_through(d)
                if t is not None and t.done_at is None and t.others <= 0:
                    self.spare(d)
                    self.check_done(d)
            self.instant()
        else:
            raise RuntimeError("the reference did not finish")
        return {d.name: d.record for d in self.dbs}

    def instant(self) -> None:
        """Every event due now, until none is left; then the drives granted; again while
        a grant makes more events now (a start-up of 0 s)."""
        while True:
            while self.events_now():
                pass
            before = list(self.free)
            self.grant()
            if self.free == before:
                return

    def events_now(self) -> bool:
        happened = False
        for d in self.dbs:
            if d.timer is not None and d.timer <= self.now:
                happened = True
                self.end_phase(d)
            t = d.transfer
            if t is None:
                continue
            if t.initing and t.init_end <= self.now:
                happened = True
                self.streams(d)
            if t.done_at is not None and t.tail_end <= self.now:
                happened = True
                self.finish_transfer(d)
        return happened


def reference_run(estate: Estate) -> dict[str, list[tuple[str, float, float]]]:
    """Each database's phases as (name, start, duration), by database name."""
    return Reference(estate).run()
