#!/usr/bin/env python3
"""Benchmark the AWR / Statspack parsers on a folder of real reports.

    .venv/bin/python bench/bench_awr.py [FOLDER] [--repeat N]

FOLDER defaults to ../shared/awr_samples next to the repository (else the committed MIT
fixtures). Files are read into memory first so the figure is parsing speed, not disk speed;
prints MB/s (10^6 bytes) for all files and for HTML alone, and reports per second. The
target is at least 20 MB/s of HTML on a 2-core laptop.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rtoplanner.core.importers import ReportError, iter_report_files, parse_bytes

REPO = Path(__file__).resolve().parent.parent
DEFAULTS = (REPO.parent / "shared" / "awr_samples", REPO / "tests" / "fixtures" / "awr")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path)
    ap.add_argument("--repeat", type=int, default=5, help="passes over the folder (best kept)")
    args = ap.parse_args(argv)
    folder = args.folder or next((d for d in DEFAULTS if d.is_dir()), None)
    if folder is None or not folder.is_dir():
        print("no sample folder found; give one", file=sys.stderr)
        return 2
    files = [
        (p.name, p.read_bytes())
        for p in iter_report_files([folder])
        if p.suffix.lower() in (".html", ".htm", ".txt", ".lst")
    ]
    best: dict[str, float] = {}
    reports = failed = 0
    for _ in range(max(1, args.repeat)):
        spent = {"html": 0.0, "text": 0.0}
        reports = failed = 0
        for name, data in files:
            kind = "html" if name.lower().endswith((".html", ".htm")) else "text"
            t0 = time.perf_counter()
            try:
                reports += len(parse_bytes(data, name))
            except ReportError:
                failed += 1
            spent[kind] += time.perf_counter() - t0
        for k, v in spent.items():
            best[k] = min(best.get(k, float("inf")), v)
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
            print(f"{k:5}: {mb:7.2f} MB in {best[k]:6.3f} s = {mb / best[k]:6.1f} MB/s")
    mb = total_b / 1e6
    print(
        f"all  : {mb:7.2f} MB in {total_t:6.3f} s = {mb / total_t:6.1f} MB/s, "
        f"{len(files) / total_t:6.1f} reports/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
