"""`rto-planner catalog list|add|remove`: the hardware catalog in the store.

The first command a new user runs: it creates and seeds the store, then lists every
shipped item with the source of its figures, so nothing in a plan is a number without a
provenance. User items (from `catalog add`) are marked and win over shipped ones.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from ..catalog import CATALOG_KINDS, CatalogError, CatalogItem, load_catalog_file, parse_price
from ..fix.prices import OPTION_KIND, OPTIONS, PriceBook, format_money, norm_name, price_book
from ..inputfile import InputFileError, read_limited
from ..jsonable import dumps_json
from ..store import CatalogEntry, open_store_from_args
from ..units import format_duration, format_fraction, format_rate
from . import committed


def format_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, fit_last: bool = True
) -> str:
    """Left-aligned columns; the last column is cut to the terminal width on a terminal.

    Only the last column is cut (with '…'), so the figures always stay readable; piped
    output keeps everything.
    """
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row[:-1]):
            widths[i] = max(widths[i], len(cell))
    lead = sum(w + 2 for w in widths[:-1])
    room: int | None = None
    if fit_last and sys.stdout.isatty():
        import shutil  # (here: every command's parser imports this module)

        room = max(20, shutil.get_terminal_size((120, 24)).columns - lead)

    def line(cells: Sequence[str]) -> str:
        head = "".join(c.ljust(w + 2) for c, w in zip(cells[:-1], widths[:-1], strict=True))
        last = cells[-1]
        if room is not None and len(last) > room:
            last = last[: room - 1] + "…"
        return (head + last).rstrip()

    out = [line(headers), line(["-" * w for w in widths[:-1]] + ["-" * len(headers[-1])])]
    out.extend(line(r) for r in rows)
    return "\n".join(out)


def local_time(ts: datetime | None) -> str:
    return "" if ts is None else ts.astimezone().strftime("%Y-%m-%d %H:%M")


def print_json(obj: Any) -> None:
    print(dumps_json(obj))


def _figures(item: CatalogItem) -> str:
    """The figures other than the main rate, as a DBA would jot them down."""
    parts: list[str] = []
    if item.compressed_rate_Bps is not None:
        parts.append(f"compressed {format_rate(item.compressed_rate_Bps)}")
    if item.hw_compression is not None:
        parts.append(f"hw {item.hw_compression:g}:1")
    if item.backup_rate_Bps is not None:
        parts.append(f"backup {format_rate(item.backup_rate_Bps)}")
    if item.ratio is not None:
        parts.append(f"ratio {item.ratio:g}:1")
    if item.cpu_cost is not None:
        parts.append(f"cpu {item.cpu_cost:g}× BASIC")
    for label, value in (
        ("load", item.load_s),
        ("unload", item.unload_s),
        ("locate", item.locate_s),
    ):
        if value is not None:
            parts.append(f"{label} {format_duration(value)}")
    if not item.for_sale:
        parts.append("not offered by What it takes")
    return ", ".join(parts)


def entry_to_json(entry: CatalogEntry) -> dict[str, Any]:
    i = entry.item
    return {
        "kind": i.kind,
        "name": i.name,
        "origin": entry.origin,
        "overrides_shipped": entry.overrides_shipped,
        "shadowed": entry.shadowed,
        "rate_Bps": i.rate_Bps,
        "derate": i.derate,
        "practical_rate_Bps": i.practical_rate_Bps,
        "compressed_rate_Bps": i.compressed_rate_Bps,
        "backup_rate_Bps": i.backup_rate_Bps,
        "hw_compression": i.hw_compression,
        "ratio": i.ratio,
        "cpu_cost": i.cpu_cost,
        "load_s": i.load_s,
        "unload_s": i.unload_s,
        "locate_s": i.locate_s,
        "source": i.source,
        "notes": i.notes,
        "extra": i.extra,
        "updated_at": entry.updated_at.isoformat(),
    }


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "catalog",
        parents=[common],
        help="the hardware catalog (shipped figures with sources, and your own)",
        description="The hardware catalog: tape drives, links, media servers, storage, RMAN "
        "compression levels and redo apply classes, each with its source. Items you add "
        "are kept apart from the shipped ones, survive updates, and win over them.",
    )
    csub = p.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)
    for add_action in (_register_list, _register_add, _register_remove, _register_price):
        add_action(csub, common)
    p.set_defaults(func=run_list, kind=None, all=False, json=False)


def _register_list(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    ls = csub.add_parser("list", parents=[common], help="list catalog items with sources")
    ls.add_argument(
        "--kind",
        choices=CATALOG_KINDS,
        metavar="K",
        help="only this kind: " + ", ".join(CATALOG_KINDS),
    )
    ls.add_argument(
        "--all", action="store_true", help="also list shipped items that one of yours overrides"
    )
    ls.add_argument("--json", action="store_true", help="JSON on stdout")
    ls.set_defaults(func=run_list)


def _register_add(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    add = csub.add_parser(
        "add", parents=[common], help="add or replace your own items from a catalog TOML file"
    )
    add.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        type=Path,
        help="TOML with [[item]] tables (same format as data/catalog/)",
    )
    add.add_argument("--json", action="store_true", help="JSON on stdout")
    add.set_defaults(func=run_add)


def _register_remove(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    rm = csub.add_parser(
        "remove",
        parents=[common],
        help="remove one of your items (a shipped one then applies again)",
    )
    rm.add_argument(
        "kind",
        choices=CATALOG_KINDS,
        metavar="KIND",
        help="the item's kind: " + ", ".join(CATALOG_KINDS),
    )
    rm.add_argument("name", metavar="NAME", help="the item's name, as `catalog list` shows it")
    rm.set_defaults(func=run_remove)


def _register_price(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    price = csub.add_parser(
        "price",
        parents=[common],
        help="set your price for one unit of an item (What it takes uses it)",
        description="Keep your quote for one unit of a catalog item, a stage of your "
        "scenario, or an option (Data Guard standby, Off-site replication of backups, "
        "Advanced Compression Option). Your prices win over the catalog's; `rto-planner "
        "fix` uses them.",
    )
    price.add_argument("item", metavar="ITEM", help="the item's name, e.g. LTO-9")
    price.add_argument(
        "amount", metavar="AMOUNT", help="price of one unit, e.g. 12000; 'none' forgets yours"
    )
    price.add_argument(
        "--kind",
        choices=(*CATALOG_KINDS, OPTION_KIND),
        metavar="K",
        help="the item's kind, when the name is not (only) in the catalog",
    )
    price.add_argument(
        "--currency",
        metavar="X",
        help="the price's currency, e.g. EUR; also yours for prices given from now on "
        "(earlier prices keep their own)",
    )
    price.set_defaults(func=run_price)


LIST_HEADER = ["KIND", "NAME", "RATE", "DERATE", "PRACTICAL", "PRICE", "OTHER", "ORIGIN", "SOURCE"]


def run_list(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        entries = store.catalog_entries(args.kind, include_shadowed=args.all)
        book = price_book(store)
    if args.json:
        print_json([{**entry_to_json(e), **_price_json(book, e.item)} for e in entries])
        return 0
    if not entries:
        print("The catalog has no items" + (f" of kind {args.kind}." if args.kind else "."))
        return 0
    print(format_table(LIST_HEADER, [_list_row(e, book) for e in entries]))
    print(_list_footer(entries))
    return 0


def _list_row(e: CatalogEntry, book: PriceBook) -> list[str]:
    """One item's row of `catalog list` (LIST_HEADER's columns)."""
    i = e.item
    return [
        i.kind,
        i.name,
        _rate_text(i.rate_Bps),
        format_fraction(i.derate) if i.derate != 1.0 else "",
        _rate_text(i.practical_rate_Bps),
        _price_text(book, i),
        _figures(i),
        _origin(e),
        i.source,
    ]


def _rate_text(rate: float | None) -> str:
    return format_rate(rate) if rate is not None else ""


def _origin(e: CatalogEntry) -> str:
    """shipped / user, `user*` for yours overriding a shipped item, `(overridden)` for it."""
    return "user*" if e.overrides_shipped else ("(overridden)" if e.shadowed else e.origin)


def _list_footer(entries: list[CatalogEntry]) -> str:
    n_user = sum(e.origin == "user" for e in entries)
    return (
        f"\n{len(entries)} items ({n_user} yours; user* = yours, overriding a shipped item). "
        "Figures marked ⚠ in their notes are unverified: prefer measured rates."
    )


def _price_text(book: PriceBook, item: CatalogItem) -> str:
    """The price as given, in its own currency (a quote is never relabelled)."""
    quote = book.money(item.kind, item.name)
    return "" if quote is None else quote.text()


def _price_json(book: PriceBook, item: CatalogItem) -> dict[str, object]:
    quote = book.money(item.kind, item.name)
    if quote is None:
        return {"price": None, "currency": book.currency}
    return {"price": quote.amount, "currency": quote.currency}


def _catalog_items(path: Path) -> list[CatalogItem]:
    """The [[item]]s of a user's catalog file; a file without any is an error, not "Added
    0 item(s)" (a scenario given by mistake is named as such)."""
    try:
        data = read_limited(path, MAX_CATALOG_BYTES, "catalog file")
    except InputFileError as exc:
        raise CatalogError(f"{path}: {exc.reason}") from None
    except OSError as exc:
        raise CatalogError(
            f"{path}: cannot read the catalog file ({exc.strerror or exc})"
        ) from None
    items = load_catalog_file(path, user=True)
    if not items:
        looks_like_scenario = b"[database]" in data or b"[[path]]" in data
        raise CatalogError(
            f"{path}: no [[item]] tables, nothing to add"
            + (" (this looks like a scenario)" if looks_like_scenario else ""),
            hint="'rto-planner scenarios import' stores scenarios; catalog files hold "
            "[[item]] tables (docs/catalog.md)",
        )
    return items


MAX_CATALOG_BYTES = 4 * 1024 * 1024


def run_add(args: argparse.Namespace) -> int:
    items = [item for path in args.files for item in _catalog_items(Path(path))]
    with open_store_from_args(args) as store:
        change = store.add_catalog_items(items)
    if args.json:
        print_json({"added": list(change.added), "replaced": list(change.updated)})
    else:
        _print_change(change)
    return 0


def _print_change(change: Any) -> None:
    """What `catalog add` added (+) and replaced (~)."""
    print(f"Added {len(change.added)} item(s), replaced {len(change.updated)} of yours.")
    for name in change.added:
        print(f"  + {name}")
    for name in change.updated:
        print(f"  ~ {name}")


def run_remove(args: argparse.Namespace) -> int:
    with open_store_from_args(args) as store:
        store.remove_catalog_item(args.kind, args.name)
    print(f"Removed your {args.kind} '{args.name}'.")
    return 0


def _price_kind(store, name: str, kind: str | None) -> tuple[str, str]:
    """(kind, name as the catalog spells it) for a price; the kind only when ambiguous."""
    if kind:
        return kind, name
    for option in OPTIONS:
        if norm_name(option) == norm_name(name):
            return OPTION_KIND, option
    matches = [e.item for e in store.catalog_entries() if norm_name(e.item.name) == norm_name(name)]
    kinds = sorted({i.kind for i in matches})
    if len(kinds) == 1:
        return kinds[0], matches[0].name
    if not kinds:
        raise CatalogError(
            f"no catalog item or option named '{name}'",
            hint="give --kind to price a stage of your scenario, or see `rto-planner catalog "
            "list`; options: " + ", ".join(OPTIONS),
        )
    raise CatalogError(f"'{name}' is in the catalog as {', '.join(kinds)}", hint="give --kind")


def run_price(args: argparse.Namespace) -> int:
    amount = None if args.amount.strip().lower() == "none" else parse_price(args.amount)
    with open_store_from_args(args) as store:
        if args.currency:
            store.set_currency(args.currency)
            committed(f"your currency is {store.currency()}")
        kind, name = _price_kind(store, args.item, args.kind)
        currency = store.currency()
        store.set_price(kind, name, amount, currency)
        committed(
            f"forgot your price for {kind} '{name}'" if amount is None
            else f"your price for {kind} '{name}' is {format_money(amount, currency)}"
        )  # fmt: skip
    if amount is None:
        print(f"Forgot your price for {kind} '{name}'.")
    else:
        print(f"{kind} '{name}': {format_money(amount, currency)} per unit (your price).")
    return 0


run = run_list
