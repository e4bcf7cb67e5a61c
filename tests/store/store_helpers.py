"""Helpers shared by the store tests (a plain module: tests/ has no packages)."""

from __future__ import annotations

import gzip
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
REPO = HERE.parent.parent


def unpack_fixture(version: int, target_dir: Path) -> Path:
    """Unzip `store_v<version>.duckdb.gz` into `target_dir` and return the file."""
    out = target_dir / f"store_v{version}.duckdb"
    out.write_bytes(gzip.decompress((DATA / f"store_v{version}.duckdb.gz").read_bytes()))
    return out


def python_env() -> dict[str, str]:
    """Environment for child processes: same interpreter and import path as the tests."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.pop("RTOPLANNER_DEBUG", None)
    return env
