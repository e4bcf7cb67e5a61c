"""How the plan has fared in its drills: "last 3 drills: within −8 %..+12 % of the plan".

Each drill's error over the phases it timed ((actual − plan) ÷ plan, the comparison
stored with it); the sentence gives the range of the last `n` drills' errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _pct(x: float) -> str:
    return f"{'−' if x < 0 else '+'}{abs(x) * 100:.0f} %"


def fared(comparisons: Sequence[dict[str, Any]], n: int = 3) -> str | None:
    """The sentence for the last `n` comparisons (oldest first), None without one."""
    errors = [c["error"] for c in comparisons if c.get("error") is not None][-n:]
    if not errors:
        return None
    if len(errors) == 1:
        return f"last drill: {_pct(errors[0])} against the plan"
    return f"last {len(errors)} drills: within {_pct(min(errors))}..{_pct(max(errors))} of the plan"


__all__ = ["fared"]
