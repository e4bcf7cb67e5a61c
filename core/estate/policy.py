"""The recovery runbook an estate follows (DESIGN §12, *policy before purchase*).

What the operators decide, free of charge, and the simulation follows:

- `order`: databases that go first within their tier, in that order (strict priority
  among them, before the rest of their tier, who share fairly as before);
- `reserve`: units of a shared tape library kept for priority 1 until priority 1's
  restores are through (the lower tiers use the others meanwhile);
- `start`: when each lower tier's restores may start, after the site loss (their
  declare and prepare run from the site loss as before; the first restore waits).

In ESTATE.toml (optional; `rto-planner estate` searches one and prints it as a runbook):

    [policy]
    order = ["Billing"]
    reserve = { "LTO-8 library" = 4 }
    start = { 2 = "1 h 30 min", 3 = "3 h" }
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..bounds import RTO
from ..errors import UnitError
from ..units import exact_duration, parse_duration
from ..wording import name_list

if TYPE_CHECKING:
    from ..scenario.load import _Loader

# (The estate's databases and shared resources are `model`'s; this module does not import
# it — `model` imports this one — and reads only their `name`, `priority` and stage.)
EstateDatabase = Any
SharedResource = Any

POLICY_KEYS = ("order", "reserve", "start")


@dataclass(frozen=True)
class Policy:
    order: tuple[str, ...] = ()
    """Databases that go first within their tier, in this order."""
    reserve: tuple[tuple[str, int], ...] = ()
    """(shared tape library, units kept for priority 1 until its restores are through)."""
    start: tuple[tuple[int, float], ...] = ()
    """(tier ≥ 2, seconds after the site loss before its restores may start)."""

    @property
    def empty(self) -> bool:
        return not (self.order or self.reserved or self.delayed)

    @property
    def reserved(self) -> dict[str, int]:
        return {name: n for name, n in self.reserve if n > 0}

    @property
    def delayed(self) -> dict[int, float]:
        return {tier: s for tier, s in self.start if s > 0}

    def start_of(self, tier: int) -> float:
        return self.delayed.get(tier, 0.0)

    def reserve_of(self, name: str) -> int:
        return self.reserved.get(name, 0)

    @property
    def measures(self) -> int:
        """How many things the runbook asks of the operators (fewer is simpler)."""
        return bool(self.order) + len(self.reserved) + len(self.delayed)

    def with_order(self, order: Sequence[str]) -> Policy:
        return replace(self, order=tuple(order))

    def with_reserve(self, reserve: Mapping[str, int]) -> Policy:
        return replace(self, reserve=tuple(sorted((k, v) for k, v in reserve.items() if v > 0)))

    def with_start(self, start: Mapping[int, float]) -> Policy:
        return replace(self, start=tuple(sorted((k, v) for k, v in start.items() if v > 0)))


NO_POLICY = Policy()


def ranks(databases: Sequence[EstateDatabase], policy: Policy) -> list[int]:
    """Each database's place in the sharing (1 first): its tier, and within the tier the
    databases the policy orders first, one place each, then the rest of the tier
    together (they share fairly)."""
    position = {name: k for k, name in enumerate(policy.order)}
    keys = [(d.priority, position.get(d.name, len(position))) for d in databases]
    dense = {key: r for r, key in enumerate(sorted(set(keys)), start=1)}
    return [dense[key] for key in keys]


# ----------------------------------------------------------------------------- the file


def policy_from_mapping(
    loader: _Loader,
    doc: Any,
    databases: Sequence[EstateDatabase],
    shared: Sequence[SharedResource],
) -> Policy:
    """Validate `[policy]`; errors name the key (`policy.reserve.LIB`) and say why."""
    if doc is None:
        return NO_POLICY
    if not isinstance(doc, Mapping):
        raise loader.error("policy", "'policy' must be a table ([policy])")
    loader.check_keys("policy", doc, POLICY_KEYS)
    return Policy(
        order=_order(loader, doc.get("order", []), databases),
        reserve=_reserve(loader, doc.get("reserve", {}), shared),
        start=_start(loader, doc.get("start", {}), databases),
    )


def _order(loader: _Loader, value: Any, databases: Sequence[EstateDatabase]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise loader.error("policy.order", "a list of database names, first to go first",
                           'for example order = ["Billing"]')  # fmt: skip
    known = [d.name for d in databases]
    for k, name in enumerate(value):
        if name not in known:
            raise loader.error(f"policy.order[{k}]", f"no database named {name!r} in the estate",
                               "databases: " + name_list(known))  # fmt: skip
        if name in value[:k]:
            raise loader.error(f"policy.order[{k}]", f"{name!r} is listed twice")
    return tuple(value)


def _reserve(
    loader: _Loader, value: Any, shared: Sequence[SharedResource]
) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, Mapping):
        raise loader.error("policy.reserve", "a table: shared tape library = units kept",
                           'for example reserve = { "LTO-8 library" = 4 }')  # fmt: skip
    by_name = {r.name: r for r in shared}
    out = []
    for name, units in value.items():
        key = f"policy.reserve.{name}"
        res = by_name.get(name)
        if res is None:
            raise loader.error(key, f"no shared resource named {name!r}",
                               "shared resources: " + name_list(list(by_name)))  # fmt: skip
        if not res.binds_channel:
            raise loader.error(key, f"{name!r} is not a tape library: its bandwidth already "
                               "goes to priority 1 first; only drives can be kept")  # fmt: skip
        if (
            isinstance(units, bool)
            or not isinstance(units, int)
            or not 0 <= units <= res.stage.count
        ):
            raise loader.error(key, f"the units kept are a whole number from 0 to "
                               f"{res.stage.count} (its units)")  # fmt: skip
        out.append((name, units))
    return tuple(sorted(out))


def _start(
    loader: _Loader, value: Any, databases: Sequence[EstateDatabase]
) -> tuple[tuple[int, float], ...]:
    if not isinstance(value, Mapping):
        raise loader.error("policy.start", "a table: tier = when its restores start",
                           'for example start = { 2 = "1 h 30 min" }')  # fmt: skip
    tiers = {d.priority for d in databases}
    out = []
    for raw_tier, when in value.items():
        key = f"policy.start.{raw_tier}"
        tier = int(raw_tier) if str(raw_tier).isdigit() else 0
        if tier < 2 or tier not in tiers:
            lower = ", ".join(str(t) for t in sorted(tiers) if t > 1) or "none"
            raise loader.error(key, "a lower tier of the estate: priority 1 starts at the site "
                               "loss", f"its lower tiers: {lower}")  # fmt: skip
        try:
            seconds = parse_duration(str(when))
            RTO.check(seconds, when) if seconds else None
        except (UnitError, ValueError) as exc:
            raise loader.error(key, str(exc)) from None
        out.append((tier, seconds))
    return tuple(sorted(out))


def policy_toml(policy: Policy) -> list[str]:
    """`[policy]` as TOML lines (nothing for no policy)."""
    from ..scenario.dump import _toml_value

    if policy.empty:
        return []
    out = ["\n[policy]"]
    if policy.order:
        out.append(f"order = [{', '.join(_toml_value(n) for n in policy.order)}]")
    if policy.reserved:
        items = ", ".join(f"{_toml_value(k)} = {v}" for k, v in policy.reserved.items())
        out.append(f"reserve = {{ {items} }}")
    if policy.delayed:
        items = ", ".join(f"{k} = {_toml_value(_duration(v))}" for k, v in policy.delayed.items())
        out.append(f"start = {{ {items} }}")
    return out


def _duration(seconds: float) -> str:
    """A start as an operator writes it (`1 h 45 min`), exact."""
    if seconds % 60 == 0 and seconds < 100 * 3600:
        h, m = divmod(int(seconds // 60), 60)
        return f"{h} h {m:02d} min" if h and m else (f"{h} h" if h else f"{m} min")
    return exact_duration(seconds)
