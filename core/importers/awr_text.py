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
    parse_oracle_datetime,
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
            n = int(key)
            per_inst.append(rec)
            redo_kib = rec["redo_kib_per_s"]
            raw.instance_rates.append(
                InstanceRates(
                    inst_num=n,
                    instance=names.get(n),
                    redo_bytes_per_s=redo_kib * 1024.0 if redo_kib is not None else None,
                    txn_per_s=rec["txn_per_s"],
                    block_changes_per_s=rec["block_changes_per_s"],
                    logical_reads_per_s=rec["logical_reads_per_s"],
                    physical_reads_per_s=rec["physical_reads_per_s"],
                    physical_writes_per_s=rec["physical_writes_per_s"],
                    executes_per_s=rec["executes_per_s"],
                    user_calls_per_s=rec["user_calls_per_s"],
                )
            )
        elif key.lower() == "sum":
            total = rec
    if total is None and len(per_inst) == 1:
        total = per_inst[0]
    if total is None and per_inst:
        total = {
            k: (sum(r[k] for r in per_inst) if all(r[k] is not None for r in per_inst) else None)  # type: ignore[misc]
            for k in GLOBAL_COLUMNS
        }
        raw.warnings.append("no Sum row in 'System Statistics - Per Second': summed instances")
    if total is not None:
        raw.global_redo_kib_per_s = total["redo_kib_per_s"]
        raw.global_txn_per_s = total["txn_per_s"]
        for k in (
            "logical_reads_per_s",
            "physical_reads_per_s",
            "physical_writes_per_s",
            "block_changes_per_s",
            "user_calls_per_s",
            "executes_per_s",
        ):
            raw.global_totals[k] = total[k]


def _parse_global(lines: list[str], text: str, data: bytes, source: str) -> WorkloadReport:
    raw = RawReport(source=source, data=data, kind="awr", layout="global_rac", format="text")
    raw.last_line = len(lines)
    raw.has_end_marker = end_marker(text)
    raw.rac = True
    i = find_line(lines, _DB_SUMMARY_RE, 0, 200)
    if i >= 0:
        for line in lines[i + 1 : i + 14]:
            tokens = line.split()
            nums = [t for t in tokens if is_number_token(t)]
            ids = [t for t in tokens if t.isdigit() and len(t) >= 6]
            if len(nums) >= 8 and ids:
                raw.dbid = int(ids[0])
                after = tokens[tokens.index(ids[0]) + 1 :]
                raw.db_name = after[0] if after else None
                flags = [t for t in after if t in ("YES", "NO")]
                raw.rac = flags[0] == "YES" if flags else True
                tail = tokens[-8:]
                raw.begin_snap = int(parse_number(tail[0]) or 0) or None
                raw.end_snap = int(parse_number(tail[1]) or 0) or None
                raw.db_time_min = parse_number(tail[6])
                raw.elapsed_min = parse_number(tail[7])
                break
    names: dict[int, str] = {}
    i = find_line(lines, _INSTANCES_RE, 0, 300)
    if i >= 0:
        started = False
        for line in lines[i + 1 : i + 80]:
            m = re.match(r"^\s*(\d{1,3})\s+(\S+)\s+(\S+)\s+(.*)$", line)
            if not m:
                if started and not line.strip():
                    break
                continue
            started = True
            n, inst, host, rest = int(m.group(1)), m.group(2), m.group(3), m.group(4)
            names[n] = inst
            raw.instances.append(inst)
            raw.host = raw.host or host
            dates = [d.group(0) for d in DATETIME_RE.finditer(rest)]
            rel = _RELEASE_RE.search(rest)
            if rel:
                raw.version = raw.version or rel.group(0)
            if len(dates) >= 3 and raw.begin is None:
                raw.begin_text, raw.end_text = dates[1], dates[2]
                raw.begin = parse_oracle_datetime(dates[1])
                raw.end = parse_oracle_datetime(dates[2])
    if len(raw.instances) == 1:
        raw.instance = raw.instances[0]
        raw.inst_num = next(iter(names))
    i = find_line(lines, _SYSSTAT_PER_S_RE)
    rows: list[tuple[str, list[float | None]]] = []
    if i >= 0:
        for line in lines[i + 1 : i + 120]:
            m = _GLOBAL_ROW_RE.match(line)
            if m:
                rows.append((m.group("key"), [parse_number(t) for t in m.group("rest").split()]))
            elif rows and not (line.strip() and is_rule(line)):
                break
    global_instance_rates(rows, names, raw)
    read_io_profile(lines, raw, max(i, 0))
    read_activity(lines, raw, max(i, 0))
    return build(raw)


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
        m = _COMPARE_DB_RE.match(line)
        if m:
            raw = raws[m.group("p")]
            d = DB_11G_RE.match(m.group("rest"))
            if d:
                raw.db_name, raw.dbid = d.group("db"), int(d.group("dbid"))
                raw.instance, raw.inst_num = d.group("inst"), int(d.group("num"))
                raw.version, raw.rac = d.group("rel"), d.group("rac") == "YES"
                raw.host = d.group("host")
                raw.instances.append(raw.instance)
            continue
        m = _COMPARE_SNAP_RE.match(line)
        if m:
            raw = raws[m.group("p")]
            raw.begin_snap, raw.end_snap = int(m.group("b")), int(m.group("e"))
            raw.begin_text, raw.end_text = m.group("bt"), m.group("et")
            raw.begin = parse_oracle_datetime(m.group("bt"))
            raw.end = parse_oracle_datetime(m.group("et"))
            tail = [t for t in m.group("rest").split() if is_number_token(t)]
            if len(tail) >= 2:
                raw.elapsed_min = parse_number(tail[-2])
                raw.db_time_min = parse_number(tail[-1])
    i = find_line(lines, _COMPARE_LP_RE, 0, 400)
    if i >= 0:
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
    return [build(raws["1st"]), build(raws["2nd"])]
