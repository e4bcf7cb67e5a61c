"""Recovery routes (DESIGN §3.7): with a Data Guard standby, a site loss is recovered by
failing over; the restore timeline is the route when the standby is lost too."""

from __future__ import annotations

from dataclasses import dataclass

from ..result import RecoveryResult
from ..scenario import Scenario
from .recovery import recovery_verdict as _verdict


@dataclass(frozen=True)
class Route:
    name: str
    """`restore` or `failover`."""
    title: str
    total_s: float
    verdict: str
    detail: str


def recovery_routes(scenario: Scenario, recovery: RecoveryResult) -> tuple[Route, ...]:
    """The restore route, and the failover route when a standby and `recovery.failover`
    are given: detect + failover against the same RTO."""
    tg = scenario.targets
    routes = [
        Route(
            "restore",
            "Restore from backup",
            recovery.total_s,
            recovery.verdict,
            "the route when the standby is lost too, or for a media failure",
        )
    ]
    rc, b = scenario.recovery, scenario.backup
    if b.standby != "none" and rc.failover_s is not None:
        total = rc.detect_s + rc.failover_s
        routes.append(
            Route(
                "failover",
                f"Fail over to the {b.standby} standby",
                total,
                _verdict(total, tg.rto_s, tg.risk_margin_abs_s),
                "declare the failure, then recovery.failover",
            )
        )
    return tuple(routes)
