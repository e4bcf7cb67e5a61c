"""Saving: a scenario's raw document as canonical TOML (tables and keys in the order of
the field table), values as the user wrote them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .fields import FORMAT_VERSION, SECTIONS, STAGE_FIELDS, TOP_FIELDS, FieldSpec
from .model import Scenario


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_escape_char(c) for c in value) + '"'
    raise TypeError(f"cannot write {value!r} to TOML")


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b",
            "\f": "\\f"}  # fmt: skip


def _escape_char(c: str) -> str:
    if c in _ESCAPES:
        return _ESCAPES[c]
    if ord(c) < 0x20 or ord(c) == 0x7F:
        return f"\\u{ord(c):04x}"
    return c


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def dump_scenario(scenario: Scenario) -> str:
    """Canonical TOML for a scenario; load → dump → load gives an identical Scenario.

    Values are written as the user wrote them (they were validated on load), so units
    and precision survive a save.
    """
    return dump_mapping(scenario.raw)


def _table_lines(header: str, specs: tuple[FieldSpec, ...], table: Mapping[str, Any]) -> list[str]:
    """A TOML table's lines, its keys in the format's order."""
    return [f"\n{header}"] + [
        f"{spec.key} = {_toml_value(table[spec.key])}" for spec in specs if spec.key in table
    ]


def dump_mapping(raw: Mapping[str, Any]) -> str:
    out: list[str] = [f"format = {FORMAT_VERSION}"]
    out += [f"{s.key} = {_toml_value(raw[s.key])}" for s in TOP_FIELDS[1:] if s.key in raw]
    for section in ("database", "backup"):
        if raw.get(section):
            out += _table_lines(f"[{section}]", SECTIONS[section], raw[section])
    for stage in raw.get("path", []):
        out += _table_lines("[[path]]", STAGE_FIELDS, stage)
    for section in ("recovery", "targets"):
        if raw.get(section):
            out += _table_lines(f"[{section}]", SECTIONS[section], raw[section])
    uncertainty = raw.get("uncertainty") or {}
    if uncertainty:
        out.append("\n[uncertainty]")
        out += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in uncertainty.items()]
    prov = raw.get("provenance") or {}
    if prov:
        out.append("\n[provenance]")
        for key, value in prov.items():
            out.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(out) + "\n"
