"""What a Monte Carlo run means, in words a customer reads — shared by the terminal,
the GUI and the PDF so the answer reads the same everywhere."""

from __future__ import annotations

from ..units import format_duration
from .inputs import PROVENANCE_WORDS
from .result import Distribution, InputRow, RiskResult


def percent(p: float) -> str:
    """A probability as a percentage that never rounds a possibility away:
    `100 %` only when every trial, `> 99.9 %` when all but a few."""
    if p >= 1.0:
        return "100 %"
    if p <= 0.0:
        return "0 %"
    if p > 0.999:
        return "> 99.9 %"
    if p < 0.001:
        return "< 0.1 %"
    return f"{100 * p:.1f} %" if p < 0.1 or p > 0.9 else f"{100 * p:.0f} %"


def headline(r: RiskResult) -> str:
    """One sentence: how likely the plan is to hold."""
    w, u = r.worst, r.uniform
    rto = format_duration(r.rto_s)
    if not r.varied:
        return (
            f"No figure has a range, so the answer is the plan's own: the recovery takes "
            f"{format_duration(r.deterministic_s)} against an RTO of {rto}."
        )
    return (
        f"The database is open within the RTO of {rto} in {percent(w.p_meets + w.p_at_risk)} of "
        f"{r.trials:,} trials for a failure at the worst moment of the backup cycle, and in "
        f"{percent(u.p_meets + u.p_at_risk)} for a failure at any moment."
    )


def spread(d: Distribution) -> str:
    return (
        f"half of the trials recover within {format_duration(d.percentile(50))}, nine in "
        f"ten within {format_duration(d.percentile(90))}, 99 in 100 within "
        f"{format_duration(d.percentile(99))}"
    )


def origin_words(row: InputRow) -> str:
    """Where a row's range came from: "from [uncertainty]" or its provenance."""
    if row.origin == "uncertainty":
        return f"[uncertainty]; default {row.default_range} ({row.default_origin})"
    return PROVENANCE_WORDS.get(row.origin, row.origin)


def pinned_note(r: RiskResult) -> str:
    """Says how many figures were held at their value, and how to widen them."""
    pinned = [row for row in r.inputs if row.low == row.high]
    if not pinned:
        return ""
    names = ", ".join(row.label for row in pinned[:4]) + (", …" if len(pinned) > 4 else "")
    estimates = [row for row in pinned if row.kind in ("rate", "duration")]
    example = (estimates or pinned)[0].table_key
    return (
        f"Held at their value (typed, ±0): {names}. If they are estimates, give them a "
        f'range in the [uncertainty] table, e.g. "{example}" = "-20%..+20%".'
    )
