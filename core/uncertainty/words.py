"""What a Monte Carlo run means, in words a customer reads — shared by the terminal,
the GUI and the PDF so the answer reads the same everywhere."""

from __future__ import annotations

from ..units import format_duration, format_percent
from .inputs import PROVENANCE_WORDS
from .result import Distribution, InputRow, RiskResult


def percent(p: float) -> str:
    """A probability as a percentage that never rounds a possibility away:
    `100 %` only when every trial, `> 99.9 %` when all but a few."""
    if p >= 1.0:
        return format_percent(1.0)
    if p <= 0.0:
        return format_percent(0.0)
    if p > 0.999:
        return "> " + format_percent(0.999)
    if p < 0.001:
        return "< " + format_percent(0.001)
    return format_percent(round(p, 3 if p < 0.1 or p > 0.9 else 2))  # 93.1 %, 93 %, 51 %


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


CHECK_HEADER = ("Target", "Planned", "P50", "P90", "Limit", "Met in")
"""The columns of `check_rows`: what the whole-plan table prints everywhere."""


def check_title(name: str, title: str) -> str:
    """'Recovery within the RTO', 'RPO (site-loss data loss)', 'Level 0 backup window'."""
    if name in ("recovery", "failover"):
        return f"{title} within the RTO"
    if name == "rpo":
        return "Data loss within the RPO"
    return f"{title} within its window"


def check_rows(r: RiskResult) -> list[tuple[str, ...]]:
    """One row per target of the plan (as `CHECK_HEADER`), then every target at once."""
    rows = [
        (check_title(c.name, c.title), format_duration(c.planned_s),
         format_duration(c.percentile(50)), format_duration(c.percentile(90)),
         format_duration(c.target_s), percent(c.p_met))
        for c in r.checks
    ]  # fmt: skip
    rows.append(("Every target at once", "", "", "", "", percent(r.p_meets_all)))
    return rows


def whole_plan_sentence(r: RiskResult, confidence: float) -> str:
    """'Every target is met at once in 61 % of the trials (failure at the worst
    moment); 90 % is required.' — with the target least likely to be met."""
    text = (
        f"Every target of the plan is met at once in {percent(r.p_meets_all)} of the trials "
        f"(a failure at the worst moment); {percent(confidence)} is required."
    )
    weak = [c for c in r.checks if c.p_met < 1.0]
    if weak:
        c = min(weak, key=lambda c: c.p_met)
        title = check_title(c.name, c.title)
        title = title if title[:3].isupper() else title[0].lower() + title[1:]
        text += f" Least sure: {title} ({percent(c.p_met)})."
    return text


def histogram_tails(d: Distribution, trials: int, short: bool = False) -> tuple[str, str]:
    """What the histogram leaves out at its two ends, in words for each end ('' when
    nothing): '← 12 trials (< 0.1 %) below 1 h 05 min', '4,112 trials (4.1 %) beyond
    3 d 11 h →'; `short` for a narrow plot: '4.1 % beyond / 3 d 11 h →' on two lines.
    The GUI and the PDF print these beside the bars they cut."""
    trials = max(trials, 1)
    ends = (
        (d.hist_below, "← ", "below", format_duration(d.hist_edges_s[0]), ""),
        (d.hist_beyond, "", "beyond", format_duration(d.hist_edges_s[-1]), " →"),
    )
    words = []
    for n, before, where, edge, after in ends:
        if not n:
            words.append("")
        elif short:
            words.append(f"{before}{percent(n / trials)} {where}\n{edge}{after}")
        else:
            many = "trial" if n == 1 else "trials"
            words.append(f"{before}{n:,} {many} ({percent(n / trials)}) {where} {edge}{after}")
    return words[0], words[1]


def spread(d: Distribution) -> str:
    return (
        f"half of the trials recover within {format_duration(d.percentile(50))}, nine in "
        f"ten within {format_duration(d.percentile(90))}, 99 in 100 within "
        f"{format_duration(d.percentile(99))}"
    )


def origin_words(row: InputRow) -> str:
    """Where a row's spread came from: "[uncertainty]" or its provenance, with how much
    evidence stands behind a prior."""
    if row.origin == "uncertainty":
        words = PROVENANCE_WORDS[row.default_origin]
        return f"[uncertainty]; default {row.default_range} ({words})"
    words = PROVENANCE_WORDS.get(row.origin, row.origin)
    if row.distribution == "lognormal":
        return f"{words}: prior from {row.evidence}"
    return words + (" (stated)" if row.stated else "")


def pinned_note(r: RiskResult) -> str:
    """Says how many figures were held at their value, and how to widen them."""
    pinned = [row for row in r.inputs if row.low == row.high]
    exact = [row for row in pinned if row.default_origin == "exact" and row.origin != "uncertainty"]
    if not exact:
        return ""
    names = ", ".join(row.label for row in exact[:4]) + (", …" if len(exact) > 4 else "")
    return (
        f"Held at their value (marked exact in [provenance]): {names}. If one is not known "
        f'exactly, mark it "measured: …" or "estimate", or give it a range in [uncertainty].'
    )
