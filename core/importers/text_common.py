"""Reading the 80-column text of AWR and Statspack reports.

No fixed column offsets: editors, mail and SQL*Plus spooling shift columns, lose form feeds
and inject `OUTPUT` headings and blank lines (even inside the Load Profile). Every row is
read as "label, then numbers from the right", and every table is found by its heading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .extract import ACTIVITY_STATS, LOG_SWITCHES, RawReport, add_activity
from .numbers import (
    is_number_token,
    parse_minutes,
    parse_number,
    parse_oracle_datetime,
    split_numeric_tail,
)

_RULE_RE = re.compile(r"^[\s\-~=]*$")
_OUTPUT_RE = re.compile(r"^\s*OUTPUT\s*$")
_SNAP_RE = re.compile(
    r"^\s*(?P<which>Begin|End)\s+Snap:\s+(?P<id>\d+)\s+(?P<time>.+?\d{1,2}:\d\d(?::\d\d)?)"
)
_ELAPSED_RE = re.compile(r"^\s*Elapsed:\s+(?P<v>.*?\(mins?\))", re.IGNORECASE)
_DBTIME_RE = re.compile(r"^\s*DB\s+time:\s+(?P<v>.*?\(mins?\))", re.IGNORECASE)
_LABEL_ROW_RE = re.compile(r"^\s*(?P<label>[^\s:][^:]*?):\s*(?P<rest>.*)$")
_DBINST_RE = re.compile(r"DB/Inst:\s*(?P<db>[^/\s]+)/(?P<inst>\S+)")

DB_11G_RE = re.compile(
    r"^\s*(?:(?P<db>\S+)\s+)?(?P<dbid>\d{6,})\s+(?P<inst>\S+)\s+(?P<num>\d{1,4})\s+"
    r"(?:(?P<startup>.+?\d{1,2}:\d\d)\s+)?(?P<rel>\d+\.\d[\d.]*)\s+(?P<rac>YES|NO)\b"
    r"(?:\s+(?P<host>\S+))?"
)
_DB_12C_RE = re.compile(
    r"^\s*(?P<db>\S+)\s+(?P<dbid>\d{6,})\s+(?P<uniq>\S+)\s+"
    r"(?P<role>(?:PHYSICAL|LOGICAL|SNAPSHOT)\s+STANDBY|FAR\s+SYNC|\S+)\s+(?P<ed>\S+)\s+"
    r"(?P<rel>\d+\.\d[\d.]*)\s+(?P<rac>YES|NO)\b"
)
_INST_12C_RE = re.compile(r"^\s*(?P<inst>\S+)\s+(?P<num>\d{1,4})\s+(?P<startup>.+?\d{1,2}:\d\d)")


def split_lines(text: str) -> list[str]:
    """Lines without CR, with form feeds treated as line starts (they open each section)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n")
    return text.split("\n")


def is_rule(line: str) -> bool:
    """Blank, or only dashes/tildes (the underlines of every text table), or SQL*Plus OUTPUT."""
    return bool(_RULE_RE.match(line) or _OUTPUT_RE.match(line))


def find_line(
    lines: list[str], pattern: re.Pattern[str], start: int = 0, stop: int | None = None
) -> int:
    """Index of the first line matching `pattern` in lines[start:stop], or -1."""
    end = len(lines) if stop is None else min(stop, len(lines))
    for i in range(start, end):
        if pattern.search(lines[i]):
            return i
    return -1


def values_after(lines: list[str], header: int, limit: int = 6) -> Iterator[tuple[int, str]]:
    """The data lines under a table heading: skip its underline, stop at the next blank line."""
    i = header + 1
    seen_data = False
    while i < len(lines) and i <= header + limit + 4:
        line = lines[i]
        if is_rule(line):
            if seen_data and not line.strip():
                return
        else:
            seen_data = True
            yield i, line
        i += 1


_DB_HEADER_RE = re.compile(r"^\s*(?:DB Name|Database)\s+DB Id\b", re.IGNORECASE)
_INST_HEADER_RE = re.compile(r"^\s*Instance\s+Inst\s+Num\s+Startup", re.IGNORECASE)
_HOST_HEADER_RE = re.compile(r"^\s*Host\s+Name\s+Platform", re.IGNORECASE)
_CONTAINER_HEADER_RE = re.compile(r"Container\s+Name", re.IGNORECASE)


def read_header(lines: list[str], raw: RawReport, stop: int = 120) -> None:
    """DB name, DB id, instance, release, RAC flag, host, container (10g to 23ai layouts)."""
    _read_database(lines, raw, stop)
    line = _first_line_under(lines, _INST_HEADER_RE, stop)
    m = _INST_12C_RE.match(line) if line is not None else None
    if m:
        raw.instance = m.group("inst")
        raw.inst_num = int(m.group("num"))
    line = _first_line_under(lines, _HOST_HEADER_RE, stop)
    if line and line.split():
        raw.host = line.split()[0]
    _read_container(lines, raw, stop)
    if raw.instance and raw.instance not in raw.instances:
        raw.instances.append(raw.instance)
    if not raw.db_name:
        _names_from_page_headings(lines, raw)


def _first_line_under(lines: list[str], heading: re.Pattern[str], stop: int) -> str | None:
    """The first data line under the first line matching `heading` in lines[:stop]."""
    i = find_line(lines, heading, 0, stop)
    return _data_line(lines, i) if i >= 0 else None


def _data_line(lines: list[str], heading: int) -> str | None:
    """The first data line under the heading at index `heading` (None: none follows)."""
    return next((line for _, line in values_after(lines, heading, 1)), None)


def _read_database(lines: list[str], raw: RawReport, stop: int) -> None:
    """The database line: the 12c+ layout (with DB Unique Name) or the 10g/11g one."""
    i = find_line(lines, _DB_HEADER_RE, 0, stop)
    if i < 0:
        return
    line = _data_line(lines, i)
    if line is None:
        return
    first, second = (
        (_DB_12C_RE, DB_11G_RE) if "unique" in lines[i].lower() else (DB_11G_RE, _DB_12C_RE)
    )
    m = first.match(line) or second.match(line)
    if m:
        _set_database(m.groupdict(), raw)


def _set_database(g: dict[str, Any], raw: RawReport) -> None:
    """The figures of a matched database line (the 10g/11g one also names instance and host)."""
    raw.db_name = g.get("db") or raw.db_name
    raw.dbid = int(g["dbid"])
    raw.version = g["rel"]
    raw.rac = g["rac"] == "YES"
    if g.get("inst"):
        raw.instance = g["inst"]
        raw.inst_num = int(g["num"])
    if g.get("host"):
        raw.host = g["host"]


def _read_container(lines: list[str], raw: RawReport, stop: int) -> None:
    """A PDB report's container: the first name under "Container Name" that is not the root."""
    i = find_line(lines, _CONTAINER_HEADER_RE, 0, stop)
    if i < 0:
        return
    for _, line in values_after(lines, i, 8):
        # the name is the first token that is not the numeric container id
        name = next((t for t in line.split() if not t.isdigit()), None)
        if name and name.upper() != "CDB$ROOT":
            raw.container = name
            return


def _names_from_page_headings(lines: list[str], raw: RawReport) -> None:
    """DB (and instance) name from the first `DB/Inst: name/inst` page heading."""
    for line in lines[: min(len(lines), 4000)]:
        m = _DBINST_RE.search(line)
        if m:
            raw.db_name = m.group("db")
            if not raw.instance:
                raw.instance = m.group("inst")
            return


def read_snaps(lines: list[str], raw: RawReport, stop: int = 160) -> None:
    """Begin/End Snap ids and times, Elapsed and DB Time (minutes as printed)."""
    for line in lines[:stop]:
        m = _SNAP_RE.match(line)
        if m:
            _snap(m, raw)
        else:
            _minutes_line(line, raw)


def _minutes_line(line: str, raw: RawReport) -> None:
    """An `Elapsed:` or `DB Time:` line's minutes (the first of each counts)."""
    m = _ELAPSED_RE.match(line)
    if m and raw.elapsed_min is None:
        raw.elapsed_min = parse_minutes(m.group("v"))
    m = _DBTIME_RE.match(line)  # never on an `Elapsed:` line: both are anchored
    if m and raw.db_time_min is None:
        raw.db_time_min = parse_minutes(m.group("v"))


def _snap(m: re.Match[str], raw: RawReport) -> None:
    """A `Begin Snap:` / `End Snap:` line's id and time (the first of each kind counts)."""
    if m.group("which") == "Begin" and raw.begin_snap is None:
        raw.begin_snap = int(m.group("id"))
        raw.begin_text = m.group("time")
        raw.begin = parse_oracle_datetime(m.group("time"))
    elif m.group("which") == "End" and raw.end_snap is None:
        raw.end_snap = int(m.group("id"))
        raw.end_text = m.group("time")
        raw.end = parse_oracle_datetime(m.group("time"))


_LOAD_PROFILE_RE = re.compile(r"^\s*Load Profile\b", re.IGNORECASE)


def label_rows(
    lines: list[str], start: int, limit: int = 80
) -> Iterator[tuple[int, str, list[str]]]:
    """`Label:  1  2  3` rows after a heading, tolerating blank, rule and OUTPUT lines.

    Stops at the first line that is not such a row (the next section's heading).
    """
    started = False
    for i in range(start + 1, min(len(lines), start + 1 + limit)):
        line = lines[i]
        if is_rule(line) or line.lstrip().startswith("~"):
            continue
        m = _LABEL_ROW_RE.match(line)
        tokens = m.group("rest").split() if m else []
        if not m or not tokens or not all(is_number_token(t) for t in tokens):
            if started or i > start + 6:  # column headings may sit between title and rows
                return
            continue
        started = True
        yield i, m.group("label"), tokens


def read_load_profile(lines: list[str], raw: RawReport, stop: int = 400) -> int:
    """Load Profile rows (label, per second, per transaction); returns the heading's index."""
    i = find_line(lines, _LOAD_PROFILE_RE, 0, stop)
    if i < 0:
        return -1
    raw.load_profile_found = True
    for _, label, tokens in label_rows(lines, i):
        per_s = parse_number(tokens[0])
        per_txn = parse_number(tokens[1]) if len(tokens) > 1 else None
        raw.load_profile.append((label, per_s, per_txn))
    return i


_IAS_RE = re.compile(r"Instance Activity Stats|System Statistics|Global Activity Statistics", re.I)
_IO_PROFILE_RE = re.compile(r"^\s*IO Profile\b", re.IGNORECASE)
_WANTED = (*ACTIVITY_STATS, LOG_SWITCHES)


def read_activity(lines: list[str], raw: RawReport, start: int = 0) -> None:
    """Instance Activity Stats redo rows and log switches, wherever their sections begin."""
    i = find_line(lines, _IAS_RE, start)
    if i < 0:
        return
    for line in lines[i:]:
        stripped = line.lstrip()
        if not stripped.startswith(("redo", "log switches")):
            continue
        name, values = split_numeric_tail(stripped)
        lname = name.lower()
        if lname in _WANTED and len(values) >= 2:
            add_activity(raw, lname, values)


def read_io_profile(lines: list[str], raw: RawReport, start: int = 0) -> None:
    """IO Profile (11.2.0.4+): `Redo (MB):` Read+Write, Read and Write per second."""
    i = find_line(lines, _IO_PROFILE_RE, start)
    if i < 0:
        return
    for _, label, tokens in label_rows(lines, i, 40):
        if label.strip().lower() == "redo (mb)":
            raw.io_redo_mb_per_s = parse_number(tokens[0])
            raw.io_redo_write_mb_per_s = parse_number(tokens[-1]) if len(tokens) >= 3 else None
            return


def end_marker(text: str) -> bool:
    """Reports end with `End of Report` (Statspack adds the file name in parentheses)."""
    return "End of Report" in text[-4096:]


def read_text_report(
    lines: list[str], text: str, data: bytes, source: str, *, kind: str, layout: str
) -> RawReport:
    """Read the sections every single-period text report has (AWR instance or PDB
    reports, Statspack): header, snapshots, Load Profile, IO Profile, Instance Activity."""
    raw = RawReport(source=source, data=data, kind=kind, layout=layout, format="text")
    raw.last_line = len(lines)
    raw.has_end_marker = end_marker(text)
    read_header(lines, raw)
    read_snaps(lines, raw)
    lp = read_load_profile(lines, raw)
    read_io_profile(lines, raw, max(lp, 0))
    read_activity(lines, raw, max(lp, 0))
    return raw
