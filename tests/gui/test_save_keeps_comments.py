"""Saving a scenario file from the app keeps its comments and layout (issue 13.5)."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from rtoplanner.app.document import StoreOrigin
from rtoplanner.core.scenario import dump_mapping

from .conftest import close_window, show_window
from .helpers import type_into

REPO = Path(__file__).resolve().parents[2]
DEMOS = sorted((REPO / "data" / "scenarios").glob("*.toml"))


def _comments(text: str) -> list[str]:
    return [m.group(0).strip() for m in re.finditer(r"#.*$", text, flags=re.M)]


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.name)
def test_saving_an_edited_demo_copy_keeps_every_comment(qtbot, tmp_path, demo):
    copy = tmp_path / demo.name
    shutil.copy(demo, copy)
    original = copy.read_text(encoding="utf-8")
    win = show_window(qtbot, path=copy)
    try:
        type_into(qtbot, win, "backup.channels", "12")
        type_into(qtbot, win, "targets.rto", "9 h")
        assert win.save()
        saved = copy.read_text(encoding="utf-8")
        assert _comments(saved) == _comments(original)
        values = tomllib.loads(saved)
        assert values["backup"]["channels"] == 12 and values["targets"]["rto"] == "9 h"
        assert values == tomllib.loads(dump_mapping(win.doc.raw))  # same values as canonical
        changed = [ln for ln in saved.splitlines() if ln not in original.splitlines()]
        assert len(changed) == 2, changed  # the two edited lines, nothing else

        # Save As to a new file keeps the layout too; Export TOML… is canonical.
        other = tmp_path / "copy.rto.toml"
        assert win.doc.save(other) == other
        assert _comments(other.read_text(encoding="utf-8")) == _comments(original)
        exported = win.doc.export(tmp_path / "export.toml").read_text(encoding="utf-8")
        assert exported == dump_mapping(win.doc.raw)
    finally:
        close_window(win)


def test_a_stored_scenario_saved_to_a_file_is_canonical(qtbot, tmp_path, service, demo_copy):
    win = show_window(qtbot, service, demo_copy)
    try:
        text = dump_mapping(win.doc.raw)
        win.doc.open_text(text, StoreOrigin("demo", 1))
        target = tmp_path / "from_store.toml"
        win.doc.save(target)
        assert target.read_text(encoding="utf-8") == text
    finally:
        close_window(win)
