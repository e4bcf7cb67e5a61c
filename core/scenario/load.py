"""Loading: TOML text or a parsed document → a validated `Scenario`.

Validation happens here, once, and every error names the file, the line (when the text
gives it), the dotted key and what is expected; unknown keys get a "did you mean" for near
misses. Each table is parsed by the field table (`fields.py`) and fills its model
dataclass by the entries' attributes; the functions below add only what one key alone
cannot say (catalog fills, keys that contradict each other, keys without effect).
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import toml_read
from ..bounds import MAX_NESTING, MAX_SCENARIO_BYTES, MAX_STAGES
from ..catalog import Catalog, shipped_catalog
from ..comments import file_comments
from ..errors import ScenarioError, ScenarioVersionError, UnitError
from ..inputfile import InputFileError, read_limited
from ..units import parse_duration, parse_rate, parse_size
from .addresses import check_provenance, check_uncertainty, flatten_table
from .channel_rate import default_channel_rate
from .fields import (
    CARRIES_BACKUP_BY_DEFAULT,
    FORMAT_VERSION,
    SECTIONS,
    STAGE_FIELDS,
    TABLE_KEYS,
    TOP_FIELDS,
    FieldSpec,
)
from .lines import key_lines
from .model import Backup, Database, Growth, Recovery, Scenario, Stage, Targets
from .values import parse_value


class _Loader:
    """Validates one document; errors name the source, the key and its line (from the
    key → line map `lines`, or worked out from `text`).

    The map is built from the text only when an error needs it: a valid file (nearly
    every file of a 10,000-database estate) never pays for it."""

    def __init__(
        self, source: str, lines: dict[str, int] | None = None, *, text: str | None = None
    ) -> None:
        self.source = source
        self._text = text
        self._lines = lines

    @property
    def lines(self) -> dict[str, int]:
        if self._lines is None:
            self._lines = key_lines(self._text) if self._text else {}
        return self._lines

    def error(self, key: str, message: str, hint: str | None = None) -> ScenarioError:
        line = self.lines.get(key)
        if line is None and "." in key:
            line = self.lines.get(key.rsplit(".", 1)[0])
        return ScenarioError(message, key=key, line=line, source=self.source, hint=hint)

    def check_keys(self, where: str, table: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                hint = f"did you mean '{close[0]}'?" if close else (
                    "known keys: " + ", ".join(allowed))  # fmt: skip
                dotted = f"{where}.{key}" if where else key
                raise self.error(dotted, f"unknown key '{key}'", hint)

    def section(
        self, where: str, table: Any, specs: tuple[FieldSpec, ...]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Validate one table: returns (parsed values, raw values) by key."""
        if not isinstance(table, dict):
            raise self.error(where, f"'{where}' must be a table ([{where}])")
        known = _table_of(specs)
        if not known.keys.issuperset(table):  # a key the table does not know: say which
            self.check_keys(where, table, known.order)
        if not known.required.issubset(table):  # the first missing one, in its place
            return self._section_in_order(where, table, specs)
        parsed: dict[str, Any] = {}
        raw: dict[str, Any] = {}
        # The table's keys in the field table's order (as every key of it were visited)
        for key in sorted(table, key=known.index.__getitem__):
            parsed[key] = self.value(where, known.spec[key], table[key])
            raw[key] = table[key]
        return parsed, raw

    def _section_in_order(
        self, where: str, table: dict, specs: tuple[FieldSpec, ...]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """`section` key by key of the field table: a value's error or the first required
        key missing, whichever comes first."""
        parsed: dict[str, Any] = {}
        raw: dict[str, Any] = {}
        for spec in specs:
            if spec.key in table:
                parsed[spec.key] = self.value(where, spec, table[spec.key])
                raw[spec.key] = table[spec.key]
            elif spec.required:
                dotted = f"{where}.{spec.key}" if where else spec.key
                raise self.error(dotted, f"'{spec.key}' is required", spec.help or None)
        return parsed, raw

    def value(self, where: str, spec: FieldSpec, value: Any) -> Any:
        try:
            return parse_value(spec, value)
        except (UnitError, ValueError) as exc:
            raise self.error(f"{where}.{spec.key}" if where else spec.key, str(exc)) from None


@dataclass(frozen=True)
class _Table:
    """A field table worked out for reading: its keys in order, as a set, the required
    ones, each key's place, spec and model attribute."""

    specs: tuple[FieldSpec, ...]
    order: tuple[str, ...]
    keys: frozenset[str]
    required: frozenset[str]
    index: dict[str, int]
    spec: dict[str, FieldSpec]
    attr: dict[str, str]


_TABLES: dict[int, _Table] = {}


def _table_of(specs: tuple[FieldSpec, ...]) -> _Table:
    """`specs` worked out once (the field tables are constants; a scenario of an estate
    is read thousands of times)."""
    known = _TABLES.get(id(specs))
    if known is None or known.specs is not specs:
        if len(_TABLES) > 64:  # not one of the constant tables: do not keep them all
            _TABLES.clear()
        order = tuple(s.key for s in specs)
        known = _TABLES[id(specs)] = _Table(
            specs, order, frozenset(order), frozenset(s.key for s in specs if s.required),
            {k: i for i, k in enumerate(order)}, {s.key: s for s in specs},
            {s.key: s.attr for s in specs if s.attr},
        )  # fmt: skip
    return known


def _attributes(specs: tuple[FieldSpec, ...], values: Mapping[str, Any]) -> dict[str, Any]:
    """The model attributes the given keys set (`size` → `size_bytes`), per the table
    (each attribute is one key's: the values are looked at, not the whole table)."""
    attr = _table_of(specs).attr
    return {attr[k]: v for k, v in values.items() if v is not None and k in attr}


# ------------------------------------------------------------------------ [[path]]


def _resolve_stage(loader: _Loader, idx: int, values: dict[str, Any], catalog: Catalog) -> Stage:
    where = f"path[{idx}]"
    kind = values["kind"]
    filled, source = _catalog_filled(loader, where, values, catalog)
    _check_stage(loader, where, kind, filled)
    defaults = {
        "carries": "backup" if kind in CARRIES_BACKUP_BY_DEFAULT else "data",
        "binds_channel": kind == "tape_drive",
    }
    item = catalog.find(kind, values.get("name")) if kind == "tape_drive" else None
    mechanics = _tape_mechanics(item)
    attrs = _attributes(STAGE_FIELDS, {**defaults, **filled})
    return Stage(**attrs, source=source, **mechanics)


def _catalog_filled(
    loader: _Loader, where: str, values: dict[str, Any], catalog: Catalog
) -> tuple[dict[str, Any], str]:
    """The stage's values with a catalog item's figures where no rate is given, and
    where the rate comes from ("scenario" or "catalog: <item> — <source>")."""
    if "rate" in values:
        return values, "scenario"
    kind, name = values["kind"], values.get("name")
    item = catalog.find(kind, name)
    if item is None or item.rate_Bps is None:
        raise loader.error(f"{where}.rate", "a stage needs a rate", _no_rate_hint(kind, name, item))
    tape = kind == "tape_drive"
    fills = {
        "rate": item.rate_Bps,
        "efficiency": item.derate,
        "hw_compression": item.hw_compression if tape and item.hw_compression else None,
        "backup_rate": item.backup_rate_Bps,
        "max_rate": item.compressed_rate_Bps if tape and item.compressed_rate_Bps else None,
    }
    out = dict(values)
    for key, value in fills.items():
        if out.get(key) is None:
            out[key] = value
    return out, f"catalog: {item.name} — {item.source}"


def _no_rate_hint(kind: str, name: str | None, item: object) -> str:
    """What to do when a stage has no rate: the catalog item has none, or there is no item."""
    if item is not None:
        return (
            f"the catalog's {kind} '{name}' has no rate: give the rate you measured, e.g. '2 GB/s'"
        )
    if name:
        return f"no {kind} named '{name}' in the catalog; give a rate such as '140 MB/s'"
    return "give a rate such as '140 MB/s', or a catalog item's name"


def _check_stage(loader: _Loader, where: str, kind: str, values: dict[str, Any]) -> None:
    """Keys that do not fit the stage's kind, and values past what the kind allows."""
    efficiency, hw = values.get("efficiency"), values.get("hw_compression")
    if efficiency is not None and efficiency > 1:
        raise loader.error(f"{where}.efficiency", f"{efficiency:g} is above 100 %")
    if hw is not None and kind != "tape_drive":
        raise loader.error(f"{where}.hw_compression", "only tape drives have hardware compression")
    if kind == "object_storage" and values.get("count", 1) != 1:
        raise loader.error(
            f"{where}.count",
            "object storage has no units to count: its rate is what one RMAN channel gets",
            "remove count; backup.channels multiplies the rate, the host's link bounds it",
        )
    if "write_factor" in values and kind != "storage_write":
        raise loader.error(f"{where}.write_factor", "only storage_write stages take a write_factor")
    write_factor = values.get("write_factor", 1.0)
    if write_factor < 1.0:
        raise loader.error(
            f"{where}.write_factor",
            f"{write_factor:g} is below 1: each data byte is written at least once",
            "2 for ASM normal redundancy, 3 for high, about 1.33 for RAID 5",
        )


def _tape_mechanics(item: Any) -> dict[str, Any]:
    """Load/locate time, capacity and minimum streaming rate of a catalog tape drive."""
    if item is None:
        return {}
    out: dict[str, Any] = {"load_s": item.load_s or 0.0, "locate_s": item.locate_s or 0.0}
    for key, parse, field_name in (
        ("capacity", parse_size, "capacity_bytes"),
        ("min_streaming_rate", parse_rate, "min_streaming_Bps"),
    ):
        text = item.extra.get(key)
        if text:
            with contextlib.suppress(UnitError):
                out[field_name] = parse(text)
    return out


def _path(loader: _Loader, path_doc: Any, catalog: Catalog) -> tuple[tuple[Stage, ...], list]:
    """The stages of `[[path]]` and their raw values."""
    if not isinstance(path_doc, list) or not path_doc:
        raise loader.error(
            "path",
            "the restore path needs at least one [[path]] stage",
            'add e.g. [[path]] kind = "tape_drive" count = 4 rate = "300 MB/s"',
        )
    if len(path_doc) > MAX_STAGES:
        raise loader.error(
            "path",
            f"the restore path has {len(path_doc):,} stages; at most {MAX_STAGES} are read "
            "(a real path has three to eight)",
        )
    stages = []
    raw_path = []
    for i, stage_doc in enumerate(path_doc):
        vals, stage_raw = loader.section(f"path[{i}]", stage_doc, STAGE_FIELDS)
        stages.append(_resolve_stage(loader, i, vals, catalog))
        raw_path.append(stage_raw)
    return tuple(stages), raw_path


# ------------------------------------------------------------------------ the tables


def _database(loader: _Loader, vals: dict[str, Any], raw: Mapping[str, Any]) -> Database:
    growth = vals.get("growth")
    database = Database(
        **_attributes(SECTIONS["database"], vals),
        growth=Growth(growth[0], growth[1], raw["growth"]) if growth else None,
    )
    if database.largest_file_bytes and database.largest_file_bytes > database.size_bytes:
        raise loader.error("database.largest_file", "is larger than the database size")
    return database


def _backup(loader: _Loader, vals: dict[str, Any], database: Database, catalog: Catalog) -> Backup:
    backup = Backup(**_attributes(SECTIONS["backup"], vals))
    if "level1" not in vals and "level1_every" in vals:
        backup = replace(backup, level1="cumulative")
    if backup.level1 != "none" and backup.level1_every_s >= backup.level0_every_s:
        raise loader.error("backup.level1_every", "must be shorter than backup.level0_every")
    return _resolve_compression(loader, backup, vals, catalog)


def _resolve_compression(
    loader: _Loader, backup: Backup, values: dict[str, Any], catalog: Catalog
) -> Backup:
    """A named level takes its ratio from the catalog unless a ratio is measured."""
    level = backup.compression
    if level is None:
        return backup
    if level == "none":
        # "Compression off" is a state to evaluate: a ratio left from a level does not
        # apply (the plan's notes name it, core/engine/notes.py).
        return replace(backup, compression_ratio=1.0)
    item = catalog.find("rman_compression", level)
    if item is None or (not item.ratio and "compression_ratio" not in values):
        raise loader.error(
            "backup.compression",
            f"the catalog has no ratio for RMAN {level.upper()} compression",
            "give backup.compression_ratio (V$RMAN_BACKUP_JOB_DETAILS: input ÷ output bytes)",
        )
    ratio = backup.compression_ratio if "compression_ratio" in values else item.ratio
    return replace(
        backup,
        compression_ratio=ratio,
        compress_core_Bps=_catalog_rate(item, "compress_rate"),
        decompress_core_Bps=_catalog_rate(item, "decompress_rate"),
        compression_source=f"catalog: RMAN {level.upper()} — {item.source}",
    )


def _catalog_rate(item: Any, key: str, parse: Callable[[str], float] = parse_rate) -> float | None:
    """A catalog item's extra figure (a rate, or with `parse_duration` a time); None when
    absent or unreadable."""
    text = item.extra.get(key)
    try:
        return parse(text) if text else None
    except UnitError:
        return None


_Rule = Callable[[Database, Backup, dict[str, Any], dict[str, Any]], bool]
_UNUSED: tuple[tuple[str, _Rule, str, str], ...] = (
    ("recovery.incremental_size",
     lambda db, bk, bkv, rcv: bk.level1 == "none" and "incremental_size" in rcv,
     "is given but there is no level 1 backup to restore (backup.level1 is 'none')",
     "set backup.level1 to 'cumulative' or 'differential', or remove the key"),
    ("backup.transport_lag",
     lambda db, bk, bkv, rcv: "transport_lag" in bkv and bk.standby != "async",
     "only an async standby has a transport lag (backup.standby is '{standby}')",
     "set backup.standby = 'async', or remove the key"),
    ("recovery.failover",
     lambda db, bk, bkv, rcv: "failover" in rcv and bk.standby == "none",
     "there is no standby to fail over to (backup.standby is 'none')",
     "set backup.standby to 'sync' or 'async', or remove the key"),
    ("backup.section_size",
     lambda db, bk, bkv, rcv: "section_size" in bkv and db.largest_file_bytes is None,
     "sections only matter for the largest file, and database.largest_file is not given",
     "give database.largest_file, or remove the key"),
)  # fmt: skip
"""Keys that have no effect with the others as given (DESIGN §3.7): key, when, why, fix."""


def _refuse_unused(
    loader: _Loader, db: Database, backup: Backup, bk_vals: dict[str, Any],
    rc_vals: dict[str, Any],
) -> None:  # fmt: skip
    """A given value either changes the plan or is refused with the reason (DESIGN §3.7)."""
    for key, applies, message, hint in _UNUSED:
        if applies(db, backup, bk_vals, rc_vals):
            raise loader.error(key, message.format(standby=backup.standby), hint)


def _redo_apply_defaults(attrs: dict[str, Any], database: Database, catalog: Catalog) -> None:
    """The workload class's redo apply rate and per-log cost where no rate is given, into
    the Recovery's attributes `attrs` (set by the file: `_attributes`).

    A typed `redo_apply_rate` keeps its meaning: a timed test recovery's redo ÷ time, which
    already holds the cost of each log; the class's per-log cost comes only with the
    class's rate (or when `recovery.redo_log_cost` is given)."""
    item = catalog.find("redo_apply", database.workload)
    if item is None or attrs.get("redo_apply_rate_Bps") is not None:
        return
    where = f"catalog: {database.workload} workload class — "
    if item.rate_Bps:
        attrs["redo_apply_rate_Bps"] = item.rate_Bps * item.derate
        attrs["redo_apply_source"] = where + item.source
    cost = _catalog_rate(item, "log_cost", parse_duration)
    if attrs.get("redo_log_cost_s") is None and cost is not None:
        attrs["redo_log_cost_s"] = cost
        attrs["redo_log_cost_source"] = where + item.extra.get("log_cost_source", item.source)


def _recovery(
    loader: _Loader, vals: dict[str, Any], database: Database, backup: Backup, catalog: Catalog
) -> Recovery:
    """The Recovery as given, with the catalog's and the class's defaults (constructed
    once: a scenario of an estate is read thousands of times)."""
    attrs = _attributes(SECTIONS["recovery"], vals)
    _redo_apply_defaults(attrs, database, catalog)
    if backup.level1 != "none" and attrs.get("incremental_apply_rate_Bps") is None:
        # The class default: the apply keeps pace with its own restore (factor 1), a
        # figure with a prior (default.recovery.incremental_apply_factor).
        attrs["incremental_apply_factor"] = 1.0
    return Recovery(**attrs)


def _channel_default(backup: Backup, stages: tuple[Stage, ...]) -> Backup:
    """The class default ceiling of one RMAN channel, on a disk or NFS path without one."""
    found = default_channel_rate(stages)
    if found is None:
        return backup
    return replace(backup, channel_rate_Bps=found[0], channel_rate_source=found[1])


def _targets(vals: dict[str, Any]) -> Targets:
    frac, secs = vals.get("risk_margin", (0.10, None))
    return Targets(
        **_attributes(SECTIONS["targets"], vals), risk_margin_fraction=frac, risk_margin_s=secs
    )


# ------------------------------------------------------------------------ the document


def _model_tables(
    loader: _Loader, vals: dict[str, dict[str, Any]], raw: dict[str, Any], catalog: Catalog
) -> dict[str, Any]:
    """The database, backup, recovery and targets of the model, checked together."""
    database = _database(loader, vals["database"], raw["database"])
    backup = _backup(loader, vals["backup"], database, catalog)
    _refuse_unused(loader, database, backup, vals["backup"], vals["recovery"])
    recovery = _recovery(loader, vals["recovery"], database, backup, catalog)
    targets = _targets(vals["targets"])
    return {"database": database, "backup": backup, "recovery": recovery, "targets": targets}


def _check_format(loader: _Loader, doc: Mapping[str, Any]) -> None:
    fmt = doc.get("format", FORMAT_VERSION)
    if isinstance(fmt, bool) or not isinstance(fmt, int):
        raise loader.error("format", f"{fmt!r} is not a format version number")
    if fmt > FORMAT_VERSION:
        raise ScenarioVersionError(
            f"written in scenario format {fmt}; this version of RTO Planner reads format "
            f"{FORMAT_VERSION} and older",
            key="format",
            line=loader.lines.get("format"),
            source=loader.source,
            hint="upgrade RTO Planner to open it",
        )
    if fmt < 1:
        raise loader.error("format", f"{fmt} is not a valid format version")


def _top(loader: _Loader, doc: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The top-level keys (parsed) and the raw document begun with them."""
    top = {k: v for k, v in doc.items() if k not in TABLE_KEYS}
    loader.check_keys("", top, tuple(s.key for s in TOP_FIELDS) + TABLE_KEYS)
    top_vals, top_raw = loader.section("", top, TOP_FIELDS)
    top_raw.pop("format", None)
    return top_vals, {"format": FORMAT_VERSION, **top_raw}


def _tables(
    loader: _Loader, doc: Mapping[str, Any], raw: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The parsed values of each plain table by section; their raw values go in `raw`."""
    vals: dict[str, dict[str, Any]] = {}
    for section, specs in SECTIONS.items():
        if section in ("database", "targets") and section not in doc:
            raise loader.error(section, f"the [{section}] table is required")
        vals[section], raw[section] = loader.section(section, doc.get(section, {}), specs)
    return vals


def _provenance(loader: _Loader, prov_doc: Any) -> dict[str, str]:
    if not isinstance(prov_doc, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in prov_doc.items()
    ):
        raise loader.error("provenance", "provenance must be a table of text values")
    return dict(prov_doc)


def _uncertainty_table(loader: _Loader, table: Any) -> dict[str, Any]:
    """The `[uncertainty]` table flattened to dotted keys (quoted or nested in the file)."""
    if not isinstance(table, dict):
        raise loader.error(
            "uncertainty",
            "[uncertainty] must be a table of ranges",
            'e.g. "recovery.redo_apply_rate" = "-40%..+20%"',
        )
    return flatten_table(table)


def scenario_from_mapping(
    doc: Mapping[str, Any],
    *,
    source: str = "<scenario>",
    text: str | None = None,
    catalog: Catalog | None = None,
) -> Scenario:
    """Validate a parsed TOML document (or a form's dict of strings) into a Scenario."""
    catalog = shipped_catalog() if catalog is None else catalog
    loader = _Loader(source, text=text)
    if not isinstance(doc, Mapping):
        raise loader.error("", "a scenario must be a TOML table")
    _check_format(loader, doc)
    top, raw = _top(loader, doc)
    vals = _tables(loader, doc, raw)
    stages, raw["path"] = _path(loader, doc.get("path", []), catalog)
    prov = _provenance(loader, doc.get("provenance", {}))
    if prov:
        raw["provenance"] = dict(prov)
    tables = _model_tables(loader, vals, raw, catalog)
    tables["backup"] = _channel_default(tables["backup"], stages)
    uncertainty = _uncertainty_table(loader, doc.get("uncertainty", {}))
    if uncertainty:
        raw["uncertainty"] = uncertainty
    scenario = Scenario(
        name=top["name"], path=stages, **tables, customer=top.get("customer", ""),
        author=top.get("author", ""), notes=top.get("notes", ""), provenance=prov,
        uncertainty=uncertainty, raw=raw, comments=file_comments(text),
    )  # fmt: skip
    _check_addressed(scenario, loader, catalog)
    return scenario


def _check_addressed(scenario: Scenario, loader: _Loader, catalog: Catalog) -> None:
    """The `[uncertainty]` and `[provenance]` tables name figures of the scenario (by
    stage name too, so they are checked once the stages are known)."""
    if scenario.uncertainty:
        check_uncertainty(scenario, loader.source, loader.lines)
    if scenario.provenance:
        check_provenance(scenario, loader.source, loader.lines, catalog)


# ------------------------------------------------------------------------ text and files


def load_scenario_text(
    text: str, source: str = "<text>", catalog: Catalog | None = None
) -> Scenario:
    """Parse and validate scenario TOML text; `source` names it in error messages."""
    if len(text) > MAX_SCENARIO_BYTES:
        raise ScenarioError(
            f"is {len(text):,} characters long; a scenario is at most "
            f"{MAX_SCENARIO_BYTES:,} (a few kilobytes is usual)",
            source=source,
        )
    try:
        doc = toml_read.loads(text)
        if _may_nest_deeply(text):
            _check_nesting(doc, source)
        return scenario_from_mapping(doc, source=source, text=text, catalog=catalog)
    except toml_read.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(
            f"not valid TOML: {exc}",
            line=int(m.group(1)) if m else None,
            source=source,
        ) from None
    except RecursionError:
        raise _too_deep(source) from None


def _too_deep(source: str) -> ScenarioError:
    return ScenarioError(
        f"tables or arrays nested more than {MAX_NESTING} deep; the format uses two levels",
        source=source,
    )


def _may_nest_deeply(text: str) -> bool:
    """Whether the TOML text can nest tables or arrays MAX_NESTING deep: each level takes
    a `[` (an array, a table header), a `{` (an inline table) or a `.` (a dotted key), so
    a text with fewer of them in all (every real scenario) cannot, and its document need
    not be walked (issue 22.3: a tenth of reading a scenario)."""
    return text.count("[") + text.count("{") + text.count(".") >= MAX_NESTING


def _check_nesting(doc: Any, source: str) -> None:
    """Refuse a document with any value deeper than MAX_NESTING (iteratively: no
    recursion). Only tables and arrays are visited: a value lies deeper than the limit
    exactly when a non-empty table or array lies at it."""
    if not isinstance(doc, dict | list):
        return
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        values = node.values() if isinstance(node, dict) else node
        if depth >= MAX_NESTING and len(values):
            raise _too_deep(source)
        for v in values:
            if isinstance(v, dict | list):
                stack.append((v, depth + 1))


def load_scenario(path: str | Path, catalog: Catalog | None = None) -> Scenario:
    """Load a scenario file; errors name the file, line and key."""
    p = Path(path)
    return load_scenario_text(read_scenario_text(p), source=str(p), catalog=catalog)


def read_scenario_text(path: str | Path) -> str:
    """A scenario file's text, read with the bound and checks every reader uses (regular
    files only, at most MAX_SCENARIO_BYTES, UTF-8); errors name the file."""
    p = Path(path)
    try:
        data = read_limited(p, MAX_SCENARIO_BYTES, "scenario file")
    except FileNotFoundError:
        raise ScenarioError("no such file", source=str(p)) from None
    except InputFileError as exc:
        raise ScenarioError(exc.reason, source=str(p)) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read the file ({exc.strerror})", source=str(p)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError(
            "is not UTF-8 text; save the scenario as UTF-8 TOML", source=str(p)
        ) from None
    return text
