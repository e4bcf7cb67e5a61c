"""The hardware catalog: datasheet figures with their sources and practical derates.

The shipped catalog lives in `data/catalog/*.toml` (one `[[item]]` table per item); the
store seeds it into DuckDB and keeps user items apart, user items winning. The model
only needs `Catalog.find(kind, name)`: a scenario stage that names an item and gives no
rate takes the item's figure, and the plan says so.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CoreError
from .paths import data_dir
from .toml_read import TOMLDecodeError, loads
from .units import (
    exact_duration,
    exact_fraction,
    exact_rate,
    parse_duration,
    parse_fraction,
    parse_rate,
    parse_ratio,
)

STAGE_KINDS = (
    "tape_drive", "disk", "nas_head", "media_server", "network", "channel", "cpu",
    "storage_write", "measured", "backup_appliance", "object_storage",
)  # fmt: skip
"""Catalog kinds that a scenario path stage can name (DESIGN §4; the same as
`core.scenario.STAGE_KINDS`, which the scenario format accepts — a test holds them equal).
`backup_appliance` is a Recovery Appliance (ZDLRA) rack, a shared capacity that serves
backup pieces; `object_storage` a cloud bucket reached through an RMAN cloud backup
module, whose rate is what one RMAN channel gets (a per-channel ceiling)."""

CATALOG_KINDS = (*STAGE_KINDS, "rman_compression", "redo_apply", "licence")
"""Every kind a catalog item may have."""


class CatalogError(CoreError, ValueError):
    """A catalog file that cannot be read."""


@dataclass(frozen=True)
class CatalogItem:
    """One catalog row.

    `rate_Bps` is the datasheet rate in the restore direction (for a tape drive the
    native, uncompressed rate); `derate` turns it into a practical one and becomes the
    stage's `efficiency`. `hw_compression` is the ratio a tape drive's own compression is
    assumed to reach on compressible data. For `rman_compression` items `ratio` is the
    typical data/backup ratio and `cpu_cost` the CPU time relative to BASIC; for
    `redo_apply` items `rate_Bps` is the apply rate of that workload class.
    """

    kind: str
    name: str
    source: str
    rate_Bps: float | None = None
    derate: float = 1.0
    hw_compression: float | None = None
    compressed_rate_Bps: float | None = None
    backup_rate_Bps: float | None = None
    ratio: float | None = None
    cpu_cost: float | None = None
    load_s: float | None = None
    unload_s: float | None = None
    locate_s: float | None = None
    price: float | None = None
    """What one unit costs in the catalog's currency (None: unpriced; DESIGN §8)."""
    notes: str = ""
    user: bool = False
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def practical_rate_Bps(self) -> float | None:
        return None if self.rate_Bps is None else self.rate_Bps * self.derate

    @property
    def for_sale(self) -> bool:
        """Whether What it takes may propose buying this item in place of a stage: not
        for the figures of a platform's own parts (an Exadata storage server, the Exadata
        fabric), of discontinued hardware or of a test platform, which say
        `not_for_sale = "why"` in the catalog file. A stage may still name them."""
        return not self.extra.get("not_for_sale")


@functools.lru_cache(maxsize=1024)
def _norm(name: str) -> str:
    """The name as looked up: letters and digits, lower case (the same few names are
    looked up for every scenario of an estate: worked out once each)."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


class Catalog:
    """An in-memory catalog; later items with the same kind and name win (user over shipped)."""

    def __init__(self, items: Iterable[CatalogItem] = (), *, currency: str | None = None) -> None:
        self._items: dict[tuple[str, str], CatalogItem] = {}
        self.currency = currency or DEFAULT_CURRENCY
        """The currency of every `price` in this catalog."""
        for item in items:
            self.add(item)

    def add(self, item: CatalogItem) -> None:
        self._items[(item.kind, _norm(item.name))] = item

    def find(self, kind: str, name: str | None) -> CatalogItem | None:
        if not name:
            return None
        return self._items.get((kind, _norm(name)))

    def by_kind(self, kind: str) -> list[CatalogItem]:
        return [i for (k, _), i in self._items.items() if k == kind]

    def __iter__(self) -> Iterator[CatalogItem]:
        return iter(self._items.values())

    def __len__(self) -> int:
        return len(self._items)


_RATE_KEYS = {"rate": "rate_Bps", "compressed_rate": "compressed_rate_Bps",
              "backup_rate": "backup_rate_Bps"}  # fmt: skip
_TIME_KEYS = {"load_time": "load_s", "unload_time": "unload_s", "locate_time": "locate_s"}
_KNOWN = {"kind", "name", "source", "derate", "hw_compression", "ratio", "cpu_cost", "notes"}
DEFAULT_CURRENCY = "USD"
"""The currency of prices when neither the catalog nor the user names one."""


def parse_price(value: object, *, what: str = "price") -> float:
    """A price of one unit: a number ≥ 0 (a string such as "12000" or "12,000" too)."""
    try:
        amount = float(str(value).replace(",", "").replace("_", "").strip())
    except ValueError:
        raise CatalogError(f"{what} {value!r} is not a number", hint="e.g. 12000") from None
    if not amount >= 0 or amount == float("inf"):
        raise CatalogError(f"{what} {value!r} must be a number ≥ 0")
    return amount


def item_from_mapping(raw: dict, *, where: str, user: bool = False) -> CatalogItem:
    """Build an item from a TOML/CSV row whose quantities are strings with units."""
    try:
        kwargs: dict = {"user": user}
        extra: dict[str, str] = {}
        for key, value in raw.items():
            if key in _RATE_KEYS:
                kwargs[_RATE_KEYS[key]] = parse_rate(value)
            elif key in _TIME_KEYS:
                kwargs[_TIME_KEYS[key]] = parse_duration(value)
            elif key == "price":
                kwargs["price"] = parse_price(value, what=f"{where}: price")
            elif key == "derate":
                kwargs["derate"] = parse_fraction(value)
            elif key in ("hw_compression", "ratio", "cpu_cost"):
                kwargs[key] = parse_ratio(value)
            elif key in _KNOWN:
                kwargs[key] = str(value)
            else:
                extra[key] = str(value)
        for required in ("kind", "name", "source"):
            if not kwargs.get(required):
                raise CatalogError(f"{where}: catalog item lacks '{required}'")
        if kwargs["kind"] not in CATALOG_KINDS:
            raise CatalogError(
                f"{where}: unknown kind {kwargs['kind']!r}",
                hint="use one of " + ", ".join(CATALOG_KINDS),
            )
        kwargs["extra"] = extra
        return CatalogItem(**kwargs)
    except CoreError as exc:
        if isinstance(exc, CatalogError):
            raise
        raise CatalogError(f"{where}: {exc}") from None


def item_to_mapping(item: CatalogItem) -> dict[str, str | float]:
    """The inverse of `item_from_mapping`: strings with units that parse back exactly.

    Used to show and export items as a user would write them, and by the store to keep
    a readable copy of each row.
    """
    out: dict[str, str | float] = {"kind": item.kind, "name": item.name, "source": item.source}
    for key, attr in _RATE_KEYS.items():
        value = getattr(item, attr)
        if value is not None:
            out[key] = exact_rate(value)
    if item.derate != 1.0:
        out["derate"] = exact_fraction(item.derate)
    for key in ("hw_compression", "ratio", "cpu_cost"):
        value = getattr(item, key)
        if value is not None:
            out[key] = value
    for key, attr in _TIME_KEYS.items():
        value = getattr(item, attr)
        if value is not None:
            out[key] = exact_duration(value)
    if item.price is not None:
        out["price"] = item.price
    if item.notes:
        out["notes"] = item.notes
    out.update(item.extra)
    return out


def read_catalog_toml(path: Path) -> dict:
    """The parsed TOML of a catalog file, parsed once per process while the file is
    unchanged (its items, currency and priors are read from the same document; the
    shipped catalog's eight files took a fifth of `plan --no-store`). Raises OSError,
    UnicodeDecodeError or TOMLDecodeError; callers word them. Callers must not change
    the document."""
    st = os.stat(path)
    return _parsed(os.fspath(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=64)
def _parsed(path: str, mtime_ns: int, size: int) -> dict:
    with open(path, encoding="utf-8") as f:
        return loads(f.read())


def load_catalog_file(path: Path, *, user: bool = False) -> list[CatalogItem]:
    try:
        doc = read_catalog_toml(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{path}: cannot read the catalog file ({exc})") from None
    except TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML ({exc})") from None
    items = doc.get("item", [])
    if not isinstance(items, list):
        raise CatalogError(f"{path}: expected [[item]] tables")
    return [
        item_from_mapping(raw, where=f"{path.name} item {i + 1} ({raw.get('name', '?')})",
                          user=user)
        for i, raw in enumerate(items)
    ]  # fmt: skip


def shipped_catalog_files() -> list[Path]:
    """The shipped catalog's TOML files; none at all is a broken install, not an empty list."""
    folder = data_dir() / "catalog"
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise CatalogError(
            f"the hardware catalog is missing: no *.toml files in {folder}",
            hint="reinstall RTO Planner, or set RTOPLANNER_DATA to a folder with catalog/",
        )
    return files


def shipped_catalog_currency() -> str:
    """The shipped catalog's currency: a top-level `currency = "EUR"` in any of its files."""
    for path in shipped_catalog_files():
        try:
            doc = read_catalog_toml(path)
        except (OSError, UnicodeDecodeError, TOMLDecodeError):
            continue
        if isinstance(doc.get("currency"), str) and doc["currency"].strip():
            return doc["currency"].strip().upper()
    return DEFAULT_CURRENCY


def shipped_catalog_digest() -> str:
    """A sha256 over the shipped catalog files: the store re-seeds when it changes."""
    import hashlib  # (here: a command that never asks spares its import)

    h = hashlib.sha256()
    for path in shipped_catalog_files():
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


_SHIPPED: Catalog | None = None


def shipped_catalog() -> Catalog:
    """The catalog shipped in `data/catalog/` (read once per process)."""
    global _SHIPPED
    if _SHIPPED is None:
        items: list[CatalogItem] = []
        for path in shipped_catalog_files():
            items.extend(load_catalog_file(path))
        _SHIPPED = Catalog(items, currency=shipped_catalog_currency())
    return _SHIPPED
