"""Appendix: the formulas of DESIGN §3 in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.platypus import Flowable, KeepTogether

from ..model import Formula, ReportContext, Section

if TYPE_CHECKING:
    from ..pdf import ReportRenderer

FORMULAS = (
    Formula(
        "Stage capacity",
        "capacity = count × rate × efficiency × (r if the stage carries backup bytes) "
        "× (hw_compression if a tape drive and r = 1) ÷ write_factor",
        "Every capacity is in datafile (data) bytes per second. r is the RMAN compression "
        "ratio (data bytes per backup byte); write_factor is 2 or 3 under ASM normal or high "
        "redundancy.",
    ),
    Formula(
        "Path rate and bottleneck",
        "R(k) = min( C_shared , min(k, N_bind) × c_channel )",
        "C_shared is the smallest capacity of the stages all channels share, c_channel the "
        "smallest per-channel ceiling and N_bind the unit count of the channel-binding stage "
        "(a tape drive serves one channel at a time). The bottleneck is the stage that sets "
        "R(n) for the n channels allocated.",
    ),
    Formula(
        "Serial channel start-up",
        "channel k starts at k × channel_init;  T is the smallest time with "
        "∫₀ᵀ R(k(t)) dt = V;  T ≥ channel_init + largest piece ÷ R(1)",
        "Short phases never reach the full rate; the effective rate V ÷ T shows it. Without "
        "multisection one channel must move the largest file alone.",
    ),
    Formula(
        "Recovery time",
        "total = detect + tape recall + restore level 0 + restore incrementals + apply "
        "incrementals + restore archived redo + redo apply + open",
        "Phases run one after another. Applying incrementals takes volume ÷ "
        "incremental_apply_rate + incremental_overhead per backup; redo apply takes redo "
        "volume ÷ redo_apply_rate.",
    ),
    Formula(
        "Verdict",
        "misses if total > RTO;  at risk if RTO − total < risk margin;  else meets",
        "The risk margin defaults to 10 % of the RTO.",
    ),
    Formula(
        "Incremental and redo volumes",
        "cumulative level 1 after d days = size × (1 − (1 − p)^d);  "
        "redo = redo rate × time since the last incremental",
        "p is the daily distinct change. A differential holds one interval's change and all "
        "differentials since the level 0 are restored and applied in turn.",
    ),
    Formula(
        "Effective backup rate",
        "effective rate = database size ÷ backup time (level 0 and level 1)",
        "As vendors quote it, channel start-up included; archived logs: volume ÷ time.",
    ),
    Formula(
        "Data loss (RPO)",
        "site loss = archived-log backup interval + its duration + log switch interval "
        "+ off-site delay",
        "A media failure with the online redo intact loses nothing; a Data Guard standby "
        "replaces the sum by its transport lag (0 when synchronous).",
    ),
    Formula(
        "Growth",
        "size(t) = size × (1 + g)^t  (or size + g × t for a linear rate)",
        "The break date is the first day on which the worst-case recovery misses the RTO or "
        "a level 0 or level 1 backup overruns its window.",
    ),
)


@dataclass(frozen=True)
class FormulasPart:
    formulas: tuple[Formula, ...]


def build(ctx: ReportContext) -> FormulasPart:
    return FormulasPart(FORMULAS)


def render(r: ReportRenderer, part: FormulasPart) -> list[Flowable]:
    out = r.section("Appendix: how the figures are computed")
    for f in part.formulas:
        out.append(
            KeepTogether(
                [r.heading(f.title, 1), r.para(f.formula, "formula"), r.para(f.explanation)]
            )
        )
    out.append(r.para(r.data.units_note, "small"))
    return out


SECTION = Section("formulas", "formulas", build, render)
