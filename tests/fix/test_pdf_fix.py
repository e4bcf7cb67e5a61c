"""The PDF plan of a failing demo shows What it takes: the frontier with costs and the
recommended point in the executive summary (read back from the PDF)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from rtoplanner.core.catalog import shipped_catalog
from rtoplanner.core.fix import PriceBook
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, render_pdf
from rtoplanner.core.scenario import load_scenario, with_values


@pytest.mark.parametrize("name", ["small_gige_lto", "oltp_zfs_nas", "exadata_tape_infiniband"])
def test_failing_demo_pdf_has_the_frontier_with_costs(demo_paths, name):
    path = next(p for p in demo_paths if p.stem == name)
    s = load_scenario(path)
    s = with_values(s, {"database.size": f"{s.database.size_bytes * 2} B"})
    catalog = shipped_catalog()
    labels = {st.label for st in s.path if st.kind not in ("channel", "measured")}
    prices = PriceBook(
        currency="EUR",
        prices={(st.kind, "".join(ch for ch in st.label.lower() if ch.isalnum())): 1000.0
                for st in s.path if st.label in labels},
    )  # fmt: skip
    plan = compute_plan(s)
    data = build_report_data(plan, catalog=catalog, prices=prices)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(data))).pages)
    flat = " ".join(text.split())
    assert "What it takes" in flat
    assert "EUR" in flat
    assert "Worst case" in flat and "Changes" in flat
    assert "What it takes to meet every target, at the least cost" in flat
