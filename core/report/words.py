"""The words a customer reads in the PDF: no scenario keys, no raw choice values, no
command lines (issue 23 item 6).

The engine's and the search's notes are shared with the terminal and the GUI, where a
key (`database.cpu_cores`) or a command (`rto-planner catalog price …`) is what the
reader types next. The PDF is read by a customer: a key becomes its label as the editor
and the assumptions ledger show it ("CPU cores for RMAN"), a choice its words.
"""

from __future__ import annotations

import re

from ..scenario.fields import spec_for_key

_KEY = re.compile(r"\b(?:database|backup|recovery|targets)\.[a-z0-9_]+\b|\bpath\[\d*\]\.[a-z0-9_]+")
_COMMAND = re.compile(r"`rto-planner [^`]*`")

CHOICE_WORDS = {
    "with_size": "grows with the database",
    "constant": "stays as measured",
    "tape_drive": "tape drive",
    "nas_head": "NAS head",
    "media_server": "media server",
    "storage_write": "storage write",
    "data": "data bytes",
    "backup": "backup bytes",
}
"""Choice values as a sentence says them; any other value reads with spaces for '_'."""


def choice_words(value: str) -> str:
    """`nas_head` → "NAS head", `with_size` → "grows with the database"."""
    return CHOICE_WORDS.get(value, value.replace("_", " "))


def _label(match: re.Match[str]) -> str:
    key = match.group(0)
    spec = spec_for_key(key)
    if spec is None:
        return key.rsplit(".", 1)[-1].replace("_", " ")
    return f"“{spec.label}”"


def for_customer(text: str) -> str:
    """A note with each scenario key as its label in quotes and no command line."""
    text = _COMMAND.sub("the catalog", text)
    return _KEY.sub(_label, text)
