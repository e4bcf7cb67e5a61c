"""The docs a user has: complete for the scenario format, and pointing only at files they have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtoplanner.core import scenario

REPO = Path(__file__).resolve().parents[2]
USER_DOCS = [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").glob("*.md"))]
SECTIONS = {
    "Top level": scenario.TOP_FIELDS,
    "`[database]`": scenario.DATABASE_FIELDS,
    "`[backup]`": scenario.BACKUP_FIELDS,
    "`[[path]]": scenario.STAGE_FIELDS,
    "`[recovery]`": scenario.RECOVERY_FIELDS,
    "`[targets]`": scenario.TARGETS_FIELDS,
}


def test_every_scenario_key_is_documented_in_its_table():
    text = (REPO / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    chunks = re.split(r"^### ", text, flags=re.M)
    for heading, specs in SECTIONS.items():
        (chunk,) = [c for c in chunks if c.startswith(heading)]
        missing = [f.key for f in specs if f"| `{f.key}` |" not in chunk]
        assert not missing, f"docs/scenario-format.md, {heading}: document {missing}"


def test_the_key_tables_are_generated_from_the_field_table():
    """docs/scenario-format.md's key and range tables are what the field table says now
    (`python3 dev.py docs` regenerates them); a hand edit or a new key makes it stale."""
    from rtoplanner.core.scenario.docs import render

    text = (REPO / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    assert text.count("<!-- BEGIN GENERATED") == 2
    assert render(text) == text, "docs/scenario-format.md is stale: run python3 dev.py docs"
    edited = text.replace("| `channels` | RMAN channels | int | 1 |", "| `channels` | int |")
    assert edited != text and render(edited) == text


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.name)
def test_user_docs_do_not_point_at_the_design_brief(doc):
    """DESIGN.md is the team's brief; a user has only the README, docs/ and the app."""
    lines = [n for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
             if "DESIGN" in line]  # fmt: skip
    assert not lines, f"{doc.name} mentions DESIGN on lines {lines}"


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.name)
def test_relative_links_in_user_docs_resolve(doc):
    text = doc.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
        assert (doc.parent / target).exists(), f"{doc.name} links to missing {target}"
