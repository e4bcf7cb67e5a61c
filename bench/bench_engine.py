"""Engine speed: one scenario evaluation (everything but the cycle scan) and the cycle scan.

Targets (issue 2): evaluation under 1 ms, cycle scan under 50 ms on a 2-core machine.
Run: .venv/bin/python bench/bench_engine.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from rtoplanner.core.engine.cycle import cycle_scan
from rtoplanner.core.engine.path import build_path_model
from rtoplanner.core.plan import compute_core, compute_plan
from rtoplanner.core.scenario import load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "data" / "scenarios").glob("*.toml"))


def median_ms(fn, repeat: int, number: int) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t) / number * 1000)
    return statistics.median(runs)


def main() -> None:
    print(f"{'scenario':34} {'evaluate':>10} {'cycle scan':>11} {'full plan':>10}")
    for path in SCENARIOS:
        s = load_scenario(path)
        restore = build_path_model(s)
        core_ms = median_ms(lambda s=s: compute_core(s), repeat=15, number=200)
        cycle_ms = median_ms(lambda s=s, r=restore: cycle_scan(s, r), repeat=15, number=5)
        full_ms = median_ms(lambda s=s: compute_plan(s), repeat=9, number=3)
        print(f"{path.stem:34} {core_ms:8.3f} ms {cycle_ms:8.2f} ms {full_ms:7.2f} ms")
    print("targets: evaluate < 1 ms, cycle scan < 50 ms (median of repeated runs)")


if __name__ == "__main__":
    main()
