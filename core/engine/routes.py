"""Recovery routes (DESIGN §3.7): with a Data Guard standby, a site loss is recovered by
failing over; the restore timeline is the route when the standby is lost too."""

from __future__ import annotations

from dataclasses import dataclass

from ..result import Phase, RecoveryResult
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
    routes = [
        Route(
            "restore",
            "Restore from backup",
            recovery.total_s,
            recovery.verdict,
            "the route when the standby is lost too, or for a media failure",
        )
    ]
    failover = failover_timeline(scenario, recovery)
    if failover is not None:
        routes.append(
            Route(
                "failover",
                f"Fail over to the {scenario.backup.standby} standby",
                failover.total_s,
                failover.verdict,
                "declare the failure, then recovery.failover",
            )
        )
    return tuple(routes)


def has_failover(scenario: Scenario) -> bool:
    """A standby and the time to fail over to it are given (`backup.standby`,
    `recovery.failover`)."""
    return scenario.backup.standby != "none" and scenario.recovery.failover_s is not None


def failover_timeline(scenario: Scenario, recovery: RecoveryResult) -> RecoveryResult | None:
    """The failover route as phases: declare the failure, then fail over to the standby
    (`recovery.failover`); no backup is read. None without a standby to fail over to."""
    if not has_failover(scenario):
        return None
    rc, tg = scenario.recovery, scenario.targets
    failover_s: float = rc.failover_s  # type: ignore[assignment]  (has_failover)
    phases = (
        Phase("detect", 0.0, rc.detect_s, 0.0, 0.0, "fixed", "declare the failure"),
        Phase("failover", rc.detect_s, failover_s, 0.0, 0.0, "fixed",
              f"fail over to the {scenario.backup.standby} standby"),
    )  # fmt: skip
    total = failover_total_s(scenario)
    return RecoveryResult(
        phases=phases,
        total_s=total,
        rto_s=tg.rto_s,
        margin_s=tg.rto_s - total,
        verdict=_verdict(total, tg.rto_s, tg.risk_margin_abs_s),
        risk_margin_s=tg.risk_margin_abs_s,
        failure=recovery.failure,
    )


def failover_total_s(scenario: Scenario) -> float:
    """Declare the failure, then fail over (the figures may be arrays of trials); 0
    without a standby to fail over to."""
    if not has_failover(scenario):
        return 0.0
    return scenario.recovery.detect_s + scenario.recovery.failover_s  # type: ignore[operator]
