"""The PDF plan read back: pages, outline, metadata, printed figures, fonts, pixels,
reproducibility, progress and cancellation."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, EPOCH, REPO, demo_ids, rendered

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import (
    ReportCancelled,
    build_report_data,
    render_pdf,
    report_date,
    write_report,
)
from rtoplanner.core.scenario import load_scenario, load_scenario_text

SECTIONS = (
    "Executive summary",
    "Recovery timeline",
    "Restore path and bottleneck",
    "Backups and the backup window",
    "Recovery across the backup cycle",
    "Data loss (RPO)",
    "Growth outlook",
    "Assumptions ledger",
    "Appendix: how the figures are computed",
)


def reader(pdf: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf))


def outline(r: PdfReader) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) of every bookmark."""
    out: list[tuple[int, str, int]] = []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, item.title, r.get_destination_page_number(item) + 1))

    walk(r.outline, 0)
    return out


def text_of(r: PdfReader) -> str:
    return "\n".join(page.extract_text() for page in r.pages)


def flat(text: str) -> str:
    """Extracted text with line breaks folded, so wrapped sentences match."""
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_pages_outline_and_metadata(path):
    rd = rendered(path)
    r = reader(rd.pdf)
    n = len(r.pages)
    assert 6 <= n <= 14
    marks = outline(r)
    titles = [t for _, t, _ in marks]
    for section in SECTIONS:
        assert section in titles
    top = [(t, p) for level, t, p in marks if level == 0]
    assert top[0] == ("Cover", 1)
    pages = [p for _, p in top]
    assert pages == sorted(pages), "top-level bookmarks must follow the page order"
    assert all(1 <= p <= n for p in pages)
    meta = r.metadata
    d = rd.data
    assert meta.title == d.document_title
    assert meta.subject == d.subject
    assert meta.author == (d.author or d.producer)
    assert "RTO Planner" in meta.creator
    assert meta["/CreationDate"].startswith("D:20260101000000")
    # "Page x of y" on every page after the cover.
    for i, page in enumerate(r.pages[1:], start=2):
        assert f"Page {i} of {n}" in page.extract_text()


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_printed_figures_equal_the_plan(path):
    rd = rendered(path)
    text = flat(text_of(reader(rd.pdf)))
    d = rd.data
    cover = flat(reader(rd.pdf).pages[0].extract_text())
    assert d.verdict_words in cover
    assert d.total_text in cover
    assert d.rto_text in cover
    margin = d.margin_text if d.margin_s >= 0 else d.margin_text.lstrip("-")
    assert margin in cover
    assert d.scenario_name in cover
    for fig in d.key_figures:
        assert fig.value in cover
    assert f"takes {d.total_text}" in text
    for row in d.phase_table.rows:
        assert row[0] in text
    for job in d.jobs:
        assert job.text in text


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_only_embedded_dejavu_fonts(path):
    r = reader(rendered(path).pdf)
    seen = set()
    for page in r.pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            name = str(font["/BaseFont"])
            seen.add(name.split("+")[-1])
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, f"{name} is not embedded"
        # Fonts used inside charts (form XObjects) too.
        for xobj in page["/Resources"].get("/XObject", {}).values():
            for ref in xobj.get_object().get("/Resources", {}).get("/Font", {}).values():
                seen.add(str(ref.get_object()["/BaseFont"]).split("+")[-1])
    assert seen == {"DejaVuSans", "DejaVuSans-Bold"}


def test_unicode_names_print_without_missing_glyphs(tmp_path, epoch):
    from reportlab.pdfbase import pdfmetrics

    text = (REPO / "data" / "scenarios" / "small_gige_lto.toml").read_text("utf-8")
    text = re.sub(r'(?m)^name = ".*"$', 'name = "Café ERP — Łódź"', text, count=1)
    text = re.sub(r'(?m)^customer = ".*"$', 'customer = "Zoë Ødegård AS"', text)
    scenario = load_scenario_text(text)
    out = write_report(scenario, tmp_path / "plan.pdf")
    r = PdfReader(out)
    body = text_of(r)
    assert "Café ERP — Łódź" in body
    assert "Zoë Ødegård AS" in body
    assert r.metadata.title.endswith("Café ERP — Łódź")
    face = pdfmetrics.getFont("DejaVuSans").face
    missing = {ch for ch in body if not ch.isspace() and ord(ch) not in face.charToGlyph}
    assert not missing, f"characters without a glyph: {sorted(missing)}"


def test_byte_identical_with_source_date_epoch(epoch, tmp_path):
    assert report_date().isoformat() == "2026-01-01"
    first = write_report(DEMOS[0], tmp_path / "a.pdf").read_bytes()
    second = write_report(DEMOS[0], tmp_path / "b.pdf").read_bytes()
    assert first == second
    assert first == rendered(DEMOS[0]).pdf


def test_byte_identical_across_processes(tmp_path):
    script = (
        "import sys; from rtoplanner.core.report import write_report; "
        "write_report(sys.argv[1], sys.argv[2])"
    )
    env = {"SOURCE_DATE_EPOCH": str(EPOCH), "PATH": "/usr/bin:/bin"}
    outs = []
    for i in range(2):
        out = tmp_path / f"plan{i}.pdf"
        subprocess.run(
            [sys.executable, "-c", script, str(DEMOS[0]), str(out)],
            check=True,
            env=env,
            timeout=120,
        )
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert outs[0] == rendered(DEMOS[0]).pdf


def test_different_epochs_differ(monkeypatch):
    plan = compute_plan(load_scenario(DEMOS[0]), as_of=rendered(DEMOS[0]).plan.as_of)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH + 86400))
    later = render_pdf(build_report_data(plan))
    assert later != rendered(DEMOS[0]).pdf
    assert reader(later).metadata["/CreationDate"].startswith("D:20260102")


def test_workload_evidence_section(epoch):
    rd = rendered(DEMOS[0], with_workload=True)
    r = reader(rd.pdf)
    assert "Workload evidence" in [t for _, t, _ in outline(r)]
    text = flat(text_of(r))
    assert "95th percentile" in text
    assert "168 hourly AWR reports of ERPPRD" in text
    plain = reader(rendered(DEMOS[0]).pdf)
    assert "Workload evidence" not in [t for _, t, _ in outline(plain)]


def test_progress_and_cancel(epoch):
    data = rendered(DEMOS[0]).data
    seen: list[float] = []
    render_pdf(data, progress=lambda f, msg: seen.append(f))
    assert seen[-1] == 1.0
    assert seen == sorted(seen)
    assert all(0.0 <= f <= 1.0 for f in seen)
    calls = {"n": 0}

    def cancel_after_a_while() -> bool:
        calls["n"] += 1
        return calls["n"] > 20

    with pytest.raises(ReportCancelled):
        render_pdf(data, should_cancel=cancel_after_a_while)
    # A cancelled render leaves reportlab usable.
    assert render_pdf(data) == rendered(DEMOS[0]).pdf


def test_cancelled_write_leaves_no_file(tmp_path, epoch):
    out = tmp_path / "plan.pdf"
    with pytest.raises(ReportCancelled):
        write_report(DEMOS[0], out, should_cancel=lambda: True)
    assert list(tmp_path.iterdir()) == []


def test_concurrent_renders_are_serialised(epoch):
    data = rendered(DEMOS[0]).data
    results: list[bytes] = []
    errors: list[BaseException] = []

    def work():
        try:
            results.append(render_pdf(data))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert results == [rendered(DEMOS[0]).pdf] * 3


# ----------------------------------------------------------------------------- pixels

PDFTOPPM = shutil.which("pdftoppm")


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_pages_render_inside_their_margins(path, tmp_path):
    from PIL import Image

    pdf = tmp_path / "plan.pdf"
    pdf.write_bytes(rendered(path, with_workload=True).pdf)
    subprocess.run(
        [PDFTOPPM, "-r", "40", "-png", str(pdf), str(tmp_path / "p")], check=True, timeout=120
    )
    pngs = sorted(tmp_path.glob("p-*.png"))
    assert len(pngs) == len(reader(pdf.read_bytes()).pages)
    mm = 40 / 25.4  # pixels per millimetre at 40 dpi
    for png in pngs:
        im = Image.open(png).convert("L")
        w, h = im.size
        # Not blank: a real share of the page is ink.
        dark = sum(im.histogram()[:200])
        assert dark > 0.01 * w * h, f"{png.name} looks blank"
        # Nothing in the right and left margins (below the cover's top band) or the
        # bottom margin: 18 mm margins, checked on the outer 12 mm / 6 mm.
        top = int(16 * mm)
        for box, where in (
            ((w - int(12 * mm), top, w, h), "right"),
            ((0, top, int(12 * mm), h), "left"),
            ((0, h - int(6 * mm), w, h), "bottom"),
        ):
            region = im.crop(box)
            darkest = region.getextrema()[0]
            assert darkest > 235, f"{png.name}: ink in the {where} margin"


def test_render_uses_lock_and_returns_pdf_bytes(epoch):
    pdf = rendered(DEMOS[0]).pdf
    assert pdf.startswith(b"%PDF-")
    assert pdf.rstrip().endswith(b"%%EOF")
    assert Path(DEMOS[0]).exists()
