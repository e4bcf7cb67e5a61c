"""The tornado's and the ranges' labels read as the rest of the app words them (issue
23): "LTO-4: hw compression" named the tape drive's compression by its key, and
"database size (-23%..+29% (P10..P90))" nested its brackets."""

from __future__ import annotations

import re

import pytest
from report_helpers import DEMOS, demo_ids, rendered

from rtoplanner.core.scenario import load_scenario
from rtoplanner.core.uncertainty.analysis import run_risk

RAW = re.compile(r"_|\bhw\b|\(\S*\(")


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_tornado_and_ranges_labels_are_words(path):
    part = rendered(path).data.part("confidence")
    labels = [row.label for row in part.confidence_tornado]
    labels += [row[0] for row in part.confidence_ranges.rows]
    assert labels, path.stem
    for label in labels:
        assert not RAW.search(label), label
        assert label[0].isupper() or label[0].isdigit(), label
    assert not RAW.search(part.confidence_tornado_text)


def test_the_drive_compression_is_named_as_the_ledger_names_it():
    tape = next(p for p in DEMOS if p.stem == "exadata_tape_infiniband")
    r = run_risk(load_scenario(tape), trials=200)
    labels = {row.key: row.label for row in r.inputs}
    assert labels["path[0].hw_compression"] == "LTO-4: drive compression"
    assert labels["path[0].rate"] == "LTO-4: rate"
    part = rendered(tape).data.part("confidence")
    rows = part.confidence_tornado
    assert any(row.label.startswith("LTO-4: drive compression, ") for row in rows)
