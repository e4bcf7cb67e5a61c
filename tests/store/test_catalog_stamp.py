"""The store's catalog without DuckDB (issue 22.3, `core/store/catalog_stamp.py`): a
command reads the shipped catalog from its own files only while the stamp beside the
store proves that is what the store holds — the same items, figures and order — and
opens the store, as before, whenever anything may have changed. Real stores, real
DuckDB, a real second process for "no DuckDB imported"."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtoplanner.core.catalog import Catalog, CatalogItem
from rtoplanner.core.store import Store, StoreLockedError, catalog_from_args, catalog_stamp
from rtoplanner.core.store.catalog_stamp import stamp_path_for, stamped_catalog

MY_LTO4 = CatalogItem(
    kind="tape_drive", name="lto 4", source="measured at ACME, 2024", rate_Bps=100e6, derate=1.0
)


def _args(path: Path) -> argparse.Namespace:
    return argparse.Namespace(db=str(path), no_store=False)


def _rows(catalog: Catalog) -> list[str]:
    return [repr(item) for item in catalog] + [catalog.currency]


def _stamped(store_path: Path) -> Catalog:
    """A store read twice: created (a writable open stamps nothing), then read
    read-only, which leaves the stamp."""
    catalog_from_args(_args(store_path))
    assert not stamp_path_for(store_path).exists()
    read = catalog_from_args(_args(store_path))
    assert stamp_path_for(store_path).exists()
    return read


def test_a_stamped_store_gives_its_own_catalog_item_for_item(store_path):
    read = _stamped(store_path)
    fast = stamped_catalog(store_path)
    assert fast is not None
    assert _rows(fast) == _rows(read)
    with Store(store_path, read_only=True) as store:
        assert _rows(store.catalog()) == _rows(fast)


def test_a_stamped_store_is_read_without_duckdb(store_path):
    _stamped(store_path)
    probe = (
        "import argparse, sys\n"
        "from rtoplanner.core.store import catalog_from_args\n"
        f"c = catalog_from_args(argparse.Namespace(db={str(store_path)!r}, no_store=False))\n"
        "print(len(c), 'duckdb' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()  # fmt: skip
    assert out[1] == "False" and int(out[0]) > 0


def test_a_user_item_added_after_the_stamp_is_read_from_the_store(store_path):
    _stamped(store_path)
    with Store(store_path) as store:
        store.add_catalog_items([MY_LTO4])
    assert stamped_catalog(store_path) is None
    found = catalog_from_args(_args(store_path)).find("tape_drive", "lto 4")
    assert found is not None and found.source == MY_LTO4.source
    # Stamped again with the user's item: still read from the store (it is not the
    # shipped catalog), with the item.
    assert stamped_catalog(store_path) is None
    assert catalog_from_args(_args(store_path)).find("tape_drive", "lto 4") is not None


def test_a_store_touched_back_to_its_old_time_is_not_taken_as_stamped(store_path):
    """Setting the modification time back does not fool it: the change time moves."""
    _stamped(store_path)
    st = os.stat(store_path)
    os.utime(store_path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert stamped_catalog(store_path) is None


def test_a_journal_beside_the_store_means_opening_it(store_path):
    _stamped(store_path)
    wal = Path(str(store_path) + ".wal")
    wal.write_bytes(b"")
    try:
        assert stamped_catalog(store_path) is None
    finally:
        wal.unlink()
    assert stamped_catalog(store_path) is not None


def test_a_writer_holding_the_store_is_refused_as_before(store_path):
    """The stamp never answers past a writer: the same refusal as without it."""
    _stamped(store_path)
    with Store(store_path), pytest.raises(StoreLockedError):
        catalog_from_args(_args(store_path))


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", '{"file": [1], "catalog": "x"}'])
def test_a_damaged_stamp_is_ignored_and_replaced(store_path, text):
    read = _stamped(store_path)
    stamp_path_for(store_path).write_text(text, encoding="utf-8")
    assert stamped_catalog(store_path) is None
    assert _rows(catalog_from_args(_args(store_path))) == _rows(read)
    assert json.loads(stamp_path_for(store_path).read_text(encoding="ascii"))["catalog"]
    assert stamped_catalog(store_path) is not None


def test_another_shipped_catalog_than_the_stamped_one_opens_the_store(store_path, monkeypatch):
    """A release whose shipped figures differ (here one rate) is not the stamped store."""
    _stamped(store_path)
    original = catalog_stamp.shipped_in_store_order

    def changed() -> Catalog:
        items = list(original())
        items[0] = CatalogItem(**{**items[0].__dict__, "rate_Bps": 1.0})
        return Catalog(items)

    monkeypatch.setattr(catalog_stamp, "shipped_in_store_order", changed)
    assert stamped_catalog(store_path) is None


def test_without_flock_the_store_is_opened(store_path, monkeypatch):
    """Where no `flock` says whether a writer holds the store (Windows), it is opened."""
    from rtoplanner.core.store import lock

    _stamped(store_path)
    monkeypatch.setattr(lock, "fcntl", None)
    assert stamped_catalog(store_path) is None


def test_a_fifo_in_the_stamps_place_is_not_waited_on(store_path):
    """A FIFO named as the stamp would block a plain read until someone wrote to it."""
    read = _stamped(store_path)
    stamp_path_for(store_path).unlink()
    os.mkfifo(stamp_path_for(store_path))
    assert stamped_catalog(store_path) is None
    assert _rows(catalog_from_args(_args(store_path))) == _rows(read)
