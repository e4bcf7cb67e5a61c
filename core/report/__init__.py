"""The PDF plan (DESIGN §5 `rto-planner report`, STYLE §14).

    data = build_report_data(compute_plan(scenario))   # plain data, no reportlab
    pdf = render_pdf(data, progress, should_cancel)     # bytes
    write_report("scenario.toml", "plan.pdf")           # both, written atomically

`progress(fraction, message)` and `should_cancel()` default to no-ops (STYLE §2); a
cancelled export raises `ReportCancelled` and leaves no file behind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from ..catalog import Catalog
from ..outfile import check_output_path, write_output_bytes
from ..plan import compute_plan
from ..scenario import Scenario, load_scenario
from .data import (
    RedoSample,
    ReportData,
    WorkloadEvidence,
    build_report_data,
    report_date,
    source_date_epoch,
)
from .fonts import ReportCancelled, ReportError, register_fonts
from .pdf import render_pdf

Progress = Callable[[float, str], None]
ShouldCancel = Callable[[], bool]


def _sub(progress: Progress | None, start: float, end: float) -> Progress | None:
    """Map a nested step's 0..1 onto [start, end] of the caller's progress."""
    if progress is None:
        return None
    return lambda f, msg: progress(start + (end - start) * f, msg)


def _check_target(out: Path) -> None:
    """Fail before the work when `out` cannot be written (core/outfile.py's rules)."""
    check_output_path(out)


def write_bytes_atomically(out: Path, payload: bytes) -> None:
    """Write to a temporary file beside `out`, then rename: never a half-written PDF."""
    write_output_bytes(out, payload)


def write_report(
    scenario: Scenario | str | Path,
    out_path: str | Path,
    *,
    as_of: date | None = None,
    catalog: Catalog | None = None,
    workload: WorkloadEvidence | None = None,
    binary: bool = False,
    prices: Any = None,
    progress: Progress | None = None,
    should_cancel: ShouldCancel | None = None,
    drills: Sequence[Any] = (),
) -> Path:
    """Load (if given a path), plan, build and write the PDF plan; returns the path.
    `drills` (the store's drills of the scenario) adds the Evidence section.

    `as_of` defaults to SOURCE_DATE_EPOCH's date, else today. Raises `CoreError`s
    (a bad scenario, an unwritable output, `ReportCancelled`).
    """
    out = Path(out_path)
    _check_target(out)  # fail before the work, not after it
    report = progress or (lambda f, m: None)
    cancel = should_cancel or (lambda: False)
    if not isinstance(scenario, Scenario):
        report(0.0, "reading the scenario")
        scenario = load_scenario(scenario, catalog=catalog)
    report(0.05, "computing the plan")
    plan = compute_plan(scenario, as_of=as_of or report_date())
    if cancel():
        raise ReportCancelled("the report was cancelled")
    report(0.15, "weighing changes (what it takes)")
    data = build_report_data(plan, workload=workload, binary=binary, catalog=catalog, prices=prices,
                             drills=drills)  # fmt: skip
    if cancel():
        raise ReportCancelled("the report was cancelled")
    pdf = render_pdf(data, _sub(progress, 0.25, 0.97), should_cancel)
    report(0.98, f"writing {out.name}")
    write_bytes_atomically(out, pdf)
    report(1.0, "done")
    return out


__all__ = [
    "RedoSample",
    "ReportCancelled",
    "ReportData",
    "ReportError",
    "WorkloadEvidence",
    "build_report_data",
    "register_fonts",
    "render_pdf",
    "report_date",
    "source_date_epoch",
    "write_bytes_atomically",
    "write_report",
]
