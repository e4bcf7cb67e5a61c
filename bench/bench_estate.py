#!/usr/bin/env python3
"""Benchmark the estate simulation (DESIGN §9): N databases over one shared tape library.

    .venv/bin/python bench/bench_estate.py [--sizes 1000 10000] [--drives 100] [--repeat 5]
                                           [--files | --files-only | --least [--kinds K...]]

Each database is a generated scenario (200 GB – 20 TB, 2–8 channels started serially,
cumulative level 1, archived redo restored from tape: three transfers each) on a shared
library of `--drives` drives and 8 shared media servers, in three priority tiers. Prints
the median of `--repeat` runs of `run_estate` (each database's own plan computed by the
engine, then the event-driven simulation) in wall-clock and in CPU time of this process
(on a shared machine the wall clock also counts other processes' turns), the time to
validate the estate and the peak memory (tracemalloc) per database. `--least` times the
least-hardware search instead (default cap), once per size, on the estate as generated
and with priority 1 meeting alone but not together. With `--files` it also writes the
estate as files (ESTATE.toml and one scenario file per database) and times `rto-planner
estate ESTATE.toml --no-least` end to end (with --json, and as text; the package's
modules compiled to bytecode first, as installing it does), then where its time goes
(the start-up and imports, the store's catalog, reading the files, each database's plan,
the simulation, the output), measured in this process (CPU, a second process's included
where a large estate is read and planned in two, `core/estate/halves.py`; reading and
plans in wall-clock too). Targets: 1,000 databases over
100 drives ≤ 1 s, 10,000 ≤ 10 s, memory linear in the number of databases.
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit

from rtoplanner.core.cli.estate import render_text
from rtoplanner.core.cli.plan import catalog_for
from rtoplanner.core.estate import Estate, least_hardware, run_estate
from rtoplanner.core.estate.jobs import build_jobs
from rtoplanner.core.estate.model import estate_from_mapping, load_estate
from rtoplanner.core.estate.run import (
    EstateResult,
    _deciding,
    _outcome,
    _resources,
    estate_to_json,
)
from rtoplanner.core.estate.simulate import PEAK, simulate
from rtoplanner.core.gc_pause import cyclic_gc_paused
from rtoplanner.core.jsonable import dumps_json
from rtoplanner.core.scenario import Scenario, scenario_from_mapping

LIBRARY = {"name": "LIB", "kind": "tape_drive", "rate": "360 MB/s", "efficiency": 0.9,
           "hw_compression": 2.0}  # fmt: skip
MEDIA = {"name": "MS", "kind": "media_server", "count": 8, "rate": "1.6 GB/s"}


def _scenario_doc(i: int, rng: random.Random) -> dict[str, Any]:
    size_tb = round(rng.uniform(0.2, 20.0), 2)
    channels = rng.randint(2, 8)
    doc: dict[str, Any] = {
        "format": 1,
        "name": f"db{i:05d}",
        "database": {
            "size": f"{size_tb} TB",
            "redo_rate": f"{rng.randint(1, 10)} MB/s",
            "daily_change": "3%",
        },
        "backup": {"channels": channels, "channel_init": "30 s", "level1": "cumulative"},
        "path": [
            {"kind": "tape_drive", "count": channels, "rate": "360 MB/s", "shared": "LIB"},
            {"kind": "media_server", "count": 1, "rate": "1.6 GB/s", "shared": "MS"},
            {"kind": "network", "count": 1, "rate": "10 Gb/s"},
        ],
        "recovery": {
            "detect": f"{rng.choice([15, 30, 45])} min",
            "open": "10 min",
            "incremental_apply_rate": "2 TB/h",
            "archivelogs_on_disk": False,
        },
        "targets": {"rto": f"{rng.choice([4, 8, 24, 72])} h"},
    }
    return doc


def _scenario(i: int, rng: random.Random) -> Scenario:
    doc = _scenario_doc(i, rng)
    return scenario_from_mapping(doc, source=doc["name"])


def write_estate_files(n: int, drives: int, folder: Path, seed: int = 12) -> Path:
    """The same estate as files: ESTATE.toml and one scenario TOML per database."""
    rng = random.Random(seed)
    (folder / "db").mkdir(parents=True, exist_ok=True)
    refs = []
    for i in range(n):
        doc = _scenario_doc(i, rng)
        ref = f"db/{doc['name']}.toml"
        (folder / ref).write_text(tomlkit.dumps(doc), encoding="utf-8")
        refs.append({"scenario": ref, "priority": 1 + i % 3})
    estate = {"format": 1, "name": f"bench {n}", "shared": [{**LIBRARY, "count": drives}, MEDIA],
              "database": refs}  # fmt: skip
    path = folder / "ESTATE.toml"
    path.write_text(tomlkit.dumps(estate), encoding="utf-8")
    return path


def _cpu() -> float:
    """CPU seconds of this process and of its children that ended (the second process
    that reads and plans half of a large estate, `core/estate/halves.py`)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


WALL: dict[str, float] = {}


def _timed(fn: Callable[[], Any], wall: str = "") -> tuple[Any, float]:
    t0, w0 = _cpu(), time.perf_counter()
    out = fn()
    if wall:
        WALL[wall] = time.perf_counter() - w0
    return out, _cpu() - t0


def answers(estate: Estate, jobs: list[Any], sim: Any) -> EstateResult:
    """`run_estate` after the simulation: each database's outcome, the resources."""
    outcomes = [_outcome(estate, job, run) for job, run in zip(jobs, sim.runs, strict=True)]
    resources = _resources(estate, outcomes, sim.peaks())
    return EstateResult(estate, tuple(outcomes), tuple(resources), _deciding(resources),
                        tuple(sim.trace))  # fmt: skip


def startup_s(repeat: int) -> float:
    """CPU seconds of `rto-planner estate --help` (median): the interpreter's start and
    the estate command's imports, what every run pays before it reads a file."""
    cmd = [sys.executable, "-m", "rtoplanner", "estate", "--help"]
    cpu = []
    for _ in range(repeat):
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        _pid, _status, usage = os.wait4(proc.pid, 0)
        cpu.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(cpu)


def cli_parts(path: Path, repeat: int) -> str:
    """Where the command's time goes (CPU seconds): the start-up and imports (a process
    of its own), then in this process, with the cyclic collector paused as the command
    pauses it, the store's catalog (DuckDB's import and the read, as the command does
    without --no-store), reading and validating the files, each database's own plan
    (`build_jobs`), the simulation as the command runs it (text: no trace; --json: the
    resources' peaks), the answers (outcomes, resources), the JSON and the text output."""
    start_s = startup_s(repeat)
    before = "duckdb" in sys.modules
    args = argparse.Namespace(db=None, no_store=False)
    with cyclic_gc_paused():
        catalog, store_s = _timed(lambda: catalog_for(args))
        store = " with DuckDB's import" if not before and "duckdb" in sys.modules else (
            " (stamped: no DuckDB)" if not before else "")  # fmt: skip
        estate, load_s = _timed(lambda: load_estate(path, catalog=catalog), "reading")
        jobs, jobs_s = _timed(lambda: build_jobs(estate), "plans")
        names = [r.name for r in estate.shared]
        units = [r.stage.count for r in estate.shared]
        _sim, sim_s = _timed(lambda: simulate(jobs, names, units, trace=False))
        sim, peak_s = _timed(lambda: simulate(jobs, names, units, trace=PEAK))
        result, answers_s = _timed(lambda: answers(estate, jobs, sim))
        _json, json_s = _timed(lambda: dumps_json(estate_to_json(result)))
        _text, text_s = _timed(lambda: render_text(result, None))
    return (
        f"start-up and imports {start_s:.2f} s (`estate --help`); in one process: the "
        f"store's catalog {store_s:.2f} s{store}, reading {load_s:.2f} s (wall "
        f"{WALL['reading']:.2f} s), plans {jobs_s:.2f} s (wall {WALL['plans']:.2f} s), "
        f"simulation {sim_s:.2f} s ({peak_s:.2f} s keeping the peaks, as "
        f"--json), answers {answers_s:.2f} s, --json {json_s:.2f} s, text {text_s:.2f} s "
        f"(CPU)"
    )


def compile_bytecode() -> None:
    """Compile the package's modules once, as installing it does (pip, the packaged
    app), so that no timed run compiles them from source (with PYTHONDONTWRITEBYTECODE
    set, as on the CI machines, every run would)."""
    root = Path(__file__).resolve().parent.parent
    for folder in ("core", "app"):
        compileall.compile_dir(root / folder, quiet=1)


def time_cli(n: int, drives: int, repeat: int) -> None:
    """`rto-planner estate ESTATE.toml [--json] --no-least` end to end, reading every file,
    alternating the JSON and the text output."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_estate_files(n, drives, Path(tmp))
        compile_bytecode()
        cmd = [sys.executable, "-m", "rtoplanner", "estate", str(path), "--no-least"]
        times: dict[str, list[float]] = {"--json": [], "text": []}
        rss = 0
        for _ in range(repeat):
            for how, extra in (("--json", ["--json"]), ("text", [])):
                t0 = time.perf_counter()
                proc = subprocess.Popen(cmd + extra, stdout=subprocess.DEVNULL)
                _pid, status, usage = os.wait4(proc.pid, 0)
                times[how].append(time.perf_counter() - t0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                if proc.returncode:
                    raise SystemExit(f"{' '.join(cmd + extra)} failed")
                rss = max(rss, usage.ru_maxrss)  # KiB on Linux
        parts = cli_parts(path, repeat)
    print(
        f"{n:6d} databases, {drives} drives, from files: `rto-planner estate --no-least` "
        f"median {statistics.median(times['--json']):.3f} s wall with --json, "
        f"{statistics.median(times['text']):.3f} s as text ({repeat} runs each, process "
        f"start included), peak RSS {rss / 1024:.0f} MiB; {parts}"
    )


def make_estate(n: int, drives: int, seed: int = 12) -> Estate:
    rng = random.Random(seed)
    scenarios = {s.name: s for s in (_scenario(i, rng) for i in range(n))}
    doc = {
        "format": 1,
        "name": f"bench {n}",
        "shared": [{**LIBRARY, "count": drives}, MEDIA],
        "database": [{"scenario": name, "priority": 1 + i % 3} for i, name in enumerate(scenarios)],
    }
    return estate_from_mapping(doc, source="bench", resolve=scenarios.__getitem__)


def tight_estate(n: int, drives: int) -> Estate:
    """The benchmark estate with priority 1's RTO at 1.6 × each database's time alone
    (each meets alone, not together: the shared search runs) and 60 days for the rest."""
    base = make_estate(n, drives)
    alone = {d.name: d.alone_s for d in run_estate(base, trace=False).databases}
    scenarios = {d.name: d.scenario for d in base.databases}
    doc = dict(base.raw)
    doc["database"] = [
        {**e, "rto": f"{int(alone[e['scenario']] * 1.6)} s" if e["priority"] == 1 else "60 d"}
        for e in base.raw["database"]
    ]
    return estate_from_mapping(doc, source="bench", resolve=scenarios.__getitem__)


DEMO = Path(__file__).resolve().parent.parent / "data" / "estates" / "site_loss.toml"


def demo_repeated(n: int) -> Estate:
    """The demo estate's eight databases repeated to `n` on the demo's shared hardware
    (issue 22.3: one LTO-8 library of 10 drives, two media servers)."""
    base = load_estate(DEMO)
    entries = base.raw["database"]
    doc = dict(base.raw)
    doc["database"] = [
        {**e, "name": f"{e.get('name', e['scenario'])} #{k}"}
        for k in range(max(1, n // len(entries)))
        for e in entries
    ]
    return estate_from_mapping(doc, source=f"demo x {n}", base_dir=DEMO.resolve().parent)


LEAST_KINDS = {
    "demo": ("the demo repeated", lambda n, drives: demo_repeated(n)),
    "generated": ("as generated", make_estate),
    "tight": ("tier 1 meets alone", tight_estate),
}


def time_least(n: int, drives: int, kinds: list[str] | None = None) -> None:
    """The runbook and the least hardware (`least_hardware`, default cap), once on each
    kind of estate: the demo repeated on the demo's hardware (target ≤ 30 s at 1,000), the
    benchmark estate as generated (priority-1 databases that miss alone get their own What
    it takes) and `tight_estate` (priority 1 meets alone, not together)."""
    for kind in kinds or list(LEAST_KINDS):
        label, make = LEAST_KINDS[kind]
        estate = make(n, drives)
        result = run_estate(estate, trace=False)
        t0, c0 = time.perf_counter(), time.process_time()
        least = least_hardware(estate, result)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        searched = sum(f.searched for f in least.alone_fixes)
        ruled_out = f", {least.ruled_out} ruled out" if least.ruled_out else ""
        what = (
            f"{len(least.misses_alone)} of priority 1 miss alone, What it takes for {searched}"
            if least.misses_alone
            else f"{least.simulations} simulations{ruled_out}"
            f"{' (cap hit)' if least.cap_hit else ''}, "
            + ("a runbook is enough" if least.policy and least.policy.found else
               f"answer {'found' if least.answer else 'none'}"
               + ("" if least.answer is None or least.proven else " (not proven cheapest)"))
        )  # fmt: skip
        print(f"{n:6d} databases, {drives} drives, {label}: least_hardware {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU ({what})")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--drives", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--files", action="store_true",
                    help="also time the CLI end to end on the estate written as files")  # fmt: skip
    ap.add_argument("--files-only", action="store_true",
                    help="only the CLI from files (no run_estate medians)")  # fmt: skip
    ap.add_argument("--least", action="store_true",
                    help="only the least-hardware search, once per size (minutes)")  # fmt: skip
    ap.add_argument("--kinds", nargs="+", choices=list(LEAST_KINDS), default=None,
                    help="with --least: which estates (default: all three)")  # fmt: skip
    args = ap.parse_args(argv)
    for n in args.sizes:
        if args.least:
            time_least(n, args.drives, args.kinds)
            continue
        if args.files or args.files_only:
            time_cli(n, args.drives, args.repeat)
        if args.files_only:
            continue
        t0 = time.perf_counter()
        estate = make_estate(n, args.drives)
        load_s = time.perf_counter() - t0
        times, cpu = [], []
        result = None
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            result = run_estate(estate, trace=False)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        tracemalloc.start()
        run_estate(estate, trace=False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert result is not None
        counts = result.counts
        print(
            f"{n:6d} databases, {args.drives} drives: run_estate median "
            f"{statistics.median(times):.3f} s wall, {statistics.median(cpu):.3f} s CPU "
            f"(min {min(times):.3f} s wall, {args.repeat} runs); "
            f"validating the estate {load_s:.2f} s; peak memory {peak / n / 1024:.1f} KiB per "
            f"database; last open {result.last_open_s / 3600:.1f} h; "
            f"{counts['meets']} meet / {counts['at_risk']} at risk / {counts['misses']} miss"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
