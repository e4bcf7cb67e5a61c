"""Reliability with real processes: a second process, SIGKILL mid-save, damaged files.

No mocks: each test runs children with `sys.executable` against real DuckDB files and
checks what a user would see (a one-line message, exit status 2) and that the file's
bytes are what they were.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from store_helpers import DATA, python_env

from rtoplanner.core.store import (
    NotAStoreError,
    Store,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
)

TIMEOUT = 60

HOLD = """
import sys
from rtoplanner.core.store import Store
s = Store(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()
s.close()
"""

SAVE_FOREVER = """
import sys
from rtoplanner.core.store import Store
text = open(sys.argv[2], encoding="utf-8").read()
s = Store(sys.argv[1])
print("ready", flush=True)
i = 0
while True:
    i += 1
    v = s.save_scenario(text, comment=str(i) + ":" + "x" * 300_000)
    print(v.version, flush=True)
"""


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", *args],
        capture_output=True, text=True, timeout=TIMEOUT, env=python_env(),
    )  # fmt: skip


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _assert_clean_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rto-planner: error:"), proc.stderr
    for needle in needles:
        assert needle in lines[0]


# ------------------------------------------------------------------ a second process


def test_second_process_gets_a_clear_message(store_path: Path) -> None:
    Store(store_path).close()
    with subprocess.Popen(
        [sys.executable, "-c", HOLD, str(store_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=python_env(),
    ) as holder:  # fmt: skip
        assert holder.stdin is not None and holder.stdout is not None
        try:
            assert holder.stdout.readline().strip() == "ready"
            with pytest.raises(StoreLockedError) as info:
                Store(store_path)
            msg = str(info.value)
            assert str(store_path) in msg and f"PID {holder.pid}" in msg and "--db" in msg
            with pytest.raises(StoreLockedError):
                Store(store_path, read_only=True)
            _assert_clean_error(
                _cli("--db", str(store_path), "catalog", "list"),
                "open in another RTO Planner process", str(store_path),
            )  # fmt: skip
        finally:
            holder.stdin.write("\n")
            holder.stdin.flush()
            holder.wait(TIMEOUT)
    with Store(store_path) as s:  # released when the other process closes
        assert s.catalog()


# ------------------------------------------------------------------ SIGKILL mid-save


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("after_saves, extra_delay_s", [(1, 0.0), (4, 0.003), (8, 0.02)])
def test_sigkill_mid_save_loses_at_most_that_save(
    store_path: Path, after_saves: int, extra_delay_s: float
) -> None:
    scenario = DATA / "scenario.toml"
    text = scenario.read_text(encoding="utf-8")
    with subprocess.Popen(
        [sys.executable, "-c", SAVE_FOREVER, str(store_path), str(scenario)],
        stdout=subprocess.PIPE, text=True, env=python_env(),
    ) as child:  # fmt: skip
        assert child.stdout is not None
        try:
            assert child.stdout.readline().strip() == "ready"
            reported = 0
            while reported < after_saves:
                reported = int(child.stdout.readline())
            time.sleep(extra_delay_s)  # land somewhere inside the next save
        finally:
            os.kill(child.pid, signal.SIGKILL)
            child.wait(TIMEOUT)
        for line in child.stdout.read().split():  # saves that committed before the kill
            reported = max(reported, int(line))
    assert child.returncode == -signal.SIGKILL

    with Store(store_path) as s:  # the file opens (the WAL is replayed)
        (summary,) = s.scenarios()
        history = s.history(summary.name)
    versions = [v.version for v in history]
    assert versions == list(range(1, len(versions) + 1))
    assert reported <= len(versions) <= reported + 1  # at most the save in flight is lost
    for v in history:
        assert v.text == text and v.comment.startswith(f"{v.version}:")


# ------------------------------------------------------------------ damaged files


def _valid_store_bytes(tmp_path: Path, text: str) -> bytes:
    path = tmp_path / "valid.duckdb"
    with Store(path) as s:
        s.save_scenario(text)
    return path.read_bytes()


def _flip(data: bytes, offset: int, n: int = 64) -> bytes:
    return data[:offset] + bytes(b ^ 0xFF for b in data[offset : offset + n]) + data[offset + n :]


def _sqlite(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x INTEGER)")
    con.commit()
    con.close()


DAMAGE: dict[str, tuple[Callable[[bytes], bytes] | None, type[StoreError], str]] = {
    "text file": (lambda d: b"hello, I am not a database\n" * 100, StoreCorruptError,
                  "not a DuckDB database"),
    "empty file": (lambda d: b"", StoreCorruptError, "empty"),
    "sqlite file": (None, NotAStoreError, "SQLite"),
    "truncated to the header": (lambda d: d[:4096], StoreCorruptError, "damaged or truncated"),
    "truncated by half": (lambda d: d[: len(d) // 2], StoreCorruptError, "damaged or truncated"),
    "last KB missing": (lambda d: d[:-1000], StoreCorruptError, "damaged or truncated"),
    "bad metadata block": (lambda d: _flip(d, 12288 + 8), StoreCorruptError, "damaged"),
    # A bad data block in a cleanly closed file: tests/store/test_store_open_probe.py.
}  # fmt: skip


@pytest.mark.parametrize("case", list(DAMAGE))
def test_damaged_file_gives_a_clear_error_and_is_never_written(
    case: str, tmp_path: Path, scenario_text: str
) -> None:
    mutate, error, needle = DAMAGE[case]
    path = tmp_path / "store.duckdb"
    if mutate is None:
        _sqlite(path)
    else:
        path.write_bytes(mutate(_valid_store_bytes(tmp_path, scenario_text)))
    before = _sha(path)
    listing = sorted(p.name for p in tmp_path.iterdir())

    with pytest.raises(error) as info:
        Store(path)
    assert needle in str(info.value) and str(path) in str(info.value)
    with pytest.raises(StoreError):
        Store(path, read_only=True)
    _assert_clean_error(_cli("--db", str(path), "scenarios", "list"), str(path))
    _assert_clean_error(_cli("--db", str(path), "catalog", "list"), str(path))

    assert _sha(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing  # no WAL, no new file


def test_directory_as_db_path(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        Store(tmp_path)
