"""The embedded DuckDB store: catalog, scenarios with history, imported workloads, results.

`StoreFile` owns the file (lock, connection, lanes, migrations); each concern is a module
of functions over it (catalog, prices, scenarios, results, workloads, estates); `Store`
is the file with the catalog, price, scenario and result functions as methods.
`open_store_from_args` is how commands open it (`--db PATH`, else `$RTOPLANNER_DB`, else
the user data directory). See docs/store.md.

The modules that use DuckDB, and the result types, are imported when one of their names
is first asked for (`__getattr__`): a command whose catalog is stamped
(`catalog_stamp.py`) never imports DuckDB.
"""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..appinfo import APP_ID as APP_DIR_NAME
from ..catalog import Catalog
from .errors import (
    NotAStoreError,
    NotFoundError,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
    StoreMigrationError,
    StoreNeedsUpgradeError,
    StoreReadOnlyError,
    StoreTooNewError,
)

if TYPE_CHECKING:
    from .migrations import MIGRATIONS, SCHEMA_VERSION, Migration
    from .models import (
        CatalogChange,
        CatalogEntry,
        Changes,
        ResultCheck,
        ScenarioDiff,
        ScenarioSummary,
        ScenarioVersion,
        StoredResult,
        StoreInfo,
    )
    from .results import inputs_hash
    from .scenarios import GRACE_PERIOD
    from .store import Store
    from .storefile import StoreFile

_LAZY = {
    "MIGRATIONS": "migrations",
    "SCHEMA_VERSION": "migrations",
    "Migration": "migrations",
    "inputs_hash": "results",
    "GRACE_PERIOD": "scenarios",
    "Store": "store",
    "StoreFile": "storefile",
    **dict.fromkeys(
        (
            "CatalogChange",
            "CatalogEntry",
            "Changes",
            "ResultCheck",
            "ScenarioDiff",
            "ScenarioSummary",
            "ScenarioVersion",
            "StoredResult",
            "StoreInfo",
        ),
        "models",
    ),
}
"""Names of the modules that import DuckDB, by the module that defines them, and of the
store's result types (`models`: ~10 ms of dataclasses a command reading only the stamped
catalog does not need)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


DB_FILE_NAME = "rtoplanner.duckdb"
T = TypeVar("T")


def default_db_path() -> Path:
    """`$RTOPLANNER_DB` if set, else `<user data dir>/rto-planner/rtoplanner.duckdb`.

    The environment variable lets tests, scripts and a portable install keep the store
    elsewhere without repeating `--db` on every command.
    """
    env = os.environ.get("RTOPLANNER_DB")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False)) / DB_FILE_NAME


def db_path_from_args(args: argparse.Namespace) -> Path:
    db = getattr(args, "db", None)
    return Path(db).expanduser() if db else default_db_path()


def open_store_from_args(args: argparse.Namespace, *, read_only: bool = False) -> Store:
    """Open the store a command was pointed at (created and seeded on first use)."""
    from .store import Store

    return Store(db_path_from_args(args), read_only=read_only)


def read_store_from_args(args: argparse.Namespace, fn: Callable[[Store], T]) -> T:
    """`fn(store)` on the store a command was pointed at, opened only for as long as it
    takes to read (so `plan` does not hold the file).

    An existing, current store is opened read-only: one connection, a shared lock (two
    `plan` commands may read together; a writer still excludes them, and then the
    command refuses in one line naming the writer's PID: it never answers from other
    prices). A new store, an older schema or shipped rows from another version need the
    writable open that creates, upgrades or re-seeds the file."""
    from .store import Store

    path = db_path_from_args(args)
    if path.is_file():
        try:
            with Store(path, read_only=True) as store:
                if store.shipped_catalog_is_current():
                    return fn(store)
        except StoreNeedsUpgradeError:
            pass
    with Store(path) as store:
        return fn(store)


def catalog_from_args(args: argparse.Namespace) -> Catalog:
    """The effective catalog (shipped, then the user's items, which win) of the store a
    command was pointed at (`read_store_from_args`); without DuckDB when the store's
    stamp proves it the shipped one (`catalog_stamp.py`)."""
    from .catalog_stamp import stamped_catalog, write_stamp

    found = stamped_catalog(db_path_from_args(args))
    if found is not None:
        return found

    def read(store: Store) -> Catalog:
        catalog = store.catalog()
        if store.read_only:  # the shared lock is held: nobody writes while it is stamped
            write_stamp(store.path, catalog)
        return catalog

    return read_store_from_args(args, read)


__all__ = [
    "GRACE_PERIOD",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "CatalogChange",
    "CatalogEntry",
    "Changes",
    "Migration",
    "NotAStoreError",
    "NotFoundError",
    "ResultCheck",
    "ScenarioDiff",
    "ScenarioSummary",
    "ScenarioVersion",
    "Store",
    "StoreCorruptError",
    "StoreError",
    "StoreFile",
    "StoreInfo",
    "StoreLockedError",
    "StoreMigrationError",
    "StoreNeedsUpgradeError",
    "StoreReadOnlyError",
    "StoreTooNewError",
    "StoredResult",
    "catalog_from_args",
    "db_path_from_args",
    "default_db_path",
    "inputs_hash",
    "open_store_from_args",
    "read_store_from_args",
]
