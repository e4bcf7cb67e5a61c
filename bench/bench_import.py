#!/usr/bin/env python3
"""`import` stays linear: the per-file cost of the last files of a batch against the first.

    .venv/bin/python bench/bench_import.py [--files N]
    .venv/bin/python bench/bench_import.py --sysstat-rows 100000 [--runs 3]

Writes N distinct AWR text reports (a real sample from ../shared/awr_samples beside the
repository root, each copy with its own snapshot ids) and imports them one by one into a
fresh store, as `rto-planner import` does. Prints the median per-file time of the first
100 and of the last 100 files (target: the same), and the duplicate lookup the import
runs per file, on the full store: by the indexed key columns (now) against reading every
stored payload's JSON (before). Per-file CPU time is printed beside the wall-clock time: on
a machine shared with other work it is the steadier figure.

With `--sysstat-rows N`: one DBA_HIST_SYSSTAT export of N rows (two instances, hourly
snapshots) imported into a fresh store, `--runs` times, as `import` does (DuckDB reads
it: core/importers/sysstat_sql.py); prints the median rows per second, wall-clock and
CPU, of parsing and of storing (issue 25: target 100,000 rows/s). `--python` times the
Python reader instead (the reference the DuckDB reader is tested against).
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


def sysstat_export(path: Path, rows: int) -> Path:
    """Hourly snapshots of a two-instance database: `rows` rows in all."""
    sys.path.insert(0, str(REPO / "tests" / "workloads"))
    from workload_helpers import sysstat_csv

    return sysstat_csv(path, hours=rows // 2 - 1, instances=2)


def bench_sysstat(rows: int, runs: int, python: bool = False) -> int:
    from rtoplanner.core.importers.duck_batch import SysstatBatch
    from rtoplanner.core.importers.readfile import read_input
    from rtoplanner.core.importers.store_import import (
        _write_batch,
        _write_rows,
        parse_for_store,
        rows_from_bytes,
    )

    with tempfile.TemporaryDirectory(prefix="rto-bench-sysstat-") as tmp:
        export = sysstat_export(Path(tmp) / "sysstat.csv", rows)
        data = read_input(export)
        spent: dict[str, list[float]] = {k: [] for k in ("parse", "store", "cpu")}
        for run in range(runs):
            with Store(Path(tmp) / f"s{run}.duckdb") as store:
                t0, c0 = time.perf_counter(), time.process_time()
                if python:
                    _kind, parsed = rows_from_bytes(data, str(export))
                else:  # as `import` does: DuckDB's rows in the store's DuckDB instance
                    _kind, parsed = parse_for_store(data, str(export), store=store)
                t1 = time.perf_counter()
                if isinstance(parsed, SysstatBatch):
                    store.write(_write_batch(parsed, str(export), None))
                    parsed.close()
                else:
                    store.write(_write_rows(parsed, str(export), None))
                t2, c2 = time.perf_counter(), time.process_time()
            spent["parse"].append(t1 - t0)
            spent["store"].append(t2 - t1)
            spent["cpu"].append(c2 - c0)
    n = len(parsed)
    parse, store_s, cpu = (statistics.median(spent[k]) for k in ("parse", "store", "cpu"))
    how = "DuckDB reader" if isinstance(parsed, SysstatBatch) else "Python reader"
    print(f"DBA_HIST_SYSSTAT export: {n:,} rows, {how}, median of {runs} run(s)")
    print(f"  parse {parse:6.2f} s   store {store_s:6.2f} s   "
          f"{n / (parse + store_s):10,.0f} rows/s wall-clock (target 100,000)")  # fmt: skip
    print(f"  CPU (all threads) {cpu:6.2f} s       {n / cpu:10,.0f} rows/s of CPU time")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=3000, help="reports in the batch")
    ap.add_argument("--sysstat-rows", type=int, help="bench one DBA_HIST_SYSSTAT export")
    ap.add_argument("--runs", type=int, default=3, help="runs of --sysstat-rows")
    ap.add_argument("--python", action="store_true", help="--sysstat-rows: the Python reader")
    args = ap.parse_args()
    if args.sysstat_rows:
        return bench_sysstat(args.sysstat_rows, args.runs, args.python)
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
