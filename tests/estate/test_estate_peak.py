"""`--json` keeps only each shared resource's peak use (`simulate.PEAK`), not a usage
sample per event: the same peaks as the full trace, the same answers."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings

from rtoplanner.app.__main__ import main
from rtoplanner.core.estate import load_estate, run_estate
from rtoplanner.core.estate.simulate import PEAK

from .test_estate_reference import RANDOM_ESTATE, random_estate

DEMO = Path(__file__).resolve().parents[2] / "data" / "estates" / "site_loss.toml"


def _same_but_the_trace(peak, full) -> None:
    assert peak.trace == () and full.trace
    assert peak.resources == full.resources
    assert peak.databases == full.databases
    assert peak.deciding == full.deciding


def test_the_demo_estate_peaks_are_the_traces():
    est = load_estate(DEMO)
    full = run_estate(est, trace=True)
    peak = run_estate(est, trace=PEAK)
    _same_but_the_trace(peak, full)
    assert all(r.peak_use is not None for r in peak.resources)
    assert all(r.peak_use is None for r in run_estate(est, trace=False).resources)


@settings(max_examples=30, deadline=None)
@given(**RANDOM_ESTATE)
def test_random_estates_peaks_are_the_traces(dbs, drives, media, nas, policy):
    est = random_estate(dbs, drives, media, nas, policy)
    _same_but_the_trace(run_estate(est, trace=PEAK), run_estate(est, trace=True))


def test_the_json_prints_the_traced_peak_use(capsys):
    rc = main(["estate", str(DEMO), "--no-least", "--json", "--no-store"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    printed = {r["name"]: r["peak_use"] for r in json.loads(out)["shared"]}
    traced = run_estate(load_estate(DEMO), trace=True)
    assert printed == {r.name: r.peak_use for r in traced.resources}
    assert all(v is not None for v in printed.values())
