"""Backup jobs through the path in reverse (DESIGN §3.5, §3.7): duration, effective
rate, bottleneck and whether each fits its window."""

from __future__ import annotations

from dataclasses import replace

from ..result import BackupJob
from ..scenario import Scenario, Stage
from ..units import DAY
from .flow import LARGEST_FILE_LABEL, Flow, move
from .path import BACKUP, PathModel, build_path_model
from .recovery import _redo_since_worst, change_fraction, level1_per_cycle
from .shapes import any_true, divide, is_batch, maximum, minimum, where

FULL_SCAN_LABEL = "full scan (no block change tracking)"
"""Bottleneck of a level 1 that must read the whole database."""


def _piece(scenario: Scenario, largest: float | None) -> float | None:
    section = scenario.backup.section_size_bytes
    return minimum(largest, section) if (largest is not None and section) else largest


def _job(
    name: str,
    scenario: Scenario,
    model: PathModel,
    volume: float,
    largest: float | None,
    window_s: float | None,
    effective_basis_bytes: float,
    scan: Flow | None = None,
    scan_bottleneck: str = "",
    flow: Flow | None = None,
) -> BackupJob:
    """One backup job; `flow` is the volume's move through `model` when already known."""
    b = scenario.backup
    if flow is None:
        flow = move(volume, model, b.channel_init_s, _piece(scenario, largest), b.job_overhead_s)
    duration = flow.duration_s
    if is_batch(duration, scan.duration_s if scan is not None else None):
        # A batch of trials: durations only (the labels are the plan's).
        bottleneck = ""
        if scan is not None:
            duration = maximum(duration, scan.duration_s)
    else:
        bottleneck = (LARGEST_FILE_LABEL if flow.bound_by_largest_piece
                      else flow.limiter or model.bottleneck)  # fmt: skip
        if scan is not None and scan.duration_s > duration:
            duration, bottleneck = scan.duration_s, f"{FULL_SCAN_LABEL}: {scan_bottleneck}"
    eff = where(duration > 0, divide(effective_basis_bytes, duration), 0.0)
    fits = None if window_s is None else duration <= window_s
    return BackupJob(
        name=name,
        duration_s=duration,
        data_bytes=volume,
        backup_bytes=volume / b.compression_ratio,
        effective_rate_Bps=eff,
        steady_rate_Bps=model.rate_Bps,
        bottleneck=bottleneck,
        window_s=window_s,
        fits_window=fits,
        init_s=b.channel_init_s * model.active_channels,
    )


def level1_volume(scenario: Scenario, size_bytes: float) -> float:
    """Data bytes in the largest level 1 of the cycle: the last cumulative one, or one
    interval's change for a differential. `recovery.incremental_size` is that volume
    (per backup for a differential) at today's size; it grows with the database."""
    b, db = scenario.backup, scenario.database
    if b.level1 == "none":
        return 0.0
    if scenario.recovery.incremental_size_bytes is not None:
        scale = where(db.size_bytes > 0, divide(size_bytes, db.size_bytes), 1.0)
        return scenario.recovery.incremental_size_bytes * scale
    if b.level1 == "cumulative":
        days = level1_per_cycle(scenario) * b.level1_every_s / DAY
        return size_bytes * change_fraction(db.daily_change, days)
    return size_bytes * change_fraction(db.daily_change, b.level1_every_s / DAY)


def _read_side(scenario: Scenario) -> tuple[Stage, ...]:
    return tuple(st for st in scenario.path if st.carries == "data" and st.kind != "cpu")


def read_side_model(scenario: Scenario) -> PathModel:
    """The database side of the path (stages that carry data bytes, CPU aside): what a
    level 1 without block change tracking reads the whole database through. Without such
    a stage, the whole path."""
    data = _read_side(scenario)
    return build_path_model(replace(scenario, path=data) if data else scenario, BACKUP)


def archivelog_volume(scenario: Scenario, size_bytes: float, level0_s: float,
                      level1_s: float) -> float:  # fmt: skip
    """Redo in one archived-log backup: the redo rate × the interval, or the share of
    `recovery.redo_volume` that one interval generates. Grows with the database unless
    `database.redo_growth = "constant"`."""
    db, b, rc = scenario.database, scenario.backup, scenario.recovery
    scale = 1.0
    if db.redo_growth == "with_size":
        scale = where(db.size_bytes > 0, divide(size_bytes, db.size_bytes), 1.0)
    if rc.redo_volume_bytes is not None:
        worst = _redo_since_worst(scenario, level0_s, level1_s)
        share = where(worst > 0, divide(b.archivelog_every_s, worst), 0.0)
        return rc.redo_volume_bytes * scale * share
    return db.redo_rate_Bps * scale * b.archivelog_every_s


def backup_jobs(
    scenario: Scenario, model: PathModel, size_bytes: float | None = None, *,
    archivelog: bool = True,
) -> tuple[BackupJob, ...]:  # fmt: skip
    """Level 0, the largest level 1 (if any) and one archived-log backup (not with
    `archivelog=False`: a recovery waits for the other two only); `model` is the
    scenario's backup path (`build_path_model(scenario, BACKUP)`)."""
    db, b, tg = scenario.database, scenario.backup, scenario.targets
    size = db.size_bytes if size_bytes is None else size_bytes
    piece = _piece(scenario, db.largest_file_bytes)
    level0 = move(size, model, b.channel_init_s, piece, b.job_overhead_s)
    jobs = [_job("level0", scenario, model, size, db.largest_file_bytes, tg.backup_window_s, size,
                 flow=level0)]  # fmt: skip
    level1_s = 0.0
    if b.level1 != "none":
        vol = level1_volume(scenario, size)
        frac = divide(vol, size)
        largest = db.largest_file_bytes * frac if db.largest_file_bytes is not None else None
        scan, scan_bn = None, ""
        if not b.block_change_tracking:
            if _read_side(scenario):
                reader = read_side_model(scenario)
                scan = move(size, reader, b.channel_init_s, piece, b.job_overhead_s)
            else:  # it reads through the whole path, as the level 0 did: the same move
                reader, scan = model, level0
            scan_bn = "" if is_batch(scan.duration_s) else reader.bottleneck
        job = _job("level1", scenario, model, vol, largest, tg.backup_window_s, size, scan, scan_bn)
        jobs.append(job)
        level1_s = job.duration_s
    if not archivelog:
        return tuple(jobs)
    vol = archivelog_volume(scenario, size, jobs[0].duration_s, level1_s)
    if any_true(vol > 0):
        window = b.archivelog_every_s
        if tg.backup_window_s is not None:
            window = min(window, tg.backup_window_s)
        jobs.append(_job("archivelog", scenario, model, vol, None, window, vol))
    return tuple(jobs)
