#!/usr/bin/env python3
"""Benchmark the AWR / Statspack parsers on a folder of real reports.

    .venv/bin/python bench/bench_awr.py [FOLDER] [--repeat N]

FOLDER defaults to ../shared/awr_samples beside the repository root (the checkout finds it
by itself; without it the benchmark says so and skips). Files are read into memory first
so the figure is parsing speed, not disk speed; prints the median over N passes in MB/s
(10^6 bytes) for HTML, text and all files, and reports per second. Targets (issue 14):
HTML at least 100 MB/s, text at least 40 MB/s. The figure from CPU time is printed
beside the wall-clock one: on a shared machine it shows what a quiet one would do.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from rtoplanner.core.importers import ReportError, iter_report_files, parse_bytes

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO.parent / "shared" / "awr_samples"
TARGET_MBPS = {"html": 100.0, "text": 40.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path)
    ap.add_argument("--repeat", type=int, default=9, help="passes over the folder (median kept)")
    args = ap.parse_args(argv)
    folder = args.folder or SAMPLES
    if not folder.is_dir():
        print(f"skipped: no AWR sample folder at {folder} (give one as FOLDER)")
        return 0
    files = [
        (p.name, p.read_bytes())
        for p in iter_report_files([folder])
        if p.suffix.lower() in (".html", ".htm", ".txt", ".lst")
    ]
    runs: dict[str, list[float]] = {"html": [], "text": []}
    cpu_runs: dict[str, list[float]] = {"html": [], "text": []}
    reports = failed = 0
    for _ in range(max(1, args.repeat)):
        spent = {"html": 0.0, "text": 0.0}
        cpu = {"html": 0.0, "text": 0.0}
        reports = failed = 0
        for name, data in files:
            kind = "html" if name.lower().endswith((".html", ".htm")) else "text"
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                reports += len(parse_bytes(data, name))
            except ReportError:
                failed += 1
            spent[kind] += time.perf_counter() - t0
            cpu[kind] += time.process_time() - c0
        for k in spent:
            runs[k].append(spent[k])
            cpu_runs[k].append(cpu[k])
    best = {k: statistics.median(v) for k, v in runs.items()}
    best_cpu = {k: statistics.median(v) for k, v in cpu_runs.items()}
    size = {
        k: sum(len(d) for n, d in files if (n.lower().endswith((".html", ".htm"))) == (k == "html"))
        for k in ("html", "text")
    }
    total_t = best["html"] + best["text"]
    total_b = size["html"] + size["text"]
    print(f"folder: {folder}  files: {len(files)}  reports: {reports}  failed: {failed}")
    for k in ("html", "text"):
        if size[k]:
            mb = size[k] / 1e6
            print(
                f"{k:5}: {mb:7.2f} MB in {best[k]:6.3f} s = {mb / best[k]:6.1f} MB/s "
                f"(median of {len(runs[k])}; CPU time {mb / best_cpu[k]:6.1f} MB/s; "
                f"target >= {TARGET_MBPS[k]:.0f} MB/s)"
            )
    mb = total_b / 1e6
    print(
        f"all  : {mb:7.2f} MB in {total_t:6.3f} s = {mb / total_t:6.1f} MB/s, "
        f"{len(files) / total_t:6.1f} reports/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
