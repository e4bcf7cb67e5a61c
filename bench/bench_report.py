"""Report speed: a full PDF plan (plan, what it takes, ReportData, layout, charts, PDF bytes).

Target (issue 6): under 1 s for a demo scenario on a 2-core machine.
Run: .venv/bin/python bench/bench_report.py
"""

from __future__ import annotations

import statistics
import time
from datetime import date
from pathlib import Path

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, register_fonts, render_pdf
from rtoplanner.core.scenario import load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "data" / "scenarios").glob("*.toml"))
AS_OF = date(2026, 1, 1)


def one_report(path: Path) -> tuple[float, float, float, int]:
    """Seconds for (plan, data, render) and the PDF size."""
    t0 = time.perf_counter()
    plan = compute_plan(load_scenario(path), as_of=AS_OF)
    t1 = time.perf_counter()
    data = build_report_data(plan)
    t2 = time.perf_counter()
    pdf = render_pdf(data)
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2, len(pdf)


def main(repeat: int = 7) -> None:
    register_fonts()  # once per process, as the app does at start-up
    for path in SCENARIOS:  # warm imports and caches
        one_report(path)
    print(f"{'scenario':30} {'plan':>8} {'data':>8} {'render':>8} {'total':>8} {'size':>8}")
    worst = 0.0
    for path in SCENARIOS:
        runs = [one_report(path) for _ in range(repeat)]
        plan, data, render = (statistics.median(r[i] for r in runs) for i in range(3))
        total = statistics.median(sum(r[:3]) for r in runs)
        worst = max(worst, total)
        print(
            f"{path.stem:30} {plan * 1000:6.0f}ms {data * 1000:6.0f}ms {render * 1000:6.0f}ms "
            f"{total * 1000:6.0f}ms {runs[0][3] / 1024:6.0f}kB"
        )
    print(f"slowest full report: {worst * 1000:.0f} ms (median of {repeat}); target < 1000 ms")


if __name__ == "__main__":
    main()
