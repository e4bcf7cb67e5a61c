"""`Store`: the store file (`StoreFile`) with the methods of its concerns.

The file, its lock, connection, lanes and migrations are `StoreFile`'s (storefile.py,
opening.py, migrations.py). What the store holds is one module per concern — catalog.py,
prices.py, scenarios.py, results.py, workloads.py, estates.py — each a set of functions
over a `StoreFile`. The catalog, price, scenario and result functions are also methods
here (`store.save_scenario(text)` is `scenarios.save_scenario(store, text)`), because
most callers want them; the other concerns are called as functions. See docs/store.md.
"""

from __future__ import annotations

from pathlib import Path

from . import catalog as _catalog
from . import prices as _prices
from . import results as _results
from . import scenarios as _scenarios
from .errors import translate_duckdb_error
from .meta import meta
from .results import inputs_hash
from .scenarios import GRACE_PERIOD
from .storefile import StoreFile


class Store(StoreFile):
    """The RTO Planner store file: catalog, scenarios with history, results, workloads.

    Open with `Store(path)` (creates and seeds a new file) or `Store(path, read_only=True)`
    (for secondary tools; never writes, never migrates). Use as a context manager or call
    `close()`. Public methods are synchronous and thread-safe: writes are queued on the
    store's lane and the caller waits for them; reads run on a cursor of their own.

    A writable open re-seeds a changed shipped catalog and purges the bin.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        super().__init__(path, read_only=read_only)
        if read_only:
            return
        try:
            _catalog.seed_catalog(self)
            _scenarios.purge_deleted(self)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Store:
        return self

    meta = meta

    # catalog and prices
    catalog = _catalog.catalog
    catalog_entries = _catalog.catalog_entries
    add_catalog_items = _catalog.add_catalog_items
    remove_catalog_item = _catalog.remove_catalog_item
    shipped_catalog_is_current = _catalog.shipped_catalog_is_current
    currency = _prices.currency
    set_currency = _prices.set_currency
    user_prices = _prices.user_prices
    set_price = _prices.set_price

    # scenarios and versions
    save_scenario = _scenarios.save_scenario
    import_scenario = _scenarios.import_scenario
    restore_version = _scenarios.restore_version
    scenarios = _scenarios.scenarios
    history = _scenarios.history
    scenario_version = _scenarios.scenario_version
    export_scenario = _scenarios.export_scenario
    diff = _scenarios.diff
    load_scenario = _scenarios.load_scenario
    delete_scenario = _scenarios.delete_scenario
    undelete_scenario = _scenarios.undelete_scenario
    purge_deleted = _scenarios.purge_deleted

    # results
    record_result = _results.record_result
    results = _results.results
    check_result = _results.check_result
    compute_result = _results.compute_result


__all__ = ["GRACE_PERIOD", "Store", "inputs_hash", "translate_duckdb_error"]
