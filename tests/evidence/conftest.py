"""Fixtures of restore evidence: tests/fixtures/evidence, written by make_evidence.py from one
known drill (its truth is importable here as `make_evidence.truth()`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rtoplanner.core.scenario import load_scenario

REPO = Path(__file__).resolve().parents[2]
EVIDENCE = REPO / "tests" / "fixtures" / "evidence"
EXADATA = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"
sys.path.insert(0, str(EVIDENCE))


@pytest.fixture(scope="session")
def exadata():
    return load_scenario(EXADATA)


@pytest.fixture(scope="session")
def truth():
    import make_evidence

    return make_evidence.truth()
