"""Saving into an existing TOML file without losing its comments and layout.

A scenario file is documentation as much as data: the demos' comments say where every
figure comes from. `merge_into_text(original, new_text)` returns `original` with only the
values that differ from `new_text` changed (tomlkit keeps comments, blank lines, key
order and quoting around them): a key whose value is unchanged is not touched (so
`"7d"` does not become `"7 d"`), a changed value keeps its line and end-of-line comment,
a new key goes right after the key that precedes it in `new_text` (else at the end of
its table), a removed key goes with its line, stages of `[[path]]` are matched by
position. The result is checked to read back exactly as `new_text` does; when it would
not (a layout tomlkit cannot edit safely), `new_text` itself is returned, so a save never
writes different values than the canonical form.

The store keeps the canonical form (`scenario.dump_mapping`); this is only for files.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)


def merge_into_text(original: str, new_text: str) -> str:
    """`original` edited to hold `new_text`'s values (see the module docstring)."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    target = tomllib.loads(new_text)
    try:
        doc = tomlkit.parse(original)
        _merge_table(doc, target)
        merged = tomlkit.dumps(doc)
    except (TOMLKitError, ValueError, TypeError, KeyError) as exc:
        log.warning("cannot keep the file's layout (%s); writing the canonical form", exc)
        return new_text
    try:
        same = tomllib.loads(merged) == target
    except tomllib.TOMLDecodeError:
        same = False
    if not same:
        log.warning("keeping the file's layout would change values; writing the canonical form")
        return new_text
    return merged


def merge_edits(original: str, base_text: str, new_text: str) -> str:
    """`original` with the edits that turn `base_text` into `new_text` (both canonical
    dumps, before and after an edit) and nothing else: a value the canonical form writes
    differently (`"3 h 30 min"` as `"3.5 h"`) or leaves out (a default spelled out in the
    file) stays as the file has it. Falls back like `merge_into_text`."""
    import tomlkit

    try:
        target = _three_way(tomllib.loads(original), tomllib.loads(base_text),
                            tomllib.loads(new_text))  # fmt: skip
    except tomllib.TOMLDecodeError as exc:
        log.warning("cannot keep the file's values (%s); writing the canonical form", exc)
        return new_text
    return merge_into_text(original, tomlkit.dumps(target))


def _three_way(orig: Any, base: Any, new: Any) -> Any:
    """`orig` changed where `new` differs from `base`."""
    if base == new:
        return orig
    if _is_table(orig) and _is_table(base) and _is_table(new):
        out = {k: v for k, v in orig.items() if k not in base or k in new}
        for key, value in new.items():
            out[key] = _three_way(orig[key], base[key], value) if key in orig and key in base \
                else value  # fmt: skip
        return out
    if (
        _is_array_of_tables(orig) and _is_array_of_tables(base) and _is_array_of_tables(new)
        and len(orig) == len(base) == len(new)
    ):  # fmt: skip
        return [_three_way(o, b, n) for o, b, n in zip(orig, base, new, strict=True)]
    return new


def _is_table(item: Any) -> bool:
    return isinstance(item, Mapping)


def _is_array_of_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_table(v) for v in value)


def _merge_table(table: Any, new: Mapping[str, Any]) -> None:
    """Make the tomlkit `table` hold `new`, editing in place."""
    for key in [k for k in table if k not in new]:
        del table[key]
    previous: str | None = None
    for key, value in new.items():
        if key in table:
            _merge_value(table, key, value)
        else:
            _insert(table, key, value, after=previous)
        previous = key


def _merge_value(table: Any, key: str, value: Any) -> None:
    current = table[key]
    if _is_table(value) and _is_table(current):
        _merge_table(current, value)
    elif _is_array_of_tables(value) and _is_array_of_tables(current):
        _merge_array_of_tables(current, value)
    elif _plain(current) != value or type(_plain(current)) is not type(value):
        table[key] = value


def _merge_array_of_tables(current: Any, new: list[Mapping[str, Any]]) -> None:
    import tomlkit

    while len(current) > len(new):
        del current[len(current) - 1]
    for i, stage in enumerate(new):
        if i < len(current):
            _merge_table(current[i], stage)
        else:
            t = tomlkit.table()
            for k, v in stage.items():
                t[k] = v
            t.add(tomlkit.nl())  # a blank line before whatever table follows
            current.append(t)


def _insert(table: Any, key: str, value: Any, *, after: str | None) -> None:
    """Add `key` right after the key `after` (the one before it in the canonical order)
    when that is the same sort of item — a value after a value, a table after a table —
    else at the end of the table."""
    import tomlkit
    from tomlkit.container import Container

    container = table if isinstance(table, Container) else table.value  # Table wraps one
    after_is_table = after in table and (
        _is_table(table[after]) or _is_array_of_tables(table[after])
    )
    if _is_table(value):
        new = tomlkit.table()
        for k, v in value.items():
            new[k] = v
        if after_is_table and list(table)[-1] != after:
            new.add(tomlkit.nl())
            container._insert_after(after, key, new)
        else:  # at the end, after a blank line
            container.add(tomlkit.nl())
            container.add(key, new)
    elif after in table and not after_is_table and not _is_array_of_tables(value):
        container._insert_after(after, key, tomlkit.item(value))
    else:
        table[key] = value


def _plain(item: Any) -> Any:
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if unwrap is not None else item
