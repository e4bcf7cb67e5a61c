"""The search of "What it takes": exact for the candidate set, not a greedy walk.

Structure used (DESIGN §3.2): a path moves data at the rate of its slowest stage, so a
target rate needs *every* stage to reach it, each independently. For a rate level L the
cheapest hardware reaching it is therefore the cheapest option of each stage that reaches
L, chosen stage by stage; and any hardware set whose slowest stage reaches L costs at
least that much while reaching no higher level. So only one hardware set per level — per
*breakpoint*, a capacity some option offers — can be on the frontier. With backup windows
in play the level is a pair (restore, backup rate). The configuration choices (channels,
level 1 schedule, compression) are few and enumerated in full; changes that are never
worse are applied everywhere and dropped again where they make no difference. RPO fixes
are completed per point, cheapest first.

Every variant is judged by the plan's engine (`engine.outcome`), and the points handed
back are checked once more on the fully validated edited scenario.
`tests/fix/test_exact.py` compares the answer with brute force over every combination.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..catalog import Catalog
from ..errors import CoreError
from ..scenario import Scenario, Stage
from . import candidates as cand
from .engine import Deltas, outcome, path_signature, stage_capacity, variant
from .licences import total_cost
from .model import FREE, Change, Cost, Outcome
from .prices import PriceBook

MAX_POINTS = 10
Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class _Config:
    channels: str
    level1: cand.Option | None
    compression: cand.Option | None
    on_disk: cand.Option | None = None
    """Archived logs kept on disk: a choice, since the disk to hold them costs."""

    @property
    def options(self) -> tuple[cand.Option, ...]:
        return tuple(o for o in (self.level1, self.compression, self.on_disk) if o is not None)

    @property
    def cost(self) -> Cost:
        total = FREE
        for o in self.options:
            total = total + o.cost
        return total


@dataclass
class _Eval:
    config: _Config
    hardware: tuple[int, ...]
    changes: tuple[Change, ...]
    cost: Cost
    outcome: Outcome


class _Search:
    def __init__(
        self,
        scenario: Scenario,
        catalog: Catalog,
        prices: PriceBook,
        should_cancel: Callable[[], bool] | None,
    ) -> None:
        self.base = scenario
        self.catalog = catalog
        self.prices = prices
        self.should_cancel = should_cancel or (lambda: False)
        self.hw = cand.hardware_dimensions(scenario, catalog, prices)
        self.free = cand.free_changes(scenario, catalog)
        self.level1 = [None, *cand.level1_options(scenario, catalog)]
        self.compression = [None, *cand.compression_options(scenario, catalog, prices)]
        self.on_disk = [None, *cand.archivelog_disk_options(scenario, catalog, prices)]
        self.rpo = cand.rpo_options(scenario, catalog, prices)
        self.count = 0
        self.seen: dict[tuple, _Eval] = {}
        self.front: list[tuple[tuple, float]] = []
        self._caps: dict[int, list[list[tuple[float, float]]]] = {}
        self._level_sets: dict[tuple[int, bool], list[tuple[int, ...]]] = {}
        # Worked out once, not per variant: the channel and section changes of each
        # channel count (kept, so the costs below can be keyed by the changes' ids), the
        # cost of each set of changes, the signature of each hardware set.
        self._dynamic: dict[int, tuple[list[Change], list[Deltas]]] = {}
        self._costs: dict[tuple[int, ...], Cost] = {}
        self._signatures: dict[tuple, tuple] = {}
        self._configs: dict[tuple[int, int, int, int], Scenario] = {}
        self._compressions: dict[tuple[int, int], Scenario] = {}
        self._static_costs: dict[tuple, Cost] = {}
        # For `answer`: how each change is made, and the outcome of each set of changes.
        self.parts_by_change: dict[int, tuple] = {}
        self.outcome_of_changes: dict[tuple[int, ...], Outcome | None] = {}

    # ------------------------------------------------------------------ building variants

    def _stages(self, hardware: Sequence[int]) -> dict[int, Stage]:
        out = {}
        for dim, idx in zip(self.hw, hardware, strict=True):
            opt = dim.options[idx]
            if opt.change is not None and opt.stage is not None:
                out[dim.stage_index] = opt.stage  # type: ignore[index]
        return out

    def _config_deltas(self, config: _Config) -> list[Deltas]:
        out = [o.deltas for o in self.free]
        out += [o.deltas for o in config.options]
        return out

    def _channels(self, config: _Config, stages: dict[int, Stage]) -> int:
        """Channels and multisection follow the hardware (one channel per drive)."""
        path = [stages.get(i, s) for i, s in enumerate(self.base.path)]
        return cand.channel_count(self.base, path, config.channels)

    def _configured(self, config: _Config, n: int) -> Scenario:
        """The scenario with the configuration's changes (and the free ones) made, and `n`
        channels: the base of every variant of the configuration with as many channels
        (the hardware on top)."""
        key = (id(config.level1), id(config.compression), id(config.on_disk), n)
        if key not in self._configs:
            deltas = self._config_deltas(config) + self._dynamic_of(n)[1]
            self._configs[key] = variant(self.base, {}, deltas)
        return self._configs[key]

    def _compressed(self, config: _Config, n: int) -> Scenario:
        """The base with only the configuration's compression level and `n` channels:
        what a signature is taken on."""
        key = (id(config.compression), n)
        if key not in self._compressions:
            deltas = [o.deltas for o in (config.compression,) if o is not None]
            self._compressions[key] = variant(self.base, {}, deltas + self._dynamic_of(n)[1])
        return self._compressions[key]

    def _dynamic_of(self, n: int) -> tuple[list[Change], list[Deltas]]:
        """The channel and section changes of `n` channels, and their parsed deltas."""
        if n not in self._dynamic:
            out = (cand.channel_change(self.base, n), cand.section_change(self.base, n))
            changes = [c for c in out if c is not None]
            self._dynamic[n] = (changes, [_parsed(c) for c in changes])
        return self._dynamic[n]

    def _cost(self, changes: Sequence[Change]) -> Cost:
        """`_total` of changes the search holds (options, and `_dynamic_of`'s). Changes
        that cost nothing and add no processors leave a total as it is, so a set costs
        what its other changes cost: keyed by those."""
        dear = tuple(c for c in changes if not _costs_nothing(c))
        key = tuple(map(id, dear))
        if key not in self._costs:
            self._costs[key] = _total(dear)
        return self._costs[key]

    def evaluate(self, config: _Config, hardware: tuple[int, ...]) -> _Eval | None:
        stages = self._stages(hardware)
        n = self._channels(config, stages)
        dynamic = self._dynamic_of(n)[0]
        # Keyed by what is changed, not by how it was chosen ("one channel per drive" and
        # "as is" are one variant when the counts agree).
        key = (id(config.level1), id(config.compression), id(config.on_disk),
               tuple(c.words for c in dynamic), hardware)  # fmt: skip
        if key in self.seen:
            return self.seen[key]
        changes = [
            *(dim.options[i].change for dim, i in zip(self.hw, hardware, strict=True)),
            *(o.change for o in config.options),
            *dynamic,
            *(o.change for o in self.free),
        ]
        real = tuple(c for c in changes if c is not None)
        try:
            result = outcome(variant(self._configured(config, n), stages, []))
        except CoreError:
            self.seen[key] = None  # type: ignore[assignment]
            return None
        self.count += 1
        ev = _Eval(config, hardware, real, self._cost(real), result)
        self.seen[key] = ev
        return ev

    # ------------------------------------------------------------------ levels

    def _capacities(self, config: _Config) -> list[list[tuple[float, float]]]:
        """(restore, backup) capacity of every hardware option under this configuration
        (compression changes what a stage carrying backup bytes delivers)."""
        key = id(config.compression)
        if key not in self._caps:
            if config.compression is None:
                caps = [[(o.restore_Bps, o.backup_Bps) for o in d.options] for d in self.hw]
            else:
                base = variant(self.base, {}, [config.compression.deltas])
                caps = []
                for d in self.hw:
                    i = d.stage_index
                    assert i is not None
                    caps.append([stage_capacity(base, i, o.stage) for o in d.options])
            self._caps[key] = caps
        return self._caps[key]

    def level_sets(self, config: _Config, with_backup: bool) -> list[tuple[int, ...]]:
        """One hardware set per breakpoint: each stage's cheapest option reaching it.

        A breakpoint is a restore rate, a backup rate (when a backup's duration matters)
        and, for stages that bind channels, a unit count: each unit serves one channel,
        and a channel's own ceiling (compression on one core, one drive) makes the number
        of channels that can run count as much as the total. The sets depend on the
        configuration only through the capacities (the compression level): worked out
        once per level.
        """
        key = (id(config.compression), with_backup)
        if key not in self._level_sets:
            self._level_sets[key] = self._level_sets_of(config, with_backup)
        return self._level_sets[key]

    def _level_sets_of(self, config: _Config, with_backup: bool) -> list[tuple[int, ...]]:
        caps = self._capacities(config)
        restore_levels = _levels([c[0] for row in caps for c in row], [r[0][0] for r in caps])
        backup_levels = (
            _levels([c[1] for row in caps for c in row], [r[0][1] for r in caps])
            if with_backup
            else [0.0]
        )
        stages = [_StageChoices(d, row) for d, row in zip(self.hw, caps, strict=True)]
        # Levels that every stage's options reach alike give the same sets: only the
        # first of each (in level order) is worked out.
        backup_masks = list(
            dict.fromkeys(tuple(stage.backup_mask(lb) for stage in stages) for lb in backup_levels)
        )
        all_restore = (tuple(stage.restore_mask(lr) for stage in stages) for lr in restore_levels)
        sets: dict[tuple[int, ...], None] = {}
        seen: set[tuple[int, ...]] = set()
        for restore_masks in dict.fromkeys(all_restore):
            for masks_b in backup_masks:
                reach = tuple(r & b for r, b in zip(restore_masks, masks_b, strict=True))
                if not all(reach):
                    # A stage has nothing that fast, nor at any higher backup level (the
                    # options reaching a higher level are fewer: a subset).
                    break
                if reach in seen:
                    continue  # every stage's options reaching as at an earlier level
                seen.add(reach)
                choices = [stage.choices(m) for stage, m in zip(stages, reach, strict=True)]
                for combo in itertools.product(*choices):
                    sets[combo] = None
        return list(sets)

    # ------------------------------------------------------------------ the search

    def configs(self) -> list[_Config]:
        out = [
            _Config(ch, l1, comp, disk)
            for ch in cand.CHANNEL_CHOICES
            for l1 in self.level1
            for comp in self.compression
            for disk in self.on_disk
        ]
        return sorted(out, key=lambda c: c.cost.key)

    def run(self, progress: Progress | None) -> list[_Eval]:
        keep = tuple(0 for _ in self.hw)
        configs = self.configs()
        best_meets: Cost | None = None
        found: list[_Eval] = []
        for n, config in enumerate(configs):
            if self.should_cancel():
                raise _Cancelled
            if progress:
                progress(n / len(configs), "searching")
            top, bound = self._fastest(config)
            ceiling = self.evaluate(config, top)
            if ceiling is None:
                continue
            # With a true ceiling (the most of everything in one set) nothing in this
            # configuration is faster: a bound for pruning. Without one, no pruning.
            best_time_s = ceiling.outcome.recovery_s if bound else 0.0
            can_meet = _meets_but_rpo(ceiling.outcome) or not bound
            # Backup speed matters whenever a backup's duration enters an outcome: a
            # window, the RPO (the archived-log backup's duration) or the worst-case redo
            # (a failure while the level 0 runs): search backup-rate breakpoints too.
            with_backup = self._backup_matters(config, keep, ceiling, bound)
            signatures = _Signatures(lambda h, config=config: self._signature(config, h))
            for hardware in self.level_sets(config, with_backup):
                cost = self._static_cost(config, hardware)
                if self._dominated(cost, best_time_s) and not (
                    can_meet and (best_meets is None or cost.key < best_meets.key)
                ):
                    signatures.skipped(hardware, cost.key)
                    continue
                if signatures.seen(hardware, cost.key):
                    continue  # a cheaper set moves data exactly as fast
                ev = self.evaluate(config, hardware)
                if ev is None:
                    continue
                found.append(ev)
                self._front_add(ev)
                if bound and ev.outcome.same_as(ceiling.outcome):
                    break  # higher levels cost more and cannot do better
                if _meets_but_rpo(ev.outcome) and (
                    best_meets is None or ev.cost.key < best_meets.key
                ):
                    best_meets = ev.cost
            found.append(ceiling)
            self._front_add(ceiling)
        return found

    def _backup_matters(
        self, config: _Config, keep: tuple[int, ...], ceiling: _Eval, bound: bool
    ) -> bool:
        if not bound or not ceiling.outcome.windows_ok or not self._windows_ok(config, keep):
            return True
        b = self.base.backup
        rpo_uses_backup = b.standby == "none" and self.base.targets.rpo_s is not None
        redo_uses_backup = self.base.database.redo_rate_Bps > 0
        return rpo_uses_backup or redo_uses_backup

    def _signature(self, config: _Config, hardware: tuple[int, ...]) -> tuple:
        """The path's rate with 1…n channels in both directions: what the hardware does to
        every transfer. Two sets with one signature give one outcome. It depends on the
        configuration only through the compression and the channel count: worked out
        once for each of those and each set."""
        stages = self._stages(hardware)
        n = self._channels(config, stages)
        key = (id(config.compression), n, hardware)
        if key not in self._signatures:
            scenario = variant(self._compressed(config, n), stages, [])
            self._signatures[key] = path_signature(scenario)
        return self._signatures[key]

    def _fastest(self, config: _Config) -> tuple[tuple[int, ...], bool]:
        """Each stage's most capable option, and whether that is the most of everything:
        for a stage that binds channels, also the most units (else it is no ceiling)."""
        caps = self._capacities(config)
        top = tuple(
            max(range(len(row)), key=lambda i, row=row: (row[i][0], row[i][1])) for row in caps
        )
        bound = all(
            _units(d.options[i]) >= max(_units(o) for o in d.options)
            for d, i in zip(self.hw, top, strict=True)
            if _binds(d)
        )
        return top, bound

    def _windows_ok(self, config: _Config, hardware: tuple[int, ...]) -> bool:
        ev = self.evaluate(config, hardware)
        return ev is not None and ev.outcome.windows_ok

    def _static_cost(self, config: _Config, hardware: tuple[int, ...]) -> Cost:
        """What a set's purchases and the configuration cost (whatever the channels)."""
        key = (id(config.level1), id(config.compression), id(config.on_disk), hardware)
        if key not in self._static_costs:
            self._static_costs[key] = self._cost(self._static_changes(config, hardware))
        return self._static_costs[key]

    def _static_changes(self, config: _Config, hardware: tuple[int, ...]) -> list[Change]:
        out = [dim.options[i].change for dim, i in zip(self.hw, hardware, strict=True)]
        out += [o.change for o in config.options]
        return [c for c in out if c is not None]

    def _front_add(self, ev: _Eval) -> None:
        key, t = ev.cost.key, ev.outcome.recovery_s
        if any(k <= key and s <= t for k, s in self.front):
            return
        self.front = [(k, s) for k, s in self.front if not (key <= k and t <= s)]
        self.front.append((key, t))

    def _dominated(self, cost: Cost, best_time_s: float) -> bool:
        """Some point found costs no more and is as fast as this configuration can be."""
        key, limit = cost.key, best_time_s + 0.5
        return any(s <= limit and k <= key for k, s in self.front)

    # ------------------------------------------------------------------ RPO completion

    def rpo_cost_known(self, ev: _Eval) -> Cost | None:
        """The point's cost once its RPO is completed when no fix is needed (None: one
        is, and costs)."""
        if ev.outcome.rpo_verdict != "misses" or not self.rpo or not _meets_but_rpo(ev.outcome):
            return ev.cost
        return None

    def complete_rpo(self, ev: _Eval) -> _Eval:
        """The cheapest RPO changes that make this point's RPO meet (none if it does, and
        none when the point misses anyway: they would cost without a faster recovery)."""
        if ev.outcome.rpo_verdict != "misses" or not self.rpo or not _meets_but_rpo(ev.outcome):
            return ev
        stages = self._stages(ev.hardware)
        configured = self._configured(ev.config, self._channels(ev.config, stages))
        for opt in self.rpo:
            try:
                result = outcome(variant(configured, stages, [opt.deltas]))
            except CoreError:
                continue
            self.count += 1
            if result.rpo_verdict != "misses":
                changes = (*ev.changes, *opt.changes)
                return _Eval(ev.config, ev.hardware, changes, _total(changes), result)
        return ev


class _Signatures:
    """The signatures of a configuration's hardware sets so far, in the search's order: a
    set whose signature an earlier set had is skipped (that one moves data exactly as
    fast). A set skipped as dominated still counts, but its signature is worked out only
    when needed: a later set that is not dominated and costs no more would have been
    dominated too (the front only grows, the cheapest meeting cost only falls), so only
    the skipped sets that cost more than it can share its signature."""

    def __init__(self, sign: Callable[[tuple[int, ...]], tuple]) -> None:
        self.sign = sign
        self.known: set[tuple] = set()
        self.pending: list[tuple[tuple, tuple[int, ...]]] = []
        """(cost key, set) of the sets skipped as dominated, not yet signed."""

    def skipped(self, hardware: tuple[int, ...], cost_key: tuple) -> None:
        self.pending.append((cost_key, hardware))

    def seen(self, hardware: tuple[int, ...], cost_key: tuple) -> bool:
        """Whether an earlier set had this set's signature (else it is now known)."""
        if self.pending:
            dearer = [h for k, h in self.pending if k > cost_key]
            if dearer:
                self.known.update(map(self.sign, dearer))
                self.pending = [(k, h) for k, h in self.pending if not k > cost_key]
        signature = self.sign(hardware)
        if signature in self.known:
            return True
        self.known.add(signature)
        return False


class _Cancelled(CoreError):
    """The caller's `should_cancel` said stop."""

    def __init__(self) -> None:
        super().__init__("what it takes: cancelled")


def _parsed(change: Change) -> Deltas:
    """Parsed deltas of the dynamic changes (channels, section size), known fields only."""
    out: dict[str, object] = {}
    for key, value in change.edits.items():
        if key == "backup.channels":
            out["channels"] = value
        elif key == "backup.section_size":
            from ..units import parse_size

            out["section_size_bytes"] = parse_size(value)
    return {"backup": out} if out else {}


def _total(changes: Sequence[Change]) -> Cost:
    """What the changes cost together (licences included: `licences.total_cost`)."""
    return total_cost(list(changes))


def _costs_nothing(change: Change) -> bool:
    """Free, no processors added, no licence that depends on the others (`_total`)."""
    cost = change.cost
    return (cost is FREE or cost == FREE) and not change.processors and change.aco_per_added is None


def _meets_but_rpo(o: Outcome) -> bool:
    return o.recovery_verdict == "meets" and o.windows_ok


class _StageChoices:
    """One stage's options that reach a level pair (lr, lb), cheapest first (at equal
    cost, the most capacity first); for a stage that binds channels, the cheapest for each
    unit count (every count is a level), else simply the cheapest.

    The options reaching a level are a bit mask: those whose restore capacity reaches lr
    (a suffix of the options sorted by it) and whose backup capacity reaches lb. Level
    pairs run to tens of thousands on a stage of 100 tape drives (~100 options) and most
    give a mask seen before, so the choices are worked out once per mask (an estate
    scenario's fix took minutes when they were worked out per pair)."""

    def __init__(self, dim: cand.Dimension, row: list[tuple[float, float]]) -> None:
        self.order = sorted(range(len(row)), key=lambda i: (dim.options[i].cost.key,
                                                            -row[i][0], -row[i][1]))  # fmt: skip
        self.units = [_units(o) for o in dim.options]
        self.binds = _binds(dim)
        # An option reaches a level when its capacity + 1e-6 >= the level.
        self._restore = _Suffixes([r + 1e-6 for r, _ in row])
        self._backup = _Suffixes([b + 1e-6 for _, b in row])
        self._choices: dict[int, list[int]] = {}

    def restore_mask(self, level: float) -> int:
        return self._restore.reaching(level)

    def backup_mask(self, level: float) -> int:
        return self._backup.reaching(level)

    def choices(self, mask: int) -> list[int]:
        if mask not in self._choices:
            reaching = [i for i in self.order if mask >> i & 1]
            self._choices[mask] = (
                _cheapest_per_count(reaching, self.units) if self.binds else reaching[:1]
            )
        return self._choices[mask]


class _Suffixes:
    """The options whose value is at least a level, as a bit mask (bit i: option i)."""

    def __init__(self, values: list[float]) -> None:
        by_value = sorted(range(len(values)), key=values.__getitem__)
        self.values = [values[i] for i in by_value]
        self.masks = [0] * (len(values) + 1)
        for k in range(len(values) - 1, -1, -1):
            self.masks[k] = self.masks[k + 1] | (1 << by_value[k])

    def reaching(self, level: float) -> int:
        return self.masks[bisect.bisect_left(self.values, level)]


def _levels(values: list[float], floors: list[float]) -> list[float]:
    """The distinct capacities from the slowest stage's as it is upwards."""
    floor = min(floors, default=0.0)
    levels = sorted(set(values))
    return levels[bisect.bisect_left(levels, floor) :]


def _cheapest_per_count(reaching: list[int], counts: list[int]) -> list[int]:
    """Of options in cost order, those cheaper than every option with as many units."""
    out, most = [], -1
    for i in reaching:
        if counts[i] > most:
            out.append(i)
            most = counts[i]
    return out


def _binds(dim: cand.Dimension) -> bool:
    stage = dim.options[0].stage
    return stage is not None and stage.binds_channel


def _units(opt: cand.Option) -> int:
    return opt.stage.count if opt.stage is not None else 0


def pareto(points: Sequence[_Eval]) -> list[_Eval]:
    """Cost against recovery time: each point cheaper or faster than every other."""
    ordered = sorted(points, key=lambda e: (e.cost.key, e.outcome.recovery_s, len(e.changes)))
    out: list[_Eval] = []
    best = float("inf")
    for e in ordered:
        if e.outcome.recovery_s < best - 0.5:
            out.append(e)
            best = e.outcome.recovery_s
    return out


def _select(points: list[_Eval], must: _Eval | None, limit: int) -> list[_Eval]:
    """At most `limit` points: the cheapest, the fastest, the recommended, spread between."""
    if len(points) <= limit:
        return points
    keep = {0, len(points) - 1}
    if must is not None and must in points:
        keep.add(points.index(must))
    times = [p.outcome.recovery_s for p in points]
    lo, hi = times[-1], times[0]
    slots = limit - len(keep)
    for k in range(1, slots + 1):
        target = hi - (hi - lo) * k / (slots + 1)
        idx = min(
            (i for i in range(len(points)) if i not in keep),
            key=lambda i: abs(times[i] - target),
            default=None,
        )
        if idx is not None:
            keep.add(idx)
    return [points[i] for i in sorted(keep)]


__all__ = ["pareto"]
