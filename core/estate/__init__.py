"""The estate (DESIGN §9): many databases recovered at once after a site loss, sharing
tape drives, media servers and links.

`load_estate` reads ESTATE.toml, `run_estate` simulates the recovery event by event
with each database's own plan, `least_hardware` finds the least shared hardware for the
priority-1 databases to meet their RTO.

The least-hardware names are imported on first use (`__getattr__`): the search pulls in
`core/fix` (0.03–0.07 s of imports), which `rto-planner estate --no-least`
and the estate's simulation do not need.
"""

from typing import TYPE_CHECKING, Any

from .model import (
    Estate,
    EstateDatabase,
    SharedResource,
    dump_estate,
    is_estate_file,
    is_estate_text,
    load_estate,
    load_estate_text,
    with_priority,
    with_rto,
    with_shared_count,
)
from .run import DatabaseOutcome, EstateResult, ResourceSummary, estate_to_json, run_estate

if TYPE_CHECKING:
    from .least import LeastCount, LeastHardware, answer_estate, least_hardware, least_to_json

_LEAST = frozenset(
    {"LeastCount", "LeastHardware", "answer_estate", "least_hardware", "least_to_json"}
)


def __getattr__(name: str) -> Any:
    """The least-hardware names, from `least` when first asked for."""
    if name in _LEAST:
        from . import least

        return getattr(least, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DatabaseOutcome",
    "Estate",
    "EstateDatabase",
    "EstateResult",
    "LeastCount",
    "LeastHardware",
    "ResourceSummary",
    "SharedResource",
    "answer_estate",
    "dump_estate",
    "estate_to_json",
    "is_estate_file",
    "is_estate_text",
    "least_hardware",
    "least_to_json",
    "load_estate",
    "load_estate_text",
    "run_estate",
    "with_priority",
    "with_rto",
    "with_shared_count",
]
