"""The scenario format's field table: every key of a scenario file, declared once.

Each entry (`FieldSpec`) says, for one dotted key, how the loader parses it (`kind`,
`choices`, `positive`, `required`), the physically sensible range of its value with the
reason (`bound`, core/bounds.py), what a DBA calls it (`label`: the editor's forms and
the PDF's assumptions ledger; `phrase`: the same inside a sentence, as the risk figures
name it), its help text (the editor's tooltips, docs/scenario-format.md), the unit the
ledger prints, what the ledger says when it is not set, its default, and whether it is an
uncertain quantity (a rate, size or time that can turn out differently, so a risk run
gives it a range) or a decision the customer takes (`policy`: a schedule, a count, a
choice, a target). Everything else is derived from this table: parsing and validation
(`load.py`), saving (`dump.py`), the generated key tables of docs/scenario-format.md
(`docs.py`), the GUI's section forms, the ledger's rows and words, and the addresses of
`[uncertainty]`.

Adding a key
------------
1. One entry below, in the section and at the place the file should write it:

       entry("database.log_size", "size", positive=True, bound=FILE_SIZE,
             label="Online redo log size", help="Size of one online redo log file."),

2. The model attribute it sets (`model.py`, named `key` + the unit suffix `_bytes`,
   `_Bps` or `_s`, with the format's default): `log_size_bytes: float | None = None`.
   The loader fills it from the table; a test checks table and model agree.
3. Its engine use: the formula that reads `scenario.database.log_size_bytes`.

Then `python3 dev.py docs` regenerates docs/scenario-format.md (a test fails while it is
stale). Adding a column is one attribute of `FieldSpec` (with a default, so existing
entries need not say it) and its use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..bounds import (
    ANY_DURATION,
    ARCHIVELOG_EVERY,
    BACKUP_WINDOW,
    CHANNELS,
    CONFIDENCE,
    COUNT,
    DB_SIZE,
    EFFICIENCY,
    FILE_SIZE,
    LEVEL0_EVERY,
    LEVEL1_EVERY,
    LOG_SIZE,
    NAME_CHARS,
    NOTES_CHARS,
    RATIO,
    REDO_RATE,
    RPO,
    RTO,
    SHORT_DURATION,
    TEXT_CHARS,
    UNIT_RATE,
    VOLUME,
    WRITE_FACTOR,
    Bound,
)

FORMAT_VERSION = 1

STAGE_KINDS = (
    "tape_drive",
    "disk",
    "nas_head",
    "media_server",
    "network",
    "channel",
    "cpu",
    "storage_write",
    "measured",
    "backup_appliance",
    "object_storage",
)
CARRIES_BACKUP_BY_DEFAULT = frozenset({
    "tape_drive", "disk", "nas_head", "media_server", "network", "backup_appliance",
    "object_storage",
})  # fmt: skip
PER_CHANNEL_KINDS = frozenset({"channel", "object_storage"})
"""Kinds whose rate is what one RMAN channel gets, whatever `count`: an RMAN channel's own
ceiling, and object storage, where each channel is one stream of requests to a service
that scales out (the path's other stages, the host's link above all, bound the sum)."""
WORKLOADS = ("oltp", "mixed", "batch")
LEVEL1_KINDS = ("cumulative", "differential", "none")
STANDBY_KINDS = ("none", "async", "sync")
COMPRESSION_LEVELS = ("none", "basic", "low", "medium", "high")
REDO_GROWTH_KINDS = ("with_size", "constant")
ARCHIVELOG_RESTORE_KINDS = ("serial", "parallel")

RANGED_KINDS = ("size", "rate", "duration", "fraction", "ratio", "float")
"""Field kinds that are quantities: a range can apply to them (unless `policy`)."""

_SUFFIX = {"size": "_bytes", "rate": "_Bps", "duration": "_s"}
"""A key's model attribute is the key with its unit: `size` → `size_bytes`."""

_UNIT_BY_KIND = {
    "size": "data bytes",
    "rate": "bytes/s",
    "duration": "duration",
    "fraction": "%",
    "ratio": "ratio",
    "int": "count",
    "float": "factor",
    "bool": "yes/no",
    "choice": "option",
    "growth": "per year",
    "margin": "share of RTO or time",
    "str": "text",
}


@dataclass(frozen=True)
class FieldSpec:
    """One key of the format: how to parse it, its bounds, and its words for people.

    Columns left at their default are derived in `__post_init__` (the label from the
    key's words, the unit from the kind, the model attribute from key and kind)."""

    key: str
    kind: str  # size rate duration fraction ratio int float bool str choice growth margin
    required: bool = False
    choices: tuple[str, ...] = ()
    positive: bool = False
    help: str = ""
    bound: Bound | None = None
    """The physically sensible range of the parsed value (of its length for text);
    a value outside is refused with the bound's reason (core/bounds.py)."""
    section: str = ""
    """"" (top level), "database", "backup", "path" (each stage), "recovery", "targets"."""
    label: str = ""
    """What a DBA calls it: the editor's form label, the ledger's row."""
    header: str = ""
    """The label as a column header of the editor's stage table, where it must be short."""
    phrase: str = ""
    """The label inside a sentence (lower case): how risk figures name it."""
    unit: str = ""
    """The unit in words, as the ledger prints it (`redo bytes/s`)."""
    unset: str = "not set"
    """What the ledger prints when the key is not set and has no default."""
    default: str = ""
    """The default in words, when it is not the model's plain default (docs)."""
    policy: bool = False
    """A quantity the customer decides (a schedule, a configuration): no range."""
    attr: str | None = ""
    """The model attribute the key sets (`size_bytes`); None when it has no plain one."""
    provenance: str = ""
    """Where an uncertain figure comes from when the file does not give it: "catalog" (a
    catalog item's datasheet figure), "default" (a class default), "" (the format's
    default: nothing stated, not a figure). A typed figure is an estimate unless the
    `[provenance]` table says otherwise (core/scenario/provenance.py)."""
    prior: str = ""
    """The prior of the figure as a catalog figure or class default: `kind.figure` of a
    `[[prior]]` table in data/catalog/ (`redo_apply.rate`); `stage.` is the stage's own
    kind (`stage.rate`), `default.` a class default outside the catalog."""

    def __post_init__(self) -> None:
        words = self.key.replace("_", " ")
        derived = {
            "label": words.capitalize(),
            "header": self.label or words.capitalize(),
            "phrase": words,
            "unit": _UNIT_BY_KIND.get(self.kind, ""),
            "attr": self.key + _SUFFIX.get(self.kind, ""),
        }
        for name, value in derived.items():
            if getattr(self, name) == "":
                object.__setattr__(self, name, value)

    @property
    def dotted(self) -> str:
        """`database.size`, `path[].rate` (any stage), `name` (top level)."""
        if not self.section:
            return self.key
        return f"path[].{self.key}" if self.section == "path" else f"{self.section}.{self.key}"

    @property
    def uncertain(self) -> bool:
        """A figure that can turn out differently: a risk run gives it a range."""
        return self.kind in RANGED_KINDS and not self.policy and self.section not in (
            "", "targets")  # fmt: skip


def entry(dotted: str, kind: str, **columns: object) -> FieldSpec:
    """A table entry by its dotted key: `entry("backup.channels", "int", …)`."""
    section, _, key = dotted.rpartition(".")
    return FieldSpec(key, kind, section=section.removesuffix("[]"), **columns)  # type: ignore[arg-type]


# fmt: off
FIELDS: tuple[FieldSpec, ...] = (
    # ------------------------------------------------------------------ top level
    entry("format", "int", help="Scenario format version.", attr=None,
          default="1, this version"),
    entry("name", "str", required=True, help="Scenario name.", bound=NAME_CHARS),
    entry("customer", "str", help="Customer the plan is for.", bound=TEXT_CHARS),
    entry("author", "str", help="Who prepared the plan.", bound=TEXT_CHARS),
    entry("notes", "str", help="Free text printed in the report.", bound=NOTES_CHARS),
    # ------------------------------------------------------------------ [database]
    entry("database.size", "size", required=True, positive=True, bound=DB_SIZE,
          label="Database size (datafiles)", phrase="database size",
          help="Datafile bytes a restore must write (allocated size, not used space)."),
    entry("database.largest_file", "size", positive=True, bound=FILE_SIZE,
          label="Largest datafile", phrase="largest datafile",
          unset="not set (no single-file bound)",
          help="Largest datafile: without multisection one channel must move it alone."),
    entry("database.redo_rate", "rate", bound=REDO_RATE,
          label="Redo generated", phrase="redo generation rate", unit="redo bytes/s",
          help="Average redo generation (AWR Load Profile 'Redo size' per second)."),
    entry("database.daily_change", "fraction",
          label="Blocks changed per day", unit="share of the database per day",
          help="Distinct blocks changed per day, as a share of the database."),
    entry("database.growth", "growth", label="Growth", unset="not set (no outlook)",
          attr=None, help="Growth per year, e.g. '25%/y' or '2 TB/y'."),
    entry("database.workload", "choice", choices=WORKLOADS, label="Workload class",
          help="oltp, mixed or batch: picks the redo apply default from the catalog."),
    entry("database.cpu_cores", "int", positive=True, label="CPU cores for RMAN",
          unit="cores", unset="not set (compression CPU not modelled)",
          help="Cores RMAN may use on the database hosts: one channel compresses or "
               "decompresses on one core."),
    entry("database.log_size", "size", positive=True, bound=LOG_SIZE,
          label="Archived log size", phrase="archived log size", unit="redo bytes per log",
          unset="not set (the cost per log is not counted)",
          help="Size of one archived redo log (V$ARCHIVED_LOG BLOCKS × BLOCK_SIZE): redo "
               "apply pays a fixed cost per log."),
    entry("database.redo_growth", "choice", choices=REDO_GROWTH_KINDS,
          label="Redo grows with the database",
          help="with_size: redo generation grows with the database (default); "
               "constant: it stays as measured."),
    # ------------------------------------------------------------------ [backup]
    entry("backup.compression_ratio", "ratio", positive=True, bound=RATIO,
          provenance="catalog", prior="rman_compression.ratio",
          label="RMAN compression ratio", phrase="RMAN compression ratio",
          unit="data bytes per backup byte", default="1 (the catalog's with a level)",
          help="RMAN compression: data bytes per backup byte (1.0 = uncompressed)."),
    entry("backup.channels", "int", positive=True, bound=CHANNELS,
          label="RMAN channels", unit="channels",
          help="RMAN channels allocated for restore."),
    entry("backup.channel_init", "duration", bound=SHORT_DURATION,
          prior="default.backup.channel_init", label="Channel start-up, each",
          phrase="channel start-up",
          unit="time per channel",
          help="Serial start-up per channel: media manager session, mount, position."),
    entry("backup.section_size", "size", positive=True, bound=FILE_SIZE, policy=True,
          label="Multisection size", unit="data bytes per piece",
          unset="not set (no multisection)",
          help="Multisection SECTION SIZE: the largest piece one channel moves."),
    entry("backup.level0_every", "duration", positive=True, bound=LEVEL0_EVERY, policy=True,
          label="Level 0 backup every", help="Interval between level 0 backups."),
    entry("backup.level1", "choice", choices=LEVEL1_KINDS, label="Level 1 backups",
          default="none; cumulative when level1_every is given",
          help="Level 1 incrementals: cumulative, differential or none."),
    entry("backup.level1_every", "duration", positive=True, bound=LEVEL1_EVERY, policy=True,
          label="Level 1 backup every", help="Interval between level 1 backups."),
    entry("backup.archivelog_every", "duration", positive=True, bound=ARCHIVELOG_EVERY,
          policy=True, label="Archived-log backup every",
          help="Interval between archived redo log backups."),
    entry("backup.log_switch", "duration", bound=SHORT_DURATION, policy=True,
          label="Log switch every",
          help="Typical time between log switches (redo not yet archived)."),
    entry("backup.offsite_delay", "duration", bound=ANY_DURATION, policy=True,
          label="Until a backup is off site",
          help="Time until a backup is off site (tape vaulting); 0 for replicated disk."),
    entry("backup.standby", "choice", choices=STANDBY_KINDS, label="Data Guard standby",
          help="Data Guard standby: none, async or sync."),
    entry("backup.transport_lag", "duration", bound=SHORT_DURATION, policy=True,
          label="Redo transport lag", help="Redo transport lag of an async standby."),
    entry("backup.compression", "choice", choices=COMPRESSION_LEVELS,
          label="RMAN compression level", unset="not named",
          help="RMAN compression level: none, basic, low, medium or high; the ratio and "
               "the per-core CPU rates come from the catalog. Not named: the ratio as "
               "given, with no compression CPU."),
    entry("backup.job_overhead", "duration", bound=SHORT_DURATION,
          prior="default.backup.job_overhead", label="Fixed time per RMAN job",
          unit="time per RMAN job",
          help="Fixed time per RMAN job and restore phase: media-manager session, "
               "catalog resync (a small tape job pays 2.5-3 min)."),
    entry("backup.block_change_tracking", "bool", label="Block change tracking",
          help="Block change tracking on: level 1 backups read only changed blocks. "
               "Off (Oracle's default): they read the whole database."),
    # ------------------------------------------------------------------ [[path]]
    entry("path[].kind", "choice", required=True, choices=STAGE_KINDS, label="Kind of stage",
          header="Kind",
          help="What the stage is: tape_drive, disk, nas_head, media_server, network, "
               "channel, cpu, storage_write, measured, backup_appliance (a Recovery "
               "Appliance rack) or object_storage (a cloud bucket, per RMAN channel)."),
    entry("path[].name", "str", bound=TEXT_CHARS, label="Name",
          help="A label; a catalog item's name fills the rate when no rate is given."),
    entry("path[].count", "int", positive=True, bound=COUNT, label="Units", unit="units",
          help="How many units work in parallel."),
    entry("path[].rate", "rate", positive=True, bound=UNIT_RATE, label="Rate of one unit",
          provenance="catalog", prior="stage.rate",
          default="the catalog item's, by name",
          help="Rate of one unit (datasheet or measured), in what the stage carries."),
    entry("path[].efficiency", "fraction", positive=True, bound=EFFICIENCY,
          provenance="catalog",
          label="Efficiency", unit="share of the rate", default="1 (the catalog's derate)",
          help="Practical share of the datasheet rate (LTO streams at 85-90 %)."),
    entry("path[].carries", "choice", choices=("backup", "data"), label="Carries",
          default="backup for media, disks and links; data otherwise",
          help="backup: compressed backup bytes flow here; data: datafile bytes."),
    entry("path[].binds_channel", "bool", label="One channel per unit", header="Binds channel",
          default="true for tape_drive",
          help="Each unit serves one channel at a time (tape drives do)."),
    entry("path[].hw_compression", "ratio", positive=True, bound=RATIO,
          provenance="catalog", prior="tape_drive.hw_compression",
          label="Drive compression", header="Drive compression", unit="data bytes per tape byte",
          help="Tape drive compression ratio on uncompressed data."),
    entry("path[].max_rate", "rate", positive=True, bound=UNIT_RATE, label="Rate ceiling",
          provenance="catalog",
          help="Ceiling of one unit whatever the compression, e.g. a tape drive's host "
               "interface (LTO-9 on 8 Gb FC: 750 MB/s)."),
    entry("path[].backup_rate", "rate", positive=True, bound=UNIT_RATE, policy=True,
          label="Rate when backing up", header="Backup rate",
          help="Rate in the backup direction when it differs (compression on CPU)."),
    entry("path[].restore_rate", "rate", positive=True, bound=UNIT_RATE, policy=True,
          label="Rate when restoring", header="Restore rate",
          help="Rate in the restore direction when it differs from the rate (restore is not "
               "backup in reverse: reads from tape, decompression, writes with allocation)."),
    entry("path[].write_factor", "float", positive=True, bound=WRITE_FACTOR, policy=True,
          label="Writes per data byte on restore (ASM, RAID)", header="Write factor",
          unit="writes per data byte",
          help="Storage writes per data byte on restore: 2 for ASM normal, 3 for high "
               "redundancy, about 1.33 for RAID 5. Backups read one copy."),
    entry("path[].shared", "str", bound=TEXT_CHARS, label="Shared with other databases",
          header="Shared",
          help="In an estate: the [[shared]] resource (tape library, media servers, "
               "link) this stage uses with the other databases."),
    # ------------------------------------------------------------------ [recovery]
    entry("recovery.detect", "duration", bound=ANY_DURATION,
          label="Detect, declare and prepare", phrase="declare / prepare time",
          help="Time to declare the failure and prepare the restore."),
    entry("recovery.tape_recall", "duration", bound=ANY_DURATION, label="Tape recall",
          phrase="tape recall time",
          help="Time to bring tapes back on site (0 if on site)."),
    entry("recovery.incremental_apply_rate", "rate", positive=True, bound=UNIT_RATE,
          label="Incremental apply rate", phrase="incremental apply rate",
          unit="data bytes/s",
          default="the incremental restore's own rate (a class default)",
          help="Rate at which RMAN applies incremental backups to restored datafiles; "
               "by default the apply keeps pace with the restore of the level 1 backups."),
    entry("recovery.incremental_overhead", "duration", bound=SHORT_DURATION,
          label="Overhead per incremental", phrase="overhead per incremental",
          unit="time per backup",
          help="Fixed time per incremental backup applied (catalog, open, close)."),
    entry("recovery.redo_apply_rate", "rate", positive=True, bound=UNIT_RATE,
          provenance="default", prior="redo_apply.rate",
          label="Redo apply rate", phrase="redo apply rate", unit="redo bytes/s",
          default="the catalog's for the workload class",
          help="Media recovery rate: a timed test recovery's redo ÷ time, which holds the "
               "cost of each log (V$RECOVERY_PROGRESS 'Average Apply Rate')."),
    entry("recovery.redo_log_cost", "duration", bound=SHORT_DURATION,
          provenance="default", prior="redo_apply.log_cost",
          label="Apply cost per archived log", phrase="apply cost per archived log",
          unit="time per log",
          default="the catalog's for the workload class (39 s), with the class's apply rate only",
          help="Fixed time media recovery spends per archived log besides the redo itself: "
               "opening the log, the checkpoint at its end (V$RECOVERY_PROGRESS 'Apply Time "
               "per Log', 'Checkpoint Time per Log')."),
    entry("recovery.archivelogs_on_disk", "bool", label="Archived logs still on disk",
          help="Archived logs since the last incremental are still on disk."),
    entry("recovery.open", "duration", bound=SHORT_DURATION, label="Open the database",
          phrase="open time", help="Time to open the database (RESETLOGS, checks)."),
    entry("recovery.incremental_size", "size", bound=VOLUME,
          label="Incremental volume (override)", phrase="incremental size (override)",
          unset="not set (from the daily change)",
          help="Override: size of the incremental backups to restore and apply."),
    entry("recovery.redo_volume", "size", bound=VOLUME, label="Redo volume (override)",
          phrase="redo volume (override)", unit="redo bytes",
          unset="not set (from the redo rate)", help="Override: redo to restore and apply."),
    entry("recovery.archivelog_restore", "choice", choices=ARCHIVELOG_RESTORE_KINDS,
          label="Archived redo restored",
          help="serial: archived redo is restored after the incrementals; parallel: "
               "beside the level 0, sharing the path."),
    entry("recovery.failover", "duration", bound=SHORT_DURATION,
          label="Failover to the standby", unset="not set (no failover route)",
          help="Time to fail over to the standby after a site loss (with backup.standby)."),
    # ------------------------------------------------------------------ [targets]
    entry("targets.rto", "duration", required=True, positive=True, bound=RTO, label="RTO",
          help="Recovery time objective."),
    entry("targets.rpo", "duration", bound=RPO, label="RPO",
          help="Recovery point objective: the data loss allowed."),
    entry("targets.backup_window", "duration", positive=True, bound=BACKUP_WINDOW,
          label="Backup window", help="Time a level 0 or level 1 backup may take."),
    entry("targets.risk_margin", "margin", label="Safety margin before the RTO",
          attr=None, default="10% of the RTO",
          help="Margin below which a plan that meets the RTO is 'at risk' "
               "(share of the RTO, or a duration)."),
    entry("targets.confidence", "fraction", bound=CONFIDENCE, label="Confidence required",
          phrase="confidence required", unit="share of trials", default="90%",
          help="How sure the plan must be: the share of trials (every uncertain figure drawn "
               "from its range) that meet every target at once. Below it the plan is 'at "
               "risk', below 50 % it 'misses', whatever it does at its planned figures."),
)
# fmt: on

SECTION_NAMES = ("database", "backup", "recovery", "targets")
"""The plain tables of the format (`[[path]]` is an array of tables)."""
TABLE_KEYS = ("database", "backup", "path", "recovery", "targets", "provenance", "uncertainty")
"""The tables a scenario may have, in the order a file writes them."""


def _section(name: str) -> tuple[FieldSpec, ...]:
    return tuple(s for s in FIELDS if s.section == name)


TOP_FIELDS = _section("")
DATABASE_FIELDS = _section("database")
BACKUP_FIELDS = _section("backup")
STAGE_FIELDS = _section("path")
RECOVERY_FIELDS = _section("recovery")
TARGETS_FIELDS = _section("targets")
SECTIONS: dict[str, tuple[FieldSpec, ...]] = {name: _section(name) for name in SECTION_NAMES}

_BY_DOTTED = {s.dotted: s for s in FIELDS}
_DOTTED_STAGE = re.compile(r"path\[(\d*)\]\.(\w+)")


def field_spec(section: str, key: str) -> FieldSpec:
    """The spec of `key` in `section` ("path" for a stage, anything else for top level)."""
    section = section if section == "path" or section in SECTIONS else ""
    spec = _BY_DOTTED.get(FieldSpec(key, "str", section=section).dotted)
    if spec is None:
        raise KeyError(f"{section}.{key}")
    return spec


def spec_for_key(key: str) -> FieldSpec | None:
    """The field spec of a dotted key (`backup.channels`, `path[2].rate`, `name`)."""
    m = _DOTTED_STAGE.fullmatch(key)
    return _BY_DOTTED.get(f"path[].{m.group(2)}" if m else key)


def label_for_key(dotted: str) -> str:
    """`database.redo_rate` → "Redo generated"; `path[2].rate` → "Rate of one unit"; an
    unknown key reads as its words ("some_key" → "Some key")."""
    spec = spec_for_key(dotted)
    return spec.label if spec else dotted.rsplit(".", 1)[-1].replace("_", " ").capitalize()
