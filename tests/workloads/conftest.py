"""Workload store tests: real DuckDB files in temporary directories, no mocks."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def store_file(store_path: Path) -> Path:
    """The suite-wide store's file, under the name these tests use."""
    return store_path
