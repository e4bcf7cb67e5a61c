"""Issue 23.6: a percentage is written one way wherever a person reads it — the number, a
space, `%` (`85 %`, `3.9 %`, `-40 %..+20 %`) — where the ranges table and the ledger
printed "85.0%" / "90.0%" beside the cover's "3.9 %". Read back from the real PDFs."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, REPO, demo_ids, rendered

from rtoplanner.app.__main__ import main

ESTATE = REPO / "data" / "estates" / "site_loss.toml"

TIGHT = re.compile(r"(?<![\w/%])\d+(?:\.\d+)?%(?![0-9A-Fa-f]{2})")
"""A percentage without its space ("85%"; not a URL's escape such as `%20`)."""
TRAILING_ZERO = re.compile(r"(?<![\d.])\d+\.0+[ \u00a0]%")
"""A percentage with an empty decimal ("85.0 %", "5.00 %")."""
SPACED = re.compile(r"\d[ \u00a0]%")


def text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture(scope="module")
def estate_pdf(tmp_path_factory) -> bytes:
    out: Path = tmp_path_factory.mktemp("pdf") / "estate.pdf"
    assert main(["report", str(ESTATE), "-o", str(out), "-q", "--no-store"]) == 0
    return out.read_bytes()


def _one_style(words: str, where: str) -> None:
    assert SPACED.search(words), f"{where}: no percentage at all — the test reads nothing"
    assert TIGHT.findall(words) == [], where
    assert TRAILING_ZERO.findall(words) == [], where


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_every_percentage_of_a_plan_pdf_shares_one_form(path):
    """Ranges the user typed (`-40%..+20%`, `3%..8%`), growth (`30%/y`), the ledger's
    shares and the cover's odds all read `N %`."""
    _one_style(text(rendered(path, with_workload=True).pdf), path.stem)


def test_every_percentage_of_the_estate_pdf_shares_one_form(estate_pdf):
    _one_style(text(estate_pdf), "estate")


def test_the_ledger_echoes_a_typed_range_in_the_house_style():
    """The Exadata demo types `"recovery.redo_apply_rate" = "-40%..+20%"`."""
    words = re.sub(r"\s+", " ", text(rendered(DEMOS[0]).pdf)).replace("\u00a0", " ")
    assert "range -40 %..+20 %" in words
    assert "-40%" not in words


TERMINAL = [
    ["plan"],
    ["risk", "--trials", "2000", "--seed", "7"],
    ["fix"],
]


@pytest.mark.parametrize("command", TERMINAL, ids=[c[0] for c in TERMINAL])
@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_the_terminal_writes_percentages_the_same_way(path, command, capsys, tmp_path):
    """`risk` printed a typed range "-30%..+50%" beside its default "-23 %..+29 %" on one
    line; `plan` "Growth (20%/y)"; `fix` "… range for efficiency (70%..95%)"."""
    db = str(tmp_path / "s.duckdb")
    main([command[0], str(path), *command[1:], "--no-store", "--db", db])
    out = capsys.readouterr()
    words = out.out + out.err
    assert "recovery" in words.lower(), words  # the command ran
    assert TIGHT.findall(words) == [], (path.stem, command[0])
    assert TRAILING_ZERO.findall(words) == [], (path.stem, command[0])
