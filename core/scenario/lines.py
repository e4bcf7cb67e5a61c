"""Where each key of a scenario's TOML text is: dotted key → 1-based line, for error
messages (tomllib does not report positions)."""

from __future__ import annotations

import re

from ..toml_lines import code_lines


def key_lines(text: str) -> dict[str, int]:
    """Map dotted keys (`backup.channels`, `path[1].rate`) to 1-based lines.

    tomllib does not report positions, so this light scan of the usual layout (tables,
    arrays of tables, `key = value` lines) finds them; keys it cannot place get no line.
    Lines are counted as TOML counts them and lines inside multi-line strings skipped
    (`core/toml_lines.py`).
    Linear in the text: string operations and regular expressions that cannot backtrack
    (a 60,000-space line used to take over a minute).
    """
    lines: dict[str, int] = {}
    table = ""
    counts: dict[str, int] = {}
    for no, line in code_lines(text):
        stripped = line.strip()
        name = _header_name(stripped)
        if name is not None:
            table_name, array = name
            if array:
                idx = counts.get(table_name, 0)
                counts[table_name] = idx + 1
                table = f"{table_name}[{idx}]"
            else:
                table = table_name
            lines.setdefault(table, no)
            continue
        m = _KEYLINE.match(stripped)
        if m:
            key = m.group(1).strip("\"'")
            lines.setdefault(f"{table}.{key}" if table else key, no)
    return lines


_KEYLINE = re.compile(r"(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_.-]+)[ \t]*=")
_HEADER_CHARS = re.compile(r"[A-Za-z0-9_.\"' -]+")


def _header_name(stripped: str) -> tuple[str, bool] | None:
    """`[name]` → ("name", False), `[[name]] # c` → ("name", True), else None."""
    if not stripped.startswith("["):
        return None
    array = stripped.startswith("[[")
    close = stripped.find("]]" if array else "]")
    if close < 0:
        return None
    inner = stripped[2 if array else 1 : close]
    rest = stripped[close + (2 if array else 1) :].lstrip()
    if rest and not rest.startswith("#"):
        return None
    if not _HEADER_CHARS.fullmatch(inner):
        return None
    name = inner.strip().strip("\"'")
    return (name, array) if name else None
