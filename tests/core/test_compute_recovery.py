"""The estate plans each database with `plan.compute_recovery` (issue 22.3): the plan's
restore path and worst-case recovery without the archived-log backup and the RPO, which
only the plan reads. The same figures as `compute_core`'s, on every demo scenario and
every scenario of the demo estate (each phase, the failure state, the path model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtoplanner.core.plan import compute_core, compute_recovery
from rtoplanner.core.scenario import load_scenario

REPO = Path(__file__).resolve().parents[2]
FILES = sorted((REPO / "data" / "scenarios").glob("*.toml")) + sorted(
    (REPO / "data" / "estates" / "site_loss").glob("*.toml")
)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_compute_recovery_is_compute_cores_recovery(path):
    scenario = load_scenario(path)
    restore, _backup, recovery, jobs, _rpo = compute_core(scenario)
    assert any(j.name == "archivelog" for j in jobs) or not scenario.database.redo_rate_Bps
    assert compute_recovery(scenario) == (restore, recovery)
