"""StoreService: the app's one owner of the store; Changes reach the GUI; a store that
cannot be opened leaves a window that works on files."""

from __future__ import annotations

import tomllib

import pytest
from PySide6.QtWidgets import QFileDialog

from rtoplanner.app.main_window import MainWindow
from rtoplanner.app.settings import AppSettings
from rtoplanner.app.store_service import StoreService
from rtoplanner.core.store import Store

from .conftest import DEMO
from .helpers import type_into

pytestmark = pytest.mark.gui


def test_changes_arrive_as_a_signal(qtbot, tmp_path):
    service = StoreService(tmp_path / "s.duckdb")
    try:
        assert service.available and service.error is None
        with qtbot.waitSignal(service.changed) as blocker:
            service.store.import_scenario(DEMO)
        assert blocker.args[0].scenarios and not blocker.args[0].catalog
        assert service.catalog().find("tape_drive", "LTO-4") is not None
    finally:
        service.close()
    assert service.store is None
    service.close()  # twice is fine


def test_no_path_means_files_only(qtbot):
    service = StoreService(None)
    assert not service.available and service.error is None
    w = MainWindow(AppSettings(), service)
    qtbot.addWidget(w)
    assert not w.scenario_list.store_box.isVisibleTo(w.scenario_list)
    assert w.scenario_list.note.text() == "No store: files only"
    assert not w.save_comment_action.isEnabled()
    w.doc.shutdown()


def test_a_locked_store_leaves_a_window_that_works_on_files(
    qtbot, tmp_path, demo_copy, monkeypatch
):
    """A second Store on one file in one process is refused (DuckDB would share the
    instance instead of hitting the file lock); the service reports it and the window
    falls back to files."""
    path = tmp_path / "s.duckdb"
    holder = Store(path)
    try:
        service = StoreService(path)
        assert service.store is None
        assert "already open" in service.error
        w = MainWindow(AppSettings(), service)
        w.show()
        qtbot.waitExposed(w)
        panel = w.scenario_list
        assert not panel.store_box.isVisible()
        assert panel.note.isVisible()
        assert panel.note.text().startswith("Store unavailable, files only: ")
        assert "already open" in panel.note.toolTip()
        groups = [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]
        assert "Demo scenarios" in groups
        assert not panel.deleted_action.isEnabled()
        assert not w.add_to_store_action.isEnabled()

        # Files still open and save.
        assert w.open_file(demo_copy, ask=False)
        w.doc.wait_idle()
        type_into(qtbot, w, "backup.channels", "9")
        assert w.save()
        assert tomllib.loads(demo_copy.read_text(encoding="utf-8"))["backup"]["channels"] == 9

        # A new scenario saves to a file (Save As), not to the missing store.
        w.new_action.trigger()
        target = tmp_path / "new.toml"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
        assert w.save()
        assert target.is_file() and w.doc.file_path == target
        w.doc.undo_stack.setClean()
        w.close()
        w.doc.shutdown()
        service.close()
    finally:
        holder.close()
