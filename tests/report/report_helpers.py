"""Helpers for the PDF plan tests: demo scenarios, a fixed SOURCE_DATE_EPOCH, PDFs
rendered once per session."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import RedoSample, WorkloadEvidence, build_report_data, render_pdf
from rtoplanner.core.scenario import load_scenario

REPO = Path(__file__).resolve().parents[2]
DEMOS = sorted((REPO / "data" / "scenarios").glob("*.toml"))
EPOCH = 1767225600  # 2026-01-01 00:00:00 UTC


def demo_ids() -> list[str]:
    return [p.stem for p in DEMOS]


def sample_workload() -> WorkloadEvidence:
    start = datetime(2025, 12, 1, tzinfo=UTC)
    series = []
    for h in range(7 * 24):
        busy = 1.0 + (2.5 if 1 <= h % 24 <= 4 else 0.0)  # nightly batch
        series.append(
            RedoSample(start + timedelta(hours=h), start + timedelta(hours=h + 1), 4e6 * busy)
        )
    return WorkloadEvidence(
        period_start=series[0].start,
        period_end=series[-1].end,
        reports=len(series),
        redo_avg_Bps=sum(s.redo_Bps for s in series) / len(series),
        redo_p95_Bps=14e6,
        redo_peak_Bps=14e6,
        series=tuple(series),
        db_name="ERPPRD",
        source="168 hourly AWR reports of ERPPRD (snapshots 4711–4879)",
    )


class Rendered:
    """One demo scenario rendered once for the module: plan, data and PDF bytes."""

    def __init__(self, path: Path, workload: WorkloadEvidence | None = None) -> None:
        old = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = str(EPOCH)
        try:
            self.path = path
            as_of = datetime.fromtimestamp(EPOCH, tz=UTC).date()
            self.plan = compute_plan(load_scenario(path), as_of=as_of)
            self.data = build_report_data(self.plan, workload=workload)
            self.pdf = render_pdf(self.data)
        finally:
            if old is None:
                os.environ.pop("SOURCE_DATE_EPOCH", None)
            else:
                os.environ["SOURCE_DATE_EPOCH"] = old


_CACHE: dict[tuple[str, bool], Rendered] = {}


def rendered(path: Path, with_workload: bool = False) -> Rendered:
    key = (str(path), with_workload)
    if key not in _CACHE:
        _CACHE[key] = Rendered(path, sample_workload() if with_workload else None)
    return _CACHE[key]


def text_fill(page) -> float:
    """How far down a PDF page's body text reaches, as a share of the text frame (header
    and footer left out), read from the page's own text positions."""
    mm = 72 / 25.4
    height = float(page.mediabox.height)
    top, bottom = height - 22 * mm, 18 * mm  # the renderer's margins
    ys: list[float] = []

    def visit(text, cm, tm, font, size):
        y = tm[5] * cm[3] + cm[5] if cm else tm[5]
        if text.strip() and bottom < y < top:
            ys.append(y)

    page.extract_text(visitor_text=visit)
    return (top - min(ys)) / (top - bottom)
