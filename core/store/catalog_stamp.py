"""The store's catalog without DuckDB, when it is provably the shipped one (issue 22.3).

Importing DuckDB and opening the store cost a command about 0.12 s of CPU, as much as
reading a thousand scenario files; most stores hold the shipped catalog and nothing
else, which the program has in its own files. So after a command reads the catalog from
a store opened read-only (under the shared lock: no RTO Planner process is writing),
it leaves a stamp beside the store, `<store>.catalog-stamp`: the store file's device,
inode, size, modification and change times (ns), and a sha256 of the catalog it read
(`repr` of every item in order, and the currency).

The next command, before it would open the store, takes the same shared lock and uses
the shipped catalog, arranged as the store gives it (`Store.catalog`: by kind, then in
the order seeded), only when

- no journal `<store>.wal` exists (DuckDB writes each commit there first),
- the store file is the one stamped, unchanged: any write changes its modification and
  change times, and no program can set a change time back,
- and that catalog's sha256 is the stamped one: item for item, figure for figure and
  type for type, it is what the store gave.

Anything else — no stamp or a damaged one, another file, a journal, a writer holding the
lock, the user's own catalog items, another release's shipped catalog, Windows (no
`flock`: only opening the store finds a writer there) — opens the store as before, with
the same messages. This module imports no DuckDB.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path

from ..catalog import Catalog, CatalogItem, load_catalog_file, shipped_catalog_files
from ..inputfile import read_limited
from . import lock as _lock
from .errors import StoreError
from .lock import StoreLock

STAMP_SUFFIX = ".catalog-stamp"
WAL_SUFFIX = ".wal"
_MAX_STAMP_BYTES = 4096


def stamp_path_for(db_path: Path) -> Path:
    """`store.duckdb` → `store.duckdb.catalog-stamp`, beside it."""
    return db_path.with_name(db_path.name + STAMP_SUFFIX)


def catalog_digest(catalog: Catalog) -> str:
    """sha256 over every item's `repr` in the catalog's order, and its currency: equal
    digests are equal catalogs (a dataclass's repr shows each field with its type)."""
    h = hashlib.sha256(catalog.currency.encode())
    for item in catalog:
        h.update(b"\0" + repr(item).encode())
    return h.hexdigest()


def _file_identity(path: Path) -> list[int] | None:
    """(device, inode, size, mtime ns, ctime ns) of a regular file, None otherwise."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _unjournaled_identity(path: Path) -> list[int] | None:
    """The store file's identity when it holds every commit (no journal beside it)."""
    if os.path.lexists(str(path) + WAL_SUFFIX):
        return None
    return _file_identity(path)


def _read_stamp(path: Path) -> dict | None:
    """The stamp's contents; None for none, a damaged one, or anything but a small
    regular file (a FIFO there is not waited on: `read_limited`)."""
    try:
        data = json.loads(read_limited(stamp_path_for(path), _MAX_STAMP_BYTES, "stamp"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def shipped_in_store_order() -> Catalog:
    """The shipped catalog as a store seeded with it and holding nothing else gives it
    (`core/store/catalog.py`: rows by kind, then in the order seeded)."""
    items: list[CatalogItem] = []
    for path in shipped_catalog_files():
        items.extend(load_catalog_file(path))
    return Catalog(sorted(items, key=lambda i: i.kind))


def stamped_catalog(db_path: Path) -> Catalog | None:
    """The store's catalog from the shipped files when the stamp proves them the same
    (see the module's docstring); None: open the store. Only where the store's `flock`
    lock exists (not on Windows, where only DuckDB's own lock, taken by opening the
    store, says whether a writer holds it)."""
    if _lock.fcntl is None:
        return None
    try:
        path = db_path.expanduser().resolve()
    except (OSError, RuntimeError):
        return None
    stamp = _read_stamp(path)
    if stamp is None:
        return None
    lock = StoreLock(path, shared=True)
    try:
        lock.acquire()
    except StoreError:
        return None  # a writer holds it: opening the store says so, as before
    try:
        if _unjournaled_identity(path) != stamp.get("file"):
            return None
        catalog = shipped_in_store_order()
        return catalog if catalog_digest(catalog) == stamp.get("catalog") else None
    except (OSError, StoreError, ValueError):
        return None
    finally:
        lock.release()


def write_stamp(db_path: Path, catalog: Catalog) -> None:
    """Stamp the store with the catalog just read from it, while it is open read-only
    (the shared lock held). Silently not, where the folder is not writable."""
    identity = _unjournaled_identity(db_path)
    if identity is None:
        return
    stamp = stamp_path_for(db_path)
    text = json.dumps({"file": identity, "catalog": catalog_digest(catalog)})
    tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(tmp, flags, 0o644)  # a new file: never a FIFO or a link left there
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(text)
        os.replace(tmp, stamp)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


__all__ = ["catalog_digest", "stamp_path_for", "stamped_catalog", "write_stamp"]
