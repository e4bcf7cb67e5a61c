"""The wheel, installed into a fresh venv outside the checkout, runs every demo.

Builds the wheel with pip (as a user's `pip install .` or pipx would), installs it into a
new virtual environment in a temporary folder, and runs the installed `rto-planner` from
another folder with nothing of the checkout on the path: `plan` on every shipped demo,
`estate` on every demo estate, `catalog list`, `report`, `gui --screenshot` and
`python -m rtoplanner`. About 30-70 s (pip reuses its cache for the dependencies); run
it alone with `pytest -m install`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.install, pytest.mark.slow]


def _run(cmd: list[str | Path], *, cwd: Path, env: dict[str, str], timeout: int = 300):
    proc = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=timeout,
    )  # fmt: skip
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("wheel")
    proc = _run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", out, REPO],
        cwd=out, env=dict(os.environ),
    )  # fmt: skip
    (wheel,) = out.glob("rtoplanner-*.whl")
    return wheel, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def installed(built_wheel, tmp_path_factory) -> tuple[Path, dict[str, str], Path]:
    """(venv bin folder, environment, a working folder outside the checkout)."""
    wheel, _ = built_wheel
    root = tmp_path_factory.mktemp("fresh")
    venv.EnvBuilder(with_pip=True).create(root / "venv")
    bin_dir = root / "venv" / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "RTOPLANNER_"))}
    env.update(
        HOME=str(root / "home"),
        XDG_DATA_HOME=str(root / "home" / "data"),
        XDG_CONFIG_HOME=str(root / "home" / "config"),
        XDG_STATE_HOME=str(root / "home" / "state"),
        XDG_CACHE_HOME=str(root / "home" / "cache"),
        RTOPLANNER_DB=str(root / "store.duckdb"),
        QT_QPA_PLATFORM="offscreen",
    )
    pip_env = dict(env, HOME=os.environ.get("HOME", ""), XDG_CACHE_HOME="")  # pip's cache
    _run([bin_dir / "python", "-m", "pip", "install", "-q", wheel], cwd=root, env=pip_env)
    work = root / "work"
    work.mkdir()
    return bin_dir, env, work


def test_the_wheel_carries_every_data_file_and_builds_without_warnings(built_wheel):
    wheel, log = built_wheel
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, package in (("data", "rtoplanner/data"), ("resources", "rtoplanner/resources")):
        for path in (REPO / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                rel = path.relative_to(REPO / folder).as_posix()
                assert f"{package}/{rel}" in names, f"{folder}/{rel} is not in the wheel"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    warnings = [
        line for line in log.splitlines()
        if "SetuptoolsDeprecationWarning" in line or "BuildBackendWarning" in line
        or "SetuptoolsWarning" in line
    ]  # fmt: skip
    assert not warnings, "\n".join(warnings)


def test_installed_data_comes_from_the_venv_not_the_checkout(installed):
    bin_dir, env, work = installed
    code = "from rtoplanner.core import paths as p; print(p.data_dir()); print(p.resources_dir())"
    out = _run([bin_dir / "python", "-c", code], cwd=work, env=env).stdout.split()
    for folder in out:
        assert Path(folder).is_relative_to(bin_dir.parent), folder


def test_installed_command_plans_every_demo_and_lists_the_catalog(installed):
    bin_dir, env, work = installed
    demos = sorted((REPO / "data" / "scenarios").glob("*.toml"))
    assert demos
    code = "from rtoplanner.core.paths import scenarios_dir; print(scenarios_dir())"
    site_demos = _run([bin_dir / "python", "-c", code], cwd=work, env=env).stdout.strip()
    for demo in demos:
        installed_demo = Path(site_demos) / demo.name
        out = _run([bin_dir / "rto-planner", "plan", installed_demo], cwd=work, env=env).stdout
        assert "Recovery timeline" in out, demo.name
    for estate in sorted((Path(site_demos).parent / "estates").glob("*.toml")):
        out = _run([bin_dir / "rto-planner", "estate", estate], cwd=work, env=env).stdout
        assert "Estate:" in out, estate.name
    listing = _run([bin_dir / "rto-planner", "catalog", "list"], cwd=work, env=env).stdout
    assert "has no items" not in listing
    assert "tape_drive" in listing
    version = _run([bin_dir / "python", "-m", "rtoplanner", "--version"], cwd=work, env=env)
    assert version.stdout.startswith("rto-planner ")


def test_installed_command_writes_a_report_and_a_screenshot(installed):
    bin_dir, env, work = installed
    demo = REPO / "data" / "scenarios" / "small_gige_lto.toml"
    pdf = work / "plan.pdf"
    _run([bin_dir / "rto-planner", "report", demo, "-o", pdf], cwd=work, env=env)
    assert pdf.read_bytes().startswith(b"%PDF")
    png = work / "window.png"
    _run([bin_dir / "rto-planner", "gui", "--screenshot", png], cwd=work, env=env)
    assert png.read_bytes().startswith(b"\x89PNG")
