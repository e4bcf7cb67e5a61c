"""Rooms, not halls (DESIGN §13, issue 24): the main window is a shell of at most 300
lines, and no class of the app is over 400 lines. A change that grows past these
splits the class by what it decides (see docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAIN_WINDOW_LINES = 300
CLASS_LINES = 400


def class_lengths(folder: Path) -> dict[str, int]:
    lengths = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                name = f"{path.relative_to(REPO)}:{node.name}"
                lengths[name] = node.end_lineno - node.lineno + 1
    return lengths


def test_the_main_window_is_a_shell():
    lines = len((REPO / "app" / "main_window.py").read_text(encoding="utf-8").splitlines())
    assert lines <= MAIN_WINDOW_LINES, (
        f"app/main_window.py has {lines} lines (at most {MAIN_WINDOW_LINES}): register the "
        "view or command instead (app/shell/registry.py)"
    )


def test_no_class_of_the_app_is_a_hall():
    long = {k: n for k, n in class_lengths(REPO / "app").items() if n > CLASS_LINES}
    assert not long, f"classes over {CLASS_LINES} lines (split them): {long}"
