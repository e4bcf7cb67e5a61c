"""Words for a reader (issue 23.6): what the GUI and the PDF show has no file keys, no
command-line instructions, and durations as a DBA types them."""

from __future__ import annotations

import re

import pytest

from rtoplanner.core.fix.candidates import _words_duration
from rtoplanner.core.fix.licences import LIST_PRICE_NOTE
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario_text
from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import choice_words, for_reader, stage_kind_words

KEY = re.compile(r"\b(database|backup|recovery|targets)\.[a-z_]+")


def test_file_keys_read_as_the_form_labels():
    text = for_reader("backup.level1_every is not used: there are no level 1 backups")
    assert text == "“Level 1 backup every” is not used: there are no level 1 backups"
    assert "“RMAN compression level”" in for_reader("name the level in backup.compression")


def test_no_command_line_instruction_for_a_price():
    for note in (
        LIST_PRICE_NOTE,
        "never guessed; give your quote with `rto-planner catalog price ITEM AMOUNT` or in "
        "the catalog browser.",
        'Give yours (rto-planner catalog price "LTO-9" AMOUNT --kind tape_drive); until then',
    ):
        said = for_reader(note)
        assert "rto-planner" not in said and "hardware catalog" in said


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(900, "15 min"), (1800, "30 min"), (5400, "1 h 30 min"), (3600, "1 h"), (14 * 86400, "14 d")],
)
def test_schedule_changes_in_the_units_a_dba_types(seconds, words):
    assert _words_duration(seconds) == words


def test_identifiers_in_words():
    assert stage_kind_words("nas_head") == "NAS / ZFS head"
    assert stage_kind_words("storage_write") == "datafile storage (write)"
    assert choice_words("with_size") == "grows with the database"


def test_redo_apply_detail_in_the_one_duration_format():
    s = load_scenario_text(
        """format = 1
name = "t"
[database]
size = "1 TB"
redo_rate = "5 MB/s"
[backup]
channels = 2
level0_every = "7d"
[[path]]
kind = "network"
rate = "1 GB/s"
[recovery]
redo_apply_rate = "50 MB/s"
[targets]
rto = "24 h"
"""
    )
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    detail = next(p.detail for p in plan.recovery.phases if p.name == "redo_apply")
    assert not re.search(r"\d\.\d h", detail), detail  # "26 h 08 min", never "26.1 h"
    assert detail == f"apply {format_duration(7 * 86400)} of redo"
    assert not KEY.search(for_reader("\n".join(plan.notes)))


def test_the_recovery_keeps_its_own_verdict_beside_a_headline_decided_by_the_rpo():
    from rtoplanner.core.wording import recovery_clause

    assert recovery_clause(5 * 3600 + 120, "meets") == (
        "worst-case recovery 5 h 02 min, which meets the RTO"
    )
    assert recovery_clause(5 * 3600, "misses").endswith("which misses the RTO")
