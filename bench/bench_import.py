#!/usr/bin/env python3
"""`import` stays linear: the per-file cost of the last files of a batch against the first.

    .venv/bin/python bench/bench_import.py [--files N]

Writes N distinct AWR text reports (a real sample from ../shared/awr_samples beside the
repository root, each copy with its own snapshot ids) and imports them one by one into a
fresh store, as `rto-planner import` does. Prints the median per-file time of the first
100 and of the last 100 files (target: the same), and the duplicate lookup the import
runs per file, on the full store: by the indexed key columns (now) against reading every
stored payload's JSON (before). Per-file CPU time is printed beside the wall-clock time: on
a machine shared with other work it is the steadier figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rtoplanner.core.importers.store_import import import_file
from rtoplanner.core.store import Store

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO.parent / "shared" / "awr_samples" / "1newstar-awr2csv__awr_11204_1.txt"


def copies(folder: Path, n: int) -> list[Path]:
    text = SAMPLE.read_text(encoding="utf-8", errors="replace")
    begin, end = "Begin Snap:         2 ", "  End Snap:         3 "
    assert begin in text and end in text, "the sample's snapshot lines moved"
    paths = []
    for i in range(n):
        snap = 1000 + 2 * i
        body = text.replace(begin, f"Begin Snap: {snap:9d} ").replace(
            end, f"  End Snap: {snap + 1:9d} "
        )
        path = folder / f"awr_{i:05d}.txt"
        path.write_text(body, encoding="utf-8")
        paths.append(path)
    return paths


def lookup_ms(store: Store, sql: str, keys: list[str], repeat: int = 15) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        store.read(lambda cur: cur.execute(sql, [keys]).fetchall())
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=3000, help="reports in the batch")
    args = ap.parse_args()
    if not SAMPLE.is_file():
        print(f"skipped: no AWR sample at {SAMPLE}")
        return 0
    with tempfile.TemporaryDirectory(prefix="rto-bench-import-") as tmp:
        folder = Path(tmp)
        paths = copies(folder, args.files)
        spent, cpu = [], []
        with Store(folder / "store.duckdb") as store:
            for path in paths:
                t0, c0 = time.perf_counter(), time.process_time()
                outcome = import_file(store, path)
                spent.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                assert outcome.status == "imported", outcome.message
            keys = [f"no such key {i}" for i in range(2)]
            new = lookup_ms(
                store, "SELECT snap_key FROM workload WHERE snap_key IN (SELECT unnest(?))", keys
            )
            old = lookup_ms(
                store,
                "SELECT json_extract_string(payload, '$.snap_key') FROM workload "
                "WHERE kind IN ('awr', 'statspack') "
                "AND list_contains(?, json_extract_string(payload, '$.snap_key'))",
                keys,
            )
    first = statistics.median(spent[:100]) * 1000
    last = statistics.median(spent[-100:]) * 1000
    cpu_first = statistics.median(cpu[:100]) * 1000
    cpu_last = statistics.median(cpu[-100:]) * 1000
    print(f"imported {len(paths)} reports: {sum(spent):.1f} s")
    print(
        f"per file, first 100: {first:6.1f} ms   last 100: {last:6.1f} ms   "
        f"ratio {last / first:4.2f} (target ~1)"
    )
    print(
        f"CPU per file, first 100: {cpu_first:6.1f} ms   last 100: {cpu_last:6.1f} ms   "
        f"ratio {cpu_last / cpu_first:4.2f} (the process, all threads; steadier when shared)"
    )
    print(f"duplicate lookup at {len(paths)} rows: key column {new:5.2f} ms, payload JSON "
          f"{old:6.2f} ms before ({old / new:.0f}x)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
