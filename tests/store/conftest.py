"""Fixtures for the store tests: real DuckDB files in temporary directories, no mocks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from store_helpers import DATA

from rtoplanner.core.store import Store


@pytest.fixture
def scenario_text() -> str:
    return (DATA / "scenario.toml").read_text(encoding="utf-8")


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "store.duckdb"


@pytest.fixture
def store(store_path: Path) -> Iterator[Store]:
    s = Store(store_path)
    try:
        yield s
    finally:
        s.close()
