"""The stage table's capacity column and its max_rate column (issue 5 fix)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from rtoplanner.app.document import ScenarioDocument
from rtoplanner.app.models.stage_table_model import (
    COL_CAPACITY,
    COL_MAX_RATE,
    COLUMN_COUNT,
    COLUMN_KEYS,
    SortRole,
    StageTableModel,
)
from rtoplanner.core.scenario import STAGE_FIELDS

from .conftest import REPO

pytestmark = pytest.mark.gui

OLTP = REPO / "data" / "scenarios" / "oltp_zfs_nas.toml"
CPU_ROW = 2  # DB CPU: 32 cores, one channel per core, 16 channels


@pytest.fixture
def oltp_model(qtbot):
    doc = ScenarioDocument()
    doc.open(OLTP)
    assert doc.wait_idle()
    model = StageTableModel(doc)
    yield doc, model
    doc.shutdown()


def test_every_stage_field_has_a_column():
    assert set(COLUMN_KEYS.values()) == {s.key for s in STAGE_FIELDS}
    assert len(STAGE_FIELDS) + 1 == COLUMN_COUNT


def test_channel_binding_stage_shows_what_the_running_channels_let_through(oltp_model):
    doc, model = oltp_model
    cpu = model.index(CPU_ROW, COL_CAPACITY)
    # 16 channels × 200 MB/s, not 32 cores × 200 MB/s.
    assert cpu.data().startswith("3.20 GB/s"), cpu.data()
    path = doc.plan.restore_path
    assert cpu.data(SortRole) == pytest.approx(path.capacity_at_Bps(CPU_ROW))
    assert cpu.data(SortRole) == pytest.approx(3.2e9)
    tip = cpu.data(Qt.ItemDataRole.ToolTipRole)
    assert "16 channels running" in tip and "idle units do not help" in tip
    # A shared stage still shows its total: two heads × 2.5 GB/s of backup × 3:1.
    assert model.index(0, COL_CAPACITY).data().startswith("15.0 GB/s")


def test_capacity_follows_the_channel_count(qtbot, oltp_model):
    doc, model = oltp_model
    doc.set_value("backup.channels", 8)
    assert doc.wait_idle()
    assert model.index(CPU_ROW, COL_CAPACITY).data().startswith("1.60 GB/s")


def test_max_rate_column_edits_and_shows_the_catalog_ceiling(qtbot):
    doc = ScenarioDocument()
    doc.new()  # NEW_SCENARIO: 4 × LTO-8 from the catalog
    assert doc.wait_idle()
    model = StageTableModel(doc)
    cell = model.index(0, COL_MAX_RATE)
    stage = doc.scenario.path[0]
    assert stage.max_rate_Bps is not None  # the catalog's compressed rate
    assert "(catalog)" in cell.data()
    assert cell.data(Qt.ItemDataRole.ForegroundRole) is not None  # greyed: filled in
    assert cell.data(Qt.ItemDataRole.FontRole).italic()
    before = doc.plan.restore_path.capacity_at_Bps(0)

    assert model.setData(cell, "300 MB/s")
    assert doc.wait_idle()
    assert doc.raw["path"][0]["max_rate"] == "300 MB/s"
    assert cell.data() == "300 MB/s"
    assert cell.data(Qt.ItemDataRole.ForegroundRole) is None
    assert doc.plan.restore_path.capacity_at_Bps(0) < before
    doc.undo_stack.undo()
    assert doc.wait_idle()
    assert "max_rate" not in doc.raw["path"][0]
    doc.shutdown()
