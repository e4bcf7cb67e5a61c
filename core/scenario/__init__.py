"""The scenario model: TOML format version 1 (DESIGN §4, a public contract).

* `fields` — the field table: every key of the format, declared once (how to add one);
* `model` — the frozen dataclasses a scenario loads into (normalised units);
* `values` — parsing one value per its field spec;
* `lines` — where each key is in the text, for error messages;
* `load` — TOML text or a document → a validated `Scenario`;
* `dump` — a scenario back to canonical TOML;
* `edit` — reading, setting and changing values by dotted key;
* `docs` — the key tables of docs/scenario-format.md, generated from the field table.
"""

from __future__ import annotations

from .dump import dump_mapping, dump_scenario
from .edit import get_dotted, set_dotted, with_values
from .fields import (
    BACKUP_FIELDS,
    DATABASE_FIELDS,
    FIELDS,
    FORMAT_VERSION,
    PER_CHANNEL_KINDS,
    RECOVERY_FIELDS,
    SECTIONS,
    STAGE_FIELDS,
    STAGE_KINDS,
    TABLE_KEYS,
    TARGETS_FIELDS,
    TOP_FIELDS,
    FieldSpec,
    field_spec,
    label_for_key,
    spec_for_key,
)
from .load import load_scenario, load_scenario_text, scenario_from_mapping
from .model import Backup, Database, Growth, Recovery, Scenario, Stage, Targets
from .values import parse_value

__all__ = [
    "BACKUP_FIELDS",
    "DATABASE_FIELDS",
    "FIELDS",
    "FORMAT_VERSION",
    "PER_CHANNEL_KINDS",
    "RECOVERY_FIELDS",
    "SECTIONS",
    "STAGE_FIELDS",
    "STAGE_KINDS",
    "TABLE_KEYS",
    "TARGETS_FIELDS",
    "TOP_FIELDS",
    "Backup",
    "Database",
    "FieldSpec",
    "Growth",
    "Recovery",
    "Scenario",
    "Stage",
    "Targets",
    "dump_mapping",
    "dump_scenario",
    "field_spec",
    "get_dotted",
    "label_for_key",
    "load_scenario",
    "load_scenario_text",
    "parse_value",
    "scenario_from_mapping",
    "set_dotted",
    "spec_for_key",
    "with_values",
]
