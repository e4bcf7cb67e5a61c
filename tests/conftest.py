"""Suite-wide fixtures.

The GUI tests run offscreen unless a display is forced; every test gets its own store
file and settings so nothing leaks between tests or into the user's real data.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from rtoplanner.core.store import Store

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# CI must be deterministic: every property test draws the same examples on every run (a
# test's own @settings still sets how many), and no example database carries a failure
# from one run into the next. `--hypothesis-profile=explore` searches afresh.
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile("ci")

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "data" / "scenarios"
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory, monkeypatch):
    """Point the default store at a fresh temporary file for every test."""
    d = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("RTOPLANNER_DB", str(d / "rtoplanner.duckdb"))
    monkeypatch.setenv("XDG_DATA_HOME", str(d))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(d / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(d / "state"))  # the log file


@pytest.fixture
def demo_paths() -> list[Path]:
    return sorted(SCENARIOS.glob("*.toml"))


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """A store file that does not exist yet (created and seeded when opened)."""
    return tmp_path / "store.duckdb"


@pytest.fixture
def store(store_path: Path) -> Iterator[Store]:
    """A real DuckDB store in a temporary directory, closed after the test."""
    s = Store(store_path)
    try:
        yield s
    finally:
        s.close()
