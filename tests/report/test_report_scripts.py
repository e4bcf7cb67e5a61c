"""Names in any script print in the PDF (issue 16.9): CJK via the embedded Droid Sans
Fallback, emoji the fonts lack as U+FFFD, never an empty box. Real PDFs read back."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

from rtoplanner.core.report import write_report
from rtoplanner.core.report.fonts import FONT, REPLACEMENT, fit, register_fonts, runs, text_width
from rtoplanner.core.scenario import load_scenario_text

REPO = Path(__file__).resolve().parents[2]
BASE = (REPO / "data" / "scenarios" / "small_gige_lto.toml").read_text(encoding="utf-8")
NAME = "東京 ERP – 서울 – とうきょう 😀🦀"


def _scenario(name: str, customer: str = "株式会社デモ"):
    text = re.sub(r"(?m)^name = .*$", lambda m: f'name = "{name}"', BASE, count=1)
    text = re.sub(r"(?m)^customer = .*$", lambda m: f'customer = "{customer}"', text, count=1)
    return load_scenario_text(text)


def _fonts(reader: PdfReader) -> set[str]:
    out = set()
    for page in reader.pages:
        for f in (page["/Resources"].get("/Font") or {}).values():
            out.add(str(f.get_object()["/BaseFont"]).split("+")[-1])
    return out


def test_cjk_names_are_drawn_with_the_embedded_fallback(tmp_path: Path, epoch) -> None:
    out = write_report(_scenario(NAME), tmp_path / "cjk.pdf")
    reader = PdfReader(out)
    assert "DroidSansFallback" in _fonts(reader)
    assert all(name in {"DejaVuSans", "DejaVuSans-Bold", "DroidSansFallback"}
               for name in _fonts(reader))  # fmt: skip
    first = reader.pages[0].extract_text()
    for word in ("東京", "서울", "とうきょう", "株式会社デモ"):
        assert word in first, first[:300]
    second = reader.pages[1].extract_text()
    assert "東京" in second and "株式会社デモ" in second  # the running header
    # subset on embed: the 3.4 MB font adds kilobytes, not megabytes
    assert out.stat().st_size < 400_000


def test_emoji_outside_the_fonts_become_the_replacement_character() -> None:
    register_fonts()
    parts = runs("a😀🦀b東")
    text = "".join(t for _, t in parts)
    assert text == f"a😀{REPLACEMENT}b東"
    assert [f for f, _ in parts] == [FONT, "DroidSansFallback"]


def test_header_fit_handles_long_mixed_names() -> None:
    long = ("東京" * 100) + ("x" * 100)
    short = fit(long, FONT, 7.5, 200)
    assert short.endswith("…") and text_width(short, FONT, 7.5) <= 200
    assert long.startswith(short[:-1])
