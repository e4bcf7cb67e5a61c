"""The estate file: ESTATE.toml, format version 1 (DESIGN §9, a public contract).

An estate lists databases (each a scenario file relative to the estate file, or a
scenario kept in the store), their priority (1 goes first) and optional RTO, and the
`[[shared]]` resources their paths use together (a tape library's drives, media
servers, a WAN link). A scenario's path stage takes part in the sharing with
`shared = "NAME"`; inside the estate that stage *is* the shared resource (its kind,
count and rates come from the `[[shared]]` entry), while the scenario planned alone
keeps the stage as written.

Every error names the file, the line (when the text gives it) and the dotted key, as
scenario errors do (`database[2].priority`, `shared[0].count`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from .. import toml_read
from ..bounds import MAX_ESTATE_BYTES, RTO
from ..catalog import Catalog, shipped_catalog
from ..engine.routes import has_failover
from ..errors import ScenarioError, UnitError
from ..inputfile import InputFileError, read_limited
from ..scenario import STAGE_FIELDS, FieldSpec, Scenario, Stage, load_scenario
from ..scenario.dump import _toml_value
from ..scenario.load import _Loader, _resolve_stage
from ..units import exact_duration
from ..wording import name_list
from .halves import in_two, worth_two
from .policy import NO_POLICY, Policy, policy_from_mapping, policy_toml

ESTATE_FORMAT_VERSION = 1

SHAREABLE_KINDS = (
    "tape_drive",
    "disk",
    "nas_head",
    "media_server",
    "network",
    "cpu",
    "storage_write",
    "measured",
    "backup_appliance",
)
"""Stage kinds a `[[shared]]` resource may be (a per-channel `channel` ceiling, or an
`object_storage` bucket's per-channel rate, is a property of one database's RMAN
channels, not something databases share)."""

RESTORE, FAILOVER = "restore", "failover"
ROUTES = (RESTORE, FAILOVER)
"""How a database comes back after the site loss: restored from its backups through its
path, or failed over to its Data Guard standby (no backup read, nothing shared)."""

TOP_FIELDS = (
    FieldSpec("format", "int", help="Estate format version."),
    FieldSpec("name", "str", True, help="Estate name."),
    FieldSpec("customer", "str", help="Customer the estate plan is for."),
    FieldSpec("notes", "str", help="Free text printed in the report."),
)
DATABASE_FIELDS = (
    FieldSpec("scenario", "str", True,
              help="Scenario file (relative to the estate file) or a stored scenario's name."),
    FieldSpec("name", "str",
              help="Name in the estate (default: the scenario's name); must be unique."),
    FieldSpec("priority", "int", True, positive=True,
              help="Recovery tier: 1 goes first; databases of one tier share fairly."),
    FieldSpec("rto", "duration", positive=True,
              help="RTO in the estate, overriding the scenario's targets.rto.", bound=RTO),
    FieldSpec("route", "choice", choices=ROUTES,
              help="failover (default when the scenario has a standby and recovery.failover) "
                   "or restore (the standby is lost too)."),
)  # fmt: skip
SHARED_FIELDS = (
    FieldSpec("name", "str", True,
              help="The resource's name, which scenario stages reference with shared = NAME."),
    FieldSpec("item", "str",
              help="The catalog item one unit is (for example 'LTO-8'): its rate and "
                   "efficiency unless given here, and a tape drive's mechanics (cartridge "
                   "load, locate, capacity), which only the catalog has."),
    *(s for s in STAGE_FIELDS if s.key not in ("name", "shared")),
)  # fmt: skip
_TABLE_KEYS = ("database", "shared", "policy")

ScenarioResolver = Callable[[str], Scenario]
"""Turns a stored scenario's name into a Scenario (the store's, when there is one)."""


@dataclass(frozen=True)
class SharedResource:
    """One `[[shared]]` entry: a stage several databases use at once."""

    name: str
    stage: Stage

    @property
    def binds_channel(self) -> bool:
        return self.stage.binds_channel


@dataclass(frozen=True)
class EstateDatabase:
    """One `[[database]]` entry, resolved: the scenario as written (planned alone) and
    the scenario inside the estate (its shared stages replaced by the resources)."""

    name: str
    priority: int
    scenario: Scenario
    estate_scenario: Scenario
    source: str
    """Where the scenario came from: a file path, or 'store: NAME'."""
    rto_override_s: float | None = None
    shared_names: tuple[str, ...] = ()
    ref: str = ""
    """The `scenario = ...` value as written in the estate file."""
    route: str = RESTORE
    """`failover` or `restore` (see ROUTES)."""
    route_given: bool = False
    """Whether the estate file says `route` (else it follows the scenario)."""

    @property
    def rto_s(self) -> float:
        return self.estate_scenario.targets.rto_s


@dataclass(frozen=True)
class Estate:
    name: str
    databases: tuple[EstateDatabase, ...]
    shared: tuple[SharedResource, ...]
    customer: str = ""
    notes: str = ""
    source: str = "<estate>"
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    policy: Policy = NO_POLICY
    """The recovery runbook the estate follows (`[policy]`: order, reserve, start)."""

    def resource(self, name: str) -> SharedResource:
        return next(r for r in self.shared if r.name == name)

    def only(self, names: list[str] | tuple[str, ...]) -> Estate:
        """The estate restricted to the named databases (`--only`): the others are not
        recovered, so they use nothing."""
        known = {d.name for d in self.databases}
        missing = [n for n in names if n not in known]
        if missing:
            raise ScenarioError(
                f"no database named {missing[0]!r} in the estate",
                key="database",
                source=self.source,
                hint="databases: " + ", ".join(sorted(known)),
            )
        keep = tuple(d for d in self.databases if d.name in set(names))
        return replace(self, databases=keep)

    def with_databases(self, databases: tuple[EstateDatabase, ...]) -> Estate:
        return replace(self, databases=databases)

    def with_policy(self, policy: Policy) -> Estate:
        return replace(self, policy=policy)

    @cached_property
    def cautions(self) -> tuple[str, ...]:
        """What the estate computes differently from the databases' own plans, said
        (`mechanics_cautions`)."""
        return mechanics_cautions(self)


def mechanics_cautions(estate: Estate) -> tuple[str, ...]:
    """A tape library without a catalog `item` has no cartridge mechanics (load, locate,
    capacity: only the catalog has them), while a database's own stage naming a catalog
    drive has them when planned alone: in the estate that database skips its cartridge
    loads and opens a little early. Said once per library, with the fix."""
    out = []
    for res in estate.shared:
        st = res.stage
        if st.kind != "tape_drive" or st.load_s or st.locate_s:
            continue
        loading: dict[str, list[str]] = {}
        for db in estate.databases:
            if db.route == FAILOVER:
                continue  # it reads no backup
            for own in db.scenario.path:
                if own.shared == res.name and (own.load_s or own.locate_s):
                    loading.setdefault(own.name or own.label, []).append(db.name)
        for item, names in loading.items():
            out.append(
                f"{res.name} has no cartridge load or locate times, while "
                f"{name_list(names, shown=3)} load "
                f"{item} cartridges when planned alone: in the estate they do not, and open "
                f"a little early. Give the library its drives' catalog item: "
                f'item = "{item}" in [[shared]] "{res.name}".'
            )
    return tuple(out)


class _SharedLoader(_Loader):
    """The scenario loader's stage checks, with errors keyed `shared[i]` not `path[i]`."""

    def __init__(self, base: _Loader, index: int) -> None:
        super().__init__(base.source)
        self.base = base
        self.index = index

    @property
    def lines(self) -> dict[str, int]:
        return self.base.lines

    def error(self, key: str, message: str, hint: str | None = None) -> ScenarioError:
        return super().error(key.replace("path[", "shared[", 1), message, hint)


def _catalog_item(loader: _Loader, where: str, vals: dict[str, Any], catalog: Catalog) -> str:
    """The catalog name the resource's stage is resolved by: its `item`, which must be in
    the catalog, else its own name (which names a catalog item only by chance)."""
    item = vals.get("item")
    if item is None:
        return vals["name"]
    if catalog.find(vals["kind"], item) is None:
        known = ", ".join(sorted(i.name for i in catalog.by_kind(vals["kind"]))[:6])
        hint = f"for example: {known}" if known else "add it to the catalog"
        what = f"no {vals['kind']} named {item!r} in the catalog"
        raise loader.error(f"{where}.item", what, hint)
    return item


def _shared_resources(loader: _Loader, doc: Any, catalog: Catalog) -> tuple[SharedResource, ...]:
    if not isinstance(doc, list):
        raise loader.error("shared", "shared resources are [[shared]] tables")
    out: list[SharedResource] = []
    for i, entry in enumerate(doc):
        where = f"shared[{i}]"
        vals, _raw = loader.section(where, entry, SHARED_FIELDS)
        if vals["kind"] not in SHAREABLE_KINDS:
            raise loader.error(
                f"{where}.kind",
                f"a {vals['kind']} stage cannot be shared",
                "shared resources: " + ", ".join(SHAREABLE_KINDS),
            )
        if any(r.name == vals["name"] for r in out):
            raise loader.error(f"{where}.name", f"a second shared resource named {vals['name']!r}")
        item = _catalog_item(loader, where, vals, catalog)
        # The stage is resolved as a scenario stage naming the item (its figures and tape
        # mechanics from the catalog), then named for the resource
        stage = _resolve_stage(_SharedLoader(loader, i), i, {**vals, "name": item}, catalog)
        out.append(SharedResource(vals["name"], replace(stage, name=vals["name"],
                                                        shared=vals["name"])))  # fmt: skip
    return tuple(out)


def _scenario_for(
    loader: _Loader,
    where: str,
    ref: str,
    base_dir: Path | None,
    catalog: Catalog,
    resolve: ScenarioResolver | None,
    loaded: dict[str, tuple[Scenario, str]],
    folders: dict[str, str],
) -> tuple[Scenario, str]:
    """A database's scenario: a file next to the estate file, else a stored scenario.
    Each file (and stored name) is read once per estate (`loaded`): databases listing the
    same scenario share it; `folders`: the real path of each folder (`_real_path`)."""
    looks_like_file = ref.lower().endswith(".toml") or "/" in ref or "\\" in ref
    if looks_like_file and (base_dir is not None or Path(ref).is_absolute()):
        path = _real_path(os.path.join(base_dir or "/", ref), folders)
        if path in loaded:
            return loaded[path]
        if os.path.isfile(path):
            loaded[path] = (load_scenario(path, catalog=catalog), path)
            return loaded[path]
        if resolve is None:
            raise loader.error(f"{where}.scenario", f"no scenario file {ref!r}",
                               f"looked in {base_dir}")  # fmt: skip
    if resolve is None:
        raise loader.error(
            f"{where}.scenario",
            f"no scenario file {ref!r} and no store to look it up in",
            "give a .toml file relative to the estate file",
        )
    if f"store: {ref}" in loaded:
        return loaded[f"store: {ref}"]
    try:
        loaded[f"store: {ref}"] = (resolve(ref), f"store: {ref}")
        return loaded[f"store: {ref}"]
    except ScenarioError:
        raise
    except Exception as exc:  # a store's own error: say which key it came from
        raise loader.error(f"{where}.scenario", f"no scenario {ref!r}: {exc}") from None


def _scenario_or_none(path: str, catalog: Catalog) -> Scenario | None:
    try:
        return load_scenario(path, catalog=catalog)
    except Exception:  # said by the database's own validation, in its place
        return None


def _file_refs(db_doc: list, base_dir: Path, folders: dict[str, str]) -> list[str]:
    """The real paths of the scenario files the entries name, each once, in order."""
    paths: dict[str, None] = {}
    for entry in db_doc:
        ref = entry.get("scenario") if isinstance(entry, dict) else None
        if isinstance(ref, str) and (ref.lower().endswith(".toml") or "/" in ref or "\\" in ref):
            with contextlib.suppress(Exception):
                paths.setdefault(_real_path(os.path.join(base_dir, ref), folders))
    return list(paths)


def _read_ahead(
    db_doc: Any,
    base_dir: Path | None,
    catalog: Catalog,
    loaded: dict[str, tuple[Scenario, str]],
    folders: dict[str, str],
) -> None:
    """A large estate's scenario files read in two processes (`halves.in_two`) into
    `loaded` before the databases are validated in order (`_scenario_for` takes them
    from there); a file that cannot be read is left to that validation, which says why
    in its place, as it does without this."""
    if base_dir is None or not isinstance(db_doc, list) or not worth_two(len(db_doc)):
        return
    paths = _file_refs(db_doc, base_dir, folders)
    for path, scenario in zip(paths, in_two(lambda p: _scenario_or_none(p, catalog), paths),
                              strict=True):  # fmt: skip
        if scenario is not None:
            loaded[path] = (scenario, path)


def _real_path(joined: str, folders: dict[str, str]) -> str:
    """`os.path.realpath(joined)` (what `Path.resolve` gives), with the real path of each
    folder found once per estate (`folders`): a thousand scenario files in one folder
    cost one look at each file, not at each folder on the way to it (a symbolic link to
    a file is still followed)."""
    folder, name = os.path.split(joined)
    if name in ("", ".", ".."):
        return os.path.realpath(joined)
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = os.path.realpath(folder)
    path = os.path.join(real, name)
    return os.path.realpath(path) if os.path.islink(path) else path


def _in_estate(
    loader: _Loader,
    where: str,
    scenario: Scenario,
    shared: tuple[SharedResource, ...],
    rto_s: float | None,
) -> tuple[Scenario, tuple[str, ...]]:
    """The scenario as the estate runs it: each `shared = NAME` stage becomes the
    resource, and the estate's RTO (if given) replaces the scenario's."""
    by_name = {r.name: r for r in shared}
    stages = []
    used: list[str] = []
    for i, st in enumerate(scenario.path):
        if st.shared is None:
            stages.append(st)
            continue
        res = by_name.get(st.shared)
        if res is None:
            raise loader.error(
                f"{where}.scenario",
                f"its path[{i}] uses shared = {st.shared!r}, which the estate does not define",
                "add a [[shared]] entry with that name, or remove shared from the stage",
            )
        if res.stage.kind != st.kind:
            raise loader.error(
                f"{where}.scenario",
                f"its path[{i}] is a {st.kind} but shared resource {res.name!r} is a "
                f"{res.stage.kind}",
            )
        stages.append(res.stage)
        used.append(res.name)
    binding = [n for n in used if by_name[n].binds_channel]
    if len(binding) > 1:
        raise loader.error(
            f"{where}.scenario",
            f"its path uses two shared resources that bind channels ({', '.join(binding)})",
            "a channel holds one unit of one shared tape library at a time",
        )
    targets = scenario.targets if rto_s is None else replace(scenario.targets, rto_s=rto_s)
    return replace(scenario, path=tuple(stages), targets=targets), tuple(used)


def _route(loader: _Loader, where: str, scenario: Scenario, given: str | None) -> str:
    """The database's route: as given, else failover when its scenario can fail over."""
    if given is None:
        return FAILOVER if has_failover(scenario) else RESTORE
    if given == FAILOVER and not has_failover(scenario):
        raise loader.error(
            f"{where}.route",
            f"scenario {scenario.name!r} has no standby to fail over to",
            'give it backup.standby and recovery.failover, or set route = "restore"',
        )
    return given


def estate_from_mapping(
    doc: Mapping[str, Any],
    *,
    source: str = "<estate>",
    text: str | None = None,
    base_dir: Path | None = None,
    catalog: Catalog | None = None,
    resolve: ScenarioResolver | None = None,
) -> Estate:
    """Validate a parsed ESTATE.toml into an Estate (scenarios loaded and checked)."""
    catalog = shipped_catalog() if catalog is None else catalog
    loader = _Loader(source, text=text)
    top_vals = _top_values(loader, doc)
    shared = _shared_resources(loader, doc.get("shared", []), catalog)
    entries = _database_entries(loader, doc)
    databases = _databases(loader, entries, shared, base_dir, catalog, resolve)
    return Estate(
        name=top_vals["name"],
        databases=tuple(databases),
        shared=shared,
        customer=top_vals.get("customer", ""),
        notes=top_vals.get("notes", ""),
        source=source,
        raw=dict(doc),
        policy=policy_from_mapping(loader, doc.get("policy"), databases, shared),
    )


def _top_values(loader: _Loader, doc: Any) -> dict[str, Any]:
    """The estate's own keys (name, customer, notes), in a table of the known format."""
    if not isinstance(doc, Mapping):
        raise loader.error("", "an estate must be a TOML table")
    if isinstance(doc.get("database"), Mapping):
        raise loader.error(
            "database",
            "this is a scenario ([database] table), not an estate ([[database]] entries)",
            "plan a scenario with 'rto-planner plan'; list it in an estate file to share hardware",
        )
    top = {k: v for k, v in doc.items() if k not in _TABLE_KEYS}
    loader.check_keys("", top, tuple(s.key for s in TOP_FIELDS) + _TABLE_KEYS)
    top_vals, _ = loader.section("", top, TOP_FIELDS)
    fmt = top_vals.get("format", ESTATE_FORMAT_VERSION)
    if fmt != ESTATE_FORMAT_VERSION:
        raise loader.error(
            "format",
            f"estate format {fmt} is not known; this version reads format {ESTATE_FORMAT_VERSION}",
        )
    return top_vals


def _database_entries(loader: _Loader, doc: Mapping[str, Any]) -> list:
    db_doc = doc.get("database")
    if not isinstance(db_doc, list) or not db_doc:
        raise loader.error(
            "database",
            "an estate needs at least one [[database]]",
            'add e.g. [[database]] scenario = "erp.toml" priority = 1',
        )
    return db_doc


def _databases(
    loader: _Loader,
    db_doc: list,
    shared: tuple[SharedResource, ...],
    base_dir: Path | None,
    catalog: Catalog,
    resolve: ScenarioResolver | None,
) -> list[EstateDatabase]:
    """Each `[[database]]` in order, checked: its scenario (each file read once; a large
    estate's read ahead in two processes), a name no other has, its route, and its
    scenario as the estate runs it. The first error in the file's order is raised."""
    databases: list[EstateDatabase] = []
    names: set[str] = set()
    loaded: dict[str, tuple[Scenario, str]] = {}
    folders: dict[str, str] = {}
    _read_ahead(db_doc, base_dir, catalog, loaded, folders)
    for i, entry in enumerate(db_doc):
        where = f"database[{i}]"
        vals, _ = loader.section(where, entry, DATABASE_FIELDS)
        scenario, origin = _scenario_for(
            loader, where, vals["scenario"], base_dir, catalog, resolve, loaded, folders
        )
        name = vals.get("name", scenario.name)
        if name in names:
            raise loader.error(
                f"{where}.name" if "name" in vals else f"{where}.scenario",
                f"a second database named {name!r}",
                "give each [[database]] a unique name = ...",
            )
        names.add(name)
        databases.append(_database(loader, where, vals, scenario, origin, name, shared))
    return databases


def _database(
    loader: _Loader,
    where: str,
    vals: dict[str, Any],
    scenario: Scenario,
    origin: str,
    name: str,
    shared: tuple[SharedResource, ...],
) -> EstateDatabase:
    route = _route(loader, where, scenario, vals.get("route"))
    in_estate, used = _in_estate(loader, where, scenario, shared, vals.get("rto"))
    return EstateDatabase(
        name=name,
        priority=vals["priority"],
        scenario=scenario,
        estate_scenario=in_estate,
        source=origin,
        rto_override_s=vals.get("rto"),
        shared_names=used if route == RESTORE else (),
        ref=vals["scenario"],
        route=route,
        route_given="route" in vals,
    )


def load_estate_text(
    text: str,
    source: str = "<estate>",
    *,
    base_dir: Path | None = None,
    catalog: Catalog | None = None,
    resolve: ScenarioResolver | None = None,
) -> Estate:
    try:
        doc = toml_read.loads(text)
    except toml_read.TOMLDecodeError as exc:
        import re

        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(
            f"not valid TOML: {exc}", line=int(m.group(1)) if m else None, source=source
        ) from None
    return estate_from_mapping(
        doc, source=source, text=text, base_dir=base_dir, catalog=catalog, resolve=resolve
    )


def read_text_file(path: Path) -> str:
    """An estate file's text; errors name the file. Regular files only and at most
    MAX_ESTATE_BYTES: a FIFO is refused, not waited on, and `/dev/zero` is not read until
    memory runs out (`core/inputfile.py`)."""
    try:
        data = read_limited(path, MAX_ESTATE_BYTES, "estate file")
    except FileNotFoundError:
        raise ScenarioError("no such file", source=str(path)) from None
    except InputFileError as exc:
        raise ScenarioError(exc.reason, source=str(path)) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read the file ({exc.strerror})", source=str(path)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError("is not UTF-8 text; save it as UTF-8 TOML", source=str(path)) from None


def load_estate(
    path: str | Path,
    *,
    catalog: Catalog | None = None,
    resolve: ScenarioResolver | None = None,
) -> Estate:
    """Load ESTATE.toml; its scenario files are found relative to it."""
    p = Path(path)
    text = read_text_file(p)
    return load_estate_text(
        text, source=str(p), base_dir=p.resolve().parent, catalog=catalog, resolve=resolve
    )


def is_estate_text(text: str) -> bool:
    """True when a TOML text is an estate (it has [[database]] entries), not a scenario."""
    try:
        doc = toml_read.loads(text)
    except toml_read.TOMLDecodeError:
        return False
    return isinstance(doc.get("database"), list)


def is_estate_file(path: str | Path) -> bool:
    """True when the file is an estate; False for anything that cannot be read as one (a
    FIFO or device is not read: the scenario loader then says what it is)."""
    try:
        data = read_limited(Path(path), MAX_ESTATE_BYTES, "estate file")
        return is_estate_text(data.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False


def with_shared_count(estate: Estate, name: str, count: int) -> Estate:
    """The estate with `count` units of shared resource `name` (what-it-takes trials)."""
    old = estate.resource(name)
    new = SharedResource(name, replace(old.stage, count=count))
    shared = tuple(new if r.name == name else r for r in estate.shared)
    dbs = []
    for db in estate.databases:
        path = tuple(new.stage if st.shared == name else st for st in db.estate_scenario.path)
        dbs.append(replace(db, estate_scenario=replace(db.estate_scenario, path=path)))
    return replace(estate, shared=shared, databases=tuple(dbs))


def with_priority(estate: Estate, name: str, priority: int) -> Estate:
    """The estate with database `name` in tier `priority` (the GUI's drag and edit)."""
    if priority < 1:
        raise ScenarioError("a priority is 1 or more", key="priority", source=estate.source)
    dbs = tuple(replace(d, priority=priority) if d.name == name else d for d in estate.databases)
    return replace(estate, databases=dbs)


def with_rto(estate: Estate, name: str, rto_s: float | None) -> Estate:
    """The estate with database `name`'s RTO overridden (None: the scenario's own)."""
    if rto_s is not None:
        try:
            RTO.check(rto_s, exact_duration(rto_s))
        except UnitError as exc:
            raise ScenarioError(str(exc), key="rto", source=estate.source) from None
    dbs = []
    for d in estate.databases:
        if d.name == name:
            targets = d.scenario.targets if rto_s is None else replace(
                d.estate_scenario.targets, rto_s=rto_s)  # fmt: skip
            d = replace(d, rto_override_s=rto_s,
                        estate_scenario=replace(d.estate_scenario, targets=targets))  # fmt: skip
        dbs.append(d)
    return replace(estate, databases=tuple(dbs))


def dump_estate(estate: Estate) -> str:
    """ESTATE.toml for an estate as edited (priorities, RTOs); the shared resources and
    scenario references as they were loaded. The original's comments are not kept."""
    out = ["format = 1", f"name = {_toml_value(estate.name)}"]
    if estate.customer:
        out.append(f"customer = {_toml_value(estate.customer)}")
    if estate.notes:
        out.append(f"notes = {_toml_value(estate.notes)}")
    for entry in estate.raw.get("shared", []):
        out.append("\n[[shared]]")
        out += [f"{k} = {_toml_value(v)}" for k, v in entry.items()]
    for d in estate.databases:
        out += ["\n[[database]]", f"scenario = {_toml_value(d.ref)}"]
        if d.name != d.scenario.name:
            out.append(f"name = {_toml_value(d.name)}")
        out.append(f"priority = {d.priority}")
        if d.rto_override_s is not None:
            out.append(f"rto = {_toml_value(exact_duration(d.rto_override_s))}")
        if d.route_given:
            out.append(f"route = {_toml_value(d.route)}")
    out += policy_toml(estate.policy)
    return "\n".join(out) + "\n"
