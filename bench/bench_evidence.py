"""Evidence speed (issue 21): reading an RMAN log, a drill's plan vs actual, a calibration,
and the recovery clock re-forecasting after each of 20 snapshots.

Targets (interactive use): a drill of a 14-channel night (1,500 lines) and a long log
(the datafile steps forty times over, ~26,000 lines) read well under a second; the clock's
forecast after a new snapshot (2,000 trials) ≤ 0.5 s; a calibration ≤ 0.5 s.
Medians of repeated runs, wall clock and CPU.
Run: .venv/bin/python bench/bench_evidence.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from rtoplanner.core.evidence.calibrate import calibrate
from rtoplanner.core.evidence.clock import recovery_clock
from rtoplanner.core.evidence.compare import compare_drill
from rtoplanner.core.evidence.drill import drill_from_evidence
from rtoplanner.core.importers.restore_evidence import read_evidence, read_evidence_bytes
from rtoplanner.core.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_risk import median_s

REPO = Path(__file__).resolve().parent.parent
EVIDENCE = REPO / "tests" / "fixtures" / "evidence"
SCENARIO = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"


def long_log() -> bytes:
    """The fixture log with its restore's datafile steps forty times over."""
    text = (EVIDENCE / "drill_prod_iso.log").read_text()
    head, _, rest = text.partition("Starting restore at 2026-10-11 22:00:27")
    body, _, tail = rest.partition("Finished restore at")
    steps = body * 40
    return (
        head + "Starting restore at 2026-10-11 22:00:27" + steps + "Finished restore at" + tail
    ).encode()


def main() -> int:
    scenario = load_scenario(SCENARIO)
    full = [
        EVIDENCE / n
        for n in (
            "drill_prod_iso.log",
            "rman_status_drill.csv",
            "clock/20261012_0120_recovery.csv",
            "preview_prod.txt",
        )
    ]
    big = long_log()
    rows = []

    def drill():
        d = drill_from_evidence([read_evidence(p) for p in full])
        return compare_drill(scenario, d)

    rows.append(("drill: 4 files, plan vs actual", *median_s(drill, 7)))
    lines = big.count(b"\n")
    rows.append(
        (
            f"read a {lines:,}-line RMAN log",
            *median_s(lambda: read_evidence_bytes(big, "big.log"), 3),
        )
    )
    d = drill_from_evidence([read_evidence(p) for p in full])
    rows.append(("calibrate from the drill", *median_s(lambda: calibrate(scenario, d, 1), 7)))
    snaps = [read_evidence(p) for p in sorted((EVIDENCE / "clock").glob("*.csv"))]
    prev = read_evidence(EVIDENCE / "preview_prod.txt")
    rows.append(
        (
            "clock: 20 snapshots, 2,000 trials",
            *median_s(lambda: recovery_clock(scenario, [*snaps, prev]), 5),
        )
    )
    print(f"{'what':40} {'wall (median)':>14} {'CPU':>9}")
    for what, wall, cpu in rows:
        print(f"{what:40} {wall * 1000:11.0f} ms {cpu * 1000:6.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
