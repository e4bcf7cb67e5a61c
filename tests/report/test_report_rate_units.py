"""Issue 23.6, units of rates: rates are typed per second (MB/s, GB/s) and were shown per
hour ("media recovery applies redo at 259 GB/h" for a typed 72 MB/s). A rate is shown per
second; a figure typed per hour keeps the user's unit with its per-second value beside it.
Read back from the real PDFs and the terminal."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, demo_ids, rendered

from rtoplanner.app.__main__ import main

PER_HOUR = re.compile(r"\d[\d.,]*\s?[kMGTP]i?B/(?:h|min)\b")
PER_SECOND = re.compile(r"\d[\d.,]*\s?[kMGTP]i?B/s\b")


def flat(pdf: bytes) -> str:
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", text).replace("\u00a0", " ")


def _by_name(name: str):
    return next(p for p in DEMOS if p.stem == name)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_every_per_hour_figure_has_its_per_second_value_beside_it(path):
    """Only a figure typed (or published) per hour is shown per hour, and never alone."""
    text = flat(rendered(path, with_workload=True).pdf)
    for m in PER_HOUR.finditer(text):
        near = text[max(0, m.start() - 40) : m.end() + 40]
        assert PER_SECOND.search(near), (path.stem, near)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_phase_and_backup_rates_are_per_second(path):
    data = rendered(path).data
    for row in data.phase_table.rows:
        assert not PER_HOUR.search(" ".join(row)), (path.stem, row)
    for table in data.part("backups").__dict__.values():
        for row in getattr(table, "rows", ()):
            assert not PER_HOUR.search(" ".join(row)), (path.stem, row)


def test_the_summary_quotes_the_redo_apply_rate_as_typed():
    """Exadata types redo_apply_rate = "72 MB/s"; the summary said "259 GB/h"."""
    text = flat(rendered(_by_name("exadata_tape_infiniband")).pdf)
    assert "media recovery applies redo at 72.0 MB/s" in text
    assert "259 GB/h" not in text


def test_a_rate_typed_per_hour_keeps_its_unit_with_the_per_second_value():
    """nas_two_heads types incremental_apply_rate = "500 GB/h": the ledger echoes it and
    gives the 139 MB/s the phase table prints."""
    rd = rendered(_by_name("nas_two_heads"))
    assert "500 GB/h (139 MB/s)" in flat(rd.pdf)
    apply = next(r for r in rd.data.phase_table.rows if r[0].startswith("Apply incremental"))
    assert "139 MB/s" in apply


def test_the_workload_table_and_chart_read_per_second():
    rd = rendered(DEMOS[0], with_workload=True)
    rows = rd.data.part("workload").workload_table.rows
    assert all(not PER_HOUR.search(" ".join(r)) for r in rows)
    assert "redo (MB/s)" in flat(rd.pdf)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_the_terminal_plan_gives_rates_per_second(path, capsys, tmp_path):
    assert main(["plan", str(path), "--no-store", "--db", str(tmp_path / "s.duckdb")]) == 0
    out = capsys.readouterr().out
    assert PER_SECOND.search(out)
    assert not PER_HOUR.search(out), out


def test_an_average_apply_rate_says_what_it_is_made_of():
    """Now both in MB/s, the summary's "applies redo at 37.5 MB/s" read as a second redo
    apply rate beside "Redo apply rate 47.0 MB/s": the average includes 39 s per log."""
    text = flat(rendered(_by_name("oltp_zfs_nas")).pdf)
    assert (
        "media recovery applies redo at 37.5 MB/s on average (the redo apply rate of "
        "47.0 MB/s, and 39 s for each archived log)" in text
    )
