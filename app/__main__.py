"""Entry point of `rto-planner`: the core command line plus the `gui` command.

The console script points here rather than at `core.cli` because only `app` may know
about the GUI; nothing here imports Qt until the `gui` command runs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rtoplanner.core.cli import main as core_main


def main(argv: Sequence[str] | None = None) -> int:
    from .gui_command import register

    return core_main(argv, extra_commands=[register])


if __name__ == "__main__":
    sys.exit(main())
