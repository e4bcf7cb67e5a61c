"""Store faults of issue 25 (items 3, 13, 14, 16), with real processes and real files.

* 3: while another process writes the store, `plan`, `risk`, `fix` and `report` refuse in
  one line naming that process; they never answer from the shipped prices with exit 0.
* 13: a store with one damaged block is never opened for writing, even by a command that
  does not read that block.
* 14: the lock is the file's, not the path's: a hard link reaches the same lock, and the
  refusal names the process holding the lock now, not the last writer.
* 16: a foreign DuckDB file with a `schema_version` table of another shape, and `--db`
  at a symlink loop: one line, exit 2.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
from store_helpers import DATA, python_env

from rtoplanner.core.cli import main
from rtoplanner.core.store import Store, StoreLockedError

TIMEOUT = 60
SCENARIO = DATA / "scenario.toml"

HOLD = """
import sys
from rtoplanner.core.store import Store
s = Store(sys.argv[1], read_only=sys.argv[2] == "read")
open(sys.argv[1], "rb").close()  # as a file dialog does
print("ready", flush=True)
sys.stdin.readline()
s.close()
"""


@contextmanager
def holder(db: Path, mode: str = "write") -> Iterator[subprocess.Popen[str]]:
    """A real RTO Planner process holding the store at `db` until the block ends."""
    with subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db), mode],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(),
    ) as proc:  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        try:
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
            yield proc
        finally:
            proc.stdin.write("\n")
            proc.stdin.flush()
            proc.communicate(timeout=TIMEOUT)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----------------------------------------------------------------------------- item 14


def test_a_hard_link_reaches_the_same_lock(tmp_path: Path) -> None:
    db = tmp_path / "a" / "store.duckdb"
    db.parent.mkdir()
    Store(db).close()
    other = tmp_path / "b" / "linked.duckdb"
    other.parent.mkdir()
    os.link(db, other)
    with holder(db) as proc:
        with pytest.raises(StoreLockedError) as info:
            Store(other)
        assert f"PID {proc.pid}" in str(info.value)
        with pytest.raises(StoreLockedError):
            Store(other, read_only=True)
    # A refused open leaves no lock file beside the other name.
    assert not (other.parent / "linked.duckdb.lock").exists()
    Store(other).close()  # free again


def test_the_refusal_names_the_holder_now_not_the_last_writer(store_path: Path) -> None:
    Store(store_path).close()  # this process wrote its PID into the lock file
    with holder(store_path, "write") as first:
        pass  # a second writer, gone now: its PID is the last one written
    with holder(store_path, "read") as reader, pytest.raises(StoreLockedError) as info:
        Store(store_path)
    message = str(info.value)
    assert f"PID {reader.pid}" in message
    assert str(first.pid) not in message


# ----------------------------------------------------------------------------- item 3


@pytest.mark.parametrize("command", ["plan", "risk", "fix", "report"])
def test_a_locked_store_is_refused_not_replaced_by_shipped_prices(
    capsys: pytest.CaptureFixture[str], store_path: Path, tmp_path: Path, command: str
) -> None:
    Store(store_path).close()
    extra = ["-o", str(tmp_path / "plan.pdf")] if command == "report" else []
    if command == "risk":
        extra = ["--trials", "200"]
    with holder(store_path) as proc:
        code, out, err = _cli(capsys, command, str(SCENARIO), "--db", str(store_path), *extra)
    assert code == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"PID {proc.pid}" in lines[0], err
    assert "warning" not in err and out == ""
    assert not (tmp_path / "plan.pdf").exists()


def test_readers_plan_together_with_the_users_prices(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    with Store(store_path) as s:
        s.set_price("tape_drive", "LTO-4", 1234.0)
    with holder(store_path, "read"):
        code, _out, err = _cli(capsys, "fix", str(SCENARIO), "--db", str(store_path), "--json")
    assert code == 0, err
    assert "warning" not in err


# ----------------------------------------------------------------------------- item 13


def _damage_a_scenario_block(store_path: Path) -> None:
    marker = "Q" * 3000
    text = SCENARIO.read_text(encoding="utf-8") + f"\n# {marker}\n"
    with Store(store_path) as s:
        s.save_scenario(text, comment="big")
    data = bytearray(store_path.read_bytes())
    at = data.find(marker.encode())
    assert at > 0
    data[at + 100] ^= 0xFF
    store_path.write_bytes(bytes(data))


def test_a_damaged_store_is_never_opened_for_writing(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    _damage_a_scenario_block(store_path)
    before = _sha(store_path)
    code, out, err = _cli(capsys, "catalog", "price", "LTO-9", "123", "--db", str(store_path))
    assert code == 2, out + err
    assert "damaged" in err and len(err.strip().splitlines()) == 1
    assert _sha(store_path) == before
    assert not store_path.with_name(store_path.name + ".wal").exists()


# ----------------------------------------------------------------------------- item 16


@pytest.mark.parametrize(
    "create",
    [
        "CREATE TABLE schema_version (name VARCHAR, x INTEGER); "
        "INSERT INTO schema_version VALUES ('a', 1)",
        "CREATE TABLE schema_version (version VARCHAR, app_version VARCHAR); "
        "INSERT INTO schema_version VALUES ('abc', 'x')",
        "CREATE TABLE schema_version (version INTEGER, app_version VARCHAR); "
        "INSERT INTO schema_version VALUES (-3, 'x')",
        "CREATE SCHEMA other; CREATE TABLE other.schema_version (version INTEGER)",
    ],
)
def test_a_foreign_schema_version_table_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, create: str
) -> None:
    db = tmp_path / "foreign.duckdb"
    con = duckdb.connect(str(db))
    con.execute(create)
    con.close()
    before = _sha(db)
    code, out, err = _cli(capsys, "catalog", "list", "--db", str(db))
    assert code == 2, out + err
    assert "another program" in err and len(err.strip().splitlines()) == 1
    assert _sha(db) == before


def test_db_at_a_symlink_loop_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for argv in (["catalog", "list"], ["plan", str(SCENARIO)], ["scenarios", "list"]):
        code, out, err = _cli(capsys, *argv, "--db", str(tmp_path / "a"))
        assert code == 2, out + err
        assert "symbolic link loop" in err and len(err.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- item 5


def test_results_verdict_is_the_plans_verdict(
    capsys: pytest.CaptureFixture[str], store_path: Path, tmp_path: Path
) -> None:
    """Recovery meets its RTO, the RPO misses: `plan` says MISSES, so must VERDICT."""
    text = SCENARIO.read_text(encoding="utf-8").replace('rpo = "26 h"', 'rpo = "1 h"')
    scenario = tmp_path / "rpo.toml"
    scenario.write_text(text, encoding="utf-8")
    db = ["--db", str(store_path)]
    code, out, err = _cli(capsys, "plan", str(scenario), "--json", *db)
    plan = json.loads(out)
    assert (plan["verdict"], plan["recovery"]["verdict"]) == ("misses", "meets")
    assert _cli(capsys, "scenarios", "save", str(scenario), *db)[0] == 0
    code, out, err = _cli(capsys, "scenarios", "results", plan["scenario"], "--compute", *db)
    assert code == 0, err
    header, _, row = out.splitlines()[:3]
    verdict, recovery = header.index("VERDICT"), header.index("RECOVERY")
    assert row[verdict:].split()[0] == "MISSES", out
    assert row[recovery:].split()[0] == "MEETS", out


# ----------------------------------------------------------------------------- output fails


def _cli_process(argv: list[str], stdout: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", *argv],
        stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT, env=python_env(),
    )  # fmt: skip


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("where", ["/dev/full", "closed"])
def test_a_committed_change_is_reported_when_the_output_fails(store_path: Path, where: str) -> None:
    Store(store_path).close()
    db = ["--db", str(store_path)]
    commands = {
        "price": (["catalog", "price", "LTO-9", "9500", *db], "your price for tape_drive"),
        "save": (["scenarios", "save", str(SCENARIO), *db], "as version 1"),
    }
    for argv, said in commands.values():
        if where == "closed":  # started with standard output closed, as `>&-` does
            proc = subprocess.run(
                ["sh", "-c", 'exec "$0" "$@" >&-', sys.executable, "-m",
                 "rtoplanner.core.cli", *argv],
                stderr=subprocess.PIPE, text=True, timeout=TIMEOUT, env=python_env(),
            )  # fmt: skip
        else:
            with open(where, "w") as full:
                proc = _cli_process(argv, full)
        assert proc.returncode == 0, proc.stderr
        (line,) = proc.stderr.strip().splitlines()
        assert "done and kept in the store" in line and said in line
        assert "error" not in line
    with Store(store_path, read_only=True) as s:
        assert s.user_prices()
        assert [v.version for v in s.history(s.scenarios()[0].name)] == [1]
