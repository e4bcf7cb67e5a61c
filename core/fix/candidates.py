"""The changes "What it takes" considers (DESIGN §8), each worded as a DBA would say it.

- **Hardware**, one dimension per path stage: more units of it, or another catalog item
  of the same kind (all its units bought). Units already in the scenario are owned.
- **Configuration that is never worse** (free, applied to every variant and dropped from
  an answer where it does not matter): multisection, archived logs kept on disk, block
  change tracking.
- **Configuration choices** (each may help or hurt): RMAN channels, the level 1 schedule,
  the compression level.
- **RPO**: archived-log backups more often, backups replicated off site, a standby.

Never the workload (`database.*`) nor the redo apply rate: a customer cannot change
them. Keys that the scenario format does not have yet (`backup.compression`,
`backup.block_change_tracking`, `recovery.archivelog_restore`) switch their candidates on
when the field exists.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..catalog import Catalog, CatalogItem
from ..errors import CoreError
from ..scenario import Scenario, Stage, spec_for_key, with_values
from ..units import exact_duration, exact_size, format_size, spaced_percents
from .engine import Deltas, deltas_between, stage_capacity, worst_redo_bytes
from .licences import HOST_KIND, LIST_PRICE_NOTE, Licensing, needs_aco
from .model import FREE, HARDWARE, RPO, Change, Cost
from .prices import (
    ADVANCED_COMPRESSION,
    ARCHIVE_DISK,
    LICENCE_KIND,
    OPTION_KIND,
    REPLICATION,
    STANDBY,
    PriceBook,
)

NO_HARDWARE_KINDS = ("channel", "measured", "object_storage")
"""Stages that are not something to buy: a per-channel ceiling (an RMAN channel's, or
what one channel gets from object storage), a measured whole path."""
MORE_UNITS = 4
"""More units of a stage: up to twice as many, or this many more."""
ARCHIVELOG_STEPS_S = (3600.0, 1800.0, 900.0)
GB = 1e9
TB = 1e12


def _words_duration(seconds: float) -> str:
    """'12 h', '30 min', '1 h 30 min', '14 d' — as a DBA types it, never '900 s' or
    '0.5 h' (issue 23.6)."""
    if seconds % 3600 == 0 and seconds <= 7 * 86400:
        return f"{seconds / 3600:g} h"
    if seconds % 60 == 0 and seconds < 86400:
        hours, minutes = divmod(int(seconds // 60), 60)
        return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
    if seconds % 86400 == 0:
        return f"{seconds / 86400:g} d"
    return exact_duration(seconds)


@dataclass(frozen=True)
class Option:
    """One choice in a dimension: its change (None: keep as is) and how to build it."""

    change: Change | None
    stage: Stage | None = None
    """Hardware: the resolved stage that replaces the scenario's."""
    deltas: Deltas = field(default_factory=dict)
    """Configuration: parsed field changes."""
    restore_Bps: float = 0.0
    backup_Bps: float = 0.0

    @property
    def cost(self) -> Cost:
        return FREE if self.change is None else self.change.cost


@dataclass(frozen=True)
class Dimension:
    name: str
    options: tuple[Option, ...]
    """Option 0 keeps the scenario as it is."""
    stage_index: int | None = None


def has_key(dotted: str) -> bool:
    """Whether the scenario format knows the key (fields of issue 9 switch on with it)."""
    return spec_for_key(dotted) is not None


def _units_cost(prices: PriceBook, kind: str, name: str | None, label: str, n: int) -> Cost:
    price = prices.price(kind, name)
    if price is None:
        return Cost(0.0, ((label, n),))
    return Cost(price * n)


def _weighed(opt: Option, units: int) -> Option:
    """An unpriced purchase weighs what it buys: `units` × one unit's capacity."""
    if opt.change is None or opt.change.cost.priced or opt.stage is None:
        return opt
    unit = max(opt.restore_Bps, opt.backup_Bps) / max(1, opt.stage.count)
    cost = replace(opt.change.cost, bought_Bps=unit * units)
    return replace(opt, change=replace(opt.change, cost=cost))


def _max_count(stage: Stage, at_least: int = 0) -> int:
    """More units: up to twice as many, or four more (or `at_least`, for an estate)."""
    return max(2 * stage.count, stage.count + MORE_UNITS, at_least)


def _max_swap_count(stage: Stage, at_least: int = 0) -> int:
    """Another item: up to twice as many units as today (at least four, or `at_least`)."""
    return max(2 * stage.count, 4, at_least)


# ----------------------------------------------------------------------------- hardware

ItemResolver = Callable[
    [CatalogItem],
    "tuple[Stage, dict[str, Any]] | tuple[Stage, dict[str, Any], tuple[str, ...]] | None",
]
"""A catalog item as one unit of the stage it would replace: the resolved stage and the
edits that make it (without the count), optionally notes on what the swap does to the
scenario (a range dropped), or None when the item cannot replace it."""
Capacity = Callable[[Stage], tuple[float, float]]
"""(restore, backup) data bytes/s a stage lets through with all its units."""


def more_units(st: Stage, prefix: str, prices: PriceBook, at_least: int = 0) -> list[Option]:
    """More units of stage `st` (edits keyed `prefix.count`, e.g. `path[2]`, `shared[0]`);
    the units it has are owned: n more cost n × its price."""
    out = []
    for n in range(st.count + 1, _max_count(st, at_least) + 1):
        extra = n - st.count
        words = f"Add {extra} × {st.label} ({st.count} → {n})"
        change = Change(
            dim=prefix,
            words=words,
            edits={f"{prefix}.count": n},
            cost=_units_cost(prices, st.kind, st.name, st.label, extra),
            category=HARDWARE,
            item=(st.kind, st.name or st.label),
        )
        out.append(Option(change, stage=replace(st, count=n)))
    return out


def other_items(
    st: Stage,
    prefix: str,
    catalog: Catalog,
    prices: PriceBook,
    resolve: ItemResolver,
    at_least: int = 0,
) -> list[Option]:
    """Stage `st` replaced by 1… units of another catalog item of its kind (all bought);
    not an item that is not for sale (a platform's part, discontinued, a test platform)."""
    out: list[Option] = []
    for item in catalog.by_kind(st.kind):
        if item.rate_Bps is None or (st.name and item.name.lower() == st.name.lower()):
            continue
        if not item.for_sale:
            continue
        resolved = resolve(item)
        if resolved is None:
            continue
        unit_stage, item_edits = resolved[0], resolved[1]
        notes = resolved[2] if len(resolved) > 2 else ()  # type: ignore[misc]
        for n in range(1, _max_swap_count(st, at_least) + 1):
            word_old = f"{st.count} × {st.label}" if st.count > 1 else st.label
            change = Change(
                dim=prefix,
                words=f"Replace {word_old} with {n} × {item.name}",
                edits={**item_edits, f"{prefix}.count": n},
                cost=_units_cost(prices, st.kind, item.name, item.name, n),
                category=HARDWARE,
                item=(st.kind, item.name),
                notes=notes,
            )
            out.append(Option(change, stage=replace(unit_stage, count=n)))
    return out


def _swap_edits(base: Scenario, i: int, item_name: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The edits that make stage `i` the catalog item `item_name`, and notes.

    The stage takes the item's figures (rate, efficiency, …) except a tape drive's
    compression: how well the data compresses is the data's, not the drive's (the estate
    keeps it too, DESIGN §12). `[uncertainty]` ranges follow the stage to its new name;
    the range of a figure the swap replaces by the catalog's was about the old figure and
    goes (the catalog's spread applies), with a note.
    """
    st = base.path[i]
    edits: dict[str, Any] = {
        f"path[{i}].name": item_name,
        f"path[{i}].rate": None,
        f"path[{i}].efficiency": None,
        f"path[{i}].backup_rate": None,
        f"path[{i}].max_rate": None,
    }
    if st.kind == "tape_drive":
        edits[f"path[{i}].hw_compression"] = st.hw_compression
    ranges, notes = _ranges_following(base, i, edits)
    return {**edits, **ranges}, notes


def _ranges_following(
    base: Scenario, i: int, edits: dict[str, Any]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """`[uncertainty]` edits (`uncertainty.KEY`) that make the ranges follow stage `i`
    through `edits`, and a note for each range dropped."""
    table = dict(base.raw.get("uncertainty") or {})
    if not table:
        return {}, ()
    from ..scenario.addresses import follow_stage_edits
    from ..scenario.edit import set_dotted

    before = [dict(s) for s in base.raw.get("path") or []]
    after = [dict(s) for s in before]
    holder: dict[str, Any] = {"path": after}
    for key, value in edits.items():
        set_dotted(holder, key, value)
    out: dict[str, Any] = {}
    notes: list[str] = []
    label = base.path[i].label
    for key, text in table.items():
        followed = follow_stage_edits({key: text}, before, after)
        if key not in followed:
            out[f"uncertainty.{key}"] = None
        for new_key, new_text in followed.items():
            if new_key != key:
                out[f"uncertainty.{new_key}"] = new_text
        if not followed:
            figure = key.rpartition(".")[2].replace("_", " ")
            notes.append(
                f"Replacing {label} drops its [uncertainty] range for {figure} "
                f"({spaced_percents(text)}): it "
                f"was about {label}'s own figure; the new item's catalog figure carries the "
                "catalog's spread."
            )
    return out, tuple(notes)


def _scenario_resolver(base: Scenario, i: int, catalog: Catalog) -> ItemResolver:
    """A catalog item in `base.path[i]`: named, its figures from the catalog."""

    def resolve(item: CatalogItem) -> tuple[Stage, dict[str, Any]] | None:
        edits, notes = _swap_edits(base, i, item.name)
        try:
            resolved = with_values(base, {**edits, f"path[{i}].count": 1}, catalog=catalog)
        except CoreError:
            return None
        return resolved.path[i], edits, notes

    return resolve


def _more_units(base: Scenario, i: int, prices: PriceBook) -> list[Option]:
    return more_units(base.path[i], f"path[{i}]", prices)


def _other_items(base: Scenario, i: int, catalog: Catalog, prices: PriceBook) -> list[Option]:
    return other_items(base.path[i], f"path[{i}]", catalog, prices,
                       _scenario_resolver(base, i, catalog))  # fmt: skip


def _with_capacity(capacity: Capacity, opt: Option) -> Option:
    assert opt.stage is not None
    restore, backup = capacity(opt.stage)
    return replace(opt, restore_Bps=restore, backup_Bps=backup)


def _path_capacity(base: Scenario, i: int) -> Capacity:
    def capacity(stage: Stage) -> tuple[float, float]:
        return stage_capacity(base, i, stage)

    return capacity


def _bought_units(current: Stage, opt: Option) -> int:
    assert opt.stage is not None
    same_item = opt.stage.name == current.name and opt.stage.rate_Bps == current.rate_Bps
    return opt.stage.count - current.count if same_item else opt.stage.count


def _undominated(options: list[Option]) -> list[Option]:
    """Drop options that cost at least as much as another and carry no more either way."""
    keep: list[Option] = []
    ordered = sorted(options, key=lambda o: (o.cost.key, -o.restore_Bps, -o.backup_Bps))
    for o in ordered:
        if any(
            k.restore_Bps >= o.restore_Bps
            and k.backup_Bps >= o.backup_Bps
            and k.cost.key <= o.cost.key
            and _unit(k) >= _unit(o)
            and _binding_units(k) >= _binding_units(o)
            for k in keep
        ):
            continue
        keep.append(o)
    return keep


def _binding_units(o: Option) -> int:
    """Units of a stage that binds channels: how many channels can run at once."""
    if o.stage is None or not o.stage.binds_channel:
        return 0
    return o.stage.count


def _unit(o: Option) -> float:
    """Per-unit capacity of a stage that binds channels (what one channel gets)."""
    if o.stage is None or not o.stage.binds_channel:
        return 0.0
    return o.restore_Bps / max(1, o.stage.count)


def stage_dimension(
    name: str,
    st: Stage,
    candidates: list[Option],
    capacity: Capacity,
    stage_index: int | None = None,
) -> Dimension | None:
    """A stage's dimension: keep it, or one of the `candidates` that carries more and is
    not dominated (None when no candidate is useful)."""
    keep = _with_capacity(capacity, Option(None, stage=st))
    others = [_weighed(c := _with_capacity(capacity, o), _bought_units(st, c)) for o in candidates]
    useful = [
        o
        for o in others
        if o.restore_Bps > keep.restore_Bps * 1.000001 or o.backup_Bps > keep.backup_Bps * 1.000001
    ]
    options = [keep, *[o for o in _undominated([keep, *useful]) if o.change is not None]]
    if len(options) < 2:
        return None
    return Dimension(name, tuple(options), stage_index=stage_index)


def _with_licences(opt: Option, st: Stage, lic: Licensing) -> Option:
    """Cores added to the database host carry processor licences (DESIGN §12)."""
    assert opt.change is not None and opt.stage is not None
    added = lic.added_processors(st.count, opt.stage.count)
    if not added:
        return opt
    change = replace(
        opt.change,
        words=f"{opt.change.words}, with {added} more Oracle processor licence"
        f"{'s' if added > 1 else ''}",
        cost=opt.change.cost + lic.added_cores_cost(added),
        processors=added,
        notes=(*opt.change.notes, LIST_PRICE_NOTE),
    )
    return replace(opt, change=change)


def hardware_dimensions(base: Scenario, catalog: Catalog, prices: PriceBook) -> list[Dimension]:
    dims = []
    lic = Licensing.of(base, catalog, prices)
    for i, st in enumerate(base.path):
        if st.kind in NO_HARDWARE_KINDS:
            continue
        candidates = [*_more_units(base, i, prices), *_other_items(base, i, catalog, prices)]
        if st.kind == HOST_KIND:
            candidates = [_with_licences(o, st, lic) for o in candidates]
        dim = stage_dimension(f"path[{i}]", st, candidates, _path_capacity(base, i), i)
        if dim is not None:
            dims.append(dim)
    return dims


# ----------------------------------------------------------------------- configuration


def _config_option(base: Scenario, catalog: Catalog, change: Change) -> Option | None:
    try:
        changed = with_values(base, change.edits, catalog=catalog)
    except CoreError:
        return None
    return Option(change, deltas=deltas_between(base, changed))


def free_changes(base: Scenario, catalog: Catalog) -> list[Option]:
    """Configuration that never makes a plan worse: tried everywhere, kept where it helps."""
    b, rc = base.backup, base.recovery
    out: list[Change] = []
    if (
        has_key("recovery.archivelog_restore")
        and not rc.archivelogs_on_disk
        and getattr(rc, "archivelog_restore", "parallel") != "parallel"
    ):
        out.append(
            Change(
                "recovery.archivelog_restore",
                "Restore archived logs in parallel with the level 0 (they share the path)",
                {"recovery.archivelog_restore": "parallel"},
            )
        )
    tracking = getattr(b, "block_change_tracking", True)
    if has_key("backup.block_change_tracking") and b.level1 != "none" and not tracking:
        out.append(
            Change(
                "backup.block_change_tracking",
                "Enable block change tracking (level 1 backups read only changed blocks)",
                {"backup.block_change_tracking": True},
            )
        )
    return [o for c in out if (o := _config_option(base, catalog, c)) is not None]


def archivelog_disk_options(base: Scenario, catalog: Catalog, prices: PriceBook) -> list[Option]:
    """Archived logs kept on disk instead of restored: not free, the disk must hold them
    (DESIGN §12) — the worst-case redo of the scenario today, priced per TB started."""
    if base.recovery.archivelogs_on_disk:
        return []
    try:
        changed = with_values(base, {"recovery.archivelogs_on_disk": True}, catalog=catalog)
    except CoreError:
        return []
    held = worst_redo_bytes(changed)
    tb = max(1, math.ceil(held / TB - 1e-9)) if held > 0 else 0
    price = prices.price(OPTION_KIND, ARCHIVE_DISK)
    if not tb:
        cost = FREE
    elif price is None:
        cost = Cost(0.0, ((ARCHIVE_DISK, tb),))
    else:
        cost = Cost(price * tb)
    change = Change(
        "recovery.archivelogs_on_disk",
        "Keep archived logs on disk (FRA) instead of restoring them"
        + (f": about {format_size(held, sig=2)} of disk to hold them" if held > 0 else ""),
        {"recovery.archivelogs_on_disk": True},
        cost=cost,
        item=(OPTION_KIND, ARCHIVE_DISK) if tb else None,
    )
    opt = _config_option(base, catalog, change)
    return [] if opt is None else [opt]


@functools.lru_cache(maxsize=256)
def _section_text(section: float) -> str:
    return exact_size(section)


def section_change(base: Scenario, channels: int) -> Change | None:
    """Multisection for the largest file, sized so every channel gets a piece."""
    largest = base.database.largest_file_bytes
    if not largest or base.backup.section_size_bytes or channels < 2:
        return None
    section = max(GB, math.ceil(largest / channels / GB) * GB)
    if section >= largest:
        return None
    return Change(
        "backup.section_size",
        f"Multisection backups: SECTION SIZE {format_size(section, sig=2)}",
        {"backup.section_size": _section_text(section)},
    )


def channel_change(base: Scenario, channels: int) -> Change | None:
    if channels == base.backup.channels:
        return None
    return Change(
        "backup.channels",
        f"Allocate {channels} RMAN channels instead of {base.backup.channels}",
        {"backup.channels": channels},
    )


CHANNEL_CHOICES = ("keep", "match", "double")
"""Channels: as is; one per unit of the stage that binds channels; twice that."""


def channel_count(base: Scenario, stages: list[Stage], choice: str) -> int:
    current = base.backup.channels
    binding = [s.count for s in stages if s.binds_channel]
    matched = max(current, min(binding)) if binding else current
    if choice == "keep":
        return current
    if choice == "match":
        return matched
    return min(255, 2 * matched)


def level1_options(base: Scenario, catalog: Catalog) -> list[Option]:
    b = base.backup
    changes: list[Change] = []
    if b.level1 == "none":
        if base.database.daily_change > 0 or base.recovery.incremental_size_bytes:
            changes.append(
                Change(
                    "backup.level1",
                    "Take a cumulative level 1 backup every day",
                    {"backup.level1": "cumulative", "backup.level1_every": "1d"},
                )
            )
    else:
        if b.level1 == "differential":
            changes.append(
                Change(
                    "backup.level1",
                    f"Take cumulative level 1 backups instead of differential ones (every "
                    f"{_words_duration(b.level1_every_s)})",
                    {"backup.level1": "cumulative"},
                )
            )
        # Halve, and quarter: each level 1 cuts the redo to apply after a failure (and,
        # in model v3, the archived logs each costing their apply and checkpoint).
        for part in (2, 4):
            every = b.level1_every_s / part
            if every < 6 * 3600:
                continue
            changes.append(
                Change(
                    "backup.level1",
                    f"Take cumulative level 1 backups every {_words_duration(every)} instead "
                    f"of every {_words_duration(b.level1_every_s)}",
                    {"backup.level1": "cumulative", "backup.level1_every": exact_duration(every)},
                )
            )
    return [o for c in changes if (o := _config_option(base, catalog, c)) is not None]


def compression_options(base: Scenario, catalog: Catalog, prices: PriceBook) -> list[Option]:
    """RMAN compression levels, when the format has `backup.compression` (issue 9)."""
    if not has_key("backup.compression") or not getattr(base.database, "cpu_cores", None):
        return []  # without the cores RMAN may use, compression CPU is not modelled
    current = str(getattr(base.backup, "compression", "") or "").lower()
    lic = Licensing.of(base, catalog, prices)
    out: list[Option] = []
    for item in catalog.by_kind("rman_compression"):
        level = item.name.lower()
        if level == current:
            continue
        cost = lic.compression(level)
        newly = needs_aco(level) and not lic.aco_owned
        change = Change(
            "backup.compression",
            f"Use RMAN compression {item.name.upper()} instead of "
            f"{current.upper() or 'the ratio given'}",
            {"backup.compression": level, "backup.compression_ratio": None},
            cost=cost,
            item=(LICENCE_KIND, ADVANCED_COMPRESSION) if newly else None,
            aco_per_added=lic if newly else None,
            notes=(LIST_PRICE_NOTE,) if newly else (),
        )
        opt = _config_option(base, catalog, change)
        if opt is not None:
            out.append(opt)
    return out


# ----------------------------------------------------------------------------- RPO


@dataclass(frozen=True)
class RpoOption:
    """One or two RPO changes made together (archived logs more often + replication)."""

    changes: tuple[Change, ...]
    deltas: Deltas
    """The parsed changes of all of them together."""
    parts: tuple[Deltas, ...] = ()
    """The parsed changes of each, in the order of `changes` (one change may be shared
    by several options)."""

    @property
    def cost(self) -> Cost:
        total = FREE
        for c in self.changes:
            total = total + c.cost
        return total


def rpo_options(base: Scenario, catalog: Catalog, prices: PriceBook) -> list[RpoOption]:
    """Changes that shorten the data loss of a site loss, each alone or combined."""
    b = base.backup
    if b.standby == "sync":
        return []
    singles: list[list[Change]] = []
    if b.standby == "none":
        for step in ARCHIVELOG_STEPS_S:
            if step < b.archivelog_every_s:
                singles.append(
                    [
                        Change(
                            "backup.archivelog_every",
                            f"Back up archived logs every {_words_duration(step)} instead "
                            f"of every {_words_duration(b.archivelog_every_s)}",
                            {"backup.archivelog_every": exact_duration(step)},
                            category=RPO,
                        )
                    ]
                )
        if b.offsite_delay_s > 0:
            replication = _option_cost(prices, REPLICATION)
            repl = Change(
                "backup.offsite_delay",
                "Replicate backups off site as they are taken, instead of after "
                f"{_words_duration(b.offsite_delay_s)}",
                {"backup.offsite_delay": "0 s"},
                cost=replication,
                category=RPO,
                item=(OPTION_KIND, REPLICATION),
            )
            singles.append([repl])
            singles += [[*s, repl] for s in singles[:-1]]
    standby_cost = _option_cost(prices, STANDBY) + Licensing.of(base, catalog, prices).standby()
    for mode, words in (
        ("async", "Add an asynchronous Data Guard standby at the second site"),
        ("sync", "Add a synchronous Data Guard standby (no data loss)"),
    ):
        if mode == b.standby:
            continue
        edits: dict[str, Any] = {"backup.standby": mode}
        if mode == "sync":
            edits["backup.transport_lag"] = None
        cost = FREE if b.standby == "async" else standby_cost
        item = None if b.standby == "async" else (OPTION_KIND, STANDBY)
        notes = () if b.standby == "async" else (LIST_PRICE_NOTE,)
        singles.append([Change("backup.standby", words, edits, cost=cost, category=RPO,
                               item=item, notes=notes)])  # fmt: skip
    out: list[RpoOption] = []
    alone: dict[int, Option | None] = {}  # a change shared by several options: parsed once
    for changes in singles:
        edits = {k: v for c in changes for k, v in c.edits.items()}
        opt = _config_option(base, catalog, Change("rpo", "", edits))
        for c in changes:
            if id(c) not in alone:
                alone[id(c)] = _config_option(base, catalog, c)
        parts = [alone[id(c)] for c in changes]
        if opt is not None and all(p is not None for p in parts):
            out.append(RpoOption(tuple(changes), opt.deltas, tuple(p.deltas for p in parts)))  # type: ignore[union-attr]
    return sorted(out, key=lambda o: (o.cost.key, len(o.changes)))


def _option_cost(prices: PriceBook, name: str) -> Cost:
    price = prices.price(OPTION_KIND, name)
    return Cost(price) if price is not None else Cost(0.0, ((name, 1),))
