"""Reading scenario and estate TOML: tomli's compiled parser when it is installed, else
the standard library's tomllib.

tomllib *is* tomli (1.x/2.0, TOML 1.0) in pure Python; tomli 2.2+ ships wheels compiled
with mypyc that parse the same documents with the same error messages three times
faster — a third of the time it took to read a 10,000-database estate's files. Kept below
2.4, which reads TOML 1.1: a file must not load on one machine and fail on another.
"""

from __future__ import annotations

try:
    from tomli import TOMLDecodeError, loads
except ImportError:  # pragma: no cover - tomli is a dependency; tomllib does the same
    from tomllib import TOMLDecodeError, loads

__all__ = ["TOMLDecodeError", "loads"]
