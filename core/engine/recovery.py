"""The recovery timeline (DESIGN §3.4): sequential phases, total, margin and verdict."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import ModelError
from ..result import FailureState, Phase, RecoveryResult
from ..scenario import Scenario
from ..units import DAY, format_duration
from ..wording import plural
from .flow import LARGEST_FILE_LABEL, LIMITER_WORDS, move
from .path import PathModel
from .shapes import (
    Number,
    any_true,
    clip,
    divide,
    either,
    expm1,
    fdivide,
    first,
    floor,
    is_batch,
    log1p,
    maximum,
    minimum,
    nextafter_down,
    no_arrays,
    where,
)


def change_fraction(daily_change: Number, days: Number) -> Number:
    """Share of the database changed in `days` days with daily distinct change `p`:
    1 − (1 − p)^d (blocks changed twice count once). Floats or arrays."""
    frac = -expm1(days * log1p(-minimum(daily_change, 1.0)))
    frac = where(daily_change >= 1, 1.0, frac)
    return where(either(days <= 0, daily_change <= 0), 0.0, frac)


def level1_per_cycle(scenario: Scenario) -> int:
    """Level 1 backups taken between two level 0 backups."""
    b = scenario.backup
    if b.level1 == "none":
        return 0
    return math.ceil(b.level0_every_s / b.level1_every_s - 1e-9) - 1


def level1_count_at(scenario: Scenario, since_level0_s: float, level1_s: float = 0.0) -> int:
    """Level 1 backups *finished* between the level 0 and a failure at `since_level0_s`
    (a backup is usable only when it has finished: level 1 number k, started at
    k × level1_every, counts from k × level1_every + `level1_s`)."""
    b = scenario.backup
    if b.level1 == "none":
        return 0
    done = floor((since_level0_s - level1_s) / b.level1_every_s)
    count = clip(done, 0, level1_per_cycle(scenario))
    return count if is_batch(count) else int(count)


def chain_offset(scenario: Scenario, since_level0_s: float, level0_s: float = 0.0) -> float:
    """Time since the start of the level 0 a failure recovers from.

    A failure while the next level 0 is still running (the first `level0_s` of the
    cycle) recovers from the previous chain: one whole cycle more of it has passed."""
    return where(
        since_level0_s < level0_s, since_level0_s + scenario.backup.level0_every_s, since_level0_s
    )


def _redo_since_worst(scenario: Scenario, level0_s: float, level1_s: float) -> float:
    """Redo that piles up in the worst case: from the last level 1 of the cycle to just
    before the next level 0 finishes (what `recovery.redo_volume` stands for)."""
    t = worst_failure_offset(scenario, level0_s)
    t = chain_offset(scenario, t, level0_s)
    return t - level1_count_at(scenario, t, level1_s) * scenario.backup.level1_every_s


def failure_state(
    scenario: Scenario,
    since_level0_s: float,
    size_bytes: float | None = None,
    *,
    level0_s: float = 0.0,
    level1_s: float = 0.0,
) -> FailureState:
    """What a failure `since_level0_s` after the level 0 started must restore and apply.

    `level0_s` and `level1_s` are the backup jobs' durations: a backup still running
    cannot be used. `size_bytes` is the database size (growth); the incremental volumes
    and, unless `database.redo_growth = "constant"`, the redo grow with it. The
    overrides `recovery.incremental_size` (per backup for a differential, the last
    cumulative one) and `recovery.redo_volume` are the worst case's volumes; at other
    failure times and sizes they are scaled the way the model scales its own."""
    db, b, rc = scenario.database, scenario.backup, scenario.recovery
    size = db.size_bytes if size_bytes is None else size_bytes
    scale = where(db.size_bytes > 0, divide(size, db.size_bytes), 1.0)
    t = chain_offset(scenario, since_level0_s, level0_s)
    j = level1_count_at(scenario, t, level1_s)
    count, inc = _incremental_volume(scenario, j, size, scale)
    largest_piece = None
    if db.largest_file_bytes is not None and (is_batch(count) or count) and first(size) > 0:
        # One backup's share of the largest file (a differential holds one interval's).
        piece = db.largest_file_bytes * divide(divide(inc, count), size)
        largest_piece = where(count > 0, piece, 0.0)
    redo_since = t - j * b.level1_every_s
    redo_scale = scale if db.redo_growth == "with_size" else 1.0
    redo = db.redo_rate_Bps * redo_scale * redo_since
    if rc.redo_volume_bytes is not None:
        worst = _redo_since_worst(scenario, level0_s, level1_s)
        share = where(worst > 0, divide(redo_since, worst), 1.0)
        redo = rc.redo_volume_bytes * redo_scale * share
    return FailureState(
        since_level0_s=since_level0_s,
        incremental_count=count,
        incremental_bytes=inc,
        largest_incremental_piece_bytes=largest_piece,
        redo_since_s=redo_since,
        redo_bytes=redo,
    )


def _incremental_volume(
    scenario: Scenario, j: Number, size: Number, scale: Number
) -> tuple[Number, Number]:
    """(backups to apply, their data bytes) after `j` level 1 backups: the last
    cumulative one, or all `j` differentials. Floats or arrays (j = 0 gives none)."""
    db, b, rc = scenario.database, scenario.backup, scenario.recovery
    interval_days = b.level1_every_s / DAY
    if b.level1 == "cumulative":
        frac = change_fraction(db.daily_change, j * interval_days)
        inc = size * frac
        if rc.incremental_size_bytes is not None:
            n = level1_per_cycle(scenario)
            top = change_fraction(db.daily_change, n * interval_days)
            share = where(top > 0, divide(frac, top), j / max(n, 1))
            inc = rc.incremental_size_bytes * scale * share
        count = where(j > 0, 1, 0)
        return (count if is_batch(count) else int(count)), where(j > 0, inc, 0.0)
    each = size * change_fraction(db.daily_change, interval_days)
    if rc.incremental_size_bytes is not None:
        each = rc.incremental_size_bytes * scale
    return j, where(j > 0, j * each, 0.0)


def worst_failure_offset(scenario: Scenario, level0_s: float = 0.0) -> float:
    """The failure time of the worst case: just before the next level 0 *finishes*
    (the old chain still applies, with the most incrementals and a level 1 interval
    plus the level 0's duration of redo). Offsets are within one cycle, so with a
    level 0 that takes `level0_s` that is `level0_s` into the cycle."""
    period = scenario.backup.level0_every_s
    running = nextafter_down(minimum(level0_s, period))
    return where(level0_s > 0, running, math.nextafter(period, 0.0))


def _largest_piece(scenario: Scenario, largest: float | None) -> float | None:
    section = scenario.backup.section_size_bytes
    if largest is None:
        return None
    return minimum(largest, section) if section else largest


VERDICT_CODES = ("meets", "at_risk", "misses")
"""The verdicts by code (0, 1, 2) of `verdict_code`."""


def verdict_code(total_s: Number, rto_s: float, risk_margin_s: float) -> Any:
    """DESIGN §3.4 as a code per total: 2 (`misses`) past the RTO, 1 (`at_risk`) inside
    it by less than the risk margin, else 0 (`meets`). Floats or arrays."""
    if not is_batch(total_s):
        return 2 if total_s > rto_s else 1 if rto_s - total_s < risk_margin_s else 0
    code = np.where(rto_s - total_s < risk_margin_s, 1, 0)
    return np.where(total_s > rto_s, 2, code).astype(np.int8)


def recovery_verdict(total_s: Number, rto_s: float, risk_margin_s: float) -> Any:
    """`misses` past the RTO, `at_risk` inside it by less than the risk margin, else
    `meets` (an array of verdicts for an array of totals)."""
    code = verdict_code(total_s, rto_s, risk_margin_s)
    return np.array(VERDICT_CODES)[code] if is_batch(code) else VERDICT_CODES[code]


_verdict = recovery_verdict


class _Timeline:
    """Phases laid end to end, except where RMAN overlaps them."""

    def __init__(self, scenario: Scenario, restore: PathModel) -> None:
        self.s = scenario
        self.restore = restore
        self.phases: list[Phase] = []
        self.t = 0.0
        self._explain = ""

    def add(self, name: str, duration: float, volume: float, bottleneck: str,
            detail: str = "", count: int = 0, start: float | None = None) -> Phase:  # fmt: skip
        """Append a phase starting at `start` (default: when the previous one ends); the
        cursor moves to the latest end."""
        t0 = self.t if start is None else start
        if no_arrays(duration, volume, t0, self.t):  # a plan: the same, without the checks
            rate = fdivide(volume, duration) if (duration > 0) & (volume > 0) else 0.0
            end = t0 + duration
            self.t = end if end > self.t else self.t
        else:
            rate = where((duration > 0) & (volume > 0), divide(volume, duration), 0.0)
            self.t = maximum(self.t, t0 + duration)
        phase = Phase(name, t0, duration, volume, rate, bottleneck, detail, count)
        self.phases.append(phase)
        return phase

    def flow(self, volume: float, largest: float | None, what: str) -> tuple[float, str, str]:
        """Duration, bottleneck and detail of moving `volume` through the restore path,
        one RMAN job (`backup.job_overhead`) included."""
        b = self.s.backup
        flow = move(volume, self.restore, b.channel_init_s, _largest_piece(self.s, largest),
                    b.job_overhead_s)  # fmt: skip
        if is_batch(flow.duration_s):
            return flow.duration_s, "", what  # a batch of trials: totals, no labels
        if volume <= 0:
            return 0.0, "—", what
        if flow.bound_by_largest_piece:
            alone = "one channel must move the largest piece alone (use SECTION SIZE)"
            return flow.duration_s, LARGEST_FILE_LABEL, f"{what}; {alone}"
        if flow.limiter:
            return flow.duration_s, flow.limiter, f"{what}; {LIMITER_WORDS[flow.limiter]}"
        if not self._explain:
            self._explain = self.restore.explain()
        return flow.duration_s, self.restore.bottleneck, f"{what}; {self._explain}"


def recovery_timeline(
    scenario: Scenario,
    restore: PathModel,
    state: FailureState,
    size_bytes: float | None = None,
) -> RecoveryResult:
    """The phases for one failure (DESIGN §3.4, §3.7).

    Phases run one after another, except: applying an incremental backup overlaps its
    restore (RMAN applies a backup set while it reads it), and with
    `recovery.archivelog_restore = "parallel"` the archived redo is restored beside the
    level 0, sharing the path."""
    rc, tg = scenario.recovery, scenario.targets
    size = scenario.database.size_bytes if size_bytes is None else size_bytes
    tl = _Timeline(scenario, restore)
    tl.add("detect", rc.detect_s, 0.0, "fixed", "declare the failure, prepare the restore")
    recall = "bring the tapes back on site" if first(rc.tape_recall_s) else "backups on site"
    tl.add("tape_recall", rc.tape_recall_s, 0.0, "fixed", recall)
    _restores(tl, state, size)
    _redo_apply(tl, state)
    tl.add("open", rc.open_s, 0.0, "fixed", "open the database")
    total = tl.t
    risk = tg.risk_margin_abs_s
    return RecoveryResult(
        phases=tuple(tl.phases),
        total_s=total,
        rto_s=tg.rto_s,
        margin_s=tg.rto_s - total,
        verdict=_verdict(total, tg.rto_s, risk),
        risk_margin_s=risk,
        failure=state,
    )


def _restores(tl: _Timeline, state: FailureState, size: float) -> None:
    """Level 0, incrementals and archived redo through the path."""
    rc, largest = tl.s.recovery, tl.s.database.largest_file_bytes
    # No redo moves no bytes: through the path it takes no time, so a batch can take it.
    redo = state.redo_bytes
    from_path = not rc.archivelogs_on_disk and (is_batch(redo) or redo > 0)
    parallel = from_path and rc.archivelog_restore == "parallel"
    start = tl.t
    if parallel:
        # One RMAN job restores the level 0 and the archived redo on the same channels.
        what = "restore the level 0 and, beside it, the archived redo"
        dur, bn, detail = tl.flow(size + state.redo_bytes, largest, what)
    else:
        dur, bn, detail = tl.flow(size, largest, "restore the level 0 backup")
    level0 = tl.add("restore_level0", dur, size, bn, detail)
    _incrementals(tl, state)
    if parallel:
        detail = "restored beside the level 0 (recovery.archivelog_restore = parallel)"
        tl.add("restore_archivelogs", level0.duration_s, state.redo_bytes, level0.bottleneck,
               detail, start=start)  # fmt: skip
    elif from_path:
        what = "restore archived redo since the last incremental"
        dur, bn, detail = tl.flow(state.redo_bytes, None, what)
        tl.add("restore_archivelogs", dur, state.redo_bytes, bn, detail)
    else:
        why = "archived logs are on disk" if rc.archivelogs_on_disk else "no redo to restore"
        tl.add("restore_archivelogs", 0.0, 0.0, "—", why)


INCREMENTAL_APPLY_DEFAULT = "class default: the incremental restore's own rate"
"""The rule that sets `recovery.incremental_apply_rate` when the scenario does not give it:
the apply keeps pace with the restore of the level 1 backups it reads (docs/model.md)."""


def _incrementals(tl: _Timeline, state: FailureState) -> None:
    """Restore the level 1 backups and apply them; the apply overlaps the restore and
    ends when both are done: max(restore, volume ÷ apply rate + overhead × backups)."""
    s, n, volume = tl.s, state.incremental_count, state.incremental_bytes
    batch = is_batch(n, volume)
    if batch:
        what = ""
    else:
        what = (
            plural(n, f"{s.backup.level1} level 1 backup") if n else "no level 1 backup to restore"
        )
    dur, bn, detail = tl.flow(volume, state.largest_incremental_piece_bytes, what)
    restore = tl.add("restore_incremental", dur, volume, bn, detail, n)
    if not any_true(volume > 0):  # no trial has a level 1 to apply (trials of one array too)
        tl.add("apply_incremental", 0.0 * volume, 0.0 * volume, "—", "nothing to apply")
        return
    rate = s.recovery.incremental_apply_rate_Bps
    if rate is None:  # the class default: the apply keeps pace with its own restore
        rate = where(restore.duration_s > 0, divide(volume, restore.duration_s), math.inf)
        factor = s.recovery.incremental_apply_factor
        rate = rate if factor is None else rate * factor
    elif not is_batch(rate) and not rate:
        raise ModelError("recovery.incremental_apply_rate must be above 0 to apply incrementals")
    apply_s = where(volume > 0, divide(volume, rate) + s.recovery.incremental_overhead_s * n, 0.0)
    if batch:
        bn, detail = "", ""
    elif s.recovery.incremental_apply_rate_Bps is None:
        bn = "incremental_apply_rate"
        detail = f"apply {plural(n, 'backup')} as they are restored ({INCREMENTAL_APPLY_DEFAULT})"
    elif apply_s >= restore.duration_s:
        bn, detail = "incremental_apply_rate", f"apply {plural(n, 'backup')} while read"
    else:
        bn, detail = restore.bottleneck, f"apply {plural(n, 'backup')} as fast as restored"
    tl.add("apply_incremental", maximum(apply_s, restore.duration_s), volume,
           bn, detail, n, start=restore.start_s)  # fmt: skip


def _redo_apply(tl: _Timeline, state: FailureState) -> None:
    rc, redo = tl.s.recovery, state.redo_bytes
    if not any_true(redo > 0):
        tl.add("redo_apply", 0.0, 0.0, "—", "no redo to apply")
        return
    rate = rc.redo_apply_rate_Bps
    if rate is None or (not is_batch(rate) and not rate):
        raise ModelError(
            "recovery.redo_apply_rate is needed (or a catalog workload class) to apply redo"
        )
    stream, logs_s = redo_apply_s(tl.s, redo)
    duration = where(redo > 0, stream + logs_s, 0.0)
    if is_batch(redo, duration):  # a batch of trials: durations only, the labels are the plan's
        tl.add("redo_apply", duration, redo, "", "")
        return
    since = format_duration(first(state.redo_since_s))  # "26 h 08 min", as everywhere
    what = (f"apply the redo of {since}, scaled from recovery.redo_volume"
            if rc.redo_volume_bytes is not None else f"apply {since} of redo")  # fmt: skip
    if logs_s > 0:
        what += f" in {redo / archived_log_size(tl.s):,.0f} archived logs"
    tl.add("redo_apply", duration, redo, REDO_LOG_COST_LABEL if logs_s > stream
           else "redo_apply_rate", what)  # fmt: skip


REDO_LOG_COST_LABEL = "redo_log_cost"
"""Bottleneck of a redo apply whose per-log cost outweighs the streaming of its redo."""

DEFAULT_LOG_SWITCH_S = 15 * 60.0
"""Log switch interval assumed when `backup.log_switch` is not given, to size an archived
log from the redo rate: Oracle's guidance for online redo logs, "a range of 10 to 15
minutes or longer for log switching is preferable under a normal OLTP load" (Oracle MAA
Data Guard best practices, 'Configure and Sizing Online Redo Logs Appropriately', copy at
database-box.blogspot.com, 4 July 2026): a site that sizes its logs as Oracle advises
writes one log per 15 minutes at its redo rate (the long end: the fewest logs)."""


def archived_log_size(scenario: Scenario) -> Number | None:
    """Bytes in one archived log: `database.log_size`; else the redo of one log switch
    interval (`backup.log_switch`, else 15 min) at `database.redo_rate` (floats or
    arrays: a drawn redo rate). None without either: no fixed size is evidence — on the
    fidelity corpus a 128 MB default (Amazon RDS for Oracle's) put two Data Guard cases
    at +650 % and +1,340 % — so the per-log cost is then not counted, and the notes say so."""
    db = scenario.database
    if db.log_size_bytes is not None:
        return db.log_size_bytes
    if any_true(db.redo_rate_Bps > 0):
        switch = scenario.backup.log_switch_s or DEFAULT_LOG_SWITCH_S
        return db.redo_rate_Bps * switch
    return None


def redo_apply_s(scenario: Scenario, redo: Number) -> tuple[Number, Number]:
    """Model v3 (DESIGN §10): (redo ÷ apply rate, logs × per-log cost) for `redo` bytes,
    logs = redo ÷ archived log size. Floats or arrays."""
    rc = scenario.recovery
    stream = divide(redo, rc.redo_apply_rate_Bps)
    size, cost = archived_log_size(scenario), rc.redo_log_cost_s
    if size is None or cost is None:
        return stream, 0.0 * stream
    return stream, where(size > 0, divide(redo, size), 0.0) * cost


def recovery_total_s(
    scenario: Scenario,
    restore: PathModel,
    since_level0_s: float,
    size_bytes: float | None = None,
    *,
    level0_s: float = 0.0,
    level1_s: float = 0.0,
) -> float:
    """Total recovery time for a failure at `since_level0_s` (used by cycle and growth)."""
    state = failure_state(scenario, since_level0_s, size_bytes, level0_s=level0_s,
                          level1_s=level1_s)  # fmt: skip
    return recovery_timeline(scenario, restore, state, size_bytes).total_s
