"""Errors of the importers: every file a user can hand us ends in a report or in one of these.

Each message names the file (and the line where it helps) and says what to do, because the
command line prints it as the only explanation the user gets.
"""

from __future__ import annotations

from ..errors import CoreError


class ReportError(CoreError, ValueError):
    """A file that could not be turned into workload figures.

    `source` is the file name as given, `line` a 1-based line number when known, `reason`
    the bare explanation (without the file name) for callers that show it elsewhere.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.reason = reason
        where = ""
        if source:
            where = source + (f":{line}" if line else "")
        elif line:
            where = f"line {line}"
        super().__init__(f"{where}: {reason}" if where else reason, hint=hint)


class NotAReportError(ReportError):
    """The content is not an AWR or Statspack report (nor a CSV export we know)."""


class UnsupportedReportError(ReportError):
    """A report of a kind we recognise but do not read (ASH, ADDM, SQL reports)."""


class TruncatedReportError(ReportError):
    """A report that stops, or lacks a section, before the figures we need."""


class CsvImportError(ReportError):
    """A CSV export whose columns or values are not the ones `docs/importing.md` describes."""


class EvidenceError(ReportError):
    """Restore evidence (an RMAN log, a V$ view export, PREVIEW output) that cannot be read:
    not what docs/evidence.md describes, or without anything that can be timed."""
