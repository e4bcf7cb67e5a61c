"""What it takes: the frontier of each demo, as shipped and made to fail (twice its size).

Target (issue 11): ≤ 0.5 s per demo frontier on a 2-core machine (median of repeated
runs; the shared machine makes single runs noisy). Last row: a scenario of an estate's
shared library (100 tape drives, ~100 options for one stage), as the estate's least
hardware asks for each priority-1 database that misses alone (no target; ~50 s before
the search worked out each stage's options once per set of them, not per level pair).
Run: .venv/bin/python bench/bench_fix.py
Before/after of a change: .venv/bin/python bench/bench_fix_versions.py BEFORE AFTER (the
same rows, several commits interleaved; docs/what-it-takes.md "Speed" holds the figures).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from rtoplanner.core.fix import what_it_takes
from rtoplanner.core.scenario import load_scenario, with_values

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "data" / "scenarios").glob("*.toml"))
REPEAT = 7
LIBRARY_100 = (
    Path(__file__).resolve().parent.parent
    / "tests"
    / "fixtures"
    / "scenarios"
    / "library_100_drives.toml"
)


def median_s(fn, repeat: int = REPEAT) -> tuple[float, float]:
    """Median wall time and median CPU time of this process (the CPU time is what the
    frontier costs on an idle machine; the wall time includes waiting for a core)."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    print(f"{'scenario':34} {'variant':>9} {'wall':>9} {'cpu':>9} {'points':>7} {'evaluated':>10}")
    for path in SCENARIOS:
        shipped = load_scenario(path)
        doubled = with_values(shipped, {"database.size": f"{shipped.database.size_bytes * 2} B"})
        for label, s in (("as is", shipped), ("2× size", doubled)):
            result = what_it_takes(s)
            wall, cpu = median_s(lambda s=s: what_it_takes(s))
            print(
                f"{path.stem:34} {label:>9} {wall:7.3f} s {cpu:7.3f} s "
                f"{len(result.frontier):7d} {result.evaluated:10d}"
            )
    library = load_scenario(LIBRARY_100)
    result = what_it_takes(library)
    wall, cpu = median_s(lambda: what_it_takes(library), repeat=3)
    print(f"{'100-drive library (estate)':34} {'as is':>9} {wall:7.3f} s {cpu:7.3f} s "
          f"{len(result.frontier):7d} {result.evaluated:10d}")  # fmt: skip
    print("target: ≤ 0.5 s per demo frontier (median of repeated runs)")


if __name__ == "__main__":
    main()
