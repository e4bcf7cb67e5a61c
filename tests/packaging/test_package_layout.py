"""The package layout pyproject declares matches the folders, and shipped data is found.

Fast checks that run with the suite; the wheel itself is built and installed by
test_wheel_install.py (`pytest -m install`).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rtoplanner.core import paths
from rtoplanner.core.catalog import CatalogError, shipped_catalog_files

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _folders_that_ship(top: str) -> set[str]:
    """Every folder under `top` holding a file, as a dotted package name."""
    base = REPO / top
    found = set()
    for path in base.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.parent != base:
            rel = path.parent.relative_to(base).parts
            found.add(".".join(("rtoplanner", top, *rel)))
        elif path.is_file():
            found.add(f"rtoplanner.{top}")
    return found


@pytest.mark.parametrize("top", ["core", "app", "data", "resources"])
def test_every_folder_is_a_listed_package(top):
    """A folder missing from `packages` is a module the wheel lacks (code) or a setuptools
    warning on every install (data): add the dotted name to pyproject's `packages`."""
    missing = _folders_that_ship(top) - set(SETUPTOOLS["packages"])
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"


def test_package_dirs_map_the_repository_layout():
    mapping = SETUPTOOLS["package-dir"]
    for top in ("core", "app", "data", "resources"):
        assert mapping[f"rtoplanner.{top}"] == top
    assert (REPO / mapping["rtoplanner"] / "__main__.py").is_file()


def test_shipped_folders_are_found_through_the_package():
    assert paths.data_dir().samefile(REPO / "data")
    assert paths.resources_dir().samefile(REPO / "resources")
    assert paths.demo_scenario().is_file()


def test_a_missing_catalog_is_an_error_not_an_empty_list(tmp_path, monkeypatch):
    (tmp_path / "catalog").mkdir()
    monkeypatch.setenv("RTOPLANNER_DATA", str(tmp_path))
    with pytest.raises(CatalogError, match=r"catalog is missing.*reinstall"):
        shipped_catalog_files()


def test_catalog_list_without_a_catalog_fails_in_one_line(tmp_path):
    env = {"RTOPLANNER_DATA": str(tmp_path), "RTOPLANNER_DB": str(tmp_path / "s.duckdb")}
    proc = subprocess.run(
        [sys.executable, "-m", "rtoplanner", "catalog", "list"],
        capture_output=True, text=True, env={**_base_env(), **env}, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "catalog is missing" in lines[0], proc.stderr


def test_a_missing_data_folder_names_the_package(monkeypatch):
    monkeypatch.setattr(paths, "_TOP", "rtoplanner_nowhere")
    with pytest.raises(paths.MissingDataError, match=r"rtoplanner_nowhere\.data.*reinstall"):
        paths.data_dir()


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("RTOPLANNER_")}
