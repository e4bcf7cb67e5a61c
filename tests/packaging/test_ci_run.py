"""Issue 25.19: `.ci/run`'s system-library check is deterministic.

It used `ldconfig -p | grep -q LIB` under `set -o pipefail`: grep exits at its first
match, ldconfig (still writing) dies of SIGPIPE, and pipefail turned that into "LIB is
missing" — at random on a real machine (5 runs of 6), every time here, where a stand-in
`ldconfig` lists every library first and then much more. The script runs for real with
stand-ins for `ldconfig`, `apt-get`, `pdftoppm`, `id` and `python3` on PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CI_RUN = REPO / ".ci" / "run"
LIBS = re.findall(r"lib[\w.+-]+\.so\.\d+", CI_RUN.read_text(encoding="utf-8").split("do\n")[0])


def _stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/usr/bin/env bash\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _run_ci(tmp_path: Path, listed: list[str]) -> tuple[subprocess.CompletedProcess[str], Path]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cache = "".join(f"\t{lib} (libc6,x86-64) => /usr/lib/{lib}\n" for lib in listed)
    (tmp_path / "cache.txt").write_text(cache, encoding="utf-8")
    # The cache, then 4 MB more: far past a pipe's buffer, so a reader that stops early
    # leaves the writer to die of SIGPIPE.
    filler = "\tlibfiller.so.1 (libc6,x86-64) => /usr/lib/libfiller.so.1\n" * 70_000
    (tmp_path / "filler.txt").write_text(filler, encoding="utf-8")
    _stub(bin_dir, "ldconfig", f'cat "{tmp_path}/cache.txt" "{tmp_path}/filler.txt"')
    apt_log = tmp_path / "apt.log"
    _stub(bin_dir, "apt-get", f'echo "apt-get $*" >> "{apt_log}"')
    _stub(bin_dir, "pdftoppm", "exit 0")
    _stub(bin_dir, "id", "echo 0")
    _stub(bin_dir, "python3", 'echo "tests would run: $*"')
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    proc = subprocess.run(["bash", str(CI_RUN)], capture_output=True, text=True, env=env,
                          timeout=120, check=False)  # fmt: skip
    return proc, apt_log


@pytest.mark.skipif(shutil.which("bash") is None, reason="the CI script is bash")
def test_installed_libraries_are_found_every_time(tmp_path):
    assert len(LIBS) == 24, LIBS
    proc, apt_log = _run_ci(tmp_path, LIBS)
    assert proc.returncode == 0, proc.stderr
    assert "tests would run: dev.py test" in proc.stdout
    assert "missing" not in proc.stdout + proc.stderr
    assert not apt_log.exists()  # nothing to install


@pytest.mark.skipif(shutil.which("bash") is None, reason="the CI script is bash")
def test_a_missing_library_is_still_installed(tmp_path):
    proc, apt_log = _run_ci(tmp_path, [lib for lib in LIBS if lib != "libxcb-cursor.so.0"])
    assert proc.returncode == 0, proc.stderr
    assert "missing: libxcb-cursor.so.0) and poppler-utils" in proc.stdout
    assert "install" in apt_log.read_text(encoding="utf-8")
