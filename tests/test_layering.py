"""The core stays Qt-free and every package directory is installed."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FORBIDDEN = ("PySide6", "pyqtgraph", "shiboken6", "rtoplanner.app")


def test_core_sources_import_no_qt():
    offenders = []
    for path in (REPO / "core").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path}: {n}" for n in names if n.split(".")[0] in FORBIDDEN
                          or n.startswith("rtoplanner.app")]  # fmt: skip
    assert not offenders


def test_importing_the_whole_core_loads_no_qt():
    code = (
        "import importlib, pkgutil, sys\n"
        "import rtoplanner.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, 'rtoplanner.core.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_package_directory_is_listed_in_pyproject():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"])  # fmt: skip
    found = set()
    for top, ns in (("core", "rtoplanner.core"), ("app", "rtoplanner.app")):
        for init in (REPO / top).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / top)
            found.add(".".join([ns, *rel.parts]) if rel.parts else ns)
    assert found <= listed, f"add to pyproject packages: {sorted(found - listed)}"
