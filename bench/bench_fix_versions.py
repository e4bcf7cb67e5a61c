#!/usr/bin/env python3
"""Time What it takes of several commits side by side (issue 22 / issue 11's ≤ 0.5 s).

    .venv/bin/python bench/bench_fix_versions.py [--rounds 5] [--only NAME] REV [REV ...]

Each REV's `core/` and `data/` are extracted with `git archive` into a temporary folder
and imported from there (`.` is this worktree as it is). Round by round, each version runs
in a fresh process: every demo's frontier, as shipped and at twice its size, and the
100-drive library's as is (the rows of `bench_fix.py`), once to warm up and then three
times, in CPU time of that process. The versions are interleaved so that the machine's
load falls on each alike; prints the median and the minimum of each row per version.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_estate_versions import extract

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import sys, time, json
from pathlib import Path
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
from rtoplanner.core.fix import what_it_takes
from rtoplanner.core.scenario import load_scenario, with_values
out = {}
library = Path(sys.argv[3])
for path in [*sorted(Path(sys.argv[2]).glob("*.toml")), library]:
    if sys.argv[4:] and path.stem not in sys.argv[4:]:
        continue
    s = load_scenario(path)
    doubled = with_values(s, {"database.size": f"{s.database.size_bytes * 2} B"})
    for label, v in (("as is", s), ("2x size", doubled))[: 1 if path == library else 2]:
        what_it_takes(v)
        times = []
        for _ in range(3):
            t = time.process_time()
            what_it_takes(v)
            times.append(time.process_time() - t)
        out[f"{path.stem} {label}"] = times
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", action="append", default=[], help="a demo (file stem)")
    args = parser.parse_args()
    demos = str(ROOT / "data" / "scenarios")
    library = str(ROOT / "tests" / "fixtures" / "scenarios" / "library_100_drives.toml")
    with tempfile.TemporaryDirectory() as tmp:
        where = {rev: extract(rev, Path(tmp)) for rev in args.revs}
        times: dict[str, dict[str, list[float]]] = {rev: {} for rev in args.revs}
        for _ in range(args.rounds):
            for rev in args.revs:
                cmd = [sys.executable, "-c", CHILD, where[rev], demos, library, *args.only]
                out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                for row, xs in json.loads(out).items():
                    times[rev].setdefault(row, []).extend(xs)
    rows = list(times[args.revs[0]])
    print(f"{'CPU s, median (min)':36}" + "".join(f"{rev[:12]:>18}" for rev in args.revs))
    for row in rows:
        cells = "".join(
            f"{statistics.median(times[r][row]):>10.3f} ({min(times[r][row]):.3f})"
            for r in args.revs
        )
        print(f"{row:36}{cells}")
    n = len(times[args.revs[0]][rows[0]]) if rows else 0
    print(f"({n} runs per row and version, interleaved)")


if __name__ == "__main__":
    main()
