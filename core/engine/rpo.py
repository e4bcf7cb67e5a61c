"""Worst-case data loss (DESIGN §3.5)."""

from __future__ import annotations

from ..result import BackupJob, RpoResult
from ..scenario import Scenario


def rpo(scenario: Scenario, jobs: tuple[BackupJob, ...]) -> RpoResult:
    """Media failure with online redo intact loses nothing. A site loss loses what was not
    yet off site: the archived-log backup interval, that backup's duration, the redo not
    yet archived (a log switch interval) and the shipping delay. A standby replaces all
    that by its transport lag (0 when synchronous)."""
    tg = scenario.targets
    parts = site_loss_parts(scenario, jobs)
    site = sum(v for _, v in parts)
    media = 0.0
    if tg.rpo_s is None:
        verdict = "unknown"
    else:
        verdict = "meets" if max(site, media) <= tg.rpo_s else "misses"
    return RpoResult(
        media_failure_s=media,
        site_loss_s=site,
        target_s=tg.rpo_s,
        verdict=verdict,
        site_loss_parts=parts,
    )


def site_loss_parts(
    scenario: Scenario, jobs: tuple[BackupJob, ...]
) -> tuple[tuple[str, float], ...]:
    """What a site loss loses, part by part (the figures may be arrays of trials)."""
    b = scenario.backup
    if b.standby == "sync":
        parts: tuple[tuple[str, float], ...] = (("synchronous standby", 0.0),)
    elif b.standby == "async":
        parts = (("async standby transport lag", b.transport_lag_s),)
    else:
        arch = next((j for j in jobs if j.name == "archivelog"), None)
        parts = (
            ("archived-log backup interval", b.archivelog_every_s),
            ("archived-log backup duration", arch.duration_s if arch else 0.0),
            ("log switch interval", b.log_switch_s),
            ("off-site delay", b.offsite_delay_s),
        )
    return parts
