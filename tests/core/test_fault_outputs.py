"""Issue 25.10 and 25.11: every user-named output goes through the one writer
(core/outfile.py) and is never one of the command's inputs.

Each writer is run against each hostile target, with real FIFOs, the real /dev/null, real
symlink loops, hard links, a real store and a real full file system (a small tmpfs, where
this process may mount one): the command either writes a regular file or refuses in one
line with exit 2, and whatever was at the path before is exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rtoplanner.core.cli import main

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "data" / "scenarios" / "small_gige_lto.toml"
ESTATES = REPO / "data" / "estates"
EVIDENCE = REPO / "tests" / "fixtures" / "evidence"
SNAPSHOTS = sorted((EVIDENCE / "clock").glob("*.csv"))[:12]


@dataclass
class Work:
    """A folder with a scenario, the demo estate and a store holding both."""

    root: Path

    @property
    def scenario(self) -> Path:
        return self.root / "plan.toml"

    @property
    def estate(self) -> Path:
        return self.root / "site_loss.toml"

    @property
    def store(self) -> Path:
        return self.root / "store.duckdb"


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Work:
    return make_work(tmp_path_factory.mktemp("outputs"))


def make_work(root: Path) -> Work:
    """The scenario and the demo estate in `root`, saved in a store there too."""
    shutil.copy(SCENARIO, root / "plan.toml")
    shutil.copytree(ESTATES, root, dirs_exist_ok=True)
    w = Work(root)
    assert main(["scenarios", "save", str(w.scenario), "--db", str(w.store)]) == 0
    assert main(["estates", "save", str(w.estate), "--db", str(w.store)]) == 0
    return w


def _estate_name() -> str:
    import tomllib

    return tomllib.loads((ESTATES / "site_loss.toml").read_text(encoding="utf-8"))["name"]


WRITERS: dict[str, Callable[[Work, str], list[str]]] = {
    "report": lambda w, o: ["report", str(w.scenario), "-o", o, "--no-store", "-q"],
    "report estate": lambda w, o: ["report", str(w.estate), "-o", o, "--no-store", "-q"],
    "fix": lambda w, o: ["fix", str(w.scenario), "-o", o, "--no-store"],
    "estate --fix": lambda w, o: ["estate", str(w.estate), "--fix", "-o", o, "--no-store"],
    "estates export": lambda w, o: [
        "estates",
        "export",
        _estate_name(),
        "-o",
        o,
        "--db",
        str(w.store),
    ],
    "scenarios export": lambda w, o: [
        "scenarios",
        "export",
        "Small ERP – restore over GigE from LTO-5",
        "-o",
        o,
        "--db",
        str(w.store),
    ],
    "preview": lambda w, o: [
        "preview",
        str(EVIDENCE / "preview_prod.txt"),
        str(w.scenario),
        "-o",
        o,
        "--db",
        str(w.store),
    ],
    "clock": lambda w, o: [
        "clock",
        str(w.scenario),
        *map(str, SNAPSHOTS),
        "-o",
        o,
        "--db",
        str(w.store),
    ],
}
"""Every command that writes a file the user names with -o."""


class Fifo:
    """A FIFO with a reader waiting on it: a writer that opens it does not block the test
    (as it blocked the command) but is caught writing."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.read = b""
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        with open(self.path, "rb") as fh:
            self.read = fh.read()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # let the reader's open return, if nobody did
            fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        self.thread.join(10)


@contextlib.contextmanager
def small_tmpfs(folder: Path, size_kib: int) -> Iterator[Path]:
    """A real file system of `size_kib` KiB mounted at `folder` (needs root)."""
    folder.mkdir()
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(folder)],
        capture_output=True, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def _fill(folder: Path, leave: int) -> None:
    """Fill the file system at `folder` until fewer than `leave` bytes are free."""
    with open(folder / "filler", "wb") as fh, contextlib.suppress(OSError):
        while shutil.disk_usage(folder).free > leave:
            fh.write(b"\0" * 4096)
            fh.flush()


def _one_line(rc: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1, (rc, err)
    assert lines[0].startswith("rto-planner: error:") and "internal error" not in lines[0]
    return lines[0]


def _run(capsys, argv: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(argv)
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_fifo_is_refused_and_never_written(writer, work, capsys, tmp_path):
    fifo = Fifo(tmp_path / "out")
    try:
        rc, err = _run(capsys, WRITERS[writer](work, str(fifo.path)))
    finally:
        fifo.close()
    assert "FIFO" in _one_line(rc, err)
    assert fifo.read == b"" and stat.S_ISFIFO(os.lstat(fifo.path).st_mode)


@pytest.mark.parametrize("writer", list(WRITERS))
def test_dev_null_is_refused_and_stays_a_device(writer, work, capsys):
    rc, err = _run(capsys, WRITERS[writer](work, os.devnull))
    assert "device" in _one_line(rc, err)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_symlink_loop_is_one_line(writer, work, capsys, tmp_path):
    a, b = tmp_path / "a.out", tmp_path / "b.out"
    a.symlink_to(b)
    b.symlink_to(a)
    rc, err = _run(capsys, WRITERS[writer](work, str(a)))
    assert "symbolic links" in _one_line(rc, err)
    assert os.readlink(a) == str(b) and os.readlink(b) == str(a)


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_full_disk_keeps_the_old_file(writer, work, capsys, tmp_path):
    if writer == "estate --fix":  # it writes beside the estate: the estate goes there too
        pytest.skip("covered by test_estate_fix_on_a_full_disk_keeps_the_old_file")
    with small_tmpfs(tmp_path / "disk", 256) as disk:
        out = disk / "out.file"
        out.write_bytes(b"the old file\n")
        _fill(disk, leave=512)
        rc, err = _run(capsys, WRITERS[writer](work, str(out)))
        assert "disk is full" in _one_line(rc, err)
        assert out.read_bytes() == b"the old file\n"
        assert sorted(p.name for p in disk.iterdir()) == ["filler", "out.file"]


def test_estate_fix_on_a_full_disk_keeps_the_old_file(capsys, tmp_path):
    with small_tmpfs(tmp_path / "disk", 512) as disk:
        shutil.copytree(ESTATES, disk, dirs_exist_ok=True)
        out = disk / "new.toml"
        out.write_bytes(b"the old file\n")
        _fill(disk, leave=512)
        argv = ["estate", str(disk / "site_loss.toml"), "--fix", "-o", str(out), "--no-store"]
        rc, err = _run(capsys, argv)
        assert "disk is full" in _one_line(rc, err)
        assert out.read_bytes() == b"the old file\n"


INPUTS: dict[str, Callable[[Work], Path]] = {
    "report": lambda w: w.scenario,
    "report estate": lambda w: w.estate,
    "fix": lambda w: w.scenario,
    "estate --fix": lambda w: w.estate,
    "estates export": lambda w: w.store,
    "scenarios export": lambda w: w.store,
    "preview": lambda w: w.scenario,
    "clock": lambda w: w.scenario,
}


@pytest.mark.parametrize("how", ["same path", "hard link", "symlink"])
@pytest.mark.parametrize("writer", list(WRITERS))
def test_an_output_that_is_an_input_is_refused(writer, how, work, capsys):
    """`report -o plan.toml plan.toml` replaced the scenario with its PDF (issue 25.11)."""
    source = INPUTS[writer](work)
    before = source.read_bytes()
    out = source
    if how != "same path":
        out = source.with_name(f"other-{how.replace(' ', '-')}{source.suffix}")
        out.unlink(missing_ok=True)
        if how == "hard link":
            os.link(source, out)
        else:
            out.symlink_to(source)
    rc, err = _run(capsys, WRITERS[writer](work, str(out)))
    assert "itself" in _one_line(rc, err)
    assert source.read_bytes() == before


def test_an_estates_scenario_file_is_an_input_too(work, capsys):
    scenario = work.root / "site_loss" / "billing.toml"
    before = scenario.read_bytes()
    rc, err = _run(capsys, WRITERS["report estate"](work, str(scenario)))
    assert "the scenario of 'Billing'" in _one_line(rc, err)
    assert scenario.read_bytes() == before


def test_in_place_commands_say_how_to_rewrite(work, capsys):
    argv = ["preview", str(EVIDENCE / "preview_prod.txt"), str(work.scenario),
            "-o", str(work.scenario), "--db", str(work.store)]  # fmt: skip
    rc, err = _run(capsys, argv)
    assert "--in-place rewrites it" in _one_line(rc, err)


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_new_file_is_written_whole(writer, work, capsys, tmp_path):
    out = tmp_path / "new.out" if writer != "estate --fix" else work.root / "new.toml"
    out.unlink(missing_ok=True)
    rc, err = _run(capsys, WRITERS[writer](work, str(out)))
    assert rc == 0, err
    assert stat.S_ISREG(os.lstat(out).st_mode) and out.stat().st_size > 0
