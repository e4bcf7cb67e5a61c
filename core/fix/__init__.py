"""What it takes (DESIGN §8): the cheapest changes that make a plan meet, and the
frontier of cost against worst-case recovery time.

`what_it_takes(scenario, catalog=…, prices=…, budget=…)` is the whole answer; the CLI
(`rto-planner fix`), the GUI's *What it takes* panel and the PDF all call it.
"""

from .answer import what_it_takes
from .model import Change, Cost, FixPoint, FixResult, Outcome, common_changes
from .prices import OPTIONS, PriceBook, format_money

__all__ = [
    "OPTIONS",
    "Change",
    "Cost",
    "FixPoint",
    "FixResult",
    "Outcome",
    "PriceBook",
    "common_changes",
    "format_money",
    "what_it_takes",
]
