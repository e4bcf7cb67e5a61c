"""What the estate computes differently from the databases' own plans is said, in the
text, the JSON, the PDF (and the Estate window: tests/gui/test_estate_window.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from rtoplanner.app.__main__ import main
from rtoplanner.core.estate import load_estate

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"
ITEM_LINE = 'item = "LTO-8"\n'


@pytest.fixture
def library_without_item(tmp_path) -> Path:
    """The demo estate with its library's `item` line taken out."""
    shutil.copytree(DEMO.parent / "site_loss", tmp_path / "site_loss")
    text = DEMO.read_text(encoding="utf-8")
    assert ITEM_LINE in text
    path = tmp_path / "site_loss.toml"
    path.write_text(text.replace(ITEM_LINE, ""), encoding="utf-8")
    return path


def test_the_demo_has_nothing_to_caution():
    assert load_estate(DEMO).cautions == ()


def test_a_library_without_its_catalog_item_is_cautioned_everywhere(
    library_without_item, capsys, tmp_path
):
    cautions = load_estate(library_without_item).cautions
    assert len(cautions) == 1
    caution = cautions[0]
    assert "LTO-8 library has no cartridge load or locate times" in caution
    assert "Billing" in caution and "Payments" not in caution  # it fails over: no tape
    assert 'item = "LTO-8" in [[shared]] "LTO-8 library"' in caution
    args = [str(library_without_item), "--no-least", "--no-store"]
    assert main(["estate", *args]) == 0
    assert f"Caution: {caution}" in capsys.readouterr().out
    assert main(["estate", *args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cautions"] == [caution]
    pdf = tmp_path / "estate.pdf"
    assert main(["report", str(library_without_item), "-o", str(pdf), "-q", "--no-store"]) == 0
    cover = " ".join(PdfReader(pdf).pages[0].extract_text().split())
    assert "Caution: LTO-8 library has no cartridge load or locate times" in cover
