"""Oracle licences as costs of "What it takes" (DESIGN §12).

Licences are catalog items of kind `licence` (`data/catalog/licences.toml`: Oracle's
public list prices per processor, with their source), priced like hardware — the user's
quote wins. A processor is the host's physical cores × the item's core factor, rounded
up (Oracle Processor Core Factor Table).

- RMAN compression LOW/MEDIUM/HIGH needs the Advanced Compression Option on every
  processor of the database host, once: owned when the scenario already uses one of
  those levels (MEDIUM → LOW costs nothing), charged when going from none/BASIC.
- Cores added to the database host (a `cpu` stage) need Enterprise Edition, and the
  Advanced Compression Option too when the compression then in use needs it.
- A standby host needs Enterprise Edition for as many cores as the primary's.

The database host's cores are its `cpu` stage's units when the path has one (one channel
per core), else `database.cpu_cores`; without either the licences are named unpriced.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..catalog import Catalog
from ..scenario import Scenario
from .model import Change, Cost
from .prices import ADVANCED_COMPRESSION, LICENCE_KIND, PriceBook

ENTERPRISE_EDITION = "Oracle Database Enterprise Edition"
ACO_LEVELS = ("low", "medium", "high")
"""RMAN compression levels that need the Advanced Compression Option."""
DEFAULT_CORE_FACTOR = 0.5
"""Intel and AMD x86 (Oracle Processor Core Factor Table), when no item gives one."""
HOST_KIND = "cpu"
LIST_PRICE_NOTE = (
    "Oracle licences are charged at the list prices of the catalog (Oracle Technology Global "
    "Price List, per processor = cores × core factor 0.5 for x86): give your quote with "
    "`rto-planner catalog price NAME AMOUNT --kind licence`."
)
"""The path stage whose units are the database host's cores."""


def needs_aco(level: str | None) -> bool:
    return (level or "").lower() in ACO_LEVELS


def host_cores(scenario: Scenario) -> int | None:
    """The database host's physical cores: its `cpu` stages' units, else cpu_cores."""
    stages = [st.count for st in scenario.path if st.kind == HOST_KIND]
    if stages:
        return sum(stages)
    return getattr(scenario.database, "cpu_cores", None) or None


@dataclass(frozen=True)
class Licensing:
    """What one scenario's licences cost: per-processor prices and what is owned."""

    cores: int | None
    factor: float
    ee_price: float | None
    aco_price: float | None
    aco_owned: bool

    @classmethod
    def of(cls, scenario: Scenario, catalog: Catalog, prices: PriceBook) -> Licensing:
        item = catalog.find(LICENCE_KIND, ENTERPRISE_EDITION)
        try:
            factor = float((item.extra if item else {}).get("core_factor", DEFAULT_CORE_FACTOR))
        except ValueError:
            factor = DEFAULT_CORE_FACTOR
        return cls(
            cores=host_cores(scenario),
            factor=factor,
            ee_price=prices.price(LICENCE_KIND, ENTERPRISE_EDITION),
            aco_price=prices.price(LICENCE_KIND, ADVANCED_COMPRESSION),
            aco_owned=needs_aco(getattr(scenario.backup, "compression", None)),
        )

    def processors(self, cores: int) -> int:
        return math.ceil(cores * self.factor - 1e-9)

    def _per_processor(self, name: str, price: float | None, n: int) -> Cost:
        if n <= 0:
            return Cost()
        if price is None:
            return Cost(0.0, ((f"{name} ({n} processors)" if n > 1 else name, 1),))
        return Cost(price * n)

    def compression(self, level: str) -> Cost:
        """Going to RMAN compression `level`: the Advanced Compression Option on every
        processor of the host, unless owned or not needed."""
        if not needs_aco(level) or self.aco_owned:
            return Cost()
        if self.cores is None:
            return Cost(0.0, ((ADVANCED_COMPRESSION, 1),))
        return self._per_processor(
            ADVANCED_COMPRESSION, self.aco_price, self.processors(self.cores)
        )

    def added_processors(self, old_cores: int, new_cores: int) -> int:
        """Processor licences `new_cores - old_cores` more host cores need."""
        return max(0, self.processors(new_cores) - self.processors(old_cores))

    def added_cores_cost(self, added: int) -> Cost:
        """Enterprise Edition (and the Advanced Compression Option when owned) for
        `added` more processors of the database host."""
        cost = self._per_processor(ENTERPRISE_EDITION, self.ee_price, added)
        if self.aco_owned:
            cost = cost + self._per_processor(ADVANCED_COMPRESSION, self.aco_price, added)
        return cost

    def aco_for_added(self, added: int) -> Cost:
        """The cross term: compression newly needs the option and cores are added."""
        return self._per_processor(ADVANCED_COMPRESSION, self.aco_price, added)

    def standby(self) -> Cost:
        """Enterprise Edition for a standby host as large as the primary."""
        if self.cores is None:
            return Cost(0.0, ((f"{ENTERPRISE_EDITION} for the standby host", 1),))
        return self._per_processor(ENTERPRISE_EDITION, self.ee_price, self.processors(self.cores))


def total_cost(changes: tuple[Change, ...] | list[Change]) -> Cost:
    """What a set of changes costs together: each change's own cost, plus the Advanced
    Compression Option on the processors that other changes add when one change newly
    needs it (compression LOW with 8 more cores: the option on those 8 cores too)."""
    total = Cost()
    for c in changes:
        total = total + c.cost
    aco = next((c.aco_per_added for c in changes if c.aco_per_added is not None), None)
    if aco is not None:
        added = sum(c.processors for c in changes)
        if added:
            total = total + aco.aco_for_added(added)
    return total
