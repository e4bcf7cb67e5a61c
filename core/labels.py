"""Each scenario input in a DBA's words, for the assumptions ledger and anything else
that shows a key to a person (`database.redo_rate` → "Redo generated")."""

from __future__ import annotations

import re

LABELS = {
    "database.size": "Database size (datafiles)",
    "database.largest_file": "Largest datafile",
    "database.redo_rate": "Redo generated",
    "database.daily_change": "Blocks changed per day",
    "database.growth": "Growth",
    "database.workload": "Workload class",
    "database.cpu_cores": "CPU cores for RMAN",
    "database.redo_growth": "Redo grows with the database",
    "backup.compression_ratio": "RMAN compression ratio",
    "backup.channels": "RMAN channels",
    "backup.channel_init": "Channel start-up, each",
    "backup.section_size": "Multisection size",
    "backup.level0_every": "Level 0 backup every",
    "backup.level1": "Level 1 backups",
    "backup.level1_every": "Level 1 backup every",
    "backup.archivelog_every": "Archived-log backup every",
    "backup.log_switch": "Log switch every",
    "backup.offsite_delay": "Until a backup is off site",
    "backup.standby": "Data Guard standby",
    "backup.transport_lag": "Redo transport lag",
    "backup.compression": "RMAN compression level",
    "backup.job_overhead": "Fixed time per RMAN job",
    "backup.block_change_tracking": "Block change tracking",
    "recovery.detect": "Detect, declare and prepare",
    "recovery.tape_recall": "Tape recall",
    "recovery.incremental_apply_rate": "Incremental apply rate",
    "recovery.incremental_overhead": "Overhead per incremental",
    "recovery.redo_apply_rate": "Redo apply rate",
    "recovery.archivelogs_on_disk": "Archived logs still on disk",
    "recovery.open": "Open the database",
    "recovery.incremental_size": "Incremental volume (override)",
    "recovery.redo_volume": "Redo volume (override)",
    "recovery.archivelog_restore": "Archived redo restored",
    "recovery.failover": "Failover to the standby",
    "targets.rto": "RTO",
    "targets.rpo": "RPO",
    "targets.backup_window": "Backup window",
    "targets.risk_margin": "Safety margin before the RTO",
}

STAGE_LABELS = {
    "kind": "Kind of stage",
    "name": "Name",
    "count": "Units",
    "rate": "Rate of one unit",
    "efficiency": "Efficiency",
    "carries": "Carries",
    "binds_channel": "One channel per unit",
    "hw_compression": "Drive compression",
    "max_rate": "Rate ceiling",
    "backup_rate": "Rate when backing up",
    "write_factor": "Writes per data byte on restore (ASM, RAID)",
    "shared": "Shared with other databases",
}

_STAGE_KEY = re.compile(r"path\[(\d+)\]\.(\w+)")


def label_for_key(dotted: str) -> str:
    """`database.redo_rate` → "Redo generated"; `path[2].rate` → "Rate of one unit"; an
    unknown key reads as its words ("some_key" → "Some key")."""
    m = _STAGE_KEY.fullmatch(dotted)
    if m:
        return STAGE_LABELS.get(m.group(2), m.group(2).replace("_", " ").capitalize())
    if dotted in LABELS:
        return LABELS[dotted]
    return dotted.rsplit(".", 1)[-1].replace("_", " ").capitalize()
