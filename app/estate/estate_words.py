"""The Estate window's sentences: the headline over the table, the line under the tabs,
the cautions, the Gantt's legend — HTML around `core.estate`'s words."""

from __future__ import annotations

import html

from rtoplanner.core.estate import EstateResult, LeastHardware
from rtoplanner.core.palette import ESTATE_STYLE_LEGEND, STYLE_HEX, STYLE_LEGEND, phases_of
from rtoplanner.core.report.estate import least_sentences
from rtoplanner.core.result import PHASE_TITLES
from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import name_list

from ..theme import VERDICT_COLORS


def phase_legend(held: bool = True) -> str:
    """The Gantt's colours in words (one line of HTML): one colour per kind of work, as
    in the plan's timeline and the PDF; the runbook's wait when any database has one."""
    items = []
    for style, words in ESTATE_STYLE_LEGEND if held else STYLE_LEGEND:
        phases = [
            PHASE_TITLES[p].lower().removeprefix(f"{words.split()[0]} ") for p in phases_of(style)
        ]
        which = f" ({', '.join(phases)})" if len(phases) > 1 else ""
        swatch = f"<span style='color:{STYLE_HEX[style]}'>■</span>"
        items.append(f"{swatch}&nbsp;{_whole(words.capitalize() + which)}")
    tick = VERDICT_COLORS["misses"]
    # A line breaks between two entries, never inside one ("● opens (verdict / colour)").
    return "&nbsp;&nbsp; ".join(
        [
            *items,
            f"<span style='color:{tick}'>┃</span>&nbsp;{_whole('RTO (→: beyond the chart)')}",
            f"●&nbsp;{_whole('opens (verdict colour)')}",
        ]
    )


def _whole(words: str) -> str:
    return words.replace(" ", "&nbsp;")


def headline(result: EstateResult) -> str:
    c = result.counts
    worst = "misses" if c["misses"] else ("at_risk" if c["at_risk"] else "meets")
    colour = VERDICT_COLORS[worst]
    n = len(result.databases)
    deciding = (
        f"deciding shared resource: <b>{html.escape(result.deciding)}</b>"
        if result.deciding else "sharing costs no database any time"
    )  # fmt: skip
    return (
        f"<span style='color:{colour}; font-weight:bold'>{c['meets']} of {n} meet, "
        f"{c['at_risk']} at risk, {c['misses']} miss</span> — the last opens at "
        f"{format_duration(result.last_open_s)}; {deciding}."
    )


def cautions(result: EstateResult) -> str:
    """What the estate computes differently from the databases' own plans, under the
    headline in the at-risk colour."""
    colour = VERDICT_COLORS["at_risk"]
    return "".join(
        f"<br><span style='color:{colour}'><b>Caution:</b> {html.escape(c)}</span>"
        for c in result.estate.cautions
    )


def least_line(least: LeastHardware) -> str:
    """One line under the tabs: the runbook or the purchase (details in the tabs)."""
    head = "<b>Priority 1:</b> "
    if least.misses_alone:
        n = len(least.misses_alone)
        verb = "misses" if n == 1 else "miss"
        return head + html.escape(
            f"{name_list(least.misses_alone)} {verb} even with the shared hardware to "
            f"{'itself' if n == 1 else 'themselves'}: "
            f"{'its own plan' if n == 1 else 'their own plans'} must change (see the tab)."
        )
    if least.policy is not None and least.policy.found:
        return head + html.escape("a runbook order is enough, nothing to buy (see the "
                                  "Runbook order tab).")  # fmt: skip
    if least.already_met or least.answer is None:
        return head + html.escape(least_sentences(least)[0])
    words = "; ".join(c.words for c in least.answer.changes)
    cost = least.answer.cost.text(least.currency)
    return head + html.escape(f"buy {words} — {cost}, with the runbook order (see the tabs)")
