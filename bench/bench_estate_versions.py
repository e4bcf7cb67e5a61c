#!/usr/bin/env python3
"""Time the estate simulation of several commits side by side (issue 22.3).

    .venv/bin/python bench/bench_estate_versions.py [--rounds 5] [--cli N] REV [REV ...]

Each REV's `core/`, `data/` and `bench/bench_estate.py` are extracted with `git archive`
into a temporary folder and imported from there (`.` is this worktree as it is; each
version builds the benchmark estate with its own `bench_estate.py`, so a REV from before
a change to this worktree's bench still runs). Round by round, each version runs in a
fresh process: the 1,000-database bench estate of `bench_estate.py` (100 drives), each
database's plan, then `simulate` (untraced, as the command runs it) and `run_estate`
three times each, in CPU time of that process. With `--cli N` it times instead `rto-planner estate
ESTATE.toml --no-least`, as text and with `--json`, on the N-database bench estate
written as files (by this worktree's `bench_estate.py`), each version's package compiled
to bytecode first: wall and CPU time of the whole process. The versions are interleaved
so that the machine's load falls on each alike; prints the median and the minimum of
each.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
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
    t0 = time.process_time(); simulate(jobs, names, units)
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
    bench = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:bench/bench_estate.py"],
                           capture_output=True, check=True).stdout  # fmt: skip
    (into / rev / "bench_estate.py").write_bytes(bench)
    compileall.compile_dir(pkg, quiet=1)
    return str(into / rev)


def bench_folder(where: str) -> str:
    """Where a version's `bench_estate.py` is (its own, beside its package)."""
    return where or str(ROOT / "bench")


CLI = """
import sys
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
from rtoplanner.core.cli import main
sys.exit(main(sys.argv[2:]))
"""


def time_cli(revs: list[str], where: dict[str, str], rounds: int, n: int, tmp: Path) -> None:
    """`rto-planner estate --no-least` (text, --json) of each version, interleaved."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_estate import compile_bytecode, write_estate_files

    compile_bytecode()
    path = write_estate_files(n, 100, tmp / "estate")
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(rounds):
        for rev in revs:
            for how in ("text", "--json"):
                cmd = [sys.executable, "-c", CLI, where[rev], "estate", str(path), "--no-least"]
                t0 = time.perf_counter()
                proc = subprocess.Popen(cmd + ([how] if how != "text" else []),
                                        stdout=subprocess.DEVNULL)  # fmt: skip
                _pid, status, usage = os.wait4(proc.pid, 0)
                if os.waitstatus_to_exitcode(status):
                    raise SystemExit(f"{rev}: {' '.join(cmd)} failed")
                runs.setdefault((rev, how), []).append(
                    (time.perf_counter() - t0, usage.ru_utime + usage.ru_stime)
                )
    for (rev, how), xs in runs.items():
        wall, cpu = [w for w, _ in xs], [c for _, c in xs]
        print(f"{rev} {how}: {n:,} databases from files, wall median "
              f"{statistics.median(wall):.3f} s, min {min(wall):.3f} s; CPU median "
              f"{statistics.median(cpu):.3f} s, min {min(cpu):.3f} s ({len(xs)} runs)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cli", type=int, metavar="N", default=None,
                        help="time the command end to end on N databases from files")  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = {rev: extract(rev, Path(tmp)) for rev in args.revs}
        if args.cli:
            time_cli(args.revs, where, args.rounds, args.cli, Path(tmp))
            return
        times: dict[str, list[tuple[float, float]]] = {rev: [] for rev in args.revs}
        for _ in range(args.rounds):
            for rev in args.revs:
                cmd = [sys.executable, "-c", CHILD, where[rev], bench_folder(where[rev])]
                out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                times[rev] += [tuple(x) for x in json.loads(out)]
    for rev, xs in times.items():
        sim, run = [a for a, _ in xs], [b for _, b in xs]
        print(f"{rev}: simulate median {statistics.median(sim):.3f} s, min {min(sim):.3f} s; "
              f"run_estate median {statistics.median(run):.3f} s, min {min(run):.3f} s "
              f"(CPU, {len(xs)} runs)")  # fmt: skip


if __name__ == "__main__":
    main()
