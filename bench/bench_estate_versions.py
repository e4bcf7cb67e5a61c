#!/usr/bin/env python3
"""Time the estate simulation of several commits side by side (issue 22.3).

    .venv/bin/python bench/bench_estate_versions.py [--rounds 5] REV [REV ...]

Each REV's `core/` and `data/` are extracted with `git archive` into a temporary folder
and imported from there (`.` is this worktree as it is). Round by round, each version runs
in a fresh process: the 1,000-database bench estate of `bench_estate.py` (100 drives),
each database's plan, then `simulate(..., trace=True)` and `run_estate` three times each,
in CPU time of that process. The versions are interleaved so that the machine's load
falls on each alike; prints the median and the minimum of each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import sys, time, json
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from bench_estate import make_estate
from rtoplanner.core.estate import run_estate
from rtoplanner.core.estate.jobs import build_jobs
from rtoplanner.core.estate.simulate import simulate
est = make_estate(1000, 100)
jobs = build_jobs(est)
names, units = [r.name for r in est.shared], [r.stage.count for r in est.shared]
out = []
for _ in range(3):
    t0 = time.process_time(); simulate(jobs, names, units, trace=True)
    t1 = time.process_time(); run_estate(est); t2 = time.process_time()
    out.append((t1 - t0, t2 - t1))
print(json.dumps(out))
"""


def extract(rev: str, into: Path) -> str:
    """The folder to import `rtoplanner` from for `rev` ('' for this worktree)."""
    if rev == ".":
        return ""
    pkg = into / rev / "rtoplanner"
    pkg.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "core", "data"],
                             capture_output=True, check=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(pkg)], input=archive, check=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    return str(into / rev)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = {rev: extract(rev, Path(tmp)) for rev in args.revs}
        times: dict[str, list[tuple[float, float]]] = {rev: [] for rev in args.revs}
        for _ in range(args.rounds):
            for rev in args.revs:
                cmd = [sys.executable, "-c", CHILD, where[rev], str(ROOT / "bench")]
                out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                times[rev] += [tuple(x) for x in json.loads(out)]
    for rev, xs in times.items():
        sim, run = [a for a, _ in xs], [b for _, b in xs]
        print(f"{rev}: simulate median {statistics.median(sim):.3f} s, min {min(sim):.3f} s; "
              f"run_estate median {statistics.median(run):.3f} s, min {min(run):.3f} s "
              f"(CPU, {len(xs)} runs)")  # fmt: skip


if __name__ == "__main__":
    main()
