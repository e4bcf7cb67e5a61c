#!/usr/bin/env python3
"""One-command setup for RTO Planner: `python3 dev.py run` or `python3 dev.py test`.

`python3 dev.py docs` regenerates the key tables of docs/scenario-format.md from the
scenario format's field table (core/scenario/fields.py); `python3 dev.py stats` prints
the function-length measure of issue 24 (bench/function_lengths.py).

Creates `.venv` next to this file (once), installs the project in editable mode with its
test extras, then either launches the desktop app on the bundled demo scenario with the
embedded DuckDB store, or runs lint, the import-layer check and the whole test suite.
Only Python 3.11+ is needed; everything else comes from PyPI.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".rtoplanner-installed"


def _sh(*cmd: str | os.PathLike, env: dict | None = None) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, env=env)


def ensure_env() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be run by an older python3
        sys.exit("RTO Planner needs Python 3.11 or newer.")
    if not PY.exists():
        print(f"Creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != digest:
        if _sh(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip") != 0:
            sys.exit("pip could not upgrade itself; see the messages above.")
        if _sh(PY, "-m", "pip", "install", "--quiet", "-e", ".[test]") != 0:
            sys.exit("Installing the project failed; see the messages above.")
        STAMP.write_text(digest)


def cmd_run(extra: list[str]) -> int:
    ensure_env()
    demo = ROOT / "data" / "scenarios" / "exadata_tape_infiniband.toml"
    args = extra or [str(demo)]
    return _sh(BIN / "rto-planner", "gui", *args)


def cmd_test(extra: list[str]) -> int:
    ensure_env()
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    rc = _sh(BIN / "ruff", "check", ".", env=env)
    rc |= _sh(BIN / "ruff", "format", "--check", ".", env=env)
    rc |= _sh(BIN / "lint-imports", env=env)
    rc |= _sh(PY, "-m", "pytest", *extra, env=env)
    return 1 if rc else 0


def cmd_docs(extra: list[str]) -> int:
    ensure_env()
    return _sh(PY, "-m", "rtoplanner.core.scenario.docs", *extra)


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in {"run", "test", "setup", "docs", "stats"}:
        print(__doc__)
        return 2
    command, extra = sys.argv[1], sys.argv[2:]
    if command == "setup":
        ensure_env()
        return 0
    if command == "docs":
        return cmd_docs(extra)
    if command == "stats":
        return _sh(sys.executable, ROOT / "bench" / "function_lengths.py", *extra)
    return cmd_run(extra) if command == "run" else cmd_test(extra)


if __name__ == "__main__":
    sys.exit(main())
