"""The field table (core/scenario/fields.py) is the one description of the format: every
key it declares sets a model attribute that exists, and every model attribute is either
a key of the table or one the loader derives (catalog fills, tape mechanics)."""

from __future__ import annotations

import dataclasses

import pytest

from rtoplanner.core.scenario import (
    FIELDS,
    SECTIONS,
    STAGE_FIELDS,
    load_scenario_text,
    parse_value,
)
from rtoplanner.core.scenario import model as m
from rtoplanner.core.scenario.fields import entry, label_for_key, spec_for_key

MODEL = {"": m.Scenario, "database": m.Database, "backup": m.Backup, "path": m.Stage,
         "recovery": m.Recovery, "targets": m.Targets}  # fmt: skip
DERIVED = {
    m.Scenario: {"database", "backup", "path", "recovery", "targets", "provenance",
                 "uncertainty", "raw", "comments"},
    m.Database: {"growth"},
    m.Backup: {"compress_core_Bps", "decompress_core_Bps", "compression_source",
               "channel_rate_Bps", "channel_rate_source"},
    m.Stage: {"source", "load_s", "locate_s", "capacity_bytes", "min_streaming_Bps"},
    m.Recovery: {"redo_apply_source", "redo_log_cost_source", "incremental_apply_factor"},
    m.Targets: {"risk_margin_fraction", "risk_margin_s"},
}  # fmt: skip
"""Attributes no key sets directly: the loader works them out (growth and risk_margin
parse into more than one figure; the rest come from the catalog)."""


@pytest.mark.parametrize("section", sorted(MODEL))
def test_every_key_sets_an_attribute_of_its_model(section):
    names = {f.name for f in dataclasses.fields(MODEL[section])}
    specs = [s for s in FIELDS if s.section == section]
    missing = [s.dotted for s in specs if s.attr is not None and s.attr not in names]
    assert not missing, f"add the model attribute for {missing} in core/scenario/model.py"


@pytest.mark.parametrize("section", sorted(MODEL))
def test_every_model_attribute_is_a_key_or_derived(section):
    cls = MODEL[section]
    keys = {s.attr for s in FIELDS if s.section == section}
    undeclared = {f.name for f in dataclasses.fields(cls)} - keys - DERIVED[cls]
    assert not undeclared, f"declare {sorted(undeclared)} in core/scenario/fields.py"


def test_each_dotted_key_is_declared_once():
    dotted = [s.dotted for s in FIELDS]
    assert len(dotted) == len(set(dotted))
    assert {s.section for s in FIELDS} == set(MODEL)


def test_derived_columns_come_from_the_key_and_kind():
    spec = entry("database.log_size", "size", help="Size of one online redo log file.")
    assert (spec.section, spec.key, spec.dotted) == ("database", "log_size", "database.log_size")
    assert (spec.label, spec.phrase, spec.attr) == ("Log size", "log size", "log_size_bytes")
    assert spec.unit == "data bytes" and spec.uncertain
    assert not entry("backup.level0_every", "duration", policy=True).uncertain
    assert not entry("targets.rto", "duration").uncertain
    assert not entry("backup.channels", "int").uncertain


def test_lookups_by_dotted_key():
    assert spec_for_key("path[3].rate") is next(s for s in STAGE_FIELDS if s.key == "rate")
    assert spec_for_key("backup.channels") in SECTIONS["backup"]
    assert spec_for_key("name").section == ""
    assert spec_for_key("backup.nope") is None
    assert label_for_key("database.redo_rate") == "Redo generated"
    assert label_for_key("path[0].count") == "Units"
    assert label_for_key("recovery.some_new_key") == "Some new key"


def test_a_loaded_scenario_carries_every_given_key_into_its_attribute():
    """Each plain key the table declares reaches the model through its `attr`, as parsed."""
    text = """
name = "all keys"
customer = "c"
author = "a"
notes = "n"
[database]
size = "10 TB"
largest_file = "1 TB"
redo_rate = "7 MB/s"
daily_change = "3%"
workload = "batch"
cpu_cores = 12
redo_growth = "constant"
log_size = "512 MiB"
[backup]
compression = "basic"
compression_ratio = 3.0
channels = 9
channel_init = "11 s"
section_size = "64 GiB"
level0_every = "6d"
level1 = "differential"
level1_every = "2d"
archivelog_every = "3h"
log_switch = "13 min"
offsite_delay = "5 h"
standby = "async"
transport_lag = "17 s"
job_overhead = "19 s"
block_change_tracking = true
[[path]]
kind = "tape_drive"
name = "drive"
count = 3
rate = "123 MB/s"
efficiency = 0.77
carries = "data"
binds_channel = false
hw_compression = 1.5
max_rate = "456 MB/s"
backup_rate = "99 MB/s"
restore_rate = "88 MB/s"
shared = "library"
[[path]]
kind = "storage_write"
rate = "2 GB/s"
write_factor = 2.5
[recovery]
detect = "21 min"
tape_recall = "23 min"
incremental_apply_rate = "5 TB/h"
incremental_overhead = "29 s"
redo_apply_rate = "300 GB/h"
redo_log_cost = "41 s"
archivelogs_on_disk = false
open = "31 s"
incremental_size = "2 TB"
redo_volume = "3 TB"
archivelog_restore = "parallel"
failover = "37 min"
[targets]
rto = "8 h"
rpo = "1 h"
backup_window = "9 h"
confidence = "95%"
"""
    s = load_scenario_text(text)
    objects = {"": [s], "database": [s.database], "backup": [s.backup],
               "path": list(s.path), "recovery": [s.recovery], "targets": [s.targets]}  # fmt: skip
    checked = set()
    for spec in FIELDS:
        if spec.attr is None:
            continue
        raws = [s.raw] if spec.section == "" else (
            s.raw["path"] if spec.section == "path" else [s.raw[spec.section]])  # fmt: skip
        for obj, raw in zip(objects[spec.section], raws, strict=True):
            if spec.key not in raw:
                continue
            assert getattr(obj, spec.attr) == parse_value(spec, raw[spec.key]), spec.dotted
            checked.add(spec.dotted)
    assert checked == {s.dotted for s in FIELDS if s.attr is not None}
