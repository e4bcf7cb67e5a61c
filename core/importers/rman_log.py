"""RMAN output logs (`rman target / log=drill.log`, or the session's spool) read into
commands and channel steps.

What a log tells: the session's start (`Recovery Manager: … Production on Mon Oct 12
09:58:01 2026`), the database (`connected to target database: PROD (DBID=…)`), each
command between `Starting restore at …` and `Finished restore at …` (in the session's
`NLS_DATE_FORMAT`, see rman_dates), and inside it what every channel did: the kind of
backup set it restored or wrote (datafiles, incrementals, archived logs, control file),
the pieces and tags it read, the archived log sequences, and the elapsed time RMAN prints
when the channel finishes (`channel t1: restore complete, elapsed time: 00:45:12`).
Channels run in parallel, so their lines interleave; each line is attached to the channel
it names (an `archived log thread=1 sequence=1234` line to the channel restoring archived
logs). `media recovery complete, elapsed time` times the redo apply; `RMAN-03002: failure
of … command at …` marks a failed command; `database opened` / `Statement processed`
after an `alter database open` marks the open.

A log cut off before `Finished …` keeps the unfinished command (with the steps so far)
and says so; the drill decides what can still be timed. Formats are those printed by
RMAN 10g to 23ai (docs/evidence.md cites the examples the fixtures follow).
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from .detect import decode
from .errors import EvidenceError
from .readfile import read_input
from .rman_dates import DateReader, LogTime, parse_banner, parse_elapsed, read_failure_time

STEP_KINDS = (
    "datafile",
    "incremental",
    "archivelog",
    "controlfile",
    "spfile",
    "backup_level0",
    "backup_level1",
    "backup_full",
    "backup_archivelog",
    "backup_controlfile",
)


@dataclass(frozen=True)
class ChannelStep:
    """One backup set a channel restored or wrote, with the elapsed time RMAN printed."""

    channel: str
    kind: str
    line: int
    elapsed_s: float | None = None
    pieces: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    files: int = 0
    sequences: tuple[tuple[int, int], ...] = ()
    """(thread, sequence) of the archived logs restored or backed up."""


@dataclass(frozen=True)
class RmanCommand:
    """One `Starting X at …` … `Finished X at …` of the log."""

    verb: str
    line: int
    start: LogTime | None
    end: LogTime | None = None
    steps: tuple[ChannelStep, ...] = ()
    media_recovery_s: float | None = None
    media_recovery_started: bool = False
    failed: str | None = None
    """The error stack's first lines when RMAN-03002 reported the command failed."""
    failed_at: LogTime | None = None

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def wall_s(self) -> float | None:
        """Finished − Starting, when both carry a time of day."""
        end = self.end or self.failed_at
        if self.start and end and self.start.timed and end.timed:
            return (end.at - self.start.at).total_seconds()
        return None

    def steps_of(self, *kinds: str) -> tuple[ChannelStep, ...]:
        return tuple(s for s in self.steps if s.kind in kinds)

    def channel_s(self, *kinds: str) -> float | None:
        """The busiest channel's summed elapsed times over steps of `kinds`: the command's
        length as the channels saw it (start-up and gaps between backup sets excluded)."""
        per: dict[str, float] = defaultdict(float)
        timed = False
        for s in self.steps_of(*kinds):
            if s.elapsed_s is not None:
                per[s.channel] += s.elapsed_s
                timed = True
        return max(per.values()) if timed else None


@dataclass(frozen=True)
class RmanLog:
    """What an RMAN output log holds."""

    source: str
    session_start: datetime | None
    database: str | None
    dbid: int | None
    devices: dict[str, str]
    """Device type by channel name (`SBT_TAPE`, `DISK`)."""
    commands: tuple[RmanCommand, ...]
    opened_line: int | None
    """The line where the database was opened (`alter database open` succeeded)."""
    complete: bool
    """The log reaches `Recovery Manager complete.` (it was not cut off)."""
    timed: bool
    """The dates carry a time of day (NLS_DATE_FORMAT with HH24:MI:SS)."""

    def of(self, verb: str) -> tuple[RmanCommand, ...]:
        return tuple(c for c in self.commands if c.verb == verb)


# ------------------------------------------------------------------------------ parsing

_START_RE = re.compile(r"^Starting (?P<verb>[A-Za-z][\w ]*?) at (?P<when>.+?)\s*$")
_FINISH_RE = re.compile(r"^Finished (?P<verb>[A-Za-z][\w ]*?) at (?P<when>.+?)\s*$")
_CHANNEL_RE = re.compile(r"^channel (?P<ch>[^\s:]+): (?P<msg>.*?)\s*$")
_SEQ_RE = re.compile(r"^archived log thread=(?P<t>\d+) sequence=(?P<s>\d+)")
_FAIL_RE = re.compile(r"^RMAN-03002: failure of (?P<verb>[\w ]+?) command at (?P<when>.+?)\s*$")
_ERROR_RE = re.compile(r"^(?:RMAN|ORA)-\d{5}:")
_DB_RE = re.compile(r"^connected to target database: (?P<name>[^\s(]+)(?: \(DBID=(?P<dbid>\d+))?")
_DBID_RE = re.compile(r'^database name is "(?P<name>[^"]+)" and DBID is (?P<dbid>\d+)')
_ECHO_RE = re.compile(r"^(?:RMAN>|\d+>)\s*(?P<cmd>.*)$")
_OPEN_CMD_RE = re.compile(r"alter\s+database\s+open", re.IGNORECASE)
_OPENED_RE = re.compile(
    r"^(?:database opened|Statement processed|sql statement: alter database open)", re.IGNORECASE
)

_CHANNEL_STARTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^starting incremental datafile backup set restore"), "incremental"),
    (re.compile(r"^starting datafile backup set restore"), "datafile"),
    (re.compile(r"^starting archived log restore"), "archivelog"),
    (
        re.compile(r"^starting (?:compressed )?incremental level 0 datafile backup set"),
        "backup_level0",
    ),
    (
        re.compile(
            r"^starting (?:compressed )?incremental level [1-4] (?:cumulative )?datafile "
            r"backup set"
        ),
        "backup_level1",
    ),
    (re.compile(r"^starting (?:compressed )?full datafile backup set"), "backup_full"),
    (re.compile(r"^starting (?:compressed )?archived log backup set"), "backup_archivelog"),
)
_RESTORING = (("restoring control file", "controlfile"), ("restoring spfile", "spfile"))
_ELAPSED_RE = re.compile(
    r"^(?:restore|backup set) complete, elapsed time: (?P<t>\d+:\d{2}:\d{2}(?:\.\d+)?)"
)


class _Builder:
    """Line-by-line state: the open commands (a stack: an implicit crosscheck starts inside
    a restore) and each channel's open step."""

    def __init__(self, source: str, dates: DateReader) -> None:
        self.source = source
        self.dates = dates
        self.stack: list[RmanCommand] = []
        self.done: list[RmanCommand] = []
        self.open_steps: dict[str, ChannelStep] = {}
        self.last_log_channel: str | None = None
        self.devices: dict[str, str] = {}
        self.database: str | None = None
        self.dbid: int | None = None
        self.session_start: datetime | None = None
        self.open_pending = False
        self.opened_line: int | None = None
        self.complete = False
        self.failing: RmanCommand | None = None
        self.failure_lines: list[str] = []

    # -- commands
    def start(self, verb: str, when: str, line: int) -> None:
        self._close_steps()
        self.stack.append(RmanCommand(verb=verb.lower(), line=line, start=self.dates.read(when)))

    def finish(self, verb: str, when: str) -> None:
        verb = verb.lower()
        if not any(c.verb == verb for c in self.stack):
            return  # a Finished without its Starting (the log began mid-command)
        self._close_steps()
        while self.stack:
            cmd = self.stack.pop()
            if cmd.verb == verb:
                self.done.append(replace(cmd, end=self.dates.read(when)))
                return
            self.done.append(cmd)

    def fail(self, verb: str, when: str) -> None:
        self._close_steps()
        verb = verb.lower()
        at = read_failure_time(when)
        while self.stack:
            cmd = self.stack.pop()
            if cmd.verb == verb or not self.stack:
                self.failing = replace(
                    cmd, failed=f"RMAN-03002: failure of {verb} command", failed_at=at
                )
                self.done.append(self.failing)
                return
            self.done.append(cmd)

    def _update_top(self, **changes: object) -> None:
        if self.stack:
            self.stack[-1] = replace(self.stack[-1], **changes)  # type: ignore[arg-type]

    # -- channel steps
    def channel(self, ch: str, msg: str, line: int) -> None:
        low = msg.lower()
        for pattern, kind in _CHANNEL_STARTS:
            if pattern.match(low):
                self._close_step(ch)
                self.open_steps[ch] = ChannelStep(ch, kind, line)
                if kind == "archivelog" or kind == "backup_archivelog":
                    self.last_log_channel = ch
                return
        for text, kind in _RESTORING:
            if low.startswith(text):
                step = self.open_steps.get(ch) or ChannelStep(ch, kind, line)
                self.open_steps[ch] = replace(step, kind=kind)
                return
        self._channel_detail(ch, msg, low)

    def _channel_detail(self, ch: str, msg: str, low: str) -> None:
        step = self.open_steps.get(ch)
        m = _ELAPSED_RE.match(low)
        if m and step is not None:
            self.open_steps[ch] = replace(step, elapsed_s=parse_elapsed(m.group("t")))
            self._close_step(ch)
            return
        if step is None:
            dev = re.search(r"device type=(\S+)", msg)
            if dev:
                self.devices[ch] = dev.group(1).upper()
            return
        if low.startswith("reading from backup piece "):
            self.open_steps[ch] = replace(step, pieces=(*step.pieces, msg.split()[-1]))
        elif low.startswith("piece handle="):
            tag = re.search(r"tag=(\S+)", msg)
            if tag:
                self.open_steps[ch] = replace(step, tags=(*step.tags, tag.group(1)))
        elif low.startswith("restoring datafile"):
            self.open_steps[ch] = replace(step, files=step.files + 1)
        elif low.startswith("restoring archived log"):
            self.last_log_channel = ch

    def sequence(self, thread: int, seq: int) -> None:
        ch = self.last_log_channel
        step = self.open_steps.get(ch) if ch else None
        if step is not None and step.kind in ("archivelog", "backup_archivelog"):
            self.open_steps[ch] = replace(step, sequences=(*step.sequences, (thread, seq)))

    def _close_step(self, ch: str) -> None:
        step = self.open_steps.pop(ch, None)
        if step is None:
            return
        if self.stack:
            self._update_top(steps=(*self.stack[-1].steps, step))

    def _close_steps(self) -> None:
        for ch in list(self.open_steps):
            self._close_step(ch)

    def result(self, timed: bool) -> RmanLog:
        self._close_steps()
        unfinished = list(self.stack)
        commands = sorted(self.done + unfinished, key=lambda c: c.line)
        return RmanLog(
            source=self.source,
            session_start=self.session_start,
            database=self.database,
            dbid=self.dbid,
            devices=dict(self.devices),
            commands=tuple(commands),
            opened_line=self.opened_line,
            complete=self.complete,
            timed=timed,
        )


def _handlers(
    b: _Builder,
) -> tuple[tuple[re.Pattern[str], Callable[[re.Match[str], int], None]], ...]:
    def media_started(m: re.Match[str], line: int) -> None:
        b._update_top(media_recovery_started=True)

    def media_done(m: re.Match[str], line: int) -> None:
        b._close_steps()
        b._update_top(media_recovery_s=parse_elapsed(m.group("t")))

    def echo(m: re.Match[str], line: int) -> None:
        if _OPEN_CMD_RE.search(m.group("cmd")):
            b.open_pending = True

    def opened(m: re.Match[str], line: int) -> None:
        if b.open_pending or m.group(0).lower().startswith("sql statement"):
            b.opened_line, b.open_pending = line, False

    def banner(m: re.Match[str], line: int) -> None:
        b.session_start = b.session_start or parse_banner(m.string)

    def database(m: re.Match[str], line: int) -> None:
        b.database = m.group("name")
        b.dbid = int(m.group("dbid")) if m.group("dbid") else b.dbid

    def complete(m: re.Match[str], line: int) -> None:
        b.complete = True

    return (
        (_START_RE, lambda m, n: b.start(m.group("verb"), m.group("when"), n)),
        (_FINISH_RE, lambda m, n: b.finish(m.group("verb"), m.group("when"))),
        (_CHANNEL_RE, lambda m, n: b.channel(m.group("ch"), m.group("msg"), n)),
        (_SEQ_RE, lambda m, n: b.sequence(int(m.group("t")), int(m.group("s")))),
        (re.compile(r"^starting media recovery"), media_started),
        (re.compile(r"^media recovery complete, elapsed time: (?P<t>\d+:\d{2}:\d{2})"), media_done),
        (_FAIL_RE, lambda m, n: b.fail(m.group("verb"), m.group("when"))),
        (_ECHO_RE, echo),
        (_OPENED_RE, opened),
        (re.compile(r"^Recovery Manager: Release"), banner),
        (_DB_RE, database),
        (_DBID_RE, database),
        (re.compile(r"^Recovery Manager complete\."), complete),
    )


def _date_texts(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        m = _START_RE.match(line) or _FINISH_RE.match(line)
        if m:
            out.append(m.group("when"))
    return out


def _failure_detail(b: _Builder, line: str) -> None:
    """The first error lines after RMAN-03002, kept on the failed command."""
    if b.failing is None or not _ERROR_RE.match(line) or line.startswith("RMAN-03002"):
        return
    if len(b.failure_lines) < 2 and not line.startswith(("RMAN-00571", "RMAN-00569")):
        b.failure_lines.append(line)
        i = b.done.index(b.failing)
        b.failing = replace(b.failing, failed=f"{b.failing.failed}: {'; '.join(b.failure_lines)}")
        b.done[i] = b.failing


def parse_rman_log_text(text: str, source: str = "<log>") -> RmanLog:
    """Read an RMAN output log; raise `EvidenceError` when the text is not one."""
    lines = [line.strip() for line in text.splitlines()]
    texts = _date_texts(lines)
    banner = next(
        (parse_banner(x) for x in lines if x.startswith("Recovery Manager: Release")), None
    )
    b = _Builder(source, DateReader(texts, near=banner))
    handlers = _handlers(b)
    for n, line in enumerate(lines, start=1):
        for pattern, handle in handlers:
            m = pattern.match(line)
            if m:
                handle(m, n)
                break
        else:
            _failure_detail(b, line)
    log = b.result(timed=any(t and t.timed for t in map(b.dates.read, texts)))
    if not log.commands:
        raise EvidenceError(
            "not an RMAN output log: no 'Starting restore|recover|backup at' line",
            source=source,
            hint="give the log written by `rman target / log=FILE` (see docs/evidence.md)",
        )
    return log


def is_rman_log(text: str) -> bool:
    head = text[:200_000]
    return (
        bool(
            re.search(
                r"^\s*(?:Starting|Finished) (?:restore|recover|backup) at ", head, re.MULTILINE
            )
        )
        or "Recovery Manager: Release" in head
    )


def load_rman_log(path: str | os.PathLike[str]) -> RmanLog:
    data = read_input(path, error=EvidenceError)
    return parse_rman_log_text(decode(data), str(path))


__all__ = [
    "STEP_KINDS",
    "ChannelStep",
    "RmanCommand",
    "RmanLog",
    "is_rman_log",
    "load_rman_log",
    "parse_rman_log_text",
]
