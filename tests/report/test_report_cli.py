"""`rto-planner report SCENARIO.toml -o PLAN.pdf`: success, and errors as one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, EPOCH, rendered

from rtoplanner.core.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("rto-planner: error: ")
    assert "Traceback" not in err


def test_writes_the_pdf(tmp_path, capsys, epoch):
    out = tmp_path / "plan.pdf"
    code, stdout, err = run(capsys, str(DEMOS[0]), "-o", str(out), "--no-store")
    assert code == 0, err
    assert err == ""
    assert str(out) in stdout
    assert out.read_bytes() == rendered(DEMOS[0]).pdf
    assert [p.name for p in tmp_path.iterdir()] == ["plan.pdf"]


def test_as_of_and_binary(tmp_path, capsys, epoch):
    out = tmp_path / "plan.pdf"
    code, _, err = run(
        capsys,
        str(DEMOS[0]),
        "-o",
        str(out),
        "--as-of",
        "2030-06-30",
        "--binary",
        "-q",
        "--no-store",
    )
    assert code == 0, err
    text = PdfReader(out).pages[0].extract_text()
    assert "30 June 2030" in text
    assert "TiB" in text


def test_overwrites_an_existing_file_atomically(tmp_path, capsys, epoch):
    out = tmp_path / "plan.pdf"
    out.write_bytes(b"old")
    code, _, _ = run(capsys, str(DEMOS[0]), "-o", str(out), "--no-store")
    assert code == 0
    assert out.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    "scenario, expect",
    [
        ("missing.toml", "no such file"),
        ("bad.toml", "not valid TOML"),
        ("invalid.toml", "database.size"),
    ],
)
def test_bad_scenario(tmp_path, capsys, scenario, expect):
    (tmp_path / "bad.toml").write_text("name = \n")
    (tmp_path / "invalid.toml").write_text(
        'format = 1\nname = "x"\n[database]\nsize = "ten"\n[targets]\nrto = "4 h"\n'
        '[[path]]\nkind = "disk"\nrate = "1 GB/s"\n'
    )
    out = tmp_path / "plan.pdf"
    code, _, err = run(capsys, str(tmp_path / scenario), "-o", str(out), "--no-store")
    assert code == 2
    assert_one_line_error(err)
    assert expect in err
    assert not out.exists()


@pytest.mark.parametrize(
    "target, expect",
    [
        ("no/such/dir/plan.pdf", "does not exist"),
        ("a_file.txt/plan.pdf", "is a file, not a folder"),
        (".", "is a directory"),
    ],
)
def test_unwritable_output(tmp_path, capsys, target, expect):
    (tmp_path / "a_file.txt").write_text("x")
    before = sorted(p.name for p in tmp_path.iterdir())
    code, _, err = run(capsys, str(DEMOS[0]), "-o", str(tmp_path / target), "--no-store")
    assert code == 2
    assert_one_line_error(err)
    assert expect in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_read_only_folder(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code, _, err = run(capsys, str(DEMOS[0]), "-o", str(folder / "plan.pdf"), "--no-store")
    finally:
        folder.chmod(0o755)
    assert code == 2
    assert_one_line_error(err)
    assert list(folder.iterdir()) == []


def test_failed_rename_leaves_no_partial_file(tmp_path, capsys, monkeypatch):
    out = tmp_path / "plan.pdf"
    out.write_bytes(b"previous plan")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    code, _, err = run(capsys, str(DEMOS[0]), "-o", str(out), "--no-store")
    assert code == 2
    assert_one_line_error(err)
    assert "Permission denied" in err
    assert out.read_bytes() == b"previous plan"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.pdf"]


def test_output_is_required(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["report", str(DEMOS[0])])
    assert exc.value.code == 2
    assert "-o/--output" in capsys.readouterr().err


def test_console_script_error_has_no_traceback(tmp_path):
    exe = Path(sys.executable).with_name("rto-planner")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "rtoplanner.core.cli"]
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(EPOCH)}
    env.pop("RTOPLANNER_DEBUG", None)
    p = subprocess.run(
        [*cmd, "report", str(tmp_path / "none.toml"), "-o", str(tmp_path / "x.pdf")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert p.returncode == 2
    assert_one_line_error(p.stderr)
    assert not (tmp_path / "x.pdf").exists()
