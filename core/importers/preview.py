"""`RESTORE DATABASE PREVIEW` (and `PREVIEW SUMMARY`) output: what a restore will read.

RMAN lists, without restoring anything (Backup and Recovery Reference, RESTORE …
PREVIEW), every backup set the restore and recovery would use:

    BS Key  Type LV Size       Device Type Elapsed Time Completion Time
    ------- ---- -- ---------- ----------- ------------ -------------------
    214     Incr 0  191.88G    SBT_TAPE    00:40:12     2026-10-10 23:46:40
            BP Key: 226   Status: AVAILABLE  Compressed: NO  Tag: TAG20261010T220004
            Handle: 3e9qa39b5_1_1   Media: A00123L4
      List of Datafiles in backup set 214
      …

archived-log backup sets (`BS Key  Size  Device Type …` and `List of Archived Logs in
backup set`), multi-piece sets (`List of Backup Pieces for backup set N Copy #1` with a
Media column on tape), archived logs already on disk (`List of Archived Log Copies`), and
the SCNs recovery must reach. Sizes are backup bytes after RMAN compression, in RMAN's
binary units (`191.88G` = 191.88 × 2^30). `PREVIEW SUMMARY` prints one line per backup
(`Key TY LV S Device Type Completion Time #Pieces #Copies Compressed Tag`) without sizes:
it counts backups and cartridges-to-be but gives no volume.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

from .detect import decode
from .errors import EvidenceError
from .readfile import read_input

_UNITS = {"": 1.0, "K": 1024.0, "M": 1024.0**2, "G": 1024.0**3, "T": 1024.0**4, "P": 1024.0**5}


@dataclass(frozen=True)
class PreviewSet:
    """One backup set RMAN would read."""

    key: int
    level: str
    """`0` (a full or level 0 backup), `1` (an incremental level 1-4) or `archivelog`."""
    size_bytes: float | None
    device: str
    tag: str = ""
    compressed: bool | None = None
    media: tuple[str, ...] = ()
    pieces: int = 0
    files: int = 0
    logs: tuple[tuple[int, int], ...] = ()
    """(thread, sequence) of the archived logs in the set."""
    line: int = 0


@dataclass(frozen=True)
class RestorePreview:
    source: str
    sets: tuple[PreviewSet, ...]
    disk_logs: tuple[tuple[int, int], ...]
    """Archived logs RMAN will read from disk (`List of Archived Log Copies`)."""
    summary: bool
    """PREVIEW SUMMARY: no sizes, no pieces."""
    start_scn: int | None = None
    beyond_scn: int | None = None

    def of_level(self, level: str) -> tuple[PreviewSet, ...]:
        return tuple(s for s in self.sets if s.level == level)

    @property
    def media(self) -> tuple[str, ...]:
        """Distinct tape volumes (media handles) the restore must load, in first-use order."""
        seen: dict[str, None] = {}
        for s in self.sets:
            for m in s.media:
                seen.setdefault(m, None)
        return tuple(seen)

    @property
    def logs(self) -> tuple[tuple[int, int], ...]:
        """Every archived log recovery needs (from backups and from disk), sorted."""
        return tuple(sorted({*self.disk_logs, *(x for s in self.sets for x in s.logs)}))


def parse_size(text: str) -> float | None:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGTP]?)", text.strip().upper())
    return float(m.group(1)) * _UNITS[m.group(2)] if m else None


_SET_ROW_RE = re.compile(
    r"^(?P<key>\d+)\s+(?:(?P<type>Full|Incr)\s+(?:(?P<lv>\d)\s+)?)?(?P<size>\d+(?:\.\d+)?[KMGTP]?)\s+"
    r"(?P<dev>\S+)\s+\d+:\d{2}:\d{2}\s+\S"
)
_SUMMARY_RE = re.compile(
    r"^(?P<key>\d+)\s+(?P<ty>[BP])\s+(?P<lv>[F0-4AI])\s+(?P<s>[AUX])\s+(?P<dev>\S+)\s+.+?"
    r"\s+(?P<pieces>\d+)\s+\d+\s+(?P<comp>YES|NO)\s+(?P<tag>\S+)\s*$"
)
_BP_RE = re.compile(
    r"^BP Key:\s*\d+\s+Status:\s*\S+\s+Compressed:\s*(?P<c>YES|NO)\s+Tag:\s*(?P<tag>\S+)"
)
_HANDLE_RE = re.compile(r"^Handle:\s*(?P<h>\S+)(?:\s+Media:\s*(?P<m>\S*))?")
_PIECE_ROW_RE = re.compile(r"^\d+\s+\d+\s+(?:AVAILABLE|UNAVAILABLE|EXPIRED)\s+(?P<rest>.+)$")
_LOG_ROW_RE = re.compile(r"^(?P<t>\d+)\s+(?P<s>\d+)\s+\d+\s+\S")
_COPY_ROW_RE = re.compile(r"^\d+\s+(?P<t>\d+)\s+(?P<s>\d+)\s+[AUX]\s+\S")
_DATAFILE_ROW_RE = re.compile(r"^\d+\s+(?:\d\s+)?(?:Full|Incr)\s+\d+")


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.sets: list[PreviewSet] = []
        self.disk_logs: list[tuple[int, int]] = []
        self.section = ""
        self.multi_media = False
        self.expect_set = False
        self.summary = False
        self.start_scn: int | None = None
        self.beyond_scn: int | None = None

    def _set(self, **changes: object) -> None:
        if self.sets:
            self.sets[-1] = replace(self.sets[-1], **changes)  # type: ignore[arg-type]

    def line(self, n: int, line: str) -> None:
        if self._heading(line):
            return
        if self.section == "sets":
            self._set_line(n, line)
        elif self.section == "summary":
            self._summary_line(n, line)
        elif self.section == "copies":
            m = _COPY_ROW_RE.match(line)
            if m:
                self.disk_logs.append((int(m.group("t")), int(m.group("s"))))

    def _heading(self, line: str) -> bool:
        if line.startswith("List of Backup Sets"):
            self.section = "sets"
        elif line.startswith("List of Backups"):
            self.section, self.summary = "summary", True
        elif line.startswith("List of Archived Log Copies"):
            self.section = "copies"
        elif line.startswith(("Media recovery start SCN is", "Recovery must be done beyond SCN")):
            scn = int(line.split()[-1]) if line.split()[-1].isdigit() else None
            if line.startswith("Media"):
                self.start_scn = scn
            else:
                self.beyond_scn = int(re.search(r"SCN (\d+)", line).group(1))  # type: ignore[union-attr]
        else:
            return False
        return True

    def _set_line(self, n: int, line: str) -> None:
        if line.startswith("BS Key"):
            self.expect_set = True
            return
        m = _SET_ROW_RE.match(line) if self.expect_set else None
        if m:
            self.expect_set = False
            level = (
                "archivelog"
                if m.group("type") is None
                else ("0" if m.group("type") == "Full" or m.group("lv") == "0" else "1")
            )
            self.sets.append(
                PreviewSet(
                    key=int(m.group("key")),
                    level=level,
                    size_bytes=parse_size(m.group("size")),
                    device=m.group("dev").upper(),
                    line=n,
                )
            )
            self.multi_media = False
            return
        if not self.sets:
            return
        self._set_detail(line)

    def _set_detail(self, line: str) -> None:
        cur = self.sets[-1]
        m = _BP_RE.match(line)
        if m:
            self._set(compressed=m.group("c") == "YES", tag=m.group("tag"))
            return
        m = _HANDLE_RE.match(line)
        if m:
            media = (m.group("m"),) if m.group("m") else ()
            self._set(pieces=cur.pieces + 1, media=cur.media + media)
        elif line.startswith("Piece Name:"):
            self._set(pieces=cur.pieces + 1)
        elif line.startswith("BP Key") and "Media" in line:
            self.multi_media = True
        elif line.startswith("List of Backup Pieces"):
            self.multi_media = False
        else:
            self._set_rows(cur, line)

    def _set_rows(self, cur: PreviewSet, line: str) -> None:
        m = _PIECE_ROW_RE.match(line)
        if m:
            rest = m.group("rest").split()
            media = (rest[0],) if self.multi_media and len(rest) > 1 else ()
            self._set(pieces=cur.pieces + 1, media=cur.media + media)
        elif cur.level == "archivelog" and _LOG_ROW_RE.match(line):
            t, s = line.split()[:2]
            self._set(logs=(*cur.logs, (int(t), int(s))))
        elif _DATAFILE_ROW_RE.match(line):
            self._set(files=cur.files + 1)

    def _summary_line(self, n: int, line: str) -> None:
        m = _SUMMARY_RE.match(line)
        if not m:
            return
        lv = m.group("lv")
        level = "archivelog" if lv == "A" else "0" if lv in ("F", "0") else "1"
        self.sets.append(
            PreviewSet(
                key=int(m.group("key")),
                level=level,
                size_bytes=None,
                device=m.group("dev").upper(),
                tag=m.group("tag"),
                compressed=m.group("comp") == "YES",
                pieces=int(m.group("pieces")),
                line=n,
            )
        )


def parse_preview_text(text: str, source: str = "<preview>") -> RestorePreview:
    """Read PREVIEW or PREVIEW SUMMARY output; `EvidenceError` when it is neither."""
    r = _Reader(source)
    for n, raw in enumerate(text.splitlines(), start=1):
        r.line(n, raw.strip())
    if not r.sets and not r.disk_logs:
        raise EvidenceError(
            "not RESTORE … PREVIEW output: no 'List of Backup Sets' or 'List of Backups' with "
            "a backup in it",
            source=source,
            hint="run `RESTORE DATABASE PREVIEW;` in RMAN with a log (docs/evidence.md)",
        )
    return RestorePreview(
        source=source,
        sets=tuple(r.sets),
        disk_logs=tuple(r.disk_logs),
        summary=r.summary,
        start_scn=r.start_scn,
        beyond_scn=r.beyond_scn,
    )


def is_preview(text: str) -> bool:
    head = text[:400_000]
    return ("List of Backup Sets" in head or "List of Backups" in head) and (
        "Media recovery start SCN" in head
        or "recovery will be done up to SCN" in head
        or "List of Archived Log" in head
        or "preview" in head.lower()
    )


def load_preview(path: str | os.PathLike[str]) -> RestorePreview:
    data = read_input(path, error=EvidenceError)
    return parse_preview_text(decode(data), str(path))


__all__ = [
    "PreviewSet",
    "RestorePreview",
    "is_preview",
    "load_preview",
    "parse_preview_text",
    "parse_size",
]
