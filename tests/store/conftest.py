"""Fixtures for the store tests (the `store` and `store_path` fixtures are suite-wide)."""

from __future__ import annotations

import pytest
from store_helpers import DATA


@pytest.fixture
def scenario_text() -> str:
    return (DATA / "scenario.toml").read_text(encoding="utf-8")
