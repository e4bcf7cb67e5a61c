"""Estates kept in the store with their history (DESIGN §9; schema 4).

Like scenarios: saving an estate file adds a version (1, 2, 3 …) under the estate's
`name`, with the text exactly as given, so an export returns the same bytes. The folder
the file was saved from is kept too: a stored estate finds its relative scenario files
there, and its other databases in the store by name.

Functions over a `StoreFile` (its read and write lanes), like every concern of the store.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from .. import __version__
from ..errors import ScenarioError
from .catalog import catalog as stored_catalog
from .errors import NotFoundError
from .models import Changes
from .scenarios import load_scenario
from .storefile import StoreFile

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..estate import Estate


@dataclass(frozen=True)
class EstateVersion:
    estate: str
    version: int
    saved_at: datetime
    comment: str
    text: str
    base_dir: str | None


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def estate_name_from_text(text: str, source: str) -> str:
    """The estate's name, after checking the text is an estate file at all."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"not valid TOML: {exc}", source=source) from None
    if not isinstance(doc.get("database"), list):
        raise ScenarioError("is not an estate: it has no [[database]] entries", source=source)
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError("'name' is required", key="name", source=source)
    return name


def save_estate(
    store: StoreFile, text: str, *, comment: str = "", base_dir: str | Path | None = None,
    source: str = "<estate>",
) -> EstateVersion:  # fmt: skip
    """Keep a new version of the estate the text names (created on first save)."""
    name = estate_name_from_text(text, source)
    folder = None if base_dir is None else str(Path(base_dir).resolve())

    def add(con: duckdb.DuckDBPyConnection) -> EstateVersion:
        row = con.execute("SELECT id FROM estate WHERE name = ?", [name]).fetchone()
        now = _now()
        if row is None:
            row = con.execute(
                "INSERT INTO estate (name, created_at) VALUES (?, ?) RETURNING id", [name, now]
            ).fetchone()
        assert row is not None
        eid = int(row[0])
        latest = con.execute(
            "SELECT coalesce(max(version), 0) FROM estate_version WHERE estate_id = ?", [eid]
        ).fetchone()
        version = int(latest[0] if latest else 0) + 1
        con.execute(
            "INSERT INTO estate_version (estate_id, version, saved_at, comment, toml_text, "
            "content_hash, base_dir, app_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [eid, version, now, comment, text, hashlib.sha256(text.encode()).hexdigest(),
             folder, __version__],
        )  # fmt: skip
        return EstateVersion(name, version, now.replace(tzinfo=UTC), comment, text, folder)

    return store.write(add, Changes(scenarios=True))


def estates(store: StoreFile) -> list[tuple[str, int, datetime]]:
    """(name, latest version, saved at) of every stored estate, by name."""
    rows = store.read(
        lambda cur: cur.execute(
            "SELECT e.name, max(v.version), max(v.saved_at) FROM estate e "
            "JOIN estate_version v ON v.estate_id = e.id GROUP BY e.name ORDER BY e.name"
        ).fetchall()
    )
    return [(n, int(v), t.replace(tzinfo=UTC)) for n, v, t in rows]


def estate_history(store: StoreFile, name: str) -> list[EstateVersion]:
    """Every version of a stored estate, oldest first."""
    rows = store.read(
        lambda cur: cur.execute(
            "SELECT v.version, v.saved_at, v.comment, v.toml_text, v.base_dir "
            "FROM estate e JOIN estate_version v ON v.estate_id = e.id "
            "WHERE e.name = ? ORDER BY v.version",
            [name],
        ).fetchall()
    )
    if not rows:
        raise NotFoundError(
            f"no estate named '{name}' in {store.path}",
            hint="'rto-planner estates list' shows the names",
        )
    return [EstateVersion(name, int(v), t.replace(tzinfo=UTC), c, x, b) for v, t, c, x, b in rows]


def estate_version(store: StoreFile, name: str, version: int | None = None) -> EstateVersion:
    history = estate_history(store, name)
    if version is None:
        return history[-1]
    for v in history:
        if v.version == version:
            return v
    raise NotFoundError(f"estate '{name}' has no version {version}",
                        hint=f"versions 1 to {history[-1].version}")  # fmt: skip


def load_stored_estate(
    store: StoreFile, name: str, version: int | None = None, catalog: Catalog | None = None
) -> Estate:
    """A stored estate, its scenario files found in the folder it was saved from and its
    other databases in the store."""
    from ..estate import load_estate_text

    v = estate_version(store, name, version)
    return load_estate_text(
        v.text,
        source=f"{name} v{v.version}",
        base_dir=Path(v.base_dir) if v.base_dir else None,
        catalog=catalog or stored_catalog(store),
        resolve=partial(load_scenario, store),
    )
