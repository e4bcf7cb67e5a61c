"""The recovery timeline (DESIGN §3.4): sequential phases, total, margin and verdict."""

from __future__ import annotations

import math

from ..errors import ModelError
from ..result import FailureState, Phase, RecoveryResult
from ..scenario import Scenario
from ..units import DAY
from ..wording import plural
from .flow import LARGEST_FILE_LABEL, move
from .path import PathModel


def change_fraction(daily_change: float, days: float) -> float:
    """Share of the database changed in `days` days with daily distinct change `p`:
    1 − (1 − p)^d (blocks changed twice count once)."""
    if days <= 0 or daily_change <= 0:
        return 0.0
    if daily_change >= 1:
        return 1.0
    return -math.expm1(days * math.log1p(-daily_change))


def level1_count_at(scenario: Scenario, since_level0_s: float) -> int:
    """Level 1 backups taken between the level 0 and a failure at `since_level0_s`."""
    b = scenario.backup
    if b.level1 == "none":
        return 0
    per_cycle = math.ceil(b.level0_every_s / b.level1_every_s - 1e-9) - 1
    return max(0, min(int(since_level0_s // b.level1_every_s), per_cycle))


def failure_state(
    scenario: Scenario, since_level0_s: float, size_bytes: float | None = None
) -> FailureState:
    """What a failure `since_level0_s` after the last level 0 must restore and apply."""
    db, b, rc = scenario.database, scenario.backup, scenario.recovery
    size = db.size_bytes if size_bytes is None else size_bytes
    j = level1_count_at(scenario, since_level0_s)
    interval_days = b.level1_every_s / DAY
    largest_piece = None
    if j == 0:
        count, inc = 0, 0.0
    elif b.level1 == "cumulative":
        frac = change_fraction(db.daily_change, j * interval_days)
        count, inc = 1, size * frac
        if db.largest_file_bytes:
            largest_piece = db.largest_file_bytes * frac
    else:
        frac = change_fraction(db.daily_change, interval_days)
        count, inc = j, j * size * frac
        if db.largest_file_bytes:
            largest_piece = db.largest_file_bytes * frac
    if rc.incremental_size_bytes is not None and count:
        inc = rc.incremental_size_bytes
    redo_since = since_level0_s - j * b.level1_every_s
    redo = db.redo_rate_Bps * redo_since
    if rc.redo_volume_bytes is not None:
        redo = rc.redo_volume_bytes
    return FailureState(
        since_level0_s=since_level0_s,
        incremental_count=count,
        incremental_bytes=inc,
        largest_incremental_piece_bytes=largest_piece,
        redo_since_s=redo_since,
        redo_bytes=redo,
    )


def worst_failure_offset(scenario: Scenario) -> float:
    """The failure time of the worst case: just before the next level 0, when the
    incrementals are largest and a full level 1 interval of redo has piled up."""
    return math.nextafter(scenario.backup.level0_every_s, 0.0)


def _largest_piece(scenario: Scenario, largest: float | None) -> float | None:
    section = scenario.backup.section_size_bytes
    if largest is None:
        return None
    return min(largest, section) if section else largest


def recovery_timeline(
    scenario: Scenario,
    restore: PathModel,
    state: FailureState,
    size_bytes: float | None = None,
) -> RecoveryResult:
    """The phases for one failure, laid end to end."""
    db, b, rc, tg = scenario.database, scenario.backup, scenario.recovery, scenario.targets
    size = db.size_bytes if size_bytes is None else size_bytes
    init = b.channel_init_s
    phases: list[Phase] = []
    t = 0.0

    def add(name: str, duration: float, volume: float, bottleneck: str, detail: str = "",
            count: int = 0) -> None:  # fmt: skip
        nonlocal t
        rate = volume / duration if duration > 0 and volume > 0 else 0.0
        phases.append(Phase(name, t, duration, volume, rate, bottleneck, detail, count))
        t += duration

    add("detect", rc.detect_s, 0.0, "fixed", "declare the failure, prepare the restore")
    add(
        "tape_recall",
        rc.tape_recall_s,
        0.0,
        "fixed",
        "bring the tapes back on site" if rc.tape_recall_s else "backups on site",
    )

    def through_path(name: str, volume: float, largest: float | None, what: str,
                     count: int = 0) -> None:  # fmt: skip
        flow = move(volume, restore, init, _largest_piece(scenario, largest))
        if flow.bound_by_largest_piece:
            bn = LARGEST_FILE_LABEL
            detail = f"{what}; one channel must move the largest piece alone (use SECTION SIZE)"
        else:
            bn = restore.bottleneck if volume > 0 else "—"
            detail = f"{what}; {restore.explain()}" if volume > 0 else what
        add(name, flow.duration_s, volume, bn, detail, count)

    through_path("restore_level0", size, db.largest_file_bytes, "restore the level 0 backup")
    through_path(
        "restore_incremental",
        state.incremental_bytes,
        state.largest_incremental_piece_bytes,
        plural(state.incremental_count, f"{b.level1} level 1 backup")
        if state.incremental_count
        else "no level 1 backup to restore",
        state.incremental_count,
    )
    if state.incremental_bytes > 0:
        apply_rate = rc.incremental_apply_rate_Bps
        if not apply_rate:
            raise ModelError("recovery.incremental_apply_rate is needed to apply incrementals")
        dur = state.incremental_bytes / apply_rate + rc.incremental_overhead_s * (
            state.incremental_count
        )
        add(
            "apply_incremental",
            dur,
            state.incremental_bytes,
            "incremental_apply_rate",
            f"apply {plural(state.incremental_count, 'backup')}",
            state.incremental_count,
        )
    else:
        add("apply_incremental", 0.0, 0.0, "—", "nothing to apply")
    if rc.archivelogs_on_disk or state.redo_bytes <= 0:
        add(
            "restore_archivelogs",
            0.0,
            0.0,
            "—",
            "archived logs are on disk" if rc.archivelogs_on_disk else "no redo to restore",
        )
    else:
        through_path(
            "restore_archivelogs",
            state.redo_bytes,
            None,
            "restore archived redo since the last incremental",
        )
    if state.redo_bytes > 0:
        apply = rc.redo_apply_rate_Bps
        if not apply:
            raise ModelError(
                "recovery.redo_apply_rate is needed (or a catalog workload class) to apply redo"
            )
        add(
            "redo_apply",
            state.redo_bytes / apply,
            state.redo_bytes,
            "redo_apply_rate",
            f"apply {state.redo_since_s / 3600:.1f} h of redo",
        )
    else:
        add("redo_apply", 0.0, 0.0, "—", "no redo to apply")
    add("open", rc.open_s, 0.0, "fixed", "open the database")

    total = t
    margin = tg.rto_s - total
    risk = tg.risk_margin_abs_s
    verdict = recovery_verdict(total, tg.rto_s, risk)
    return RecoveryResult(
        phases=tuple(phases),
        total_s=total,
        rto_s=tg.rto_s,
        margin_s=margin,
        verdict=verdict,
        risk_margin_s=risk,
        failure=state,
    )


def recovery_verdict(total_s: float, rto_s: float, risk_margin_s: float) -> str:
    """DESIGN §3.4: `misses` past the RTO, `at_risk` inside it by less than the risk
    margin, else `meets`."""
    if total_s > rto_s:
        return "misses"
    if rto_s - total_s < risk_margin_s:
        return "at_risk"
    return "meets"


def recovery_total_s(
    scenario: Scenario, restore: PathModel, since_level0_s: float, size_bytes: float | None = None
) -> float:
    """Total recovery time for a failure at `since_level0_s` (used by cycle and growth)."""
    state = failure_state(scenario, since_level0_s, size_bytes)
    return recovery_timeline(scenario, restore, state, size_bytes).total_s
