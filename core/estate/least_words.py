"""The least-hardware answer in words and table rows: one wording for the CLI, the PDF
and the Estate window."""

from __future__ import annotations

from ..units import format_duration
from ..wording import name_list
from .least import AloneFix, EstatePoint, LeastHardware
from .model import Estate
from .policy_words import runbook


def margin_text(margin_s: float) -> str:
    """`4 min` / `-18 min`: the worst priority-1 margin."""
    return ("-" if margin_s < 0 else "") + format_duration(abs(margin_s))


def _unpriced(least: LeastHardware) -> list[tuple[str, str]]:
    """(what, kind) of each purchase of the answer that nobody priced."""
    if least.answer is None:
        return []
    changes = least.answer.changes
    return [(c.item[1], c.item[0]) for c in changes if not c.cost.priced and c.item is not None]


def least_summary(least: LeastHardware) -> tuple[str, ...]:
    """Sentences: the answer, what it costs, what it could not do, how it was found."""
    nothing_to_buy = _no_purchase_summary(least)
    if nothing_to_buy is not None:
        return nothing_to_buy
    answer = least.answer
    out = _answer_sentences(least, answer) if answer is not None else [_no_answer(least)]
    out += [n[0].upper() + n[1:] + "." for n in least.notes]
    out.append(_method(least))
    return tuple(out)


def _no_purchase_summary(least: LeastHardware) -> tuple[str, ...] | None:
    """The summary when buying is not the answer (None when it is)."""
    if least.already_met:
        return (_already_met(least),)
    if least.policy is not None and least.policy.found:
        return ("None needed: the runbook order above makes every priority-1 database meet "
                "its RTO on the estate's hardware.",)  # fmt: skip
    if least.misses_alone:
        return (_misses_alone(least),)
    return None


def _already_met(least: LeastHardware) -> str:
    """Every priority-1 database meets today; some perhaps by less than the risk margin."""
    if not least.at_risk:
        return "Every priority-1 database meets its RTO with the estate's hardware."
    verb = "is" if len(least.at_risk) == 1 else "are"
    return (f"Every priority-1 database opens inside its RTO with the estate's "
            f"hardware, but {name_list(least.at_risk)} {verb} at risk: inside the "
            "RTO by less than the risk margin.")  # fmt: skip


def _misses_alone(least: LeastHardware) -> str:
    """Databases that miss with the shared hardware to themselves: no purchase helps."""
    return (
        f"Priority-1 databases that miss their RTO even with the shared hardware to "
        f"themselves: {name_list(least.misses_alone)}. Sharing is not what stops them, so no "
        "shared purchase helps until their own plan changes; each one's own cheapest fix "
        "(What it takes, on its scenario as the estate runs it) is below."
    )


def _answer_sentences(least: LeastHardware, answer: EstatePoint) -> list[str]:
    """The purchase, its cost and the margin it gives; then what nobody priced."""
    lead = "The cheapest" if least.proven else "A"
    on_top = " with the runbook" if least.policy is not None else ""
    out = [
        f"{lead} shared purchase with which every priority-1 database opens inside its "
        f"RTO{on_top} ({answer.cost.text(least.currency)}): {_worst_margin(least, answer)}."
    ]
    unpriced = _unpriced(least)
    if unpriced:
        out.append(_unpriced_sentence(unpriced))
    return out


def _worst_margin(least: LeastHardware, answer: EstatePoint) -> str:
    """The worst priority-1 margin with the purchase, and today's when it is on the frontier."""
    words = f"the worst priority-1 margin becomes {margin_text(answer.worst_margin_s)}"
    today = least.frontier[0] if least.frontier and not least.frontier[0].changes else None
    if today is not None:
        words += f" (today {margin_text(today.worst_margin_s)})"
    return words


def _unpriced_sentence(unpriced: list[tuple[str, str]]) -> str:
    """What nobody priced, and the command that prices the first of them."""
    what, kind = unpriced[0]
    return (
        "Unpriced: nobody gave a price for "
        + ", ".join(w for w, _ in unpriced)
        + f'. Give yours (rto-planner catalog price "{what}" AMOUNT --kind {kind}); '
        "until then a priced purchase comes first, then the least capacity bought."
    )


def _no_answer(least: LeastHardware) -> str:
    """Why no purchase was found: the search stopped, or no shared purchase is enough."""
    if least.cap_hit:
        return (
            "None of the combinations simulated before the search stopped brings every "
            "priority-1 database inside its RTO; dearer ones were not tried."
        )
    return (
        "No combination of the shared purchases considered brings every priority-1 "
        "database inside its RTO: something other than the shared hardware decides."
    )


def _method(least: LeastHardware) -> str:
    return (
        f"Method: {least.method} ({least.simulations:,} estate simulations, "
        f"{least.combinations:,} combinations{_ruled_out(least)})."
    )


def _ruled_out(least: LeastHardware) -> str:
    """The candidates shown to miss without simulating, when there are any."""
    if not least.ruled_out:
        return ""
    return (
        f"; {least.ruled_out:,} candidates ruled out without simulating: priority 1's "
        "restores need more of a shared resource than it has before their RTOs"
    )


def answer_rows(least: LeastHardware) -> list[tuple[str, str]]:
    """(change, cost) of the answer, then the total."""
    if least.answer is None:
        return []
    cur = least.currency
    rows = [(c.words, c.cost.text(cur)) for c in least.answer.changes]
    rows.append(("Total", least.answer.cost.text(cur)))
    return rows


def frontier_rows(least: LeastHardware) -> list[tuple[str, str, str, str]]:
    """(cost, worst priority-1 margin, verdict, changes) per frontier point."""
    cur = least.currency
    return [
        (
            p.cost.text(cur) if p.changes else "today",
            margin_text(p.worst_margin_s),
            ("meets" if p.meets else "misses") + (" *" if p is least.answer else ""),
            "; ".join(c.words for c in p.changes) or "as it is",
        )
        for p in least.frontier
    ]


def alone_rows(least: LeastHardware) -> list[tuple[str, str, str]]:
    """(database, its own cheapest fix, cost) for each database that misses alone."""
    return [_alone_row(f, least.currency) for f in least.alone_fixes]


def _alone_row(f: AloneFix, currency: str) -> tuple[str, str, str]:
    """(database, its own cheapest fix, cost) of one database that misses alone."""
    if not f.searched:
        return f.database, f"not computed here: {f.command}", "—"
    if f.cost is None:
        return f.database, f"What it takes finds no fix: see {f.command}", "—"
    words = "; ".join(c.words for c in f.changes) or "no change"
    return f.database, words, f.cost.text(currency)


def point_words(p: EstatePoint, currency: str) -> str:
    return "; ".join(c.words for c in p.changes) + f" ({p.cost.text(currency)})"


def purchase_runbook(estate: Estate, least: LeastHardware) -> tuple[str, ...]:
    """The runbook to follow with the purchase (the least restrictive that still meets
    on the bought hardware), as numbered steps; () when nothing is bought."""
    if least.answer is None or least.runbook is None:
        return ()
    if least.runbook.empty:
        return ("With the purchase no runbook is needed beyond the tiers.",)
    return ("With the purchase, follow this runbook:", *runbook(estate, least.runbook))
