"""Which single change helps most? (DESIGN §1, questions 2 and 8)

Each candidate is one edit a backup architect would actually make — more units of a
stage, a faster catalog item of the same kind, more RMAN channels, multisection, a
faster channel start-up, redo apply at a measured rate, archived logs kept on disk — and
is evaluated with the same engine as the plan. Candidates are ranked by how much they
shorten the worst-case recovery.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog, shipped_catalog
from .errors import CoreError
from .plan import Plan, compute_core
from .result import PHASE_TITLES
from .scenario import Scenario, with_values
from .units import format_duration, format_rate, format_size


@dataclass(frozen=True)
class Advice:
    description: str
    new_total_s: float
    saving_s: float
    new_verdict: str
    changes: Mapping[str, Any] = field(default_factory=dict)
    """Raw scenario edits (dotted keys) that make the change, for `with_values`."""


def _candidates(
    scenario: Scenario, plan: Plan, catalog: Catalog
) -> Iterator[tuple[str, dict[str, Any]]]:
    b = scenario.backup
    for i, st in enumerate(scenario.path):
        raw = scenario.raw["path"][i]
        if st.kind not in ("channel", "measured"):
            n = st.count * 2
            yield f"{n} × {st.label} instead of {st.count}", {f"path[{i}].count": n}
        for item in catalog.by_kind(st.kind):
            if item.rate_Bps is None or (st.name and item.name.lower() == st.name.lower()):
                continue
            changes: dict[str, Any] = {
                f"path[{i}].name": item.name,
                f"path[{i}].rate": None,
                f"path[{i}].efficiency": None,
                f"path[{i}].backup_rate": None,
            }
            if st.kind == "tape_drive":
                changes[f"path[{i}].hw_compression"] = None
            if "count" in raw:
                changes[f"path[{i}].count"] = st.count
            yield f"{item.name} instead of {st.label}", changes
    if b.channels < 255:
        n = min(255, b.channels * 2)
        yield f"{n} RMAN channels instead of {b.channels}", {"backup.channels": n}
    if b.channel_init_s > 0:
        yield (
            f"channel start-up of {format_duration(b.channel_init_s / 2)} instead of "
            f"{format_duration(b.channel_init_s)}",
            {"backup.channel_init": f"{b.channel_init_s / 2} s"},
        )
    if scenario.database.largest_file_bytes and not b.section_size_bytes:
        section = scenario.database.largest_file_bytes / max(1, b.channels)
        yield (
            f"multisection backups (SECTION SIZE {format_size(section)})",
            {"backup.section_size": f"{section} B"},
        )
    if not scenario.recovery.archivelogs_on_disk:
        yield (
            "keep archived logs since the last incremental on disk",
            {"recovery.archivelogs_on_disk": True},
        )
    if b.level1 == "none" and scenario.database.daily_change > 0:
        yield (
            "daily cumulative level 1 backups",
            {
                "backup.level1": "cumulative",
                "backup.level1_every": "1d",
                "recovery.incremental_apply_rate": scenario.raw.get("recovery", {}).get(
                    "incremental_apply_rate", "10 TB/h"
                ),
            },
        )
    elif b.level1 != "none" and b.level1_every_s > 6 * 3600:
        half = b.level1_every_s / 2
        yield (
            f"level 1 backups every {format_duration(half)} instead of "
            f"{format_duration(b.level1_every_s)}",
            {"backup.level1_every": f"{half} s"},
        )
    redo = scenario.recovery.redo_apply_rate_Bps
    if redo and plan.recovery.phase("redo_apply").duration_s > 0:
        yield (
            f"redo apply at {format_rate(redo * 2, per='h')} (e.g. a batch-friendly workload "
            "or parallel media recovery) instead of " + format_rate(redo, per="h"),
            {"recovery.redo_apply_rate": f"{redo * 2} B/s"},
        )


def best_changes(
    scenario: Scenario,
    plan: Plan,
    *,
    catalog: Catalog | None = None,
    limit: int = 5,
    should_cancel: Callable[[], bool] | None = None,
) -> list[Advice]:
    """The single changes that shorten the worst-case recovery most, best first."""
    catalog = shipped_catalog() if catalog is None else catalog
    base = plan.recovery.total_s
    found: dict[str, Advice] = {}
    for description, changes in _candidates(scenario, plan, catalog):
        if should_cancel and should_cancel():
            break
        try:
            changed = with_values(scenario, changes, catalog=catalog)
            _, _, rec, _, _ = compute_core(changed)
        except CoreError:
            continue
        saving = base - rec.total_s
        if saving > 1.0:
            found[description] = Advice(description, rec.total_s, saving, rec.verdict, changes)
    ranked = sorted(found.values(), key=lambda a: (-a.saving_s, a.description))
    return ranked[:limit]


def bottleneck_sentence(plan: Plan) -> str:
    """What holds the recovery back, in one sentence for an executive summary."""
    longest = plan.recovery.longest_phase
    title = PHASE_TITLES[longest.name]
    share = longest.duration_s / plan.recovery.total_s if plan.recovery.total_s else 0
    if longest.name in ("restore_level0", "restore_incremental", "restore_archivelogs"):
        why = plan.restore_path.explain()
    elif longest.name == "redo_apply":
        why = "redo apply runs at " + format_rate(longest.rate_Bps, per="h")
    elif longest.name == "apply_incremental":
        why = "incremental apply runs at " + format_rate(longest.rate_Bps, per="h")
    else:
        why = longest.detail
    return f"{title} takes {share:.0%} of the recovery: {why}."
