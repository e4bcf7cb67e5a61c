"""The command starts one BLAS thread unless the user asks for more (bench/bench_cli.py:
OpenBLAS's thread pool cost ~50 ms of every command)."""

from __future__ import annotations

import os
import subprocess
import sys

CODE = "import os, rtoplanner.app.__main__; print(os.environ['OPENBLAS_NUM_THREADS'])"


def _threads(env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return out.stdout.strip()


def test_one_blas_thread_by_default():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _threads(env) == "1"


def test_the_users_setting_wins():
    assert _threads({**os.environ, "OPENBLAS_NUM_THREADS": "4"}) == "4"
