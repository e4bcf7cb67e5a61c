"""Scenarios in the store, with every version (DESIGN §5: history is never rewritten).

Every save is a new version with the time, a comment and the text byte for byte;
`restore_version` saves an old text as the newest version; `delete_scenario` moves a
scenario to the bin for `GRACE_PERIOD`, after which a writable open purges it. Functions
over a `StoreFile`; `Store` offers them as methods.
"""

from __future__ import annotations

import difflib
import hashlib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb

from .. import __version__
from ..bounds import MAX_SCENARIO_BYTES
from ..errors import ScenarioError
from ..inputfile import InputFileError, read_limited
from ..scenario import load_scenario_text
from .catalog import catalog
from .errors import NotFoundError, StoreError
from .meta import aware, utcnow
from .models import Changes, ScenarioDiff, ScenarioSummary, ScenarioVersion
from .storefile import StoreFile

GRACE_PERIOD = timedelta(days=30)
"""How long a deleted scenario stays restorable before an open of the store purges it."""

_VERSION_COLS = (
    "id, version, saved_at, comment, toml_text, content_hash, restored_from, app_version"
)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def scenario_row(
    store: StoreFile, con: duckdb.DuckDBPyConnection, name: str, *, deleted_ok: bool = False
) -> tuple[int, datetime | None]:
    """(id, deleted at) of the scenario called `name`, or NotFoundError."""
    row = con.execute(
        "SELECT id, deleted_at FROM scenario WHERE name = ? ORDER BY id DESC LIMIT 1", [name]
    ).fetchone()
    if row is None:
        raise NotFoundError(
            f"no scenario named '{name}' in {store.path}",
            hint="'rto-planner scenarios list' shows the names",
        )
    if row[1] is not None and not deleted_ok:
        raise NotFoundError(
            f"scenario '{name}' was deleted on {row[1]:%Y-%m-%d %H:%M} UTC",
            hint=f"'rto-planner scenarios undelete \"{name}\"' brings it back",
        )
    return int(row[0]), row[1]


def _version_from_row(name: str, row: tuple) -> ScenarioVersion:
    vid, version, saved_at, comment, text, chash, restored_from, app_version = row
    return ScenarioVersion(
        id=int(vid), scenario=name, version=int(version),
        saved_at=aware(saved_at),  # type: ignore[arg-type]
        comment=comment, text=text, content_hash=chash,
        restored_from=restored_from, app_version=app_version,
    )  # fmt: skip


# ----------------------------------------------------------------------------- saving


def save_scenario(
    store: StoreFile, text: str, *, comment: str = "", source: str = "<text>"
) -> ScenarioVersion:
    """Validate a scenario's TOML text and save it as the next version of its name.

    Every save is a new version, even when the text is unchanged, because a save is
    also a record that someone looked at it then. The text is kept byte for byte.
    """
    name = load_scenario_text(text, source=source, catalog=catalog(store)).name
    return _add_version(store, name, text, comment=comment, restored_from=None)


def _live_scenario_id(con: duckdb.DuckDBPyConnection, name: str, now: datetime) -> int:
    """The id of the scenario `name`, created when new; a deleted one is refused."""
    row = con.execute(
        "SELECT id, deleted_at FROM scenario WHERE name = ? ORDER BY id DESC LIMIT 1", [name]
    ).fetchone()
    if row is None:
        return con.execute(
            "INSERT INTO scenario (name, created_at) VALUES (?, ?) RETURNING id", [name, now]
        ).fetchone()[0]
    if row[1] is not None:
        raise StoreError(
            f"scenario '{name}' is deleted (in the bin since {row[1]:%Y-%m-%d %H:%M} UTC)",
            hint=f"'rto-planner scenarios undelete \"{name}\"' first, or rename it",
        )
    return row[0]


def _add_version(
    store: StoreFile, name: str, text: str, *, comment: str, restored_from: int | None
) -> ScenarioVersion:
    def add(con: duckdb.DuckDBPyConnection) -> ScenarioVersion:
        now = utcnow()
        sid = _live_scenario_id(con, name, now)
        (last,) = con.execute(
            "SELECT coalesce(max(version), 0) FROM scenario_version WHERE scenario_id = ?", [sid]
        ).fetchone()
        new = con.execute(
            "INSERT INTO scenario_version (scenario_id, version, saved_at, comment, "
            "toml_text, content_hash, restored_from, app_version) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_VERSION_COLS}",
            [sid, last + 1, now, comment, text, _sha256(text), restored_from, __version__],
        ).fetchone()
        return _version_from_row(name, new)

    return store.write(add, Changes(scenarios=True))


def import_scenario(
    store: StoreFile, path: str | Path, *, comment: str | None = None
) -> ScenarioVersion:
    """Save a scenario file as a new version; the file's bytes are kept exactly."""
    path = Path(path)
    try:
        text = read_limited(path, MAX_SCENARIO_BYTES, "scenario file").decode("utf-8")
    except InputFileError as exc:
        raise ScenarioError(exc.reason, source=str(path)) from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the scenario file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"not UTF-8 text ({exc.reason})", source=str(path)) from None
    return save_scenario(
        store, text, comment=comment if comment is not None else f"imported from {path.name}",
        source=str(path),
    )  # fmt: skip


def restore_version(
    store: StoreFile, name: str, version: int, *, comment: str | None = None
) -> ScenarioVersion:
    """Make an old version current by saving its text as a new version.

    History is never rewritten: restoring version 1 of three gives version 4.
    """
    old = scenario_version(store, name, version)
    return _add_version(
        store, name, old.text, restored_from=old.version,
        comment=comment if comment is not None else f"restored version {old.version}",
    )  # fmt: skip


# ----------------------------------------------------------------------------- reading


def scenarios(store: StoreFile, *, include_deleted: bool = False) -> list[ScenarioSummary]:
    """Scenarios by name with their latest version; deleted ones only on request."""
    sql = (
        "SELECT s.name, s.created_at, s.deleted_at, count(*) AS n, "
        "arg_max(v.version, v.version), arg_max(v.saved_at, v.version), "
        "arg_max(v.comment, v.version) "
        "FROM scenario s JOIN scenario_version v ON v.scenario_id = s.id "
    )
    if not include_deleted:
        sql += "WHERE s.deleted_at IS NULL "
    sql += "GROUP BY s.id, s.name, s.created_at, s.deleted_at ORDER BY s.name, s.id"
    rows = store.read(lambda cur: cur.execute(sql).fetchall())
    return [_summary_from_row(row) for row in rows]


def _summary_from_row(row: tuple) -> ScenarioSummary:
    name, created, deleted, n, last, saved, comment = row
    return ScenarioSummary(
        name=name, versions=int(n), latest_version=int(last),
        latest_saved_at=aware(saved),  # type: ignore[arg-type]
        latest_comment=comment,
        created_at=aware(created),  # type: ignore[arg-type]
        deleted_at=aware(deleted),
        purge_after=aware(deleted + GRACE_PERIOD) if deleted else None,
    )  # fmt: skip


def history(store: StoreFile, name: str) -> list[ScenarioVersion]:
    """Every version of a scenario, oldest first."""

    def q(cur: duckdb.DuckDBPyConnection) -> list[ScenarioVersion]:
        sid, _ = scenario_row(store, cur, name, deleted_ok=True)
        rows = cur.execute(
            f"SELECT {_VERSION_COLS} FROM scenario_version WHERE scenario_id = ? ORDER BY version",
            [sid],
        ).fetchall()
        return [_version_from_row(name, r) for r in rows]

    return store.read(q)


def scenario_version(store: StoreFile, name: str, version: int | None = None) -> ScenarioVersion:
    """One version (the latest when `version` is None)."""

    def q(cur: duckdb.DuckDBPyConnection) -> ScenarioVersion:
        sid, _ = scenario_row(store, cur, name, deleted_ok=True)
        sql = f"SELECT {_VERSION_COLS} FROM scenario_version WHERE scenario_id = ? "
        if version is None:
            row = cur.execute(sql + "ORDER BY version DESC LIMIT 1", [sid]).fetchone()
        else:
            row = cur.execute(sql + "AND version = ?", [sid, version]).fetchone()
        if row is None:
            raise NotFoundError(
                f"scenario '{name}' has no version {version}",
                hint=f"'rto-planner scenarios history \"{name}\"' lists its versions",
            )
        return _version_from_row(name, row)

    return store.read(q)


def export_scenario(store: StoreFile, name: str, version: int | None = None) -> str:
    """The TOML text of a version, exactly as it was saved."""
    return scenario_version(store, name, version).text


def diff(
    store: StoreFile, name: str, from_version: int, to_version: int | None = None
) -> ScenarioDiff:
    """A unified diff of two versions' texts (`to_version` defaults to the latest)."""
    a = scenario_version(store, name, from_version)
    b = scenario_version(store, name, to_version)
    lines = difflib.unified_diff(
        a.text.splitlines(), b.text.splitlines(),
        fromfile=f"{name} v{a.version}", tofile=f"{name} v{b.version}", lineterm="",
    )  # fmt: skip
    return ScenarioDiff(name, a.version, b.version, tuple(lines))


def load_scenario(store: StoreFile, name: str, version: int | None = None) -> Any:
    """The validated `Scenario` of a version, with the store's catalog."""
    v = scenario_version(store, name, version)
    return load_scenario_text(v.text, source=f"{name} v{v.version}", catalog=catalog(store))


# ----------------------------------------------------------------------------- the bin


def delete_scenario(store: StoreFile, name: str) -> datetime:
    """Move a scenario to the bin; returns when it will be purged (after GRACE_PERIOD)."""

    def delete(con: duckdb.DuckDBPyConnection) -> datetime:
        sid, _ = scenario_row(store, con, name)
        now = utcnow()
        con.execute("UPDATE scenario SET deleted_at = ? WHERE id = ?", [now, sid])
        return now + GRACE_PERIOD

    return aware(store.write(delete, Changes(scenarios=True)))  # type: ignore[return-value]


def undelete_scenario(store: StoreFile, name: str) -> None:
    """Take a scenario out of the bin, with all its versions."""

    def undelete(con: duckdb.DuckDBPyConnection) -> None:
        live = con.execute(
            "SELECT count(*) FROM scenario WHERE name = ? AND deleted_at IS NULL", [name]
        ).fetchone()[0]
        if live:
            raise StoreError(f"scenario '{name}' is not deleted")
        sid, _ = scenario_row(store, con, name, deleted_ok=True)
        con.execute("UPDATE scenario SET deleted_at = NULL WHERE id = ?", [sid])

    store.write(undelete, Changes(scenarios=True))


_EXPIRED = "SELECT id FROM scenario WHERE deleted_at IS NOT NULL AND deleted_at <= ?"


def _purge(con: duckdb.DuckDBPyConnection, cutoff: datetime) -> int:
    versions = f"SELECT id FROM scenario_version WHERE scenario_id IN ({_EXPIRED})"
    con.execute(f"DELETE FROM plan_result WHERE scenario_version_id IN ({versions})", [cutoff])
    con.execute(f"DELETE FROM scenario_version WHERE scenario_id IN ({_EXPIRED})", [cutoff])
    gone = con.execute(f"DELETE FROM scenario WHERE id IN ({_EXPIRED}) RETURNING id", [cutoff])
    return len(gone.fetchall())


def purge_deleted(store: StoreFile, *, older_than: timedelta = GRACE_PERIOD) -> int:
    """Remove scenarios deleted more than `older_than` ago; returns how many.

    Runs on every writable open, so the grace period needs no background job.
    """
    cutoff = utcnow() - older_than
    count = store.read(
        lambda cur: cur.execute(
            "SELECT count(*) FROM scenario WHERE deleted_at IS NOT NULL AND deleted_at <= ?",
            [cutoff],
        ).fetchone()[0]
    )
    if not count:
        return 0
    return store.write(lambda con: _purge(con, cutoff), Changes(scenarios=True, results=True))
