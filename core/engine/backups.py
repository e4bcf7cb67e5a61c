"""Backup jobs through the path in reverse (DESIGN §3.5): duration, effective rate,
bottleneck and whether each fits its window."""

from __future__ import annotations

from ..result import BackupJob
from ..scenario import Scenario
from ..units import DAY
from .flow import LARGEST_FILE_LABEL, move
from .path import PathModel
from .recovery import change_fraction, level1_count_at, worst_failure_offset


def _job(
    name: str,
    scenario: Scenario,
    model: PathModel,
    volume: float,
    largest: float | None,
    window_s: float | None,
    effective_basis_bytes: float,
) -> BackupJob:
    section = scenario.backup.section_size_bytes
    piece = min(largest, section) if (largest and section) else largest
    flow = move(volume, model, scenario.backup.channel_init_s, piece)
    bottleneck = LARGEST_FILE_LABEL if flow.bound_by_largest_piece else model.bottleneck
    eff = effective_basis_bytes / flow.duration_s if flow.duration_s > 0 else 0.0
    fits = None if window_s is None else flow.duration_s <= window_s
    return BackupJob(
        name=name,
        duration_s=flow.duration_s,
        data_bytes=volume,
        backup_bytes=volume / scenario.backup.compression_ratio,
        effective_rate_Bps=eff,
        steady_rate_Bps=model.rate_Bps,
        bottleneck=bottleneck,
        window_s=window_s,
        fits_window=fits,
        init_s=scenario.backup.channel_init_s * model.active_channels,
    )


def level1_volume(scenario: Scenario, size_bytes: float) -> float:
    """Data bytes in the largest level 1 of the cycle: the last cumulative one, or one
    interval's change for a differential."""
    b, db = scenario.backup, scenario.database
    if b.level1 == "none":
        return 0.0
    if scenario.recovery.incremental_size_bytes is not None:
        return scenario.recovery.incremental_size_bytes
    if b.level1 == "cumulative":
        j = level1_count_at(scenario, worst_failure_offset(scenario))
        return size_bytes * change_fraction(db.daily_change, j * b.level1_every_s / DAY)
    return size_bytes * change_fraction(db.daily_change, b.level1_every_s / DAY)


def backup_jobs(
    scenario: Scenario, model: PathModel, size_bytes: float | None = None
) -> tuple[BackupJob, ...]:
    """Level 0, the largest level 1 (if any) and one archived-log backup."""
    db, b, tg = scenario.database, scenario.backup, scenario.targets
    size = db.size_bytes if size_bytes is None else size_bytes
    jobs = [_job("level0", scenario, model, size, db.largest_file_bytes, tg.backup_window_s, size)]
    if b.level1 != "none":
        vol = level1_volume(scenario, size)
        frac = vol / size if size else 0.0
        largest = db.largest_file_bytes * frac if db.largest_file_bytes else None
        jobs.append(_job("level1", scenario, model, vol, largest, tg.backup_window_s, size))
    if db.redo_rate_Bps > 0:
        vol = db.redo_rate_Bps * b.archivelog_every_s
        window = b.archivelog_every_s
        if tg.backup_window_s is not None:
            window = min(window, tg.backup_window_s)
        jobs.append(_job("archivelog", scenario, model, vol, None, window, vol))
    return tuple(jobs)
