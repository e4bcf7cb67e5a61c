"""Report speed: a full PDF plan (plan, what it takes, ReportData, layout, charts, PDF bytes).

Target (issue 6): under 1 s for a demo scenario on a 2-core machine.
Run: .venv/bin/python bench/bench_report.py

`--long-notes` instead times the layout (render_pdf, CPU) of one demo with notes of
10,000 and 20,000 line breaks and of 10,000 lines of text (issue 25: one paragraph of
10,000 breaks took a minute, 20,000 four minutes and 4 GB; the breaks should cost nothing
and text grow linearly).
"""

from __future__ import annotations

import statistics
import time
from datetime import date
from pathlib import Path

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, register_fonts, render_pdf
from rtoplanner.core.scenario import load_scenario, load_scenario_text

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


def _with_notes(text: str, kind: str, n: int) -> str:
    if kind == "none":
        return text
    body = "\\n" * n if kind == "breaks" else "\\n".join(f"line {i}" for i in range(n))
    return text.replace("\n[database]", f'\nnotes = "first\\n{body}\\nlast"\n\n[database]', 1)


def long_notes() -> None:
    register_fonts()
    text = SCENARIOS[-2].read_text(encoding="utf-8")  # small_gige_lto
    for kind, n in (("none", 0), ("breaks", 10_000), ("breaks", 20_000), ("lines", 10_000)):
        plan = compute_plan(load_scenario_text(_with_notes(text, kind, n)), as_of=AS_OF)
        data = build_report_data(plan, advice=())
        t = time.process_time()
        pdf = render_pdf(data)
        took = time.process_time() - t
        print(f"notes {kind:6} {n:6,}: layout {took:5.2f} s CPU, {len(pdf) / 1024:5.0f} kB")


if __name__ == "__main__":
    import sys

    long_notes() if "--long-notes" in sys.argv else main()
