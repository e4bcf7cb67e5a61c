"""The estate PDF's "Runbook order for priority 1" (DESIGN §12, policy before purchase):
the order within priority 1, the library units kept for it and the lower tiers' start
that make priority 1 meet without buying anything — or, when none does, the runbook the
least hardware is searched on top of — as numbered steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..estate.least import LeastHardware
from ..estate.model import Estate
from ..estate.policy_words import TITLE, method_line, policy_summary

if TYPE_CHECKING:
    from reportlab.platypus import Flowable

    from .pdf import ReportRenderer

HEADING = "Runbook order for priority 1"


@dataclass(frozen=True)
class EstateRunbookPart:
    lead: str
    steps: tuple[str, ...]
    method: str


def build_runbook(estate: Estate, least: LeastHardware | None) -> EstateRunbookPart | None:
    if least is None or least.policy is None:
        return None
    summary = policy_summary(estate, least.policy)
    return EstateRunbookPart(summary[0], summary[1:], method_line(least.policy))


def render_runbook(r: ReportRenderer, part: EstateRunbookPart | None) -> list[Flowable]:
    if part is None:
        return []
    out: list[Flowable] = [r.heading(HEADING, 1), r.para(part.lead)]
    out += [r.para(step) for step in part.steps]
    out.append(r.para(part.method, "small"))
    return out


__all__ = ["HEADING", "TITLE", "EstateRunbookPart", "build_runbook", "render_runbook"]
