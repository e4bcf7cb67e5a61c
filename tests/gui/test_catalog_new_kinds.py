"""Issue 23 item 3 in the editor: "From catalog…" offers the Recovery Appliance and object
storage, and putting object storage in place of a 14-drive tape stage gives a valid plan
(its rate is per RMAN channel: the stage's units go, they would be refused)."""

from __future__ import annotations

import pytest

from rtoplanner.core.wording import stage_kind_words


def _submenus(menu) -> dict[str, list[str]]:
    """The first section's submenus (Add a stage…): kind words → item texts."""
    out: dict[str, list[str]] = {}
    for action in menu.actions():
        if action.isSeparator():
            break
        if action.menu() is not None:
            out[action.text()] = [a.text() for a in action.menu().actions()]
    return out


def test_from_catalog_lists_the_appliance_and_object_storage(qtbot, window):
    panel = window.stages
    panel._fill_catalog_menu()
    kinds = _submenus(panel.catalog_menu)
    appliance = kinds[stage_kind_words("backup_appliance")]
    assert any(t.startswith("Recovery Appliance RA23 (ZDLRA) rack — ") for t in appliance)
    buckets = kinds[stage_kind_words("object_storage")]
    assert any(t.startswith("OCI Object Storage, one RMAN channel — 85") for t in buckets)
    assert any("Exadata storage server HC (X8M–X11M)" in t
               for t in kinds[stage_kind_words("storage_write")])  # fmt: skip


def test_object_storage_replaces_a_tape_stage_and_plans(qtbot, window):
    doc, panel = window.doc, window.stages
    item = panel.catalog.find("object_storage", "OCI Object Storage, one RMAN channel")
    assert doc.raw["path"][0]["count"] == 14
    panel.use_catalog_item(item, 0)
    assert doc.wait_idle() and doc.is_valid, doc.errors
    assert "count" not in doc.raw["path"][0]
    stage = doc.plan.restore_path.stages[0]
    assert stage.kind == "object_storage" and stage.per_channel_only
    assert stage.unit_Bps == pytest.approx(85e6 * doc.plan.scenario.backup.compression_ratio)
