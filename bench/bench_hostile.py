#!/usr/bin/env python3
"""Formerly hanging inputs (issue 16 item 4): how long each takes now, in-process.

    .venv/bin/python bench/bench_hostile.py [--repeat N]

Prints the median CPU time (process time: on a shared machine, what a quiet one would
show) of each case over N runs. Before the fixes: the 60,000-space line > 60 s, a
20,000-space unit value ~2-12 s, `level0_every = "10000 w"` > 120 s and `"1e6 w"` never
ended, `/dev/zero` and FIFOs never returned, a 5,000-stage path or 11 MB of notes made
`report` run > 180 s, and the header ellipsis was quadratic. Target: each well under 1 s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

from rtoplanner.core.cli import main
from rtoplanner.core.errors import UnitError
from rtoplanner.core.report.fonts import FONT, fit
from rtoplanner.core.units import parse_rate

REPO = Path(__file__).resolve().parents[1]
BASE = (REPO / "data" / "scenarios" / "small_gige_lto.toml").read_text(encoding="utf-8")


def _with(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _set(key: str, value: str) -> str:
    return re.sub(rf"(?m)^{key}\s*=.*$", lambda m: f"{key} = {value}", BASE, count=1)


def cases(folder: Path) -> dict[str, object]:
    spaces = " " * 60_000
    stage = '\n[[path]]\nkind = "network"\nname = "n"\ncount = 1\nrate = "1 GB/s"\n'
    fifo = folder / "pipe.toml"
    os.mkfifo(fifo)
    pdf = str(folder / "out.pdf")
    return {
        "60,000-space line in a string": ["plan", "--no-store", _with(
            folder, "sp.toml", BASE.replace('author = "RTO Planner demo"',
                                            f'author = """[{spaces}\n{spaces}x"""'))],
        "20,000-space unit value": lambda: _unit("1 GB/s" + " \t" * 20_000 + "x"),
        'level0_every = "10000 w"': ["plan", "--no-store",
                                     _with(folder, "l0.toml", _set("level0_every", '"10000 w"'))],
        'level0_every = "1e6 w"': ["plan", "--no-store",
                                   _with(folder, "l1.toml", _set("level0_every", '"1e6 w"'))],
        "/dev/zero as a scenario": ["plan", "--no-store", "/dev/zero"],
        "/dev/urandom as a report": ["awr", "/dev/urandom"],
        "a FIFO as a scenario": ["plan", "--no-store", str(fifo)],
        "5,000-stage path, report": ["report", "--no-store", "-o", pdf,
                                     _with(folder, "st.toml", BASE + stage * 5000)],
        "11 MB notes, report": ["report", "--no-store", "-o", pdf, _with(
            folder, "n.toml", BASE.replace('author = "RTO Planner demo"',
                                           'author = "x"\nnotes = "' + "n" * 11_000_000 + '"'))],
        "header ellipsis, 10,000 characters": lambda: fit("N" * 10_000, FONT, 7.5, 300),
    }  # fmt: skip


def _unit(text: str) -> None:
    with contextlib.suppress(UnitError):
        parse_rate(text)


def run(case: object) -> float:
    start = time.process_time()
    if callable(case):
        case()
    else:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(list(case))  # type: ignore[arg-type]
    return time.process_time() - start


def _main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RTOPLANNER_DB"] = str(Path(tmp) / "db.duckdb")
        for name, case in cases(Path(tmp)).items():
            times = [run(case) for _ in range(args.repeat)]
            print(f"{name:38s} median {statistics.median(times) * 1000:8.1f} ms CPU")


if __name__ == "__main__":
    _main()
