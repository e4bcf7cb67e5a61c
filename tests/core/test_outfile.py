"""Files the user names are written as regular files only, all or nothing (issue 16.2).

Real FIFOs, a real character device (made with mknod where allowed), real symlinks and
permission bits, through the real command line.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rtoplanner.core.outfile import OutputFileError, check_output_path, write_output_bytes

REPO = Path(__file__).resolve().parents[2]
DEMO = sorted((REPO / "data" / "scenarios").glob("*.toml"))[0]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _one_line_error(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rto-planner: error:"), proc.stderr
    assert needle in lines[0], lines[0]


def test_report_refuses_a_fifo_and_leaves_it_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = _cli("report", str(DEMO), "-o", str(fifo), "--no-store")
    _one_line_error(proc, "FIFO")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def _char_device(path: Path) -> Path:
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot create a device node here (needs root)")
    return path


def test_report_refuses_a_device_and_leaves_it_a_device(tmp_path: Path) -> None:
    dev = _char_device(tmp_path / "null")
    proc = _cli("report", str(DEMO), "-o", str(dev), "--no-store")
    _one_line_error(proc, "device")
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_export_refuses_a_fifo(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    assert _cli("--db", str(db), "scenarios", "import", str(DEMO)).returncode == 0
    name = _cli("--db", str(db), "scenarios", "list", "--json").stdout
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    import json

    first = json.loads(name)[0]["name"]
    proc = _cli("--db", str(db), "scenarios", "export", first, "-o", str(fifo))
    _one_line_error(proc, "FIFO")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_symlink_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.pdf"
    real.write_bytes(b"old")
    link = tmp_path / "link.pdf"
    link.symlink_to(real)
    proc = _cli("report", str(DEMO), "-o", str(link), "--no-store")
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes().startswith(b"%PDF")


def test_permissions_of_an_existing_file_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "secret.pdf"
    out.write_bytes(b"old")
    out.chmod(0o600)
    proc = _cli("report", str(DEMO), "-o", str(out), "--no-store")
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert out.read_bytes().startswith(b"%PDF")


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "plan.toml"
    out.write_text("old = 1\n")

    def full_disk(fd, *a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OutputFileError, match="disk is full") as info:
        write_output_bytes(out, b"new")
    assert "old file was left" in str(info.value)
    assert out.read_text() == "old = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.toml"]


def test_writing_into_a_fifo_never_blocks(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    errors: list[BaseException] = []

    def go() -> None:
        try:
            write_output_bytes(fifo, b"x")
        except OutputFileError as exc:
            errors.append(exc)

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive() and errors


def test_check_names_what_is_in_the_way(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match="directory"):
        check_output_path(tmp_path)
    with pytest.raises(OutputFileError, match="does not exist"):
        check_output_path(tmp_path / "nope" / "x.pdf")
    assert check_output_path(tmp_path / "new.pdf") == (tmp_path / "new.pdf").resolve()
