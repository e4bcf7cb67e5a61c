"""The PDF Gantt's bar texts (issue 23)."""

from __future__ import annotations

import pytest
from report_helpers import DEMOS, demo_ids, rendered


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_an_overlap_as_long_as_its_bar_is_not_said_twice(path):
    """The Gantt read "17 min 58 s (17 min 58 s while restoring)"."""
    for bar in rendered(path).data.gantt:
        first, _, rest = bar.text.partition(" (")
        assert not rest.startswith(first + " "), bar.text
