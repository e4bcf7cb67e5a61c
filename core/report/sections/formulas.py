"""Appendix: the formulas of DESIGN §3 in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether

from ..model import Formula, ReportContext, Section, Table

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer

FORMULAS = (
    Formula(
        "Stage capacity",
        "capacity = count × rate × efficiency × (r if the stage carries backup bytes) "
        "× (the drive compression if a tape drive and r = 1) ÷ write_factor",
        "Every capacity is in datafile (data) bytes per second. r is the RMAN compression "
        "ratio (data bytes per backup byte); write_factor (any factor of at least 1: 2 or 3 "
        "under ASM normal or high redundancy, about 4/3 for RAID 5) divides restore writes "
        "only: a backup reads one copy.",
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
        "channel k starts at k × channel_init;  T_fluid is the smallest time with "
        "∫₀ᵀ R(k(t)) dt = V",
        "Short phases never reach the full rate; the effective rate V ÷ T shows it.",
    ),
    Formula(
        "Files assigned to channels up front, and the per-job time",
        "T = job_overhead + max( T_fluid , channel_init + first ÷ c + ⌈first ÷ cartridge⌉ × h ,"
        " m × channel_init + rest ÷ c + ⌈rest ÷ cartridge⌉ × h )",
        "RMAN hands each channel its files up front: the first the largest file, the others "
        "an even share; the last starts last and runs alone (ramp-down). c: one channel alone; "
        "h: a tape's load + locate per cartridge.",
    ),
    Formula(
        "Compression CPU",
        "CPU ceiling = min(channels, cpu_cores) × per-core rate of the level "
        "(compress for backups, decompress for restores)",
        "One RMAN channel compresses on one core. Per-core rates come from the catalog; "
        "when the CPU cores for RMAN are not given, the plan says compression CPU was not "
        "modelled.",
    ),
    Formula(
        "Recovery time",
        "total = detect + tape recall + restore level 0 + restore incrementals + apply "
        "incrementals + restore archived redo + redo apply + open",
        "Phases run in turn, except that applying incrementals overlaps their restore and "
        "archived redo may be restored beside the level 0. Redo apply takes redo volume ÷ "
        "redo_apply_rate. The total is when the last phase ends.",
    ),
    Formula(
        "Verdict",
        "misses if total > RTO;  at risk if RTO − total < risk margin;  else meets",
        "The risk margin defaults to 10 % of the RTO.",
    ),
    Formula(
        "The plan's verdict",
        "at its figures = worst of ( recovery vs RTO, failover vs RTO, site-loss data loss vs "
        "RPO, each backup vs its window );  headline = worse of ( at its figures, misses if "
        "P(every target) < 50 %, at risk if P(every target) < the confidence required )",
        "P(every target) is the share of the trials on the 'How sure' page in which every "
        "target is met at once; the confidence required is the scenario's (90 % unless "
        "stated). The cover names what decides: a check, or the odds; when everything "
        "meets, the tightest check (the highest value ÷ target).",
    ),
    Formula(
        "Incremental and redo volumes",
        "cumulative level 1 after d days = size × (1 − (1 − p)^d);  "
        "redo = redo rate × (size ÷ today's size) × time since the last incremental",
        "p is the daily distinct change; differentials are restored and applied in turn. A "
        "backup is usable only once finished: the worst case is just before the next level 0 "
        "finishes. Given volumes scale with the failure time and the size.",
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
    if r.compact:
        out.append(_compact(r, part))
        out.append(r.para(r.data.units_note, "small"))
        return out
    for f in part.formulas:
        out.append(
            KeepTogether(
                [r.heading(f.title, 1), r.para(f.formula, "formula"), r.para(f.explanation)]
            )
        )
    out.append(r.para(r.data.units_note, "small"))
    return out


SECTION = Section("formulas", "formulas", build, render)


def _compact(r: ReportRenderer, part: FormulasPart) -> Flowable:
    """The formulas as one table, title beside formula and words: about half the height
    of a heading each, for a plan whose last page would otherwise hold a few lines."""
    rows = tuple((f.title, f"{f.formula}\n{f.explanation}") for f in part.formulas)
    table = Table(("Figure", "Formula and what it means"), rows, "ll")
    return r.table(table, [38 * mm, r.width - 38 * mm])
