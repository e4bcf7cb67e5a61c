"""The store lock survives whatever the holding process does with the file (issue 16.1).

DuckDB's POSIX record lock is dropped by the kernel when the holder closes *any*
descriptor of the file. These tests hold a store in a real child process, make that
process open and close the store file (directly, by hashing it, through Qt's file dialog
on the store's folder) and check that a second real process is still refused.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from store_helpers import python_env

from rtoplanner.core.store import Store, StoreError, StoreLockedError
from rtoplanner.core.store.lock import lock_path_for

TIMEOUT = 60

HOLD_AND_TOUCH = """
import hashlib, sys
from rtoplanner.core.store import Store
db, how = sys.argv[1], sys.argv[2]
s = Store(db)
if how == "open-close":
    open(db, "rb").close()
elif how == "hash":
    hashlib.sha256(open(db, "rb").read()).hexdigest()
elif how == "qt-dialog":
    import os
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QElapsedTimer
    from PySide6.QtWidgets import QApplication, QFileDialog
    app = QApplication([])
    dlg = QFileDialog(None, "Open", os.path.dirname(db))
    dlg.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dlg.show()
    dlg.selectFile(db)
    t = QElapsedTimer(); t.start()
    while t.elapsed() < 1500:
        app.processEvents()
    dlg.close()
print("ready", flush=True)
sys.stdin.readline()
s.save_scenario(open(sys.argv[3], encoding="utf-8").read(), comment="holder")
s.close()
print("closed", flush=True)
"""

OPEN_AND_SAVE = """
import sys
from rtoplanner.core.store import Store
try:
    s = Store(sys.argv[1])
except Exception as exc:
    print(type(exc).__name__, exc)
    sys.exit(3)
s.save_scenario(open(sys.argv[2], encoding="utf-8").read(), comment="intruder")
s.close()
print("got in")
"""


def _second_process(db: Path, scenario: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", OPEN_AND_SAVE, str(db), str(scenario)],
        capture_output=True, text=True, timeout=TIMEOUT, env=python_env(),
    )  # fmt: skip


@pytest.mark.parametrize("how", ["open-close", "hash", "qt-dialog"])
def test_holder_touching_the_file_does_not_let_a_second_process_in(
    store_path: Path, tmp_path: Path, how: str
) -> None:
    scenario = Path(__file__).parent / "data" / "scenario.toml"
    Store(store_path).close()
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_AND_TOUCH, str(store_path), how, str(scenario)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(),
    ) as holder:  # fmt: skip
        assert holder.stdin is not None and holder.stdout is not None
        try:
            assert holder.stdout.readline().strip() == "ready", holder.stderr.read()
            other = _second_process(store_path, scenario)
            assert other.returncode == 3, other.stdout + other.stderr
            assert "StoreLockedError" in other.stdout
            assert f"PID {holder.pid}" in other.stdout
        finally:
            holder.stdin.write("\n")
            holder.stdin.flush()
            out, err = holder.communicate(timeout=TIMEOUT)
        assert holder.returncode == 0, err
        assert "closed" in out
    # The file is whole and consistent: every later open works and sees one writer only.
    with Store(store_path) as s:
        comments = [v.comment for v in s.history(s.scenarios()[0].name)]
    assert comments == ["holder"]


def test_the_record_lock_really_is_dropped_by_a_close(store_path: Path) -> None:
    """Why the sidecar exists: without it a raw DuckDB connection gets in (documented)."""
    Store(store_path).close()
    hold = (
        "import sys, duckdb\n"
        "c = duckdb.connect(sys.argv[1])\n"
        "open(sys.argv[1], 'rb').close()\n"
        "print('ready', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", hold, str(store_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=python_env(),
    ) as holder:  # fmt: skip
        assert holder.stdin is not None and holder.stdout is not None
        try:
            assert holder.stdout.readline().strip() == "ready"
            probe = subprocess.run(
                [sys.executable, "-c",
                 "import sys, duckdb; duckdb.connect(sys.argv[1]).close(); print('in')",
                 str(store_path)],
                capture_output=True, text=True, timeout=TIMEOUT, env=python_env(),
            )  # fmt: skip
        finally:
            holder.stdin.write("\n")
            holder.stdin.flush()
            holder.wait(TIMEOUT)
    if "in" not in probe.stdout:
        pytest.skip("this platform keeps DuckDB's lock; the sidecar is belt and braces")
    assert isinstance(duckdb.__version__, str)


def test_readers_share_writers_exclude(store_path: Path) -> None:
    Store(store_path).close()
    with Store(store_path, read_only=True) as r1:
        assert r1.catalog()
        hold = (
            "import sys\nfrom rtoplanner.core.store import Store\n"
            "Store(sys.argv[1], read_only=True).close()\nprint('ok')"
        )
        other_reader = subprocess.run(
            [sys.executable, "-c", hold, str(store_path)],
            capture_output=True, text=True, timeout=TIMEOUT, env=python_env(),
        )  # fmt: skip
        assert other_reader.returncode == 0, other_reader.stderr
        writer = _second_process(store_path, Path(__file__).parent / "data" / "scenario.toml")
        assert writer.returncode == 3 and "StoreLockedError" in writer.stdout


def test_lock_file_is_kept_and_reused(store_path: Path) -> None:
    Store(store_path).close()
    lock = lock_path_for(store_path)
    assert lock.is_file()
    with Store(store_path):
        pass
    assert lock.is_file()


def test_a_symlinked_lock_file_is_refused(store_path: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    lock_path_for(store_path).symlink_to(victim)
    with pytest.raises(StoreError, match="lock file"):
        Store(store_path)
    assert victim.read_text() == "keep me"
    assert not store_path.exists()


def test_read_only_folder_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    Store(folder / "s.duckdb").close()
    lock_path_for(folder / "s.duckdb").unlink()
    folder.chmod(0o555)
    try:
        if (folder / "probe").exists() or _writable(folder):
            pytest.skip("running as root: a 0555 folder is still writable")
        with pytest.raises(StoreError, match="must be writable"):
            Store(folder / "s.duckdb")
        with Store(folder / "s.duckdb", read_only=True) as s:  # reading needs no lock file
            assert s.catalog()
    finally:
        folder.chmod(0o755)


def _writable(folder: Path) -> bool:
    try:
        (folder / "probe").write_text("x")
    except OSError:
        return False
    (folder / "probe").unlink()
    return True


def test_second_store_in_the_same_process_is_still_refused(store_path: Path) -> None:
    with Store(store_path), pytest.raises(StoreLockedError, match="already open"):
        Store(store_path)
