"""Snapshot every user-visible output, and compare two snapshots byte for byte.

    .venv/bin/python bench/goldens.py snapshot DIR   # plan/risk/fix/estate text+JSON, PDFs
    .venv/bin/python bench/goldens.py compare A B    # exit 1 and name each file that differs

A refactor (issue 24: "behaviour unchanged") is checked by a snapshot before and one after:
every demo scenario's `plan`, `risk` and `fix` as text and JSON, the demo estate as text
and JSON, and the PDF of every demo and of the estate, all with SOURCE_DATE_EPOCH set and
`--no-store` / a fresh store, so the outputs depend on the code alone.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
EPOCH = "1767225600"  # 2026-01-01 00:00 UTC


def _run(args: list[str], out: Path, env: dict[str, str]) -> None:
    proc = subprocess.run(
        [str(BIN / "rto-planner"), *args], capture_output=True, env=env, cwd=ROOT, check=False
    )
    tail = f"\nexit {proc.returncode}\n".encode()
    out.write_bytes(proc.stdout + b"\n--- stderr ---\n" + proc.stderr + tail)


def snapshot(dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, RTOPLANNER_LOG="0", NO_COLOR="1")
        db = str(Path(tmp) / "store.duckdb")
        demos = sorted((ROOT / "data" / "scenarios").glob("*.toml"))
        asof = ["--as-of", "2026-01-01"]
        for demo in demos:
            s = demo.stem
            _run(["plan", str(demo), "--no-store", *asof], dest / f"{s}.plan.txt", env)
            _run(["plan", str(demo), "--no-store", "--json", *asof], dest / f"{s}.plan.json", env)
            risk = ["risk", str(demo), "--no-store", "--trials", "20000"]
            _run(risk, dest / f"{s}.risk.txt", env)
            _run([*risk, "--json"], dest / f"{s}.risk.json", env)
            _run(["fix", str(demo), "--no-store"], dest / f"{s}.fix.txt", env)
            _run(["fix", str(demo), "--no-store", "--json"], dest / f"{s}.fix.json", env)
            pdf = dest / f"{s}.pdf"
            report = ["report", str(demo), "--no-store", "-o", str(pdf), "-q"]
            _run(report, dest / f"{s}.report.log", env)
        estate = ROOT / "data" / "estates" / "site_loss.toml"
        _run(["estate", str(estate), "--no-store"], dest / "estate.txt", env)
        _run(["estate", str(estate), "--no-store", "--json"], dest / "estate.json", env)
        _run(["report", str(estate), "--db", db, "-o", str(dest / "estate.pdf"), "-q"],
             dest / "estate.report.log", env)  # fmt: skip
    print(f"{len(list(dest.iterdir()))} files in {dest}")


def _accepts(name: str) -> bool:
    return name.endswith((".txt", ".json", ".pdf", ".log"))


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    bad = []
    for name in filter(_accepts, names):
        pa, pb = a / name, b / name
        if not (pa.exists() and pb.exists()) or not filecmp.cmp(pa, pb, shallow=False):
            bad.append(name)
    for name in bad:
        print(f"differs: {name}")
    print(f"{len(names) - len(bad)} identical, {len(bad)} different")
    return 1 if bad else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("dir", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = p.parse_args()
    if args.cmd == "snapshot":
        snapshot(args.dir)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
