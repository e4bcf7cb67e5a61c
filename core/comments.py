"""Where each figure comes from, as the scenario file's comments say it.

A scenario file documents its figures in comments: beside a value
(`offsite_delay = "0 s"  # the appliance replicates to the second site`), in the lines
just above it, or above or beside a `[[path]]` header for the whole stage. The TOML
reader drops comments; `source_comments(text)` keeps them by dotted key
(`backup.offsite_delay`, `path[2].count`, `path[2]` for a stage and "" for the file's
opening comment) so the assumptions ledger can print each figure's provenance by it.

A comment block separated from the key below it by a blank line documents the file or
the table, not the key, and is not taken. Lines that start with `#@` are annotations for
tools (the fidelity corpus's published outcome, bench/fidelity/README.md), not prose
about a figure: they are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from .toml_lines import code_lines

_HEADER = re.compile(r"\s*(\[\[?)\s*([A-Za-z0-9_.\"' -]+?)\s*\]\]?\s*(.*)$")
_KEY = re.compile(r"\s*([A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')\s*=")


def _split_comment(line: str) -> tuple[str, str]:
    """(the line without its comment, the comment's text) — a # inside a string is text."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i], line[i + 1 :].strip()
        i += 1
    return line, ""


def source_comments(text: str) -> dict[str, str]:
    """Comments by dotted key (see the module docstring); several lines join with spaces."""
    out: dict[str, str] = {}
    table = ""
    stage = -1
    above: list[str] = []
    first = True  # the block above the first key or table documents the whole file
    for _, raw_line in code_lines(text):
        if raw_line.startswith("#@"):
            continue  # a tool's annotation, not a comment on a figure
        code, comment = _split_comment(raw_line)
        if not code.strip():
            if comment:
                above.append(comment)
            else:
                above = []  # a blank line: the block above is not about what follows
            continue
        if first and above:
            out[""] = " ".join(above)
            above = []
        first = False
        header = _HEADER.match(code)
        if header and code.strip().startswith("["):
            name = header.group(2).strip().strip("\"'")
            if header.group(1) == "[[" and name == "path":
                stage += 1
                table = f"path[{stage}]"
            else:
                table = name
            _keep(out, table, above, comment)
            above = []
            continue
        key = _KEY.match(code)
        if key:
            name = key.group(1).strip("\"'")
            _keep(out, f"{table}.{name}" if table else name, above, comment)
        above = []
    return out


class FileComments(Mapping[str, str]):
    """`source_comments(text)`, worked out the first time it is read: the report's ledger
    reads a scenario's comments, an estate of 10,000 scenario files never does (finding
    them was a fifth of the time it took to load such an estate)."""

    __slots__ = ("_by_key", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._by_key: dict[str, str] | None = None

    def _comments(self) -> dict[str, str]:
        if self._by_key is None:
            self._by_key = source_comments(self._text)
            self._text = ""
        return self._by_key

    def __getitem__(self, key: str) -> str:
        return self._comments()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._comments())

    def __len__(self) -> int:
        return len(self._comments())

    def __repr__(self) -> str:
        return repr(self._comments())


def file_comments(text: str | None) -> Mapping[str, str]:
    """A file's comments by dotted key, found when first read (none without a #)."""
    return FileComments(text) if text and "#" in text else {}


def _keep(out: dict[str, str], key: str, above: list[str], beside: str) -> None:
    text = " ".join([*(a for a in above if a), *([beside] if beside else [])]).strip()
    if text:
        out[key] = text
