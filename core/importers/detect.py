"""Recognise a report by its content, never by its file name.

Users rename files (`prod_monday.txt`, `awr (3).html`) and mail them around; what the file
says in its first heading is the only reliable signal. The answer is the format (text or
HTML) and the layout, or a `NotAReportError` / `UnsupportedReportError` saying what the file
looks like instead, so the user knows what to export.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import NotAReportError, UnsupportedReportError

HEAD_BYTES = 96 * 1024

# Searched in the lower-cased head without IGNORECASE: a case-insensitive pattern loses
# re's literal-prefix scan and made detection ~40 % of parsing an HTML report (issue 14).
_LAYOUTS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(p.lower()), kind, layout)
    for p, kind, layout in (
        (r"WORKLOAD\s+REPOSITORY\s+COMPARE\s+PERIOD\s+REPORT|AWR\s+Compare\s+Period\s+Report",
         "awr", "compare"),
        (r"WORKLOAD\s+REPOSITORY\s+REPORT\s*\(RAC\)|AWR\s+RAC\s+Report\s+for", "awr",
         "global_rac"),
        (r"WORKLOAD\s+REPOSITORY\s+PDB\s+report", "awr", "pdb"),
        (r"WORKLOAD\s+REPOSITORY\s+report\s+for|AWR\s+Report\s+for\s+DB", "awr", "instance"),
        (r"STATSPACK\s+(?:Statistics\s+)?report\s+for", "statspack", "statspack"),
    )
)  # fmt: skip

_UNSUPPORTED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p.lower()), what)
    for p, what in (
        (r"ASH\s+Report\s+For", "an ASH report"),
        (r"ADDM\s+Report\s+for\s+Task", "an ADDM report"),
        (r"WORKLOAD\s+REPOSITORY\s+SQL\s+Report|AWR\s+SQL\s+Report", "an AWR SQL report"),
        (r"STATSPACK\s+SQL\s+report", "a Statspack SQL report"),
    )
)

_MAGIC = (
    (b"\x1f\x8b", "a gzip archive: unpack it first"),
    (b"PK\x03\x04", "a zip archive: unpack it first"),
    (b"%PDF", "a PDF file: export the report as text or HTML instead"),
    (b"\xd0\xcf\x11\xe0", "an MS Office file: export the report as text or HTML instead"),
)
_HTML_RE = re.compile(r"<\s*(?:!doctype\s+html|html|head|body|title|table)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Detected:
    """What a file is: `format` text|html, `kind` awr|statspack, `layout` (see model.Layout)."""

    format: str
    kind: str
    layout: str


def decode(data: bytes) -> str:
    """UTF-8 when it is, else Windows-1252/Latin-1: every byte decodes, numbers stay numbers."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def detect(data: bytes, source: str) -> Detected:
    """Classify `data`; raise `NotAReportError`/`UnsupportedReportError` naming `source`."""
    if not data or data.isspace():
        raise NotAReportError("empty file, not an AWR or Statspack report", source=source)
    for magic, what in _MAGIC:
        if data.startswith(magic):
            raise NotAReportError(f"not a report but {what}", source=source)
    head_bytes = data[:HEAD_BYTES]
    if head_bytes.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = decode(head_bytes)
    else:
        if b"\x00" in head_bytes[:4096]:
            raise NotAReportError(
                "binary file, not an AWR or Statspack report",
                source=source,
                hint="give the report as produced by awrrpt.sql / spreport.sql (text or HTML)",
            )
        head = decode(head_bytes)
    is_html = bool(_HTML_RE.search(head[:4096]))
    low = head.lower()
    for pattern, kind, layout in _LAYOUTS:
        if pattern.search(low):
            return Detected("html" if is_html else "text", kind, layout)
    for pattern, what in _UNSUPPORTED:
        if pattern.search(low):
            raise UnsupportedReportError(
                f"{what}, not a workload report",
                source=source,
                hint="run awrrpt.sql (or spreport.sql for Statspack) for the same snapshots",
            )
    raise NotAReportError(
        "not an AWR or Statspack report: no 'WORKLOAD REPOSITORY' or 'STATSPACK' heading",
        source=source,
        hint="give reports produced by awrrpt.sql, awrgrpt.sql, awrddrpt.sql or spreport.sql",
    )
