"""Statspack text reports (spreport.sql), 9i to 23ai.

Statspack leaves the Database column of its header blank (the name only appears in section
headings as `DB/Inst: IGT/igt`), writes `DB time` in lower case, shares the Elapsed line
with `Av Act Sess`, and kept the pre-11.2.0.4 Load Profile labels. Files that went through
Windows editors have CRLF and have lost their form feeds; neither matters here.
"""

from __future__ import annotations

from .extract import build
from .model import WorkloadReport
from .text_common import read_text_report, split_lines


def parse_statspack(text: str, data: bytes, source: str) -> list[WorkloadReport]:
    """One report per file: Statspack has no global or compare variant."""
    lines = split_lines(text)
    raw = read_text_report(lines, text, data, source, kind="statspack", layout="statspack")
    return [build(raw)]
