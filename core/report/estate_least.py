"""The estate PDF's "Least hardware for priority 1" (DESIGN §9 with §8): the answer's
changes with their prices and the total, the databases that miss alone with their own
fixes, and the frontier of cost against the worst priority-1 margin."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from ..estate.least import LeastHardware
from ..estate.least_words import alone_rows, answer_rows, frontier_rows, least_summary
from .model import Table

if TYPE_CHECKING:
    from reportlab.platypus import Flowable

    from .pdf import ReportRenderer

HEADING = "Least hardware for priority 1"


@dataclass(frozen=True)
class EstateLeastPart:
    sentences: tuple[str, ...]
    changes: Table | None
    """The answer: each change and its cost, then the total (bold)."""
    alone: Table | None
    """Databases that miss alone: each one's own cheapest fix."""
    frontier: Table | None


def build_least(least: LeastHardware | None) -> EstateLeastPart | None:
    if least is None:
        return None
    changes = alone = front = None
    rows = answer_rows(least)
    if rows:
        changes = Table(("Change", "Cost"), tuple(rows), "lr", bold_rows=(len(rows) - 1,))
    if least.alone_fixes:
        alone = Table(("Database", "Its own cheapest fix (What it takes)", "Cost"),
                      tuple(alone_rows(least)), "llr")  # fmt: skip
    if len(least.frontier) > 1:
        frows = tuple((str(n), *r) for n, r in enumerate(frontier_rows(least), start=1))
        answer = tuple(i for i, p in enumerate(least.frontier) if p is least.answer)
        front = Table(("#", "Cost", "Worst margin", "Tier 1", "Changes"), frows, "rrrll",
                      bold_rows=answer)  # fmt: skip
    return EstateLeastPart(least_summary(least), changes, alone, front)


def render_least(r: ReportRenderer, part: EstateLeastPart | None) -> list[Flowable]:
    if part is None:
        return []
    w = r.width
    *lead, method = part.sentences if len(part.sentences) > 1 else (*part.sentences, "")
    out: list[Flowable] = [r.heading(HEADING, 1), *(r.para(t) for t in lead)]
    if part.changes is not None:
        out.append(r.table(part.changes, [w * 0.62, w * 0.38]))
    if part.alone is not None:
        out.append(r.table(part.alone, [w * 0.22, w * 0.56, w * 0.22]))
    if part.frontier is not None:
        out.append(Spacer(1, 2 * mm))
        out.append(r.para("Cost against the worst priority-1 margin (bold: the answer).", "small"))
        out.append(r.table(part.frontier, [w * f for f in (0.05, 0.26, 0.12, 0.09, 0.48)]))
    if method:
        out.append(r.para(method, "small"))
    return out
