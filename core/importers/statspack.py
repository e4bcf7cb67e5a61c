"""Statspack text reports (spreport.sql), 9i to 23ai.

Statspack leaves the Database column of its header blank (the name only appears in section
headings as `DB/Inst: IGT/igt`), writes `DB time` in lower case, shares the Elapsed line
with `Av Act Sess`, and kept the pre-11.2.0.4 Load Profile labels. Files that went through
Windows editors have CRLF and have lost their form feeds; neither matters here.
"""

from __future__ import annotations

from .extract import RawReport, build
from .model import WorkloadReport
from .text_common import (
    end_marker,
    read_activity,
    read_header,
    read_io_profile,
    read_load_profile,
    read_snaps,
    split_lines,
)


def parse_statspack(text: str, data: bytes, source: str) -> list[WorkloadReport]:
    """One report per file: Statspack has no global or compare variant."""
    lines = split_lines(text)
    raw = RawReport(source=source, data=data, kind="statspack", layout="statspack", format="text")
    raw.last_line = len(lines)
    raw.has_end_marker = end_marker(text)
    read_header(lines, raw)
    read_snaps(lines, raw)
    lp = read_load_profile(lines, raw)
    read_io_profile(lines, raw, max(lp, 0))
    read_activity(lines, raw, max(lp, 0))
    return [build(raw)]
