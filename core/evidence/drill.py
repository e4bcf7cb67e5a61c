"""A drill: a timed test restore and recovery, its phases measured from the evidence.

`drill_from_evidence(files)` reads what the files tell about each of the plan's phases
(DESIGN §3.4) and keeps, per phase, the best measurement and how it was taken:

* `wall` — between two printed times (RMAN's `Starting …`/`Finished …` with a time of
  day, or V$RMAN_STATUS START_TIME/END_TIME): the phase as a clock on the wall saw it;
* `channels` — the busiest channel's summed `elapsed time`s: what a log written with the
  default NLS_DATE_FORMAT (dates without times) still tells; it leaves out channel
  start-up and the gaps between backup sets, so it reads short;
* `typed` — a figure the user gave (`--phase open=4min`): what no log records (declaring
  the failure, the open after `alter database open`).

Phases: `restore_level0` (RESTORE of datafiles), `restore_incremental` and
`apply_incremental` (RECOVER applies each incremental as it reads it: one measured time
for both), `restore_archivelogs` (archived logs restored during RECOVER or by RESTORE
ARCHIVELOG), `redo_apply` (RMAN's `media recovery complete, elapsed time`, which runs
from `starting media recovery` and so includes the archived-log restores it started:
they are taken out), `open` (from V$RMAN_STATUS when the open was the session's last
command). Backup runs in the evidence become `backup.level0|level1|archivelog`.
Volumes come from V$RMAN_STATUS (bytes written), RESTORE PREVIEW (backup set sizes) and
V$RECOVERY_PROGRESS (`Redo Applied`). What could not be timed is said in `notes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..errors import CoreError
from ..importers.preview import RestorePreview
from ..importers.recovery_snapshots import RecoverySnapshot
from ..importers.restore_evidence import EvidenceFile
from ..importers.rman_log import RmanCommand, RmanLog
from ..importers.rman_status import RmanOperation
from ..jsonable import json_ready
from ..result import PHASE_NAMES
from ..units import format_duration

BACKUP_PHASES = ("backup.level0", "backup.level1", "backup.archivelog")
PHASE_ORDER = PHASE_NAMES + BACKUP_PHASES
HOW = ("wall", "channels", "typed")


class DrillError(CoreError, ValueError):
    """Evidence from which no drill can be built (nothing timed in it)."""


@dataclass(frozen=True)
class MeasuredPhase:
    """One phase as the drill measured it."""

    name: str
    duration_s: float
    how: str
    source: str
    """Where the figure comes from, in words (file and what in it)."""
    data_bytes: float | None = None
    count: int | None = None
    """Backups applied (incremental phases), archived logs (archived-log restore)."""

    @property
    def rate_Bps(self) -> float | None:
        if self.data_bytes and self.duration_s > 0:
            return self.data_bytes / self.duration_s
        return None


@dataclass(frozen=True)
class Drill:
    """What a test restore and recovery measured (all times in seconds, volumes bytes)."""

    phases: tuple[MeasuredPhase, ...]
    started: datetime | None = None
    ended: datetime | None = None
    database: str | None = None
    dbid: int | None = None
    channels: int | None = None
    level0_bytes: float | None = None
    incremental_bytes: float | None = None
    incremental_count: int | None = None
    redo_bytes: float | None = None
    archived_logs: int | None = None
    sources: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    failed: str | None = None

    def phase(self, name: str) -> MeasuredPhase | None:
        return next((p for p in self.phases if p.name == name), None)

    @property
    def elapsed_s(self) -> float | None:
        """First start to last end on the wall clock, when both are known."""
        if self.started and self.ended:
            return (self.ended - self.started).total_seconds()
        return None

    def to_dict(self) -> dict[str, Any]:
        return json_ready(self)


def drill_from_dict(d: dict[str, Any]) -> Drill:
    """The inverse of `Drill.to_dict` (what the store keeps)."""
    phases = tuple(MeasuredPhase(**p) for p in d.get("phases", ()))
    when = {k: datetime.fromisoformat(d[k]) if d.get(k) else None for k in ("started", "ended")}
    rest = {k: v for k, v in d.items() if k not in ("phases", "started", "ended")}
    rest["sources"] = tuple(rest.get("sources", ()))
    rest["notes"] = tuple(rest.get("notes", ()))
    return Drill(phases=phases, **when, **rest)


# ---------------------------------------------------------------------- gathering


@dataclass
class _Acc:
    """Measurements gathered from the files; the best per phase wins."""

    phases: dict[str, MeasuredPhase] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    starts: list[datetime] = field(default_factory=list)
    ends: list[datetime] = field(default_factory=list)

    def offer(self, phase: MeasuredPhase) -> None:
        """Keep `phase` unless a better-taken measurement of it is there already."""
        old = self.phases.get(phase.name)
        if old is None or _better(phase, old):
            if old is not None and old.data_bytes is not None and phase.data_bytes is None:
                phase = replace(phase, data_bytes=old.data_bytes)
            self.phases[phase.name] = phase

    def fact(self, key: str, value: Any) -> None:
        if value is not None and self.facts.get(key) is None:
            self.facts[key] = value


def _better(new: MeasuredPhase, old: MeasuredPhase) -> bool:
    """Whether `new` is better taken than `old`: by how (wall, channels, typed), then with
    a volume rather than without."""
    if HOW.index(new.how) != HOW.index(old.how):
        return HOW.index(new.how) < HOW.index(old.how)
    return old.data_bytes is None and new.data_bytes is not None


def _timed(
    cmd: RmanCommand, kinds: tuple[str, ...], src: str, what: str
) -> tuple[float, str, str] | None:
    """(seconds, how, source words) of a command's steps of `kinds`."""
    only = all(s.kind in kinds for s in cmd.steps)
    if only and cmd.wall_s is not None and cmd.finished:
        return cmd.wall_s, "wall", f"{src}: {what} from 'Starting' to 'Finished' {cmd.verb}"
    ch = cmd.channel_s(*kinds)
    if ch is not None:
        return ch, "channels", f"{src}: {what}, the busiest channel's elapsed times"
    return None


def _from_restore(acc: _Acc, cmd: RmanCommand, src: str) -> None:
    if cmd.steps_of("datafile"):
        _restored_datafiles(acc, cmd, src)
    elif cmd.steps_of("archivelog"):
        _restored_archivelogs(acc, cmd, src)
    elif cmd.steps_of("controlfile", "spfile") and cmd.wall_s is not None:
        _restored_controlfile(acc, cmd.wall_s, src)


def _restored_datafiles(acc: _Acc, cmd: RmanCommand, src: str) -> None:
    """The level 0 restore, timed when it finished (else a note)."""
    got = _timed(cmd, ("datafile",), src, "restore of the datafiles")
    if got and cmd.finished:
        acc.offer(MeasuredPhase("restore_level0", got[0], got[1], got[2]))
    elif not cmd.finished:
        acc.notes.append(
            f"{src}: the restore of the datafiles did not finish "
            "(the log ends or fails before 'Finished restore'): not timed"
        )


def _restored_archivelogs(acc: _Acc, cmd: RmanCommand, src: str) -> None:
    """A RESTORE ARCHIVELOG: its time and how many logs."""
    got = _timed(cmd, ("archivelog",), src, "restore of archived logs")
    if got:
        n = sum(len(s.sequences) for s in cmd.steps_of("archivelog"))
        acc.offer(MeasuredPhase("restore_archivelogs", got[0], got[1], got[2], count=n))


def _restored_controlfile(acc: _Acc, wall_s: float, src: str) -> None:
    """A note: the control file's restore is part of a phase no log times whole."""
    acc.notes.append(
        f"{src}: control file restored in {format_duration(wall_s)} "
        "(part of 'declare / prepare', which a log does not time whole)"
    )


def _from_recover(acc: _Acc, cmd: RmanCommand, src: str) -> None:
    if cmd.steps_of("incremental"):
        _applied_incrementals(acc, cmd, src)
    arch_s = cmd.channel_s("archivelog")
    if arch_s is not None:
        _archivelogs_during_recovery(acc, cmd, src, arch_s)
    _redo(acc, cmd, src, arch_s or 0.0)


def _applied_incrementals(acc: _Acc, cmd: RmanCommand, src: str) -> None:
    """Incrementals restored and applied by RECOVER: one channel time for both phases."""
    ch = cmd.channel_s("incremental")
    n = len({t for s in cmd.steps_of("incremental") for t in s.tags}) or None
    if ch is not None and (cmd.media_recovery_started or cmd.finished):
        how_src = (
            f"{src}: incremental backups restored and applied, the busiest channel's elapsed times"
        )
        for name in ("restore_incremental", "apply_incremental"):
            acc.offer(MeasuredPhase(name, ch, "channels", how_src, count=n))
    acc.fact("incremental_count", n)


def _archivelogs_during_recovery(acc: _Acc, cmd: RmanCommand, src: str, arch_s: float) -> None:
    """Archived logs RECOVER restored: the busiest channel's time and how many."""
    logs = sum(len(s.sequences) for s in cmd.steps_of("archivelog"))
    acc.offer(
        MeasuredPhase(
            "restore_archivelogs",
            arch_s,
            "channels",
            f"{src}: archived logs restored during recovery, the busiest channel's elapsed times",
            count=logs,
        )
    )
    acc.fact("archived_logs", logs)


def _redo(acc: _Acc, cmd: RmanCommand, src: str, arch_s: float) -> None:
    if cmd.media_recovery_s is not None:
        apply_s = max(cmd.media_recovery_s - arch_s, 0.0)
        words = f"{src}: 'media recovery complete, elapsed time'"
        if arch_s:
            words += " less the archived-log restores within it"
        acc.offer(MeasuredPhase("redo_apply", apply_s, "wall", words))
    elif cmd.failed:
        acc.notes.append(f"{src}: recovery failed ({cmd.failed}): redo apply not timed")
    elif cmd.media_recovery_started:
        acc.notes.append(
            f"{src}: media recovery started but the log ends before it completes: "
            "redo apply not timed"
        )


_BACKUP_KINDS = {
    "backup_level0": "backup.level0",
    "backup_full": "backup.level0",
    "backup_level1": "backup.level1",
    "backup_archivelog": "backup.archivelog",
}
"""The backup phase each kind of RMAN backup step times."""


def _from_backup(acc: _Acc, cmd: RmanCommand, src: str) -> None:
    kinds = _BACKUP_KINDS
    present = {kinds[s.kind] for s in cmd.steps if s.kind in kinds}
    for phase in sorted(present):
        mine = tuple(k for k, v in kinds.items() if v == phase)
        got = _timed(cmd, mine, src, f"{phase.split('.')[1]} backup")
        if got and cmd.finished:
            acc.offer(MeasuredPhase(phase, got[0], got[1], got[2]))


def _name(source: str) -> str:
    """A file's name for the notes (the sources keep the path as given)."""
    return source.replace("\\", "/").rsplit("/", 1)[-1]


def _from_log(acc: _Acc, log: RmanLog) -> None:
    src = _name(log.source)
    _log_facts(acc, log)
    for cmd in log.commands:
        _from_command(acc, cmd, src)
    if not log.timed:
        acc.notes.append(
            f"{src}: written with the default NLS_DATE_FORMAT (dates without times): phases are "
            "timed by the channels' elapsed times, which leave out channel start-up and the "
            "gaps between backup sets; set NLS_DATE_FORMAT='YYYY-MM-DD HH24:MI:SS' before a drill"
        )
    if not log.complete:
        acc.notes.append(f"{src}: the log is cut off (no 'Recovery Manager complete.')")


def _log_facts(acc: _Acc, log: RmanLog) -> None:
    """The session's start, database, DBID and how many channels restored."""
    acc.fact("session_start", log.session_start)
    acc.fact("database", log.database)
    acc.fact("dbid", log.dbid)
    channels = {s.channel for c in log.commands for s in c.steps if not s.kind.startswith("backup")}
    acc.fact("channels", len(channels) or None)


_BY_VERB = {"restore": _from_restore, "recover": _from_recover, "backup": _from_backup}
"""What each RMAN command verb measures."""


def _from_command(acc: _Acc, cmd: RmanCommand, src: str) -> None:
    """One RMAN command: its phases, its failure, its span on the wall clock."""
    measure = _BY_VERB.get(cmd.verb)
    if measure is not None:
        measure(acc, cmd, src)
    if cmd.failed and cmd.verb != "recover":
        acc.notes.append(f"{src}: {cmd.verb} failed ({cmd.failed})")
    _span(acc, cmd)


def _span(acc: _Acc, cmd: RmanCommand) -> None:
    if cmd.verb in ("restore", "recover") and cmd.start and cmd.start.timed:
        acc.starts.append(cmd.start.at)
        end = cmd.end or cmd.failed_at
        if end and end.timed:
            acc.ends.append(end.at)


def _from_status(acc: _Acc, ops: list[RmanOperation], src: str) -> None:
    restores = [o for o in ops if o.operation == "RESTORE" and o.completed and o.end]
    if restores:
        _restore_row(acc, max(restores, key=lambda o: o.data_bytes or 0), src)
    for o in ops:
        if o.start and o.operation in ("RESTORE", "RECOVER"):
            acc.starts.append(o.start)
        if o.end and o.operation in ("RESTORE", "RECOVER"):
            acc.ends.append(o.end)
    _open_from_session(acc, ops, src)


def _restore_row(acc: _Acc, big: RmanOperation, src: str) -> None:
    """The level 0 restore from V$RMAN_STATUS's largest completed RESTORE row."""
    acc.offer(
        MeasuredPhase(
            "restore_level0",
            big.elapsed_s or 0.0,
            "wall",
            f"{src}: RESTORE row, START_TIME to END_TIME (line {big.line})",
            data_bytes=big.data_bytes,
        )
    )
    acc.fact("level0_bytes", big.data_bytes)


def _open_from_session(acc: _Acc, ops: list[RmanOperation], src: str) -> None:
    """The open, when it was the session's last command: session END_TIME − RECOVER's."""
    session = next((o for o in ops if o.row_type == "SESSION" and o.end), None)
    recover = [o for o in ops if o.operation == "RECOVER" and o.completed and o.end]
    if session and recover and acc.facts.get("opened"):
        last = max(o.end for o in recover if o.end)
        if session.end and session.end >= last:
            acc.offer(
                MeasuredPhase(
                    "open",
                    (session.end - last).total_seconds(),
                    "wall",
                    f"{src}: the RMAN session's END_TIME after RECOVER's "
                    "(the open was the session's last command)",
                )
            )
            acc.ends.append(session.end)


def _from_preview(acc: _Acc, p: RestorePreview, ratio: float) -> None:
    if p.summary:
        acc.notes.append(f"{_name(p.source)}: PREVIEW SUMMARY prints no sizes: no volumes from it")
        return
    lvl0 = [s.size_bytes for s in p.of_level("0") if s.size_bytes]
    lvl1 = p.of_level("1")
    if lvl0:
        acc.fact("level0_bytes", sum(lvl0) * ratio)
    if lvl1:
        acc.fact("incremental_bytes", sum(s.size_bytes or 0 for s in lvl1) * ratio)
        acc.fact("incremental_count", len({s.tag for s in lvl1}) or None)


def _from_recovery(acc: _Acc, snaps: list[RecoverySnapshot]) -> None:
    last = snaps[-1]
    acc.fact("redo_bytes", last.redo_applied_bytes)
    if last.log_files:
        acc.fact("archived_logs", int(last.log_files))


def drill_from_evidence(
    files: list[EvidenceFile],
    *,
    typed: dict[str, float] | None = None,
    compression_ratio: float = 1.0,
) -> Drill:
    """The drill the files measured; `typed` adds phases no file can time (seconds by phase
    name). `DrillError` when nothing in the files times a phase of the plan."""
    acc = _Acc()
    for f in files:
        if f.kind == "rman_log":
            acc.fact("opened", f.log.opened_line is not None)
            _from_log(acc, f.log)
    for f in files:
        _from_table(acc, f, compression_ratio)
    for name, seconds in (typed or {}).items():
        acc.offer(MeasuredPhase(name, seconds, "typed", "typed by the user"))
    return _assemble(acc, files)


def _from_table(acc: _Acc, f: EvidenceFile, compression_ratio: float) -> None:
    """What a file other than an RMAN log adds: times, volumes, or a note that it can't."""
    if f.kind == "rman_status":
        _from_status(acc, f.operations, _name(f.source))
    elif f.kind == "preview":
        _from_preview(acc, f.preview, compression_ratio)
    elif f.kind == "recovery":
        _from_recovery(acc, f.recovery)
    elif f.kind in ("longops", "rman_jobs"):
        acc.notes.append(
            f"{_name(f.source)}: {f.kind} evidence is for the recovery clock and "
            "imports, not for a drill's phases"
        )


def _nothing_timed(files: list[EvidenceFile]) -> DrillError:
    names = ", ".join(f.source for f in files) or "no files"
    return DrillError(
        f"{names}: nothing in the evidence times a phase of the plan "
        "(no finished restore, recovery or backup)",
        hint="give the RMAN log of the test restore, or V$RMAN_STATUS (docs/evidence.md)",
    )


def _assemble(acc: _Acc, files: list[EvidenceFile]) -> Drill:
    if not acc.phases:
        raise _nothing_timed(files)
    phases = _with_volumes(acc)
    f = acc.facts
    return Drill(
        phases=tuple(sorted(phases.values(), key=lambda p: PHASE_ORDER.index(p.name))),
        started=min(acc.starts, default=f.get("session_start")),
        ended=max(acc.ends, default=None),
        database=f.get("database"),
        dbid=f.get("dbid"),
        channels=f.get("channels"),
        level0_bytes=f.get("level0_bytes"),
        incremental_bytes=f.get("incremental_bytes"),
        incremental_count=f.get("incremental_count"),
        redo_bytes=f.get("redo_bytes"),
        archived_logs=f.get("archived_logs"),
        sources=tuple(x.source for x in files),
        notes=tuple(dict.fromkeys(acc.notes)),
        failed=_failure(files),
    )


def _with_volumes(acc: _Acc) -> dict[str, MeasuredPhase]:
    out = dict(acc.phases)
    for name, volume in _phase_volumes(acc.facts).items():
        if name in out and out[name].data_bytes is None and volume:
            out[name] = replace(out[name], data_bytes=volume)
    return out


def _phase_volumes(f: dict[str, Any]) -> dict[str, float | None]:
    """The volume each phase moves, from the facts gathered."""
    return {
        "restore_level0": f.get("level0_bytes"),
        "redo_apply": f.get("redo_bytes"),
        "restore_incremental": f.get("incremental_bytes"),
        "apply_incremental": f.get("incremental_bytes"),
    }


def _failure(files: list[EvidenceFile]) -> str | None:
    for f in files:
        if f.kind == "rman_log":
            for c in f.log.commands:
                if c.failed:
                    return f"{c.verb}: {c.failed}"
    return None


__all__ = [
    "BACKUP_PHASES",
    "PHASE_ORDER",
    "Drill",
    "DrillError",
    "MeasuredPhase",
    "drill_from_dict",
    "drill_from_evidence",
]
