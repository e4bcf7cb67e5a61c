"""The document, the stage table model, the worker and the entry point, on their own."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from PySide6.QtCore import QThread
from PySide6.QtGui import QImage

from rtoplanner.app.document import ScenarioDocument, field_errors
from rtoplanner.app.editor.fields import value_from_text
from rtoplanner.app.models.stage_table_model import COL_CAPACITY, COL_RATE, StageTableModel
from rtoplanner.app.workers import TaskRunner
from rtoplanner.core.scenario import field_spec

from .conftest import DEMO, REPO
from .helpers import distinct_colours

pytestmark = pytest.mark.gui


def test_value_from_text_keeps_what_was_typed():
    assert value_from_text(field_spec("backup", "channels"), "16") == 16
    assert value_from_text(field_spec("backup", "channels"), "16x") == "16x"
    assert value_from_text(field_spec("backup", "compression_ratio"), "4.4") == 4.4
    assert value_from_text(field_spec("backup", "compression_ratio"), "4.4:1") == "4.4:1"
    assert value_from_text(field_spec("database", "size"), "2.5 TB") == "2.5 TB"
    assert value_from_text(field_spec("database", "size"), "  ") is None


def test_field_errors_reports_every_bad_field():
    doc = ScenarioDocument()
    raw = dict(doc.raw)
    raw["database"] = {**raw["database"], "size": "lots"}
    raw["backup"] = {**raw["backup"], "channels": "many"}
    errors = field_errors(raw)
    assert set(errors) == {"database.size", "backup.channels"}


def test_document_typing_merges_into_one_undo_step(qtbot):
    doc = ScenarioDocument()
    doc.new()
    for text in ("1", "12", "12 ", "12 T", "12 TB"):
        doc.set_value("database.size", text)
    assert doc.undo_stack.count() == 1
    doc.close_edit()
    doc.set_value("database.size", "13 TB")
    assert doc.undo_stack.count() == 2
    assert doc.wait_idle()


def test_document_emits_fast_then_full_plan(qtbot):
    doc = ScenarioDocument()
    plans = []
    doc.plan_changed.connect(plans.append)
    doc.open(DEMO)
    assert doc.wait_idle()
    assert plans[0].cycle is None and plans[-1].cycle is not None
    assert plans[-1].scenario is doc.scenario


def test_stage_table_model(qtmodeltester, qtbot):
    doc = ScenarioDocument()
    doc.open(DEMO)
    doc.wait_idle()
    model = StageTableModel(doc)
    qtmodeltester.check(model)
    assert model.rowCount() == 5
    assert "bottleneck" in model.index(1, COL_CAPACITY).data()
    assert model.setData(model.index(0, COL_RATE), "160 MB/s")
    doc.wait_idle()
    assert doc.value("path[0].rate") == "160 MB/s"
    doc.add_stage(None, {"kind": "network", "count": 1, "rate": "1 Gb/s"})
    doc.wait_idle()
    assert model.rowCount() == 6
    qtmodeltester.check(model)


def test_task_runner_delivers_on_the_gui_thread_and_drops_stale_results(qtbot):
    runner = TaskRunner()
    gate = threading.Event()
    results, threads = [], []

    def slow(value):
        gate.wait(5)
        return value

    runner.done.connect(lambda v: (results.append(v), threads.append(QThread.currentThread())))
    runner.submit(slow, "old")
    runner.submit(lambda: "new")
    gate.set()
    qtbot.waitUntil(lambda: not runner.busy, timeout=5000)
    assert results == ["new"]
    assert threads == [QThread.currentThread()]


def test_task_runner_reports_errors(qtbot):
    runner = TaskRunner()
    errors = []
    runner.failed.connect(errors.append)

    def boom():
        raise ValueError("bad")

    with qtbot.waitSignal(runner.failed, timeout=5000):
        runner.submit(boom)
    qtbot.waitUntil(lambda: not runner.busy, timeout=5000)
    assert str(errors[0]) == "bad"


@pytest.mark.slow
def test_screenshot_entry_point(tmp_path):
    out = tmp_path / "out.png"
    proc = subprocess.run(
        [sys.executable, "-m", "rtoplanner.app", "gui",
         str(REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"),
         "--screenshot", str(out)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert out.is_file()
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700
    assert distinct_colours(image) > 50


def test_screenshot_of_a_missing_file_fails_cleanly(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "rtoplanner.app", "gui", str(tmp_path / "nope.toml"),
         "--screenshot", str(tmp_path / "out.png")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "no such file" in proc.stderr
    assert "Traceback" not in proc.stderr
