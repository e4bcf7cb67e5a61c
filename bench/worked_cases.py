"""The worked cases of docs/model.md: model against the published figures.

Prints the MAA tape paper's cases (tests/core/test_worked_cases.py builds them) and the
seed demos' cases (tests/core/test_seed_scenarios.py), each with its deviation.
Run: .venv/bin/python bench/worked_cases.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "core"))

import test_seed_scenarios as seeds
import test_worked_cases as maa

from rtoplanner.core.plan import compute_core

IB1, IB2 = maa.IB_PATH.format(servers=1), maa.IB_PATH.format(servers=2)
MAA = [
    ("MAA incremental 10 %, 1 media server (TB/h)", IB1, "1 TB", "level1", 47.0),
    ("MAA incremental 20 %, 1 media server (TB/h)", IB1, "2 TB", "level1", 24.0),
    ("MAA incremental 5 %, 2 media servers (TB/h)", IB2, "0.5 TB", "level1", 104.0),
    ("MAA full, 1 media server (TB/h)", IB1, None, "level0", 5.6),
    ("MAA full, 2 media servers (TB/h)", IB2, None, "level0", 11.2),
    ("MAA full, one GigE link (TB/h)", maa.GIGE_PATH, None, "level0", 0.4),
    ("MAA incremental 5 %, one GigE link (TB/h)", maa.GIGE_PATH, "0.5 TB", "level1", 8.2),
]


def row(name: str, paper: float, model: float) -> str:
    return f"{name:50} {paper:9.1f} {model:9.2f} {100 * (model / paper - 1):+6.0f} %"


def main() -> None:
    print(f"{'case':50} {'paper':>9} {'model':>9} {'dev':>8}")
    for name, path, inc, job, paper in MAA:
        eff = maa.tb_per_h(maa.job(maa.scenario(path, incremental=inc), job).effective_rate_Bps)
        print(row(name, paper, eff))
    print(row("SanDisk SSD RMAN throughput (MB/s)", 1400,
              seeds.level0(seeds.ssd()).effective_rate_Bps / 1e6))  # fmt: skip
    print(row("SanDisk HDD RMAN throughput (MB/s)", 400,
              seeds.level0(seeds.hdd()).effective_rate_Bps / 1e6))  # fmt: skip
    for heads, write, read in ((1, 111, 98), (2, 208, 188)):
        s = seeds.nas(heads)
        rate = compute_core(s)[2].phase("restore_level0").rate_Bps / 1e6
        print(row(f"HP NAS {heads} head(s), large writes (MB/s)", write, rate))
        print(row(f"HP NAS {heads} head(s), full scan (MB/s)", read,
                  seeds.level0(s).effective_rate_Bps / 1e6))  # fmt: skip


if __name__ == "__main__":
    main()
