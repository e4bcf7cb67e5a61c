"""Text AWR reports: instance and PDB reports (10g to 23ai), global RAC (awrgrpt) and
compare-period (awrddrpt) reports."""

from __future__ import annotations

import re

from .extract import RawReport, build
from .model import InstanceRates, WorkloadReport
from .numbers import (
    DATETIME_RE,
    is_number_token,
    parse_number,
)
from .text_common import (
    DB_11G_RE,
    end_marker,
    find_line,
    is_rule,
    label_rows,
    read_activity,
    read_io_profile,
    read_text_report,
    split_lines,
)


def parse_text_awr(text: str, data: bytes, source: str, layout: str) -> list[WorkloadReport]:
    """Dispatch on the layout `detect` found; returns one report per measured interval."""
    lines = split_lines(text)
    if layout == "global_rac":
        return [_parse_global(lines, text, data, source)]
    if layout == "compare":
        return _parse_compare(lines, text, data, source)
    raw = read_text_report(lines, text, data, source, kind="awr", layout=layout)
    return [build(raw)]


# ----------------------------------------------------------------------------- global RAC

_DB_SUMMARY_RE = re.compile(r"^\s*Database Summary\b", re.IGNORECASE)
_INSTANCES_RE = re.compile(r"^\s*Database Instances Included In Report", re.IGNORECASE)
_SYSSTAT_PER_S_RE = re.compile(r"^\s*System Statistics\s*-\s*Per Second\b", re.IGNORECASE)
_RELEASE_RE = re.compile(r"\b\d+\.\d+\.\d+\.\d+\.\d+\b")
_GLOBAL_ROW_RE = re.compile(r"^\s*(?P<key>\d+|Sum|Avg|Std)\s+(?P<rest>[\d,.\s#E+-]+)$")

# "System Statistics - Per Second" columns after I#, fixed since 11.2 (research §3.6).
GLOBAL_COLUMNS = (
    "logical_reads_per_s",
    "physical_reads_per_s",
    "physical_writes_per_s",
    "redo_kib_per_s",
    "block_changes_per_s",
    "user_calls_per_s",
    "executes_per_s",
    "parses_per_s",
    "logons_per_s",
    "txn_per_s",
)


def global_instance_rates(
    rows: list[tuple[str, list[float | None]]], names: dict[int, str], raw: RawReport
) -> None:
    """Fill per-instance rates and the database total from "System Statistics - Per Second".

    The total is the `Sum` row; a report of one instance has none, so its row is the total.
    `Redo Size (k)/s` is KiB per second.
    """
    per_inst: list[dict[str, float | None]] = []
    total: dict[str, float | None] | None = None
    for key, values in rows:
        if len(values) < len(GLOBAL_COLUMNS):
            continue
        rec = dict(zip(GLOBAL_COLUMNS, values, strict=False))
        if key.isdigit():
            per_inst.append(rec)
            raw.instance_rates.append(_instance_rates(int(key), names.get(int(key)), rec))
        elif key.lower() == "sum":
            total = rec
    if total is None and len(per_inst) == 1:
        total = per_inst[0]
    if total is None and per_inst:
        total = _summed(per_inst)
        raw.warnings.append("no Sum row in 'System Statistics - Per Second': summed instances")
    if total is not None:
        _set_global_totals(raw, total)


def _instance_rates(n: int, name: str | None, rec: dict[str, float | None]) -> InstanceRates:
    """One instance's rates from its row; redo in bytes per second."""
    redo_kib = rec["redo_kib_per_s"]
    return InstanceRates(
        inst_num=n,
        instance=name,
        redo_bytes_per_s=redo_kib * 1024.0 if redo_kib is not None else None,
        txn_per_s=rec["txn_per_s"],
        block_changes_per_s=rec["block_changes_per_s"],
        logical_reads_per_s=rec["logical_reads_per_s"],
        physical_reads_per_s=rec["physical_reads_per_s"],
        physical_writes_per_s=rec["physical_writes_per_s"],
        executes_per_s=rec["executes_per_s"],
        user_calls_per_s=rec["user_calls_per_s"],
    )


def _summed(per_inst: list[dict[str, float | None]]) -> dict[str, float | None]:
    """The instances' rates added up, column by column (None where one is missing)."""
    return {
        k: (sum(r[k] for r in per_inst) if all(r[k] is not None for r in per_inst) else None)  # type: ignore[misc]
        for k in GLOBAL_COLUMNS
    }


_GLOBAL_TOTAL_KEYS = (
    "logical_reads_per_s",
    "physical_reads_per_s",
    "physical_writes_per_s",
    "block_changes_per_s",
    "user_calls_per_s",
    "executes_per_s",
)


def _set_global_totals(raw: RawReport, total: dict[str, float | None]) -> None:
    raw.global_redo_kib_per_s = total["redo_kib_per_s"]
    raw.global_txn_per_s = total["txn_per_s"]
    for k in _GLOBAL_TOTAL_KEYS:
        raw.global_totals[k] = total[k]


def _parse_global(lines: list[str], text: str, data: bytes, source: str) -> WorkloadReport:
    raw = RawReport(source=source, data=data, kind="awr", layout="global_rac", format="text")
    raw.last_line = len(lines)
    raw.has_end_marker = end_marker(text)
    raw.rac = True
    _read_global_summary(lines, raw)
    names = _read_global_instances(lines, raw)
    if len(raw.instances) == 1:
        raw.instance = raw.instances[0]
        raw.inst_num = next(iter(names))
    i = find_line(lines, _SYSSTAT_PER_S_RE)
    global_instance_rates(_global_rate_rows(lines, i), names, raw)
    read_io_profile(lines, raw, max(i, 0))
    read_activity(lines, raw, max(i, 0))
    return build(raw)


def _read_global_summary(lines: list[str], raw: RawReport) -> None:
    """DBID, name, RAC flag, snapshots and times from the Database Summary's data line."""
    i = find_line(lines, _DB_SUMMARY_RE, 0, 200)
    if i < 0:
        return
    for line in lines[i + 1 : i + 14]:
        tokens = line.split()
        nums = [t for t in tokens if is_number_token(t)]
        ids = [t for t in tokens if t.isdigit() and len(t) >= 6]
        if len(nums) >= 8 and ids:
            _global_summary(tokens, ids[0], raw)
            return


def _global_summary(tokens: list[str], dbid: str, raw: RawReport) -> None:
    """The Database Summary's figures from the tokens of its data line."""
    raw.dbid = int(dbid)
    after = tokens[tokens.index(dbid) + 1 :]
    raw.db_name = after[0] if after else None
    flags = [t for t in after if t in ("YES", "NO")]
    raw.rac = flags[0] == "YES" if flags else True
    tail = tokens[-8:]
    raw.begin_snap = int(parse_number(tail[0]) or 0) or None
    raw.end_snap = int(parse_number(tail[1]) or 0) or None
    raw.db_time_min = parse_number(tail[6])
    raw.elapsed_min = parse_number(tail[7])


_INSTANCE_ROW_RE = re.compile(r"^\s*(\d{1,3})\s+(\S+)\s+(\S+)\s+(.*)$")


def _read_global_instances(lines: list[str], raw: RawReport) -> dict[int, str]:
    """The instances included (number → name), up to the blank line after the first."""
    names: dict[int, str] = {}
    i = find_line(lines, _INSTANCES_RE, 0, 300)
    if i < 0:
        return names
    for line in lines[i + 1 : i + 80]:
        m = _INSTANCE_ROW_RE.match(line)
        if m:
            names[int(m.group(1))] = m.group(2)
            _global_instance(m, raw)
        elif names and not line.strip():
            break
    return names


def _global_instance(m: re.Match[str], raw: RawReport) -> None:
    """An instance's name; host, release and snap times where not known yet."""
    inst, host, rest = m.group(2), m.group(3), m.group(4)
    raw.instances.append(inst)
    raw.host = raw.host or host
    dates = [d.group(0) for d in DATETIME_RE.finditer(rest)]
    rel = _RELEASE_RE.search(rest)
    if rel:
        raw.version = raw.version or rel.group(0)
    if len(dates) >= 3 and raw.begin is None:
        raw.set_times(dates[1], dates[2])


def _global_rate_rows(lines: list[str], i: int) -> list[tuple[str, list[float | None]]]:
    """The rows of "System Statistics - Per Second" (heading at line `i`, -1: none)."""
    rows: list[tuple[str, list[float | None]]] = []
    if i < 0:
        return rows
    for line in lines[i + 1 : i + 120]:
        m = _GLOBAL_ROW_RE.match(line)
        if m:
            rows.append((m.group("key"), [parse_number(t) for t in m.group("rest").split()]))
        elif rows and not (line.strip() and is_rule(line)):
            break
    return rows


# ----------------------------------------------------------------------------- compare

_COMPARE_SNAP_RE = re.compile(
    r"^\s*(?P<p>1st|2nd)\s+(?P<b>\d+)\s+(?P<bt>.+?\d{1,2}:\d\d(?::\d\d)?)(?:\s*\(\w+\))?\s+"
    r"(?P<e>\d+)\s+(?P<et>.+?\d{1,2}:\d\d(?::\d\d)?)(?:\s*\(\w+\))?\s+(?P<rest>.*)$"
)
_COMPARE_DB_RE = re.compile(r"^\s*(?:First|Second)\s*\((?P<p>1st|2nd)\)\s+(?P<rest>.*)$")
_COMPARE_LP_RE = re.compile(r"^\s*(?:Load Profile|Workload Comparison)\b", re.IGNORECASE)


def _parse_compare(lines: list[str], text: str, data: bytes, source: str) -> list[WorkloadReport]:
    raws = {
        p: RawReport(
            source=source, data=data, kind="awr", layout="compare", format="text", period=n
        )
        for n, p in ((1, "1st"), (2, "2nd"))
    }
    for raw in raws.values():
        raw.last_line = len(lines)
        raw.has_end_marker = end_marker(text)
    for line in lines[:200]:
        if m := _COMPARE_DB_RE.match(line):
            _compare_identity(m, raws[m.group("p")])
        elif m := _COMPARE_SNAP_RE.match(line):
            _compare_snapshot(m, raws[m.group("p")])
    _read_compare_load_profile(lines, raws)
    return [build(raws["1st"]), build(raws["2nd"])]


def _compare_identity(m: re.Match[str], raw: RawReport) -> None:
    """A period's database and instance from its "First (1st)" / "Second (2nd)" line."""
    d = DB_11G_RE.match(m.group("rest"))
    if d:
        raw.db_name, raw.dbid = d.group("db"), int(d.group("dbid"))
        raw.instance, raw.inst_num = d.group("inst"), int(d.group("num"))
        raw.version, raw.rac = d.group("rel"), d.group("rac") == "YES"
        raw.host = d.group("host")
        raw.instances.append(raw.instance)


def _compare_snapshot(m: re.Match[str], raw: RawReport) -> None:
    """A period's snapshots, times, elapsed and DB time from its 1st / 2nd snapshot line."""
    raw.begin_snap, raw.end_snap = int(m.group("b")), int(m.group("e"))
    raw.set_times(m.group("bt"), m.group("et"))
    tail = [t for t in m.group("rest").split() if is_number_token(t)]
    if len(tail) >= 2:
        raw.elapsed_min = parse_number(tail[-2])
        raw.db_time_min = parse_number(tail[-1])


def _read_compare_load_profile(lines: list[str], raws: dict[str, RawReport]) -> None:
    """Each period's Load Profile: per second in columns 1 and 2, per transaction 4 and 5."""
    i = find_line(lines, _COMPARE_LP_RE, 0, 400)
    if i < 0:
        return
    for raw in raws.values():
        raw.load_profile_found = True
    for _, label, tokens in label_rows(lines, i):
        v = [parse_number(t) for t in tokens]
        if len(v) >= 6:
            raws["1st"].load_profile.append((label, v[0], v[3]))
            raws["2nd"].load_profile.append((label, v[1], v[4]))
        elif len(v) >= 2:
            raws["1st"].load_profile.append((label, v[0], None))
            raws["2nd"].load_profile.append((label, v[1], None))
