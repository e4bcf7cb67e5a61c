"""Plain result data of "What it takes" (DESIGN §8): changes, costs, frontier points."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .prices import format_money

HARDWARE = "hardware"
CONFIGURATION = "configuration"
RPO = "rpo"


@dataclass(frozen=True)
class Cost:
    """A known amount plus the purchases nobody priced.

    Costs compare by `key`: fewer unpriced purchases first (a known price beats an
    unknown one), then the amount, then the unpriced units (two drives before four).
    """

    amount: float = 0.0
    unpriced: tuple[tuple[str, int], ...] = ()
    """(what, units) of each purchase without a price."""
    bought_Bps: float = 0.0
    """Capacity of the unpriced hardware bought: with no price, less hardware is taken as
    cheaper (an order for the search, never shown as money)."""

    @functools.cached_property
    def key(self) -> tuple[int, float, float, int]:
        return (
            len(self.unpriced),
            round(self.amount, 6),
            round(self.bought_Bps, 3),
            sum(n for _, n in self.unpriced),
        )

    @property
    def priced(self) -> bool:
        return not self.unpriced

    def __add__(self, other: Cost) -> Cost:
        merged: dict[str, int] = {}
        for what, n in (*self.unpriced, *other.unpriced):
            merged[what] = merged.get(what, 0) + n
        return Cost(
            self.amount + other.amount,
            tuple(sorted(merged.items())),
            self.bought_Bps + other.bought_Bps,
        )

    def short_text(self, currency: str) -> str:
        """`800 EUR + 1 unpriced`: for a table cell (the full text in its tooltip)."""
        known = format_money(self.amount, currency) if self.amount else ""
        if not self.unpriced:
            return known or "free"
        more = f"{len(self.unpriced)} unpriced"
        return f"{known} + {more}" if known else more

    def text(self, currency: str) -> str:
        """`12,000 USD`, `free`, `4,000 USD + unpriced: 2 × LTO-9`."""
        parts: list[str] = []
        if self.amount or not self.unpriced:
            parts.append(format_money(self.amount, currency) if self.amount else "free")
        if self.unpriced:
            items = ", ".join(f"{n} × {what}" if n > 1 else what for what, n in self.unpriced)
            parts.append(f"unpriced: {items}")
        return " + ".join(parts)


FREE = Cost()


@dataclass(frozen=True)
class Change:
    """One change a DBA or architect would make, worded as they would say it."""

    dim: str
    """What it changes (`path[0]`, `backup.channels`, …): one change per dim."""
    words: str
    edits: Mapping[str, Any]
    """Raw scenario edits by dotted key, as `scenario.with_values` takes them."""
    cost: Cost = FREE
    category: str = CONFIGURATION
    alternatives: tuple[str, ...] = ()
    """Other changes with an identical outcome, dearer or equal (noted, not shown)."""
    item: tuple[str, str] | None = None
    """(kind, name) of what it buys, the key of its price (None: nothing to buy)."""
    notes: tuple[str, ...] = ()
    """What the change does besides its words (a range of the old stage dropped, …)."""
    processors: int = 0
    """Processor licences the change adds to the database host (cores added)."""
    aco_per_added: Any = None
    """A compression change that newly needs the Advanced Compression Option: the
    `licences.Licensing` that prices it on the processors other changes add."""


@dataclass(frozen=True)
class Outcome:
    """What the plan's own engine says about one variant of the scenario."""

    recovery_s: float
    recovery_verdict: str
    rpo_s: float
    rpo_verdict: str
    windows_ok: bool
    verdict: str
    """The headline verdict: the worst of recovery, RPO and every backup window."""
    decided_by: str

    def same_as(self, other: Outcome) -> bool:
        return (
            abs(self.recovery_s - other.recovery_s) < 1.0
            and abs(self.rpo_s - other.rpo_s) < 1.0
            and self.verdict == other.verdict
            and self.windows_ok == other.windows_ok
        )


@dataclass(frozen=True)
class FixPoint:
    """A set of changes, what it costs and what the plan then says."""

    changes: tuple[Change, ...]
    cost: Cost
    outcome: Outcome
    recommended: bool = False

    @property
    def recovery_s(self) -> float:
        return self.outcome.recovery_s

    @property
    def verdict(self) -> str:
        return self.outcome.verdict

    @property
    def edits(self) -> dict[str, Any]:
        return merged_edits(self.changes)


def merged_edits(changes: tuple[Change, ...]) -> dict[str, Any]:
    """The file edits of a set of changes, as one mapping (dotted key → value)."""
    out: dict[str, Any] = {}
    for c in changes:
        out.update(c.edits)
    return out


@dataclass(frozen=True)
class FixResult:
    scenario: str
    currency: str
    today: Outcome
    frontier: tuple[FixPoint, ...]
    """Cost against worst-case recovery time, cheapest first (≤ 10 points)."""
    recommended: FixPoint | None
    """The cheapest set of changes whose headline verdict is `meets` (None: none found)."""
    chosen: FixPoint | None
    """The recommended point, or with a budget the fastest point within it."""
    budget: float | None = None
    notes: tuple[str, ...] = ()
    """What to do first or know (measure the redo apply rate, unpriced items, …)."""
    evaluated: int = 0
    """Variants the engine computed (for benchmarks and curiosity)."""
    considered: tuple[str, ...] = field(default_factory=tuple)
    """The kinds of change considered, in words."""
    odds: Any = None
    """The headline (`core.headline.Headline`) of the recommended point applied: its
    probability of meeting every target; the search itself works at the planned figures.
    None: no recommended point, or not asked for."""

    def purchases(self) -> list[tuple[str, str]]:
        """(kind, name) of everything the frontier's points would buy: what to price."""
        seen: dict[tuple[str, str], None] = {}
        for p in self.frontier:
            for c in p.changes:
                if c.item is not None:
                    seen[c.item] = None
        return sorted(seen)


MIN_GAIN = 0.01
"""A frontier point must recover at least 1 % faster than every cheaper point shown.

Smaller gains are far below the precision of the plan's own figures; to a reader they are
the same outcome for more money (3 h 45 min for 28 more cores, 3 h 45 min for 29)."""


def significant(points: list[FixPoint]) -> list[FixPoint]:
    """The points, cheapest first, that each beat every cheaper one kept by `MIN_GAIN`
    (the recommended point is always kept)."""
    out: list[FixPoint] = []
    best = float("inf")
    for p in sorted(points, key=lambda p: (p.cost.key, not p.recommended, p.recovery_s)):
        if p.recommended or p.recovery_s < best * (1 - MIN_GAIN):
            out.append(p)
            best = min(best, p.recovery_s)
    return out


def common_changes(points: tuple[FixPoint, ...] | list[FixPoint]) -> tuple[str, ...]:
    """The changes (by their words) that every point makes, to print once."""
    if len(points) < 2:
        return ()
    first = [c.words for c in points[0].changes]
    return tuple(w for w in first if all(w in {c.words for c in p.changes} for p in points))
