"""What the plan must say about its own inputs and model (DESIGN §3.7).

Every given value either changes the plan, is refused by the loader with the reason, or
— where it is legitimately part of a scenario but has no effect in this configuration —
is named here with why. Model assumptions the user should see (compression CPU not
modelled, no per-channel ceiling, a tape drive that shoe-shines) are named here too.
"""

from __future__ import annotations

from ..scenario import Scenario, Stage
from ..units import format_duration, format_rate, format_size
from .path import PathModel, channel_default
from .recovery import DEFAULT_LOG_SWITCH_S, archived_log_size

SBT_JOB_OVERHEAD_S = 150.0
"""Suggested `backup.job_overhead` for tape (SBT) jobs: a production RMAN log shows
2.1–2.6 GB archived-log backups to tape taking 3 min 6 s – 3 min 29 s (≈ 2.5–3 min of
fixed time per small job; research/domain_figures.md §3.3)."""
SBT_JOB_OVERHEAD_SOURCE = (
    "production RMAN log (V$RMAN_BACKUP_JOB_DETAILS): 2.1–2.6 GB archived-log backups to "
    "tape took 3 min 6 s – 3 min 29 s"
)


def unused_inputs(scenario: Scenario) -> list[str]:
    """Given values that do not change this plan, and why."""
    raw = scenario.raw
    db, bk, rc = raw.get("database", {}), raw.get("backup", {}), raw.get("recovery", {})
    b = scenario.backup
    out = []
    if b.level1 == "none":
        for section, table, key in (
            ("backup", bk, "level1_every"),
            ("recovery", rc, "incremental_apply_rate"),
            ("recovery", rc, "incremental_overhead"),
            ("database", db, "daily_change"),
        ):
            if key in table:
                out.append(f"{section}.{key} is not used: there are no level 1 backups")
    if "workload" in db and "redo_apply_rate" in rc:
        out.append(
            "database.workload does not set the redo apply rate: recovery.redo_apply_rate is given"
        )
    if b.standby != "none":
        for key in ("offsite_delay", "log_switch"):
            if key in bk:
                out.append(
                    f"backup.{key} does not count in the site-loss RPO: the standby's "
                    "transport lag replaces it"
                )
    out += _compression_unused(scenario)
    if rc.get("archivelog_restore") and scenario.recovery.archivelogs_on_disk:
        out.append(
            "recovery.archivelog_restore is not used: the archived logs are on disk "
            "(recovery.archivelogs_on_disk)"
        )
    return out


def _compression_unused(scenario: Scenario) -> list[str]:
    """CPU cores without a compression level, and a ratio with compression off: valid
    states ("turn compression off" must be evaluable), named because they do nothing."""
    b, raw = scenario.backup, scenario.raw
    out = []
    if b.compression in (None, "none") and scenario.database.cpu_cores:
        out.append(
            f"CPU cores for RMAN ({scenario.database.cpu_cores}) is not used: the cores "
            "only set the compression CPU ceiling, and no RMAN compression level is named"
        )
    ratio = (raw.get("backup") or {}).get("compression_ratio")
    if b.compression == "none" and ratio is not None and ratio != 1.0:
        out.append(
            f"RMAN compression ratio ({ratio}) is not used: RMAN compression is 'none', so "
            "the backup pieces are not compressed (ratio 1)"
        )
    return out


def model_notes(scenario: Scenario, restore: PathModel, backup: PathModel) -> list[str]:
    """Assumptions and warnings the plan states alongside its figures."""
    b, db = scenario.backup, scenario.database
    out = []
    if b.compression not in (None, "none") and not db.cpu_cores:
        out.append(
            f"Compression CPU is not modelled: RMAN {b.compression.upper()} compresses at "
            f"about {format_rate(b.compress_core_Bps or 0)} and decompresses at "
            f"{format_rate(b.decompress_core_Bps or 0)} per core (catalog); give "
            "database.cpu_cores to add that ceiling."
        )
    if b.compression_ratio != 1.0 and any(
        st.kind == "tape_drive" and st.hw_compression > 1 for st in scenario.path
    ):
        out.append(
            "RMAN compresses the backup pieces, so the tape drives' own compression is not "
            "applied: compressed data does not compress again."
        )
    out += _channel_notes(scenario, restore)
    out += _write_side_notes(scenario)
    sbt = sbt_stage(scenario)
    if b.job_overhead_s == 0 and sbt is not None:
        out.append(
            f"backup.job_overhead is 0 s on an SBT path ({sbt.label}): a small media-manager "
            f"job typically pays about {format_duration(SBT_JOB_OVERHEAD_S)} of fixed time "
            f"({SBT_JOB_OVERHEAD_SOURCE}); set it to see short jobs as they run."
        )
    out += _omission_notes(scenario)
    if b.level1 != "none" and not b.block_change_tracking:
        out.append(
            "Block change tracking is off (Oracle's default): every level 1 backup reads the "
            "whole database (backup.block_change_tracking = true to change it)."
        )
    out += _shoe_shine(scenario, backup)
    out += _redo_log_notes(scenario)
    return out


def _channel_notes(scenario: Scenario, restore: PathModel) -> list[str]:
    """What one RMAN channel is taken to move: the class default of a disk or NFS path,
    or — on a path through a media manager with no stage that limits one channel — 1/n."""
    default = channel_default(scenario)
    if default is not None:
        return [
            f"One RMAN channel is taken to move at most {format_rate(default)} of data, a "
            "class default for a disk or NFS path with no stage that limits one channel "
            "(Oracle MAA 2009: 'a single RMAN channel … can stream data at … 400 MB/sec or "
            "greater'): few channels, or a large file on one channel, run at that rate. Add "
            "a 'channel' stage with your measured rate (a restore with one channel: "
            "V$RMAN_BACKUP_JOB_DETAILS OUTPUT_BYTES_PER_SEC)."
        ]
    if not restore.channel_ceiling_given and restore.active_channels > 1:
        return [
            "No stage limits one RMAN channel: a channel running alone (the largest file, "
            "the last channels of a job) is taken to get 1/n of the path. Add a 'channel' "
            "stage with a measured per-channel rate."
        ]
    return []


WRITE_SIDE_SOURCE = (
    "Oracle ASM: normal redundancy mirrors each extent twice, high redundancy three times "
    "(Oracle Automatic Storage Management Administrator's Guide, 'Mirroring, Redundancy, "
    "and Failure Group Options')"
)


def has_write_side(scenario: Scenario) -> bool:
    """The restore path names the storage the datafiles are written to: a `storage_write`
    stage, a disk or NAS head that carries datafile bytes, or a measured stage (the whole
    path, writes included)."""
    return any(
        st.kind in ("storage_write", "measured")
        or (st.kind in ("disk", "nas_head") and st.carries == "data")
        for st in scenario.path
    )


def _write_side_notes(scenario: Scenario) -> list[str]:
    """No silent omission: a restore writes every datafile byte, and a path without the
    target storage takes those writes to keep up."""
    if has_write_side(scenario):
        return []
    return [
        "The write side of the restore is not in the path: the target storage is taken to "
        "write the datafiles as fast as they arrive. A restore writes every data byte, "
        f"twice or three times under ASM normal or high redundancy ({WRITE_SIDE_SOURCE}). "
        "Add a 'storage_write' stage with the target's write rate and write_factor (a "
        "timed restore: V$RMAN_BACKUP_JOB_DETAILS OUTPUT_BYTES_PER_SEC)."
    ]


def _redo_log_notes(scenario: Scenario) -> list[str]:
    """Model v3's per-log cost when the archived log size is not given: counted with an
    assumed size, said, with how many logs an hour of redo is and what they add."""
    db, rc = scenario.database, scenario.recovery
    has_redo = db.redo_rate_Bps > 0 or (rc.redo_volume_bytes or 0) > 0
    if not has_redo or not rc.redo_log_cost_s or db.log_size_bytes is not None:
        return []
    size = archived_log_size(scenario)
    cost = format_duration(rc.redo_log_cost_s)
    if size is None:
        return [
            f"Redo apply's cost per archived log ({cost}) is not counted: neither the archived "
            "log size nor a redo rate to size it from is given. Give database.log_size "
            "(V$ARCHIVED_LOG: BLOCKS × BLOCK_SIZE)."
        ]
    per_hour = ""
    if db.redo_rate_Bps > 0:
        logs = db.redo_rate_Bps * 3600 / size
        extra = format_duration(logs * rc.redo_log_cost_s)
        per_hour = f": {logs:.1f} logs per hour of redo, {extra} beyond the redo itself"
    return [
        f"Redo apply's cost per archived log ({cost}) is counted with logs of "
        f"{format_size(size)}, {log_size_words(scenario)}{per_hour}. Give database.log_size "
        "(V$ARCHIVED_LOG: BLOCKS × BLOCK_SIZE) to use yours."
    ]


def log_size_words(scenario: Scenario) -> str:
    """Where the archived log size comes from, for the plan's notes."""
    db = scenario.database
    if db.log_size_bytes is not None:
        return "database.log_size"
    if db.redo_rate_Bps > 0:
        switch = format_duration(scenario.backup.log_switch_s or DEFAULT_LOG_SWITCH_S)
        how = ("backup.log_switch" if scenario.backup.log_switch_s
               else "Oracle's sizing guidance, 10 to 15 minutes")  # fmt: skip
        return f"the redo of one log switch every {switch} ({how})"
    return "not given"


SBT_WORDS = ("sbt", "tape", "boost", "zdlra", "recovery appliance", "networker", "netbackup",
             "commvault", "spectrum protect", "tsm", "data protector", "secure backup",
             "cloud module", "media manager")  # fmt: skip
"""Words in a stage's name that say it is reached through a media manager (SBT)."""

SBT_KINDS = ("tape_drive", "media_server", "object_storage")
"""Stage kinds always reached through SBT (a cloud backup module is an SBT library)."""


def sbt_stage(scenario: Scenario) -> Stage | None:
    """The first stage reached through RMAN's SBT interface: a tape drive, a media
    server, or any stage whose name names a media manager (DD Boost, ZDLRA, NetBackup,
    …); None for a disk-only path."""
    for st in scenario.path:
        name = (st.name or "").lower()
        if st.kind in SBT_KINDS or any(w in name for w in SBT_WORDS):
            return st
    return None


def _omission_notes(scenario: Scenario) -> list[str]:
    """Figures the plan would otherwise take silently (model v3, DESIGN §10)."""
    b, out = scenario.backup, []
    if b.compression_ratio > 1.0 and b.compression is None:
        out.append(
            f"backup.compression_ratio is {b.compression_ratio:g} but no compression level is "
            "named: the CPU cost of compressing is not modelled (name the RMAN level in "
            "backup.compression: basic, low, medium or high)."
        )
    out += _asm_named_notes(scenario)
    if b.level1 != "none" and scenario.recovery.incremental_apply_rate_Bps is None:
        out.append(
            "recovery.incremental_apply_rate is not given: the level 1 backups are taken to "
            "be applied as fast as they are restored (a class default: RMAN applies a backup "
            "set while it reads it), plus the overhead per incremental. Time the RECOVER of "
            "a level 1 in a test recovery and give the rate."
        )
    given = "offsite_delay" in (scenario.raw.get("backup") or {})
    if b.standby == "none" and b.offsite_delay_s == 0 and not given:
        out.append(
            "backup.offsite_delay is not given (0 s): the site-loss RPO assumes each backup "
            "is off site the moment it finishes (replicated disk). Give the vaulting or "
            "replication delay if backups leave the site later."
        )
    return out


ASM_COPIES = {"normal": 2, "high": 3}


def _asm_named_notes(scenario: Scenario) -> list[str]:
    """A datafile stage whose name says ASM normal/high redundancy but whose write factor
    is 1: the name promises mirrored writes the plan does not count (issue 23.9)."""
    out = []
    for i, st in enumerate(scenario.path):
        name = (st.name or "").lower()
        for level, copies in ASM_COPIES.items():
            named = f"asm {level}" in name or f"{level} redundancy" in name
            if st.kind == "storage_write" and named and st.write_factor == 1:
                out.append(
                    f"Stage {i + 1} ({st.label}) is named ASM {level} redundancy but its write "
                    f"factor is 1: a restore writes {copies} copies of every block there. "
                    f"Set its write factor to {copies}, or rename the stage."
                )
    return out


def _shoe_shine(scenario: Scenario, backup: PathModel) -> list[str]:
    """A tape drive fed below its minimum streaming rate stops, rewinds and restarts."""
    ratio = scenario.backup.compression_ratio
    out = []
    for st in scenario.path:
        if st.kind != "tape_drive" or not st.min_streaming_Bps:
            continue
        drives = min(st.count, backup.active_channels) or 1
        # What reaches the tape per drive, in native (compressed-on-tape) bytes.
        per_drive = backup.rate_Bps / ratio / drives
        native = per_drive / (st.hw_compression if ratio == 1.0 else 1.0)
        if native < st.min_streaming_Bps:
            out.append(
                f"{st.label} drives are fed about {format_rate(native)} each, below their "
                f"minimum streaming rate of {format_rate(st.min_streaming_Bps)}: they will "
                "shoe-shine (stop, rewind, restart). Use fewer drives per job, or feed them "
                "faster (more channels per drive is not the fix; a faster path is)."
            )
    return out
