"""One verdict for the whole plan (DESIGN §3.7).

The headline verdict is the worst of: the worst-case recovery against the RTO, the
site-loss data loss against the RPO target, and every backup job against its window.
`decided_by` names the check that sets it; among checks with the same verdict the one
closest to (or furthest past) its target decides, so a plan that meets everything still
says which target is tightest.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..result import JOB_TITLES, BackupJob, Phase, RecoveryResult, RpoResult
from ..units import format_duration, format_percent
from ..wording import VERDICT_WORDS

SEVERITY = {"meets": 0, "at_risk": 1, "misses": 2}
"""How bad each verdict is; `unknown` (no target given) never decides."""

RECOVERY = "recovery"
FAILOVER = "failover"
RPO = "rpo"
BACKUP_PREFIX = "backup."
"""`decided_by` values: `recovery`, `failover`, `rpo`, `backup.level0`, `backup.level1`,
`backup.archivelog`."""


@dataclass(frozen=True)
class Check:
    """One target the plan is held against."""

    name: str
    """`recovery`, `rpo` or `backup.<job>`."""
    title: str
    verdict: str
    value_s: float
    target_s: float
    what: str
    """What the value is, in a DBA's words ('worst-case recovery')."""

    @property
    def load(self) -> float:
        """Value ÷ target: above 1 misses; the closest to 1 is the tightest."""
        return self.value_s / self.target_s if self.target_s > 0 else float("inf")

    def sentence(self) -> str:
        """'RPO: site-loss data loss 28 h against a target of 24 h'."""
        if self.name in (RECOVERY, FAILOVER):
            target = "an RTO"
        elif self.name == RPO:
            target = "a target"
        else:
            target = "a window"
        return (
            f"{self.title}: {self.what} {format_duration(self.value_s)} against {target} "
            f"of {format_duration(self.target_s)}"
        )


def plan_checks(
    recovery: RecoveryResult,
    rpo: RpoResult,
    jobs: tuple[BackupJob, ...],
    failover: tuple[str, float] | None = None,
) -> tuple[Check, ...]:
    """Every check that has a target: recovery first, then the failover route (verdict
    and total, when a standby and `recovery.failover` are given), RPO, each backup."""
    checks = [
        Check(RECOVERY, "Recovery", recovery.verdict, recovery.total_s, recovery.rto_s,
              "worst-case recovery")
    ]  # fmt: skip
    if failover is not None:
        checks.append(
            Check(FAILOVER, "Failover", failover[0], failover[1], recovery.rto_s,
                  "failover to the standby")
        )  # fmt: skip
    if rpo.verdict != "unknown" and rpo.target_s is not None:
        checks.append(
            Check(RPO, "RPO", rpo.verdict, max(rpo.site_loss_s, rpo.media_failure_s),
                  rpo.target_s, "site-loss data loss")
        )  # fmt: skip
    for job in jobs:
        if job.fits_window is None or job.window_s is None:
            continue
        checks.append(
            Check(
                BACKUP_PREFIX + job.name,
                f"{job.title} backup",
                "meets" if job.fits_window else "misses",
                job.duration_s,
                job.window_s,
                "duration",
            )
        )
    return tuple(checks)


def decided_by_words(name: str) -> str:
    """A `decided_by` value in a DBA's words: 'rpo' → 'RPO', 'backup.level0' →
    'Level 0 backup window' (the JSON keeps the raw value)."""
    if name.startswith(BACKUP_PREFIX):
        job = name.removeprefix(BACKUP_PREFIX)
        return f"{JOB_TITLES.get(job, job)} backup window"
    return {RECOVERY: "recovery", FAILOVER: "failover", RPO: "RPO"}.get(name, name)


def deciding_check(checks: tuple[Check, ...]) -> Check:
    """The worst check: highest severity, then the highest value ÷ target.

    Ties go to the earlier check (recovery before RPO before backups)."""
    best = checks[0]
    for c in checks[1:]:
        if (SEVERITY[c.verdict], c.load) > (SEVERITY[best.verdict], best.load):
            best = c
    return best


def headline(check: Check) -> str:
    """'MISSES — decided by RPO: site-loss data loss 28 h against a target of 24 h'."""
    return f"{VERDICT_WORDS[check.verdict]} — decided by {check.sentence()}"


LIMIT_WORDS = {
    "fixed": "a fixed time you gave",
    "redo_apply_rate": "the redo apply rate",
    "incremental_apply_rate": "the incremental apply rate",
    "largest_file": "the largest file through one channel",
    "channels": "the number of RMAN channels",
    "redo_log_cost": "the apply cost per archived log",
    "job_overhead": "the fixed time per RMAN job",
    "channel_startup": "the serial start-up of its channels",
    "ramp_down": "the ramp-down (the last channels running alone)",
}


def deciding_phase(recovery: RecoveryResult) -> tuple[Phase, float]:
    """The phase that takes the largest share of the recovery, and that share (0–1)."""
    phase = recovery.longest_phase
    share = phase.duration_s / recovery.total_s if recovery.total_s > 0 else 0.0
    return phase, share


def phase_limit(phase: Phase) -> str:
    """What limits a phase, in words: a stage's label, or the rate or time that sets it."""
    return LIMIT_WORDS.get(phase.bottleneck, phase.bottleneck)


def phase_sentence(recovery: RecoveryResult) -> str:
    """'Redo apply takes 78 % of the recovery, limited by the redo apply rate'."""
    phase, share = deciding_phase(recovery)
    limit = phase_limit(phase)
    return f"{phase.title} takes {format_percent(share, 0)} of the recovery, limited by {limit}"


def verdict_title(check: Check) -> str:
    """The cover's big words: 'MISSES the RPO', 'AT RISK', 'MEETS every target'."""
    words = VERDICT_WORDS[check.verdict]
    if check.verdict == "meets":
        return f"{words} every target"
    if check.verdict == "at_risk":
        return words
    if check.name in (RECOVERY, FAILOVER):
        return f"{words} the RTO"
    if check.name == RPO:
        return f"{words} the RPO"
    return f"{words} the backup window"
