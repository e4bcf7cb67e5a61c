"""Entry point of `rto-planner`: the core command line plus the `gui` command.

The console script points here rather than at `core.cli` because only `app` may know
about the GUI; nothing here imports Qt until the `gui` command runs.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence

# One BLAS thread unless the user says otherwise: the engine's array work is element-wise
# and its few matrix products are small, while starting OpenBLAS's pool of threads when
# numpy is imported costs ~50 ms of every command (`plan --no-store` 0.25 s -> 0.19 s wall,
# bench/bench_cli.py). Set before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from rtoplanner.core.cli import main as core_main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (`argv`, else the process's own arguments)."""
    from .gui_command import register

    code = core_main(argv, extra_commands=[register])
    if argv is None:
        # The process ends with this command: what it made is taken out of the cyclic
        # collector's sight, so that the interpreter's last collection does not walk it
        # all (a 1,000-database estate's objects: ~40 ms -> ~13 ms from the answer
        # written to the process gone). Not when called with arguments (the tests, a
        # caller in the same process): they go on collecting.
        gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(main())
