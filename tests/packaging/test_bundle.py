"""The standalone bundle, built and smoke-tested as a user gets it.

`packaging/build.sh` builds the wheel, installs it into a clean venv and freezes it with
PyInstaller; `packaging/smoke.sh` copies the bundle to another folder (with a space in
its path), with no Python, checkout or venv on the path and an empty home, and runs
`plan` on every shipped demo, `estate` on the demo estates, `catalog list`, `report`,
`gui --screenshot` on a plan and on the demo estate. About 45 s to 2 min (pip reuses its
cache); run it alone with `pytest -m install -k bundle`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.install, pytest.mark.slow]


def _run(script: str, *args: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "RTOPLANNER_"))}
    env["PYTHON"] = sys.executable  # the interpreter the suite runs on builds the bundle
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    proc = subprocess.run(["bash", str(REPO / "packaging" / script), *map(str, args)],
                          capture_output=True, text=True, timeout=1500, env=env)  # fmt: skip
    assert proc.returncode == 0, f"{script} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n" \
                                 f"{proc.stderr[-3000:]}"  # fmt: skip
    return proc


def test_the_bundle_runs_every_demo_from_another_folder(tmp_path):
    work = tmp_path / "bundle"
    _run("build.sh", work)
    bundle = work / "dist" / "rto-planner"
    assert (bundle / "rto-planner").is_file()
    smoke = _run("smoke.sh", bundle).stdout
    assert "FAIL" not in smoke
    ok = {line.split()[1] for line in smoke.splitlines() if line.startswith("ok ")}
    demos = {p.name for p in (REPO / "data" / "scenarios").glob("*.toml")}
    estates = {p.name for p in (REPO / "data" / "estates").glob("*.toml")}
    said = {line.split(None, 2)[2] for line in smoke.splitlines()
            if line.startswith("ok   plan ") or line.startswith("ok   estate ")}  # fmt: skip
    assert demos | estates <= said
    assert {"catalog", "report", "gui"} <= ok
