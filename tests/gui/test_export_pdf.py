"""File › Export PDF…: a worker writes a readable PDF; errors and questions in boxes."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox

from rtoplanner.app.dialogs.export_pdf import default_file_name, export_plan

from .helpers import type_into

pytestmark = pytest.mark.gui


def _answer(monkeypatch, name, answer, seen):
    def box(*args, **kwargs):
        seen.append((name, args[2] if len(args) > 2 else ""))
        return answer

    monkeypatch.setattr(QMessageBox, name, box)


def test_export_writes_a_readable_pdf_and_offers_to_open_it(qtbot, window, tmp_path, monkeypatch):
    out = tmp_path / "plan"
    asked = {}

    def save_name(parent, caption, start, filters):
        asked["start"] = start
        return str(out), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    seen: list = []
    _answer(monkeypatch, "question", QMessageBox.StandardButton.Open, seen)
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)

    assert window.export_pdf_action.shortcut().toString() == "Ctrl+E"
    window.export_pdf_action.trigger()
    exporter = window.pdf_exporter
    assert not window.export_pdf_action.isEnabled()  # one export at a time
    qtbot.waitUntil(lambda: not exporter.busy, timeout=30000)
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)

    assert asked["start"].endswith(default_file_name(window.doc.scenario.name))
    pdf = tmp_path / "plan.pdf"
    assert pdf.is_file()
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert window.doc.scenario.name.split(" ")[0] in text
    assert "RTO" in text
    assert seen[0][0] == "question" and "Open it now?" in seen[0][1]
    assert opened and opened[0].toLocalFile() == str(pdf)
    assert window.export_pdf_action.isEnabled()
    assert not exporter.progress.isVisible()


def test_export_error_is_a_message_not_a_traceback(qtbot, window, tmp_path, monkeypatch):
    seen: list = []
    _answer(monkeypatch, "critical", QMessageBox.StandardButton.Ok, seen)
    assert window.export_pdf(tmp_path / "missing folder" / "plan.pdf")
    qtbot.waitUntil(lambda: bool(seen), timeout=30000)
    assert seen[0][0] == "critical"
    assert "does not exist" in seen[0][1] and "Traceback" not in seen[0][1]
    qtbot.waitUntil(lambda: not window.pdf_exporter.busy, timeout=5000)


def test_export_with_input_errors_says_it_uses_the_last_valid_plan(
    qtbot, window, tmp_path, monkeypatch
):
    type_into(qtbot, window, "database.size", "12 TX")
    assert window.doc.errors
    seen: list = []
    _answer(monkeypatch, "question", QMessageBox.StandardButton.Cancel, seen)
    assert not window.export_pdf(tmp_path / "plan.pdf")
    assert "last valid plan" in seen[0][1]
    assert not (tmp_path / "plan.pdf").exists()


def test_cancel_leaves_no_file(qtbot, window, tmp_path, monkeypatch):
    out = tmp_path / "plan.pdf"
    assert window.export_pdf(out)
    exporter = window.pdf_exporter
    exporter.cancel()
    qtbot.waitUntil(lambda: not exporter.busy, timeout=30000)
    assert not out.exists()
    assert "cancelled" in window.statusBar().currentMessage()


def test_export_plan_reports_throttled_progress(window, tmp_path):
    steps = []
    path = export_plan(
        window.doc.scenario, tmp_path / "p.pdf", progress=lambda f, m: steps.append(f)
    )
    assert path.is_file()
    percents = [int(f * 100) for f in steps]
    assert len(percents) == len(set(percents))  # one signal per whole percent at most
    assert percents[-1] == 100


def test_default_file_name():
    assert default_file_name("OLTP on RAC – restore from ZFS") == "OLTP_on_RAC_restore_from_ZFS.pdf"
    assert default_file_name("///") == "plan.pdf"
