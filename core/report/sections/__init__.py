"""The sections of the PDF plan, one module per section, registered here in print order.

To add a section: write `sections/<name>.py` with a frozen dataclass for its data, a
`build(ctx: ReportContext)` that returns it (or None to leave the section out), a
`render(r: ReportRenderer, part)` that returns its flowables, and
`SECTION = Section(key, name, build, render)`; then import it below and put it in
`PLAN_SECTIONS` where it should print. See docs/report.md.
"""

from __future__ import annotations

from ..model import ReportContext, Section
from .backups import SECTION as BACKUPS
from .confidence import SECTION as CONFIDENCE
from .contents import SECTION as CONTENTS
from .cover import SECTION as COVER
from .cycle import SECTION as CYCLE
from .evidence import SECTION as EVIDENCE
from .formulas import SECTION as FORMULAS
from .growth import SECTION as GROWTH
from .ledger import SECTION as LEDGER
from .path import SECTION as PATH
from .recovery import SECTION as RECOVERY
from .rpo import SECTION as RPO
from .summary import SECTION as SUMMARY
from .what_it_takes import SECTION as WHAT_IT_TAKES
from .workload import SECTION as WORKLOAD

PLAN_SECTIONS: tuple[Section, ...] = (
    COVER,
    CONTENTS,
    SUMMARY,
    WHAT_IT_TAKES,
    RECOVERY,
    PATH,
    BACKUPS,
    CYCLE,
    CONFIDENCE,
    RPO,
    GROWTH,
    WORKLOAD,
    EVIDENCE,
    LEDGER,
    FORMULAS,
)
"""The plan's sections in print order. Keys are unique (checked by a test)."""

__all__ = ["PLAN_SECTIONS", "ReportContext", "Section"]
