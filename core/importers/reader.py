"""Entry points: turn a file (or bytes, or a directory of files) into `WorkloadReport`s.

Anything that goes wrong inside a reader on a damaged file (an index past the end of a cut
table, a number that does not parse) becomes a `ReportError` naming the file: a user must
never see a traceback because one cell of a 2 MB report was garbled.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .awr_html import parse_html_awr
from .awr_text import parse_text_awr
from .detect import decode, detect
from .errors import ReportError
from .model import WorkloadReport
from .readfile import MAX_REPORT_BYTES, read_input
from .statspack import parse_statspack

__all__ = ["MAX_REPORT_BYTES", "ParseOutcome", "parse_bytes", "parse_file", "parse_paths"]


def parse_bytes(data: bytes, source: str = "<data>") -> list[WorkloadReport]:
    """Parse one report held in memory; `source` names it in reports and errors.

    Returns one `WorkloadReport`, or two for a compare-period report (period 1 and 2).
    Raises a `ReportError` subclass for anything that is not a complete report.
    """
    found = detect(data, source)
    text = decode(data)
    try:
        if found.kind == "statspack":
            if found.format == "html":
                raise ReportError(
                    "an HTML Statspack report: Statspack only writes text",
                    source=source,
                )
            return parse_statspack(text, data, source)
        if found.format == "html":
            return parse_html_awr(text, data, source, found.layout)
        return parse_text_awr(text, data, source, found.layout)
    except ReportError:
        raise
    except (ValueError, IndexError, KeyError, TypeError, AttributeError, OverflowError) as exc:
        raise ReportError(
            f"damaged {found.kind.upper()} report: cannot read it ({type(exc).__name__}: {exc})",
            source=source,
            hint="export the report again",
        ) from exc


def parse_file(path: str | os.PathLike[str]) -> list[WorkloadReport]:
    """Parse one report file (text or HTML, AWR or Statspack, detected from the content)."""
    return parse_bytes(read_input(path), str(path))


def iter_report_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """The files named, with directories walked (sorted, hidden entries skipped)."""
    for path in paths:
        p = Path(path)
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for f in sorted(files):
                    if not f.startswith("."):
                        yield Path(root) / f
        else:
            yield p


@dataclass(frozen=True)
class ParseOutcome:
    """One file's result: its reports, or the error that stopped it."""

    path: Path
    reports: tuple[WorkloadReport, ...] = ()
    error: ReportError | None = None


def parse_paths(paths: Iterable[str | os.PathLike[str]]) -> Iterator[ParseOutcome]:
    """Parse every file under `paths`, carrying on past failures (one outcome per file)."""
    for p in iter_report_files(paths):
        try:
            yield ParseOutcome(p, tuple(parse_file(p)))
        except ReportError as exc:
            yield ParseOutcome(p, error=exc)
