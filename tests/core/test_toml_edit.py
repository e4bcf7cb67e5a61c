"""Saving into an existing file keeps its comments and layout (core/toml_edit.py)."""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path

import pytest

from rtoplanner.core.scenario import dump_mapping
from rtoplanner.core.toml_edit import merge_edits, merge_into_text

REPO = Path(__file__).resolve().parents[2]
DEMOS = sorted((REPO / "data" / "scenarios").glob("*.toml"))

ORIGINAL = """\
# Where the figures come from: the DBA, 2026-03.
format = 1
name = "ERP"   # the store key

[database]
size = "10 TB"        # allocated, from DBA_DATA_FILES
redo_rate = "5 MB/s"  # AWR p95 of March
# workload from the application team
workload = "oltp"

[backup]
level0_every = "7d"
channels = 4

[[path]]
kind = "network"   # the 10 GbE link
rate = "1.1 GB/s"

[[path]]
kind = "storage_write"
rate = "2 GB/s"

[targets]
rto = "8 h"
"""


def _comments(text: str) -> list[str]:
    return [m.group(0).strip() for m in re.finditer(r"#.*$", text, flags=re.M)]


def _edit(raw: dict, **changes) -> str:
    new = copy.deepcopy(raw)
    for dotted, value in changes.items():
        section, _, key = dotted.partition("__")
        if value is None:
            new[section].pop(key)
        else:
            new[section][key] = value
    return dump_mapping(new)


def test_a_changed_value_keeps_its_line_and_comment_and_nothing_else_moves():
    raw = tomllib.loads(ORIGINAL)
    out = merge_into_text(ORIGINAL, _edit(raw, database__size="12 TB"))
    assert out == ORIGINAL.replace('size = "10 TB"', 'size = "12 TB"')


def test_unchanged_values_keep_their_spelling():
    """The canonical form would write level0_every before channels; the file's order and
    spelling stay."""
    raw = tomllib.loads(ORIGINAL)
    assert merge_into_text(ORIGINAL, dump_mapping(raw)) == ORIGINAL


def test_new_keys_go_after_their_canonical_neighbour_and_removed_keys_go():
    raw = tomllib.loads(ORIGINAL)
    out = merge_into_text(ORIGINAL, _edit(raw, database__largest_file="1 TB",
                                          database__redo_rate=None))  # fmt: skip
    lines = out.splitlines()
    assert lines[lines.index('size = "10 TB"        # allocated, from DBA_DATA_FILES') + 1] == (
        'largest_file = "1 TB"'
    )
    assert "redo_rate" not in out and "AWR p95 of March" not in out
    assert "# workload from the application team" in out
    assert tomllib.loads(out) == tomllib.loads(_edit(raw, database__largest_file="1 TB",
                                                      database__redo_rate=None))  # fmt: skip


def test_new_tables_land_in_canonical_order_and_stages_by_position():
    raw = tomllib.loads(ORIGINAL)
    new = copy.deepcopy(raw)
    new["recovery"] = {"detect": "15 min"}
    new["path"].append({"kind": "cpu", "rate": "3 GB/s"})
    new["path"][0]["count"] = 2
    out = merge_into_text(ORIGINAL, dump_mapping(new))
    assert tomllib.loads(out) == tomllib.loads(dump_mapping(new))
    assert out.index("[recovery]") < out.index("[targets]")
    assert out.index('kind = "cpu"') < out.index("[recovery]")
    assert "# the 10 GbE link" in out
    assert "\n\n[recovery]" in out and "\n\n[targets]" in out


def test_a_stage_removed_takes_its_table_with_it():
    raw = tomllib.loads(ORIGINAL)
    new = copy.deepcopy(raw)
    del new["path"][1]
    out = merge_into_text(ORIGINAL, dump_mapping(new))
    assert out.count("[[path]]") == 1 and "storage_write" not in out
    assert tomllib.loads(out) == tomllib.loads(dump_mapping(new))


def test_text_that_is_not_toml_gets_the_canonical_form():
    raw = tomllib.loads(ORIGINAL)
    canonical = dump_mapping(raw)
    assert merge_into_text("this is [not toml", canonical) == canonical


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.name)
def test_an_edited_demo_keeps_every_comment(demo):
    original = demo.read_text(encoding="utf-8")
    raw = tomllib.loads(original)
    new = copy.deepcopy(raw)
    new["backup"]["channels"] = int(new["backup"].get("channels", 1)) + 2
    new["targets"]["rto"] = "11 h"
    new["database"]["growth"] = "30%/y"
    out = merge_into_text(original, dump_mapping(new))
    assert _comments(out) == _comments(original)
    assert tomllib.loads(out) == tomllib.loads(dump_mapping(new))
    changed = [line for line in out.splitlines() if line not in original.splitlines()]
    assert len(changed) <= 3, changed  # only the edited values' lines


def test_merge_edits_changes_only_what_was_edited():
    original = (
        "# the estate\n"
        "[[database]]\n"
        'scenario = "a.toml"\n'
        'name = "A"  # spelled out although it is the default\n'
        'rto = "3 h 30 min"   # the business\'s target\n'
        "priority = 2\n"
    )
    base = '[[database]]\nscenario = "a.toml"\nrto = "3.5 h"\npriority = 2\n'
    new = '[[database]]\nscenario = "a.toml"\nrto = "3.5 h"\npriority = 1\n'
    assert merge_edits(original, base, new) == original.replace("priority = 2", "priority = 1")
