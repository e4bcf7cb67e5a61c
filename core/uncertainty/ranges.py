"""The range texts of `[uncertainty]` (`±15%`, `-40%..+20%`, `3%..9%`) are part of the
scenario format and live in `core/scenario/ranges.py` (the loader checks them, and the
scenario package does not depend on this one). Re-exported here for the risk modules."""

from __future__ import annotations

from ..scenario.ranges import (
    EXAMPLES,
    ZERO,
    RangeSpec,
    check_contains,
    format_relative,
    parse_range,
    relative_range,
)

__all__ = [
    "EXAMPLES",
    "ZERO",
    "RangeSpec",
    "check_contains",
    "format_relative",
    "parse_range",
    "relative_range",
]
