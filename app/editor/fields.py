"""Turning what a user types into raw scenario values, and back, per field spec.

The raw document keeps values as a user writes them, so a typed `2.5 TB` is stored as
that string; whole numbers for `int` fields and plain numbers for ratios/fractions are
stored as TOML numbers (`channels = 16`, `compression_ratio = 4.4`), which is how the
format's examples write them. Nothing is parsed here beyond recognising a bare number:
validation is core's job (`parse_value`).
"""

from __future__ import annotations

import re
from typing import Any

from rtoplanner.core.scenario import FieldSpec, label_for_key
from rtoplanner.core.scenario.docs import default_text
from rtoplanner.core.wording import STAGE_KIND_WORDS, choice_words, for_reader, stage_kind_short

_INT = re.compile(r"\s*\d+\s*")
_STAGE_KEY = re.compile(r"path\[(\d+)\](?:\.(\w+))?")
_KIND = re.compile(r"\b(" + "|".join(k for k in STAGE_KIND_WORDS if "_" in k) + r")\b")
_NUMBER = re.compile(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*")

EXAMPLES = {
    "size": "e.g. 2.5 TB, 512 GiB",
    "rate": "e.g. 140 MB/s, 10 Gb/s, 18 TiB/h",
    "duration": "e.g. 4h, 90 min, 7d",
    "fraction": "e.g. 5%",
    "ratio": "e.g. 2.0 or 4.4:1",
    "int": "a whole number",
    "float": "a number",
    "growth": "e.g. 25%/y or 2 TB/y",
    "margin": "e.g. 10% or 30 min",
    "str": "",
}


def value_from_text(spec: FieldSpec, text: str) -> Any:
    """The raw value for what was typed; None (remove the key) for an empty field."""
    if text.strip() == "":
        return None
    if spec.kind == "int" and _INT.fullmatch(text):
        return int(text)
    if spec.kind in ("float", "ratio", "fraction", "margin") and _NUMBER.fullmatch(text):
        number = float(text)
        return int(number) if spec.kind == "float" and number.is_integer() else number
    if spec.kind == "str":
        return text
    return text.strip() if spec.kind == "choice" else text


def text_from_value(value: Any) -> str:
    """What a field shows for a raw value."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def default_words(spec: FieldSpec) -> str:
    """A field's default as the "(default: …)" choice says it: the field table's words,
    with the file's identifiers (`with_size`, `tape_drive`, true) in a DBA's."""
    text = default_text(spec).replace("`", "").replace(" is given", " given")
    for word, said in (("true", "yes"), ("false", "no")):
        text = re.sub(rf"\b{word}\b", said, text)
    return re.sub(r"\b[a-z0-9]+_[a-z_]+\b", lambda m: choice_words(m.group(0)), text)


def not_set_text(spec: FieldSpec) -> str:
    """The empty choice of a combo box: "(default: oltp)", not a bare "(default)"."""
    return f"(default: {default_words(spec)})"


def label_for(spec: FieldSpec) -> str:
    """What the form and the Undo history call a key: the field table's DBA label (the
    PDF's assumptions ledger uses the same words)."""
    return spec.label


def tooltip_for(spec: FieldSpec) -> str:
    """The spec's help in a DBA's words, how to type it, its unit and its default (all
    from the field table)."""
    parts = [spec.help or label_for(spec)]
    example = EXAMPLES.get(spec.kind)
    if spec.kind == "choice":
        parts.append("One of: " + ", ".join(spec.choices) + ".")
    elif spec.kind == "bool":
        parts.append("yes or no.")
    elif example:
        parts.append(example[0].upper() + example[1:] + ".")
    if spec.unit not in _PLAIN_UNITS:
        parts.append(f"Unit: {spec.unit}.")
    if spec.required:
        parts.append("Required.")
    else:
        parts.append(f"Optional: leave empty for the default. Default: {default_text(spec)}.")
    return "<p>" + " ".join(parts) + "</p>"


_PLAIN_UNITS = ("", "duration", "count", "ratio", "factor", "%", "text", "option", "yes/no",
                "per year", "share of RTO or time")  # fmt: skip
"""Units that say no more than the example does: the tooltip names only the others
(`redo bytes/s`, `data bytes per backup byte`, `channels`)."""


def key_words(key: str) -> str:
    """Where an input error is, as the form and the path table call it:
    `database.size` → "Database size (datafiles)", `path[2].rate` → "Stage 3: Rate of one
    unit", "" → "Scenario" (issue 23.6: the banner and the status bar named file keys)."""
    stage = _STAGE_KEY.fullmatch(key)
    if stage is not None:
        where = f"Stage {int(stage.group(1)) + 1}"
        return f"{where}: {label_for_key(key)}" if stage.group(2) else where
    return label_for_key(key) if key else "Scenario"


def error_words(message: str) -> str:
    """An input error's reason for the banner and the status bar: file keys as the form
    names them and stage kinds as words ("no object storage named 'LTO-8'", not
    `object_storage`; issue 23.6)."""
    return _KIND.sub(lambda m: stage_kind_short(m.group(0)), for_reader(message))
