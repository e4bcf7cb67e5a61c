"""Assumptions that decide the plan (DESIGN §3.7).

A figure the user did not give — a catalog workload class, a catalog datasheet rate, a
catalog derate, a catalog compression ratio — that sets more than 10 % of the recovery
time is named on the plan's first page, with its source and how to measure the real
figure. The share is the share of the worst-case recovery spent in the phases that
figure limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine.recovery import redo_apply_s
from .plan import Plan
from .units import format_duration, format_percent, format_rate

DECISIVE_SHARE = 0.10
"""A default that sets more than this share of the recovery time is named."""

MEASURE_REDO = (
    "measure it: V$RECOVERY_PROGRESS 'Average Apply Rate' on a standby or during a timed "
    "test recovery, then set recovery.redo_apply_rate"
)
MEASURE_LOG_COST = (
    "measure it: V$RECOVERY_PROGRESS 'Apply Time per Log' + 'Checkpoint Time per Log' "
    "less the log's own redo at the 'Active Apply Rate', then set recovery.redo_log_cost"
)
MEASURE_STAGE = (
    "measure it: time a test restore (V$RMAN_BACKUP_JOB_DETAILS, V$BACKUP_ASYNC_IO) and "
    "set the stage's rate, or add a 'measured' stage"
)
MEASURE_CPU = (
    "measure it: time a compressed backup and restore of one datafile on one channel "
    "and set the stage rates, or give backup.compression_ratio from V$RMAN_BACKUP_JOB_DETAILS"
)
_RESTORE_PHASES = ("restore_level0", "restore_incremental", "restore_archivelogs")


@dataclass(frozen=True)
class Assumption:
    """One default or catalog figure and how much of the recovery it sets."""

    key: str
    """The scenario key to set to replace it (`recovery.redo_apply_rate`, `path[2].rate`)."""
    title: str
    value: str
    source: str
    share: float
    """Share of the worst-case recovery time spent in the phases it limits (0–1)."""
    how_to_measure: str

    def sentence(self) -> str:
        return (
            f"{self.title} {self.value} sets {format_percent(self.share, 0)} of the recovery time "
            f"and is not a measurement ({self.source}). To replace it, {self.how_to_measure}."
        )


def _share(plan: Plan, names: tuple[str, ...], bottleneck: str | None = None) -> float:
    rec = plan.recovery
    if rec.total_s <= 0:
        return 0.0
    t = sum(
        p.duration_s
        for p in rec.phases
        if p.name in names and (bottleneck is None or p.bottleneck == bottleneck)
    )
    return t / rec.total_s


def _redo_assumptions(plan: Plan) -> list[Assumption]:
    """The catalog's redo apply rate and per-log cost (model v3), each with the share of
    the recovery its part of the redo apply phase takes."""
    rc, total = plan.scenario.recovery, plan.recovery.total_s
    phase = next((p for p in plan.recovery.phases if p.name == "redo_apply"), None)
    if total <= 0 or phase is None or phase.duration_s <= 0:
        return []
    stream, logs = redo_apply_s(plan.scenario, phase.data_bytes)
    out = []
    if rc.redo_apply_source != "scenario" and rc.redo_apply_rate_Bps:
        out.append(Assumption(
            "recovery.redo_apply_rate", "Redo apply rate",
            format_rate(rc.redo_apply_rate_Bps),  # as the ledger and its source: MB/s
            rc.redo_apply_source.replace("catalog: ", "catalog default: "),
            stream / total, MEASURE_REDO))  # fmt: skip
    if rc.redo_log_cost_source != "scenario" and logs > 0:
        out.append(Assumption(
            "recovery.redo_log_cost", "Apply cost per archived log",
            format_duration(rc.redo_log_cost_s or 0.0),
            rc.redo_log_cost_source.replace("catalog: ", "catalog default: "),
            logs / total, MEASURE_LOG_COST))  # fmt: skip
    return out


def all_assumptions(plan: Plan) -> list[Assumption]:
    """Every default or catalog figure that limits a recovery phase, largest share first."""
    s = plan.scenario
    out: list[Assumption] = []
    out += _redo_assumptions(plan)
    for i, st in enumerate(s.path):
        model_st = plan.restore_path.stages[i]
        if st.source != "scenario":
            share = _share(plan, _RESTORE_PHASES, model_st.label)
            out.append(
                Assumption(
                    f"path[{i}].rate",
                    f"{st.label} rate",
                    format_rate(model_st.unit_Bps),
                    st.source.replace("catalog: ", "catalog datasheet figure: "),
                    share,
                    MEASURE_STAGE,
                )
            )
    for model_st in plan.restore_path.stages[len(s.path) :]:
        # The compression CPU stage: per-core rates from the catalog.
        share = _share(plan, _RESTORE_PHASES, model_st.label)
        out.append(
            Assumption(
                "backup.compression",
                f"{model_st.label} per core",
                format_rate(model_st.unit_Bps),
                model_st.source.replace("catalog: ", "catalog figure: "),
                share,
                MEASURE_CPU,
            )
        )
    out.sort(key=lambda a: -a.share)
    return out


def decisive_assumptions(plan: Plan, threshold: float = DECISIVE_SHARE) -> list[Assumption]:
    """The defaults that set more than `threshold` of the recovery time."""
    return [a for a in all_assumptions(plan) if a.share > threshold]


def banner_tooltip(plan: Plan) -> str:
    """Plain text for the verdict's tooltip: every check, then the decisive defaults."""
    lines = [f"{c.sentence()}: {c.verdict.replace('_', ' ')}" for c in plan.checks]
    for route in plan.routes[1:]:
        lines.append(f"{route.title}: {route.verdict.replace('_', ' ')}")
    found = decisive_assumptions(plan)
    if found:
        lines += ["", "Assumptions that decide the recovery time:"]
        lines += [f"• {a.sentence()}" for a in found]
    if plan.notes:
        lines += ["", "Notes:"] + [f"• {n}" for n in plan.notes]
    return "\n".join(lines)
