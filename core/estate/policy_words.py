"""Policy before purchase in words and JSON: one wording for the CLI, the PDF and the
Estate window (DESIGN §12)."""

from __future__ import annotations

import math
from typing import Any

from ..units import format_duration
from ..wording import name_list
from .least_candidates import KIND_UNITS
from .model import FAILOVER, Estate
from .policy import Policy
from .policy_search import PolicyAnswer, PolicyPoint

TITLE = "Runbook order for priority 1 (policy before purchase)"


def margin_text(s: float) -> str:
    if not math.isfinite(s):
        return "—"
    return ("−" if s < 0 else "") + format_duration(abs(s))


def _others(p: PolicyPoint) -> str:
    if not p.misses:
        return "no other database misses its RTO with it"
    n = p.misses  # every priority-1 database meets here: the ones that miss are lower
    return (f"{n} lower-priority database{'s' if n != 1 else ''} then "
            f"miss{'es' if n == 1 else ''} {'its' if n == 1 else 'their'} RTO")  # fmt: skip


def _risk(p: PolicyPoint) -> str:
    """At risk is not "meets": said with the names (issue 22.4)."""
    if not p.at_risk:
        return ""
    verb = "is" if len(p.at_risk) == 1 else "are"
    return f" ({name_list(p.at_risk)} {verb} at risk: inside its RTO by less than its margin)"


def policy_summary(estate: Estate, answer: PolicyAnswer) -> tuple[str, ...]:
    """Sentences, then the runbook's numbered steps."""
    if answer.already_met:
        return ("Every priority-1 database meets its RTO as the estate is run.",)
    head = _found(answer) if answer.found else _not_found(answer)
    return (head, *runbook(estate, answer.best.policy))


def _found(answer: PolicyAnswer) -> str:
    """The runbook that meets without buying anything: the margin it gives, the others."""
    best, now = answer.best, answer.current
    kept = "the estate as it is" if not answer.changed else "this runbook"
    return (f"With {kept} every priority-1 database opens inside its RTO without "
            f"buying anything{_risk(best)}: the worst priority-1 margin becomes "
            f"{margin_text(best.worst_margin_s)} (today {margin_text(now.worst_margin_s)}); "
            f"{_others(best)}.")  # fmt: skip


def _not_found(answer: PolicyAnswer) -> str:
    """No runbook is enough: why, and that the hardware is searched on the best one."""
    why = "; ".join(answer.notes)
    return ("No runbook makes every priority-1 database meet on the estate's hardware"
            + (f" ({why})" if why else "") + ". The least hardware below is searched on top "
            "of the runbook that gives priority 1 the most:")  # fmt: skip


def method_line(answer: PolicyAnswer) -> str:
    return f"Method: {answer.method} ({answer.simulations:,} estate simulations)."


def policy_json(policy: Policy) -> dict[str, Any]:
    return {
        "order": list(policy.order),
        "reserve": dict(policy.reserved),
        "start_s": {str(t): s for t, s in policy.delayed.items()},
    }


def _point_json(p: PolicyPoint) -> dict[str, Any]:
    return {
        "policy": policy_json(p.policy),
        "tier1_meets": p.tier1_meets,
        "worst_margin_s": p.worst_margin_s if math.isfinite(p.worst_margin_s) else None,
        "misses": p.misses,
        "at_risk": list(p.at_risk),
        "late_s": p.late_s,
        "last_open_s": p.last_open_s,
    }


def policy_to_json(estate: Estate, answer: PolicyAnswer) -> dict[str, Any]:
    """`runbook` in `rto-planner estate --json`."""
    return {
        "method": answer.method,
        "already_met": answer.already_met,
        "found": answer.found,
        "current": _point_json(answer.current),
        "best": _point_json(answer.best),
        "steps": list(runbook(estate, answer.best.policy)),
        "simulations": answer.simulations,
        "notes": list(answer.notes),
    }


# ----------------------------------------------------------------------------- the runbook


def runbook(estate: Estate, policy: Policy) -> tuple[str, ...]:
    """The policy as a runbook order: numbered steps in time order."""
    tiers = sorted({d.priority for d in estate.databases})
    steps = [(policy.start_of(tier), _tier_step(estate, policy, tier)) for tier in tiers]
    steps += [(0.0, _reserve_step(estate, n, units)) for n, units in policy.reserved.items()]
    steps.sort(key=lambda s: s[0])
    return tuple(f"{k}. {text}" for k, (_t, text) in enumerate(steps, start=1))


def _tier_step(estate: Estate, policy: Policy, tier: int) -> str:
    members = [d for d in estate.databases if d.priority == tier]
    failover = [d.name for d in members if d.route == FAILOVER]
    restore = [d.name for d in members if d.route != FAILOVER]
    first = [n for n in policy.order if n in restore]
    rest = [n for n in restore if n not in first]
    when = policy.start_of(tier)
    head = "At the site loss" if when <= 0 else f"At {format_duration(when)} after the site loss"
    parts = []
    if first:
        seq = ", then ".join(first)
        parts.append(f"restore {seq} first" + (f", then {name_list(rest)} together" if rest
                                                    else ""))  # fmt: skip
    elif rest:
        together = " together" if len(rest) > 1 else ""
        parts.append(f"restore {name_list(rest)}{together}")
    if failover:
        parts.append(f"fail over {name_list(failover)}")
    what = "; ".join(parts) or "nothing to restore"
    return f"{head}, priority {tier}: {what}."


def _reserve_step(estate: Estate, name: str, units: int) -> str:
    st = estate.resource(name).stage
    word = KIND_UNITS.get(st.kind, "unit")
    if units >= st.count:
        return (f"Keep every {word} of {name} for priority 1 until its restores are through: "
                "the lower tiers' restores through it wait until then.")  # fmt: skip
    left = st.count - units
    return (f"Keep {units} of the {st.count} {word}s of {name} for priority 1 until its "
            f"restores are through: the lower tiers use at most {left} until then.")  # fmt: skip
