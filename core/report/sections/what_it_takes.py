"""What it takes (DESIGN §8), on the executive summary's page: the cheapest set of changes
that makes every target meet, and the frontier of cost against worst-case recovery time.

Left out when the plan already meets every target. The summary's sentence about the
recommended point comes from `recommendation_sentence` here, so both say the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from ...errors import CoreError
from ...fix import FixResult, common_changes, what_it_takes
from ...fix.prices import price_book
from ...units import format_duration
from ...wording import VERDICT_WORDS, for_reader, today_words
from ..model import ReportContext, Section, Table

if TYPE_CHECKING:
    from ..model import Renderer as ReportRenderer


def fix_result(ctx: ReportContext) -> FixResult | None:
    """The answer to print: the one given, none (`advice=()`), else computed when the
    plan does not meet every target."""
    given = ctx.advice
    if isinstance(given, FixResult):
        return given
    if given is not None or ctx.plan.verdict == "meets":
        return None
    cache = ctx.cache
    if "fix" not in cache:
        prices = ctx.prices if ctx.prices is not None else price_book(None, ctx.catalog)
        try:
            cache["fix"] = what_it_takes(ctx.scenario, catalog=ctx.catalog, prices=prices)
        except CoreError:
            cache["fix"] = None
    return cache["fix"]


def recommendation_sentence(ctx: ReportContext) -> str | None:
    """One sentence for the executive summary on what it takes to meet every target."""
    result = fix_result(ctx)
    if result is None or not result.frontier:
        return None
    rec = result.recommended
    if rec is None:
        fastest = min(result.frontier, key=lambda p: p.recovery_s)
        return (
            "No combination of the changes considered makes every target meet; the fastest "
            f"brings the worst case to {format_duration(fastest.recovery_s)} "
            "(see What it takes)."
        )
    changes = "; ".join(c.words[0].lower() + c.words[1:] for c in rec.changes)
    return (
        f"What it takes to meet every target, at the least cost "
        f"({rec.cost.text(result.currency)}): {changes}. The worst case is then "
        f"{format_duration(rec.recovery_s)}."
    )


@dataclass(frozen=True)
class WhatItTakesPart:
    fix_intro: str
    fix_common: tuple[str, ...]
    fix_table: Table
    fix_notes: tuple[str, ...]
    fix_recommended_changes: tuple[str, ...]


def build(ctx: ReportContext) -> WhatItTakesPart | None:
    result = fix_result(ctx)
    if result is None or not result.frontier:
        return None
    common = common_changes(result.frontier)
    rows = []
    for n, p in enumerate(result.frontier, start=1):
        own = [c.words for c in p.changes if c.words not in common]
        changes = "\n".join(own) if own else "only the changes common to every row"
        first, _, rest = changes.partition("\n")
        rows.append(
            (
                f"{n}{' ★' if p.recommended else ''}",
                p.cost.short_text(result.currency),  # the items: in Changes and the note
                format_duration(p.recovery_s),
                VERDICT_WORDS[p.verdict],
                first + ("\n" + "; ".join(rest.split("\n")) if rest else ""),
            )
        )
    bold = tuple(i for i, p in enumerate(result.frontier) if p.recommended)
    table = Table(("#", "Cost", "Worst case", "Verdict", "Changes"), tuple(rows), "lrrll",
                  bold_rows=bold)  # fmt: skip
    intro = (
        f"{_today(ctx, result)} Each row below is a set of changes — hardware "
        "from the catalog, RMAN and backup configuration, RPO measures — evaluated with the "
        "same model as this plan; no cheaper set is faster (★: the cheapest that meets "
        "every target). Prices are the catalog's or yours; what has no price is marked "
        "unpriced, never guessed. The workload itself is never a change."
    )
    rec = result.recommended
    return WhatItTakesPart(
        intro,
        common,
        table,
        tuple(_customer_note(n) for n in result.notes),
        tuple(c.words for c in rec.changes) if rec else (),
    )


def _today(ctx: ReportContext, result: FixResult) -> str:
    """Today's recovery with the recovery's verdict; the plan's, and what decides it,
    when they differ (a recovery that meets is not called MISSES for the RPO's sake)."""
    t, targets = result.today, ctx.s.targets
    return today_words(t.recovery_s, t.recovery_verdict, targets.rto_s, t.verdict,
                       t.decided_by, t.rpo_s, targets.rpo_s)  # fmt: skip


_UNPRICED = "No price for: "


def _customer_note(note: str) -> str:
    """A note of the search in a customer's words: the items without a price, and no
    command to type."""
    if note.startswith(_UNPRICED):
        items = note[len(_UNPRICED) :].split(". ", 1)[0]
        return (
            f"No price was given for: {items}. Their cost is shown as unpriced, never "
            "guessed; a supplier's quote for them completes the comparison."
        )
    return for_reader(note).replace("its [uncertainty] range", "the range the scenario states")


def render(r: ReportRenderer, part: WhatItTakesPart) -> list[Flowable]:
    out: list[Flowable] = [r.heading("What it takes", 1), r.para(part.fix_intro)]
    w = r.width
    if part.fix_common:
        out.append(r.para("Every row includes: " + "; ".join(part.fix_common) + "."))
    # Split at a page foot only with three rows above it: its first row stood alone at
    # the foot of page 2 (issue 23.8); kept whole, it left half a page blank.
    out += [Spacer(1, 1.5 * mm),
            r.table(part.fix_table, [9 * mm, 34 * mm, 20 * mm, 15 * mm, w - 78 * mm],
                    min_rows=3),
            Spacer(1, 1.5 * mm)]  # fmt: skip
    out += [r.para(n, "small") for n in part.fix_notes]
    return out


SECTION = Section("what_it_takes", "what it takes", build, render)
