"""Fixtures for the PDF plan tests."""

from __future__ import annotations

import pytest
from report_helpers import EPOCH


@pytest.fixture
def epoch(monkeypatch: pytest.MonkeyPatch) -> int:
    """A fixed SOURCE_DATE_EPOCH (2026-01-01 UTC) for this test."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    return EPOCH
