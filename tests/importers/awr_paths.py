"""Where the importer tests find their reports.

MIT-licensed samples live in tests/fixtures/awr (committed); the others are read from the
shared sample folder next to the repository and the tests that need them skip, saying so,
when it is absent (e.g. in a fresh clone elsewhere).
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "awr"
SYNTHETIC = FIXTURES / "synthetic"
CSV_FIXTURES = REPO / "tests" / "fixtures" / "csv"
SAMPLES = REPO.parent / "shared" / "awr_samples"


def sample_path(name: str) -> Path:
    """A real report: the committed fixture copy if there is one, else the shared folder."""
    local = FIXTURES / name
    if local.exists():
        return local
    shared = SAMPLES / name
    if not shared.exists():
        pytest.skip(
            f"sample {name} not available: {SAMPLES} is absent "
            "(unlicensed samples are not committed)"
        )
    return shared
