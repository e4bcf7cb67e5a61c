"""Workload store tests: real DuckDB files in temporary directories, no mocks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rtoplanner.core.store import Store


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    return tmp_path / "workloads.duckdb"


@pytest.fixture
def store(store_file: Path) -> Iterator[Store]:
    s = Store(store_file)
    try:
        yield s
    finally:
        s.close()
