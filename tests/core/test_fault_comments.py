"""Issue 25.12: `fix -o` and `imports apply -o` keep every comment of the source scenario
(the header that says where the figures come from, the end-of-line sources the PDF's
ledger prints), as the GUI's Save does; only the values they change are edited."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rtoplanner.core.cli import main
from rtoplanner.core.comments import source_comments
from rtoplanner.core.fix import what_it_takes
from rtoplanner.core.fix.export import changed_scenario
from rtoplanner.core.scenario import dump_scenario, load_scenario

REPO = Path(__file__).resolve().parents[2]
DEMOS = sorted((REPO / "data" / "scenarios").glob("*.toml"))
AWR = REPO / "tests" / "fixtures" / "awr" / "synthetic" / "awr_19c_text.txt"


def _comment_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.lstrip().startswith("#")]


def _kept(source: str, written: str, removed: frozenset[str] = frozenset()) -> None:
    """Every comment line of the source is in the written file, in order; every key's
    own comment (beside or above it) is kept, a change's note added after it — but for
    the keys a change removes (a swapped drive's rate goes with its line)."""
    lines = _comment_lines(written)
    at = 0
    for line in _comment_lines(source):
        assert line in lines[at:], line
        at = lines.index(line, at) + 1
    old, new = source_comments(source), source_comments(written)
    for key, comment in old.items():
        if key in removed:
            continue
        assert new.get(key, "").startswith(comment), (key, comment, new.get(key))


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.stem)
def test_fix_o_keeps_every_comment_and_changes_only_the_points_values(demo, tmp_path, capsys):
    out = tmp_path / "fixed.toml"
    assert main(["fix", str(demo), "-o", str(out), "--no-store"]) == 0
    source, written = demo.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
    scenario = load_scenario(demo)
    point = what_it_takes(scenario).chosen
    removed = frozenset(k for k, v in point.edits.items() if v is None)
    _kept(source, written, removed)
    assert "# what it takes:" in written
    expected = dump_scenario(changed_scenario(scenario, point, None))
    assert dump_scenario(load_scenario(out)) == expected  # the same figures as before


def test_imports_apply_o_and_in_place_keep_every_comment(tmp_path, capsys):
    db = str(tmp_path / "s.duckdb")
    assert main(["import", "--db", db, str(AWR)]) == 0
    source = tmp_path / "plan.toml"
    shutil.copy(DEMOS[-2], source)  # small_gige_lto: a header and end-of-line sources
    before = source.read_text(encoding="utf-8")
    out = tmp_path / "applied.toml"
    argv = ["imports", "apply", "--db", db, str(source), "--database", "PROD19",
            "--redo", "avg"]  # fmt: skip
    assert main([*argv, "-o", str(out)]) == 0
    _kept(before, out.read_text(encoding="utf-8"))
    applied = load_scenario(out)
    assert applied.database.redo_rate_Bps != load_scenario(source).database.redo_rate_Bps
    assert "workload.database" in applied.provenance
    assert main([*argv, "--in-place"]) == 0
    _kept(before, source.read_text(encoding="utf-8"))
    assert dump_scenario(load_scenario(source)) == dump_scenario(applied)
