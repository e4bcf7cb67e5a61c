"""HTML AWR reports (awrrpt, awrgrpt, awrddrpt; 10g to 23ai, also browser-resaved copies).

Tables are found by their `summary` attribute ("This table displays load profile"), the most
stable anchor from 11.2 to 19c, and, when a copy has lost it, by their header cells. The
parser (selectolax) copes with what browsers do on "Save as": upper-case tags, unquoted
attributes, added `<tbody>`, `&nbsp;` for `&#160;`. Only the few tables we need are read
cell by cell, which keeps a 2 MB report well under 50 ms.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from selectolax.lexbor import LexborHTMLParser as HTMLParser
from selectolax.lexbor import LexborNode as Node

from .awr_text import GLOBAL_COLUMNS, global_instance_rates
from .extract import RawReport, add_activity, build
from .model import WorkloadReport
from .numbers import parse_minutes, parse_number, parse_oracle_datetime

Row = list[str]


class _Table:
    """One `<table>…</table>` fragment with its summary; parsed on first use only.

    Parsing a whole 2 MB report into a DOM costs more than everything else together, while
    we need a dozen of its hundreds of tables: so tables are cut out with a regex (AWR does
    not nest them) and each one is parsed by selectolax only when it is read.
    """

    __slots__ = ("_header", "_node", "_rows", "fragment", "summary")

    def __init__(self, fragment: str, summary: str) -> None:
        self.fragment = fragment
        self.summary = summary
        self._node: Node | None = None
        self._rows: list[Row] | None = None
        self._header: Row | None = None

    @property
    def node(self) -> Node:
        if self._node is None:
            tree = HTMLParser(self.fragment)
            self._node = tree.css_first("table") or tree.root  # type: ignore[assignment]
        return self._node  # type: ignore[return-value]

    @property
    def rows(self) -> list[Row]:
        if self._rows is None:
            rows = []
            for tr in self.node.css("tr"):
                cells = _cells(tr)
                if cells:
                    rows.append(cells)
            self._rows = rows
        return self._rows

    def rows_starting(self, *prefixes: str) -> list[Row]:
        """The rows whose first cell starts with one of `prefixes`.

        Instance Activity Stats has hundreds of rows and we want a handful: unless the
        table was read whole already, only the `<tr>` chunks whose markup holds the first
        word of a prefix are parsed (a cell reading "redo size" holds "redo").
        """
        if self._rows is not None:
            return [r for r in self._rows if r and r[0].startswith(prefixes)]
        low = _lower(self.fragment)
        words = tuple({p.split()[0].lower() for p in prefixes})
        starts = [m.start() for m in _TR_RE.finditer(low)]
        kept = [
            self.fragment[a:b]
            for a, b in zip(starts, [*starts[1:], len(low)], strict=True)
            if any(w in low[a:b] for w in words)
        ]
        if not kept:
            return []
        node = HTMLParser("<table>" + "".join(kept) + "</table>").css_first("table")
        rows = [_cells(tr) for tr in node.css("tr")] if node is not None else []
        return [r for r in rows if r and r[0].startswith(prefixes)]

    def header(self) -> Row:
        """The header cells: the first row made of <th> (falls back to the first row)."""
        if self._header is None:
            self._header = []
            for tr in self.node.css("tr"):
                ths = [" ".join(c.text(deep=True).split()) for c in tr.iter() if c.tag == "th"]
                self._header = ths or (self.rows[0] if self.rows else [])
                break
        return self._header


def _cells(tr: Node) -> Row:
    return [" ".join(c.text(deep=True).split()) for c in tr.iter() if c.tag in ("td", "th")]


_TR_RE = re.compile(r"<tr\b")  # on the lower-cased text
_TABLE_OPEN_RE = re.compile(r"<table\b([^>]*)>")
_TABLE_CLOSE_RE = re.compile(r"</table\s*>")
_SUMMARY_RE = re.compile(r"""\bsummary\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_SCRIPT_OPEN_RE = re.compile(r"<script\b")
_SCRIPT_CLOSE_RE = re.compile(r"</script\s*>")


def _lower(text: str) -> str:
    """`text` lower-cased, position for position (only U+0130 lower-cases to two
    characters, so it is lower-cased as an ASCII I), for case-insensitive searches with
    the plain-text speed of case-sensitive ones."""
    if "\u0130" in text:
        text = text.replace("\u0130", "I")
    return text.lower()


def _next_script(low: str, pos: int) -> int:
    m = _SCRIPT_OPEN_RE.search(low, pos)
    return m.start() if m else -1


def _strip_noise(text: str) -> tuple[str, str]:
    """Drop `<script>…</script>` and `<!-- … -->` in one pass, linear in the text.

    Returns the text and its `_lower` copy. Browser re-saves inject scripts (and
    comments) that may hold "<table" in strings. An
    opening that is never closed stays as it is (and so does every later one of its
    kind: none of them can close either), which is what the former regex did, minus its
    quadratic time on 100,000 unclosed `<!--`.
    """
    low = _lower(text)
    if "<!--" not in low and "<script" not in low:
        return text, low
    parts: list[str] = []
    low_parts: list[str] = []
    pos = 0
    comment = low.find("<!--")  # the next opening of each kind; -1: none (that closes)
    script = _next_script(low, 0)
    while comment >= 0 or script >= 0:
        start = min(i for i in (comment, script) if i >= 0)
        if start == comment:
            close = low.find("-->", start + 4)
            if close < 0:
                comment = -1
                continue
            stop = close + 3
        else:
            m = _SCRIPT_CLOSE_RE.search(low, start + 7)
            if m is None:
                script = -1
                continue
            stop = m.end()
        parts.append(text[pos:start])
        low_parts.append(low[pos:start])
        pos = stop
        if 0 <= comment < pos:
            comment = low.find("<!--", pos)
        if 0 <= script < pos:
            script = _next_script(low, pos)
    parts.append(text[pos:])
    low_parts.append(low[pos:])
    return "".join(parts), "".join(low_parts)


def _next_tag(
    low: str, prefix: str, pattern: re.Pattern[str], pos: int, limit: int | None = None
) -> re.Match[str] | None:
    """The next match of `pattern` (which starts with `prefix`) in `low[pos:limit]`: found
    with `str.find`, many times faster than a regex scan over a 2 MB report."""
    end = len(low) if limit is None else limit
    while (i := low.find(prefix, pos, end)) >= 0:
        m = pattern.match(low, i, end)
        if m is not None:
            return m
        pos = i + 1
    return None


def _tables(text: str) -> list[_Table]:
    """Every `<table>` fragment with its summary, found in one linear pass.

    AWR does not nest tables; when a hostile file does, only the innermost table of a
    nest is kept (its outer tables are never closed before it), so the cells read never
    hold a whole nest: linear in the file, not quadratic.
    """
    text, low = _strip_noise(text)
    out = []
    pos = 0
    while (m := _next_tag(low, "<table", _TABLE_OPEN_RE, pos)) is not None:
        close = _next_tag(low, "</table", _TABLE_CLOSE_RE, m.end())
        end = close.end() if close else len(text)
        limit = close.start() if close else len(text)
        while (inner := _next_tag(low, "<table", _TABLE_OPEN_RE, m.end(), limit)) is not None:
            m = inner
        sm = _SUMMARY_RE.search(text, m.start(1), m.end(1))
        summary = ""
        if sm:
            summary = html.unescape(next(g for g in sm.groups() if g is not None))
        out.append(_Table(text[m.start() : end], " ".join(summary.split()).lower()))
        pos = end
    return out


def _find(tables: list[_Table], *needles: str) -> list[_Table]:
    """Tables whose summary contains every needle (lower case)."""
    return [t for t in tables if t.summary and all(n in t.summary for n in needles)]


def _by_header(tables: Iterable[_Table], *names: str) -> list[_Table]:
    """Tables whose header cells include all `names` (case-insensitive): the fallback anchor."""
    wanted = [n.lower() for n in names]
    out = []
    for t in tables:
        head = " | ".join(t.header()).lower()
        if all(w in head for w in wanted):
            out.append(t)
    return out


def _record(table: _Table) -> dict[str, str]:
    """Header cell (lower case) → first data row's cell, for one-row identity tables."""
    head = [h.lower() for h in table.header()]
    for row in table.rows:
        if row == table.header() or len(row) < 2:
            continue
        return {h: v for h, v in zip(head, row, strict=False) if h}
    return {}


_TITLE_RE = re.compile(
    r"DB:\s*(?P<db>[^,\s]+)(?:,\s*Inst:\s*(?P<inst>[^,\s]+))?,\s*Snaps:\s*(?P<b>\d+)-(?P<e>\d+)",
    re.IGNORECASE,
)


_TITLE_TAG_RE = re.compile(r"<title[^>]*>(.*?)</title", re.IGNORECASE | re.DOTALL)


def parse_html_awr(text: str, data: bytes, source: str, layout: str) -> list[WorkloadReport]:
    """Dispatch on the layout `detect` found; returns one report per measured interval."""
    tables = _tables(text)
    tm = _TITLE_TAG_RE.search(text, 0, 65536)
    title = html.unescape(tm.group(1)) if tm else ""
    end = "End of Report" in text[-8192:]
    if layout == "compare":
        return _parse_compare(tables, title, data, source, end)
    raw = RawReport(source=source, data=data, kind="awr", layout=layout, format="html")
    raw.has_end_marker = end
    if not end:  # only a report cut short says where it stops
        raw.last_line = text.count("\n") + 1
    m = _TITLE_RE.search(title)
    if m:
        raw.db_name = m.group("db")
        raw.instance = m.group("inst")
    _read_tables(tables, raw)
    if raw.begin_snap is None and m:
        raw.warnings.append("snapshot ids taken from the title")
        raw.begin_snap, raw.end_snap = int(m.group("b")), int(m.group("e"))
    if raw.instance and raw.instance not in raw.instances and layout != "global_rac":
        raw.instances.append(raw.instance)
    return [build(raw)]


# ----------------------------------------------------------------------------- instance


def _read_tables(tables: list[_Table], raw: RawReport) -> None:
    """Fill `raw` from the tables of a single-interval report of `raw.layout`."""
    if raw.layout == "global_rac":
        _read_global(tables, raw)
        return
    _read_identity(tables, raw)
    _read_snapshots(tables, raw)
    _read_load_profile(tables, raw)
    _read_activity(tables, raw)
    _read_io_profile(tables, raw)


def _read_identity(tables: list[_Table], raw: RawReport) -> None:
    rec = _identity_record(tables)
    raw.db_name = rec.get("db name") or raw.db_name
    raw.dbid = _whole(rec.get("db id"))
    raw.instance = rec.get("instance") or raw.instance
    raw.inst_num = _whole(rec.get("inst num"))
    raw.version = rec.get("release") or None
    if rec.get("rac") in ("YES", "NO"):
        raw.rac = rec["rac"] == "YES"
    host = _find(tables, "host information") or _by_header(tables, "host name", "platform")
    if host:
        raw.host = _record(host[0]).get("host name") or None
    if raw.layout == "pdb":
        raw.container = _container(tables)


def _identity_record(tables: list[_Table]) -> dict[str, str]:
    """Header → value of the (up to three) instance information tables, the first wins."""
    info = _find(tables, "database instance information") or _by_header(tables, "db id")
    rec: dict[str, str] = {}
    for t in info[:3]:
        for k, v in _record(t).items():
            rec.setdefault(k, v)
    return rec


def _container(tables: list[_Table]) -> str | None:
    """A PDB report's container: the first name in a PDB table that is not CDB$ROOT."""
    for t in _find(tables, "pdb") or _by_header(tables, "container name"):
        name = _pdb_name(t)
        if name:
            return name
    return None


def _pdb_name(t: _Table) -> str | None:
    """The first name in a PDB table's name column that is not CDB$ROOT."""
    col = next((i for i, h in enumerate(t.header()) if "name" in h.lower()), None)
    if col is None:
        return None
    names = (row[col] for row in t.rows[1:] if len(row) > col and row[col])
    return next((n for n in names if n.upper() != "CDB$ROOT"), None)


def _read_snapshots(tables: list[_Table], raw: RawReport) -> None:
    snap = _find(tables, "snapshot information") or _by_header(tables, "snap id", "snap time")
    if not snap:
        return
    for row in snap[0].rows:
        label = row[0].lower().rstrip(":") if row else ""
        if label in ("begin snap", "end snap") and len(row) >= 3:
            _snapshot(label, row, raw)
        elif label in ("elapsed", "db time"):
            _minutes(label, row, raw)


def _snapshot(label: str, row: Row, raw: RawReport) -> None:
    """A Begin Snap / End Snap row: the snapshot's id and time."""
    if label == "begin snap":
        raw.begin_snap = _whole(row[1])
        raw.begin, raw.begin_text = parse_oracle_datetime(row[2]), row[2]
    else:
        raw.end_snap = _whole(row[1])
        raw.end, raw.end_text = parse_oracle_datetime(row[2]), row[2]


def _minutes(label: str, row: Row, raw: RawReport) -> None:
    """An Elapsed / DB Time row: its figure in minutes."""
    value = next((parse_minutes(c) for c in row[1:] if "min" in c.lower()), None)
    if label == "elapsed":
        raw.elapsed_min = value
    else:
        raw.db_time_min = value


def _whole(text: str | None) -> int | None:
    """A printed whole number (snapshot id, DBID, instance number); None when unreadable."""
    n = parse_number(text)
    return int(n) if n is not None else None


def _load_profile_table(tables: list[_Table]) -> _Table | None:
    found = _find(tables, "load profile")
    if found:
        return found[0]
    for t in _by_header(tables, "per second"):
        if any(r and r[0].lower().startswith("redo size") for r in t.rows):
            return t
    return None


def _read_load_profile(tables: list[_Table], raw: RawReport) -> None:
    t = _load_profile_table(tables)
    if t is None:
        return
    raw.load_profile_found = True
    for row in t.rows:
        if len(row) >= 2 and row[0].endswith(":"):
            raw.load_profile.append(_profile_row(row))


def _profile_row(row: Row) -> tuple[str, float | None, float | None]:
    """(label, per second, per transaction) of a Load Profile row."""
    return row[0], parse_number(row[1]), parse_number(row[2]) if len(row) > 2 else None


def _read_activity(tables: list[_Table], raw: RawReport) -> None:
    ias = _find(tables, "activity stat") or _by_header(tables, "statistic", "per second")
    for t in ias:
        if "absolute" in t.summary:
            continue
        for row in t.rows_starting("redo", "log switches"):
            if len(row) >= 3:
                add_activity(raw, row[0], row[1:])
    _read_thread_activity(tables, raw)


def _read_thread_activity(tables: list[_Table], raw: RawReport) -> None:
    """Log switches from Thread Activity (where Instance Activity Stats lacks them)."""
    for t in _find(tables, "thread activity"):
        for row in t.rows:
            if len(row) >= 2 and row[0].startswith("log switches"):
                add_activity(raw, row[0], row[1:])


def _read_io_profile(tables: list[_Table], raw: RawReport) -> None:
    for t in _find(tables, "io profile"):
        for row in t.rows:
            if row and row[0].rstrip(":").strip().lower() == "redo (mb)" and len(row) >= 2:
                raw.io_redo_mb_per_s = parse_number(row[1])
                raw.io_redo_write_mb_per_s = parse_number(row[-1]) if len(row) >= 4 else None
                return


# ----------------------------------------------------------------------------- global RAC

_GLOBAL_HEADER_KEYS = (
    ("logical reads", "logical_reads_per_s"),
    ("physical reads", "physical_reads_per_s"),
    ("physical writes", "physical_writes_per_s"),
    ("redo size", "redo_kib_per_s"),
    ("block changes", "block_changes_per_s"),
    ("user calls", "user_calls_per_s"),
    ("execs", "executes_per_s"),
    ("parses", "parses_per_s"),
    ("logons", "logons_per_s"),
    ("txns", "txn_per_s"),
)


def _read_global(tables: list[_Table], raw: RawReport) -> None:
    raw.rac = True
    _read_global_summary(tables, raw)
    names = _read_global_instances(tables, raw)
    if len(names) == 1:
        raw.inst_num, raw.instance = next(iter(names.items()))
    elif names:
        raw.instance = None
    per_s = _find(tables, "system statistics - per second")
    if per_s:
        global_instance_rates(_global_rate_rows(per_s[0]), names, raw)
    for t in _find(tables, "system statistics (global)"):
        for row in t.rows_starting("redo"):
            if len(row) >= 3:
                add_activity(raw, row[0], row[1:])
    _read_io_profile(tables, raw)


def _read_global_summary(tables: list[_Table], raw: RawReport) -> None:
    """DBID, name, RAC flag, snapshots and times from the Database Summary row."""
    summary = _find(tables, "database summary")
    if not summary:
        return
    for row in summary[0].rows:
        if len(row) >= 10 and row[0].isdigit() and len(row[0]) >= 6:
            raw.dbid = int(row[0])
            raw.db_name = row[1]
            flags = [c for c in row[2:] if c in ("YES", "NO")]
            raw.rac = flags[0] == "YES" if flags else True
            tail = row[-8:]
            raw.begin_snap, raw.end_snap = _whole(tail[0]), _whole(tail[1])
            raw.db_time_min = parse_number(tail[6])
            raw.elapsed_min = parse_number(tail[7])
            return


def _read_global_instances(tables: list[_Table], raw: RawReport) -> dict[int, str]:
    """The instances included (number → name); host, release and snap times of the first."""
    names: dict[int, str] = {}
    inst = _find(tables, "database instances included") or _by_header(tables, "i#", "instance")
    if not inst:
        return names
    head = [h.lower() for h in inst[0].header()]
    idx = {h: i for i, h in enumerate(head)}
    for row in inst[0].rows:
        if not row or not row[0].isdigit() or len(row) < len(head):
            continue
        name = row[idx.get("instance", 1)]
        names[int(row[0])] = name
        raw.instances.append(name)
        _global_instance_facts(row, idx, raw)
    return names


def _global_instance_facts(row: Row, idx: dict[str, int], raw: RawReport) -> None:
    """Host, release and snap times from an instance's row, where not known yet."""
    raw.host = raw.host or row[idx.get("host", 2)]
    raw.version = raw.version or row[idx["release"]] if "release" in idx else raw.version
    if raw.begin is None and "begin snap time" in idx:
        raw.set_times(row[idx["begin snap time"]], row[idx["end snap time"]])


def _global_rate_rows(table: _Table) -> list[tuple[str, list[float | None]]]:
    """(instance number or Sum/Avg/Std, rates in `GLOBAL_COLUMNS` order) per row: by the
    header's names when all are there, else by position."""
    head = [h.lower() for h in table.header()]
    cols = [
        next((i for i, h in enumerate(head) if h.startswith(needle)), -1)
        for needle, _key in _GLOBAL_HEADER_KEYS
    ]
    rows: list[tuple[str, list[float | None]]] = []
    for row in table.rows:
        if not row or not (row[0].isdigit() or row[0] in ("Sum", "Avg", "Std")):
            continue
        if all(c > 0 for c in cols):
            values = [parse_number(row[c]) if c < len(row) else None for c in cols]
        else:
            values = [parse_number(c) for c in row[1 : 1 + len(GLOBAL_COLUMNS)]]
        rows.append((row[0], values))
    return rows


# ----------------------------------------------------------------------------- compare


def _parse_compare(
    tables: list[_Table], title: str, data: bytes, source: str, end: bool
) -> list[WorkloadReport]:
    raws = {
        p: RawReport(
            source=source, data=data, kind="awr", layout="compare", format="html", period=n
        )
        for n, p in ((1, "1st"), (2, "2nd"))
    }
    for raw in raws.values():
        raw.has_end_marker = end
    _read_compare_identity(tables, raws)
    snapshots = _by_header(tables, "begin snap id")
    if snapshots:
        _read_compare_snapshots(snapshots[0], raws)
    _read_compare_load_profile(tables, raws)
    return [build(raws["1st"]), build(raws["2nd"])]


def _read_compare_identity(tables: list[_Table], raws: dict[str, RawReport]) -> None:
    """Database and instance of each period from the rows marked 1st / 2nd."""
    for t in _by_header(tables, "db id"):
        head = [h.lower() for h in t.header()]
        for row in t.rows:
            key = "1st" if "1st" in row[0] else "2nd" if "2nd" in row[0] else None
            if key is not None:
                _compare_identity(dict(zip(head, row, strict=False)), raws[key])


def _compare_identity(rec: dict[str, str], raw: RawReport) -> None:
    """One period's identity from its row (header cell → value)."""
    raw.db_name = rec.get("db name") or None
    raw.dbid = _whole(rec.get("db id"))
    raw.instance = rec.get("instance") or None
    raw.inst_num = _whole(rec.get("inst num"))
    raw.version = rec.get("release") or None
    raw.host = rec.get("host") or None
    if raw.instance:
        raw.instances.append(raw.instance)


def _read_compare_snapshots(t: _Table, raws: dict[str, RawReport]) -> None:
    """Snapshots, times, elapsed and DB time of each period from the snapshot table."""
    head = [h.lower() for h in t.header()]

    def col(name: str) -> int:
        return next((i for i, h in enumerate(head) if h.startswith(name)), -1)

    cb, cbt = col("begin snap id"), col("begin snap time")
    ce, cet = col("end snap id"), col("end snap time")
    cel, cdb = col("elapsed"), col("db time")
    for row in t.rows:
        key = row[0].strip() if row else ""
        if key not in raws or len(row) < len(head):
            continue
        raw = raws[key]
        raw.begin_snap, raw.end_snap = _whole(row[cb]), _whole(row[ce])
        raw.set_times(row[cbt], row[cet])
        raw.elapsed_min = parse_number(row[cel]) if cel >= 0 else None
        raw.db_time_min = parse_number(row[cdb]) if cdb >= 0 else None


def _read_compare_load_profile(tables: list[_Table], raws: dict[str, RawReport]) -> None:
    """Each period's Load Profile: per second in columns 1 and 2, per transaction 4 and 5."""
    lp = _find(tables, "load profile") or _by_header(tables, "1st per sec")
    if not lp:
        return
    for raw in raws.values():
        raw.load_profile_found = True
    for row in lp[0].rows:
        if len(row) < 3 or not row[0].endswith(":"):
            continue
        v = [parse_number(c) for c in row[1:]]
        raws["1st"].load_profile.append((row[0], v[0], v[3] if len(v) > 3 else None))
        raws["2nd"].load_profile.append((row[0], v[1], v[4] if len(v) > 4 else None))
