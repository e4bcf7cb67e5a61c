"""The store-backed scenario list on real widgets and a real DuckDB file: listing,
search, new, duplicate, delete with undo, open and save as new versions."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox

from rtoplanner.app.document import StoreOrigin
from rtoplanner.app.models.scenario_list_model import (
    COL_NAME,
    COL_SAVED,
    COL_VERSIONS,
    NameRole,
    ScenarioListModel,
    VersionListModel,
    format_saved,
    format_saved_short,
)

from .conftest import REPO, close_window, show_window
from .helpers import type_into

pytestmark = pytest.mark.gui

SCENARIOS = REPO / "data" / "scenarios"
EXADATA = SCENARIOS / "exadata_tape_infiniband.toml"
ZFS = SCENARIOS / "oltp_zfs_nas.toml"
SMALL = SCENARIOS / "small_gige_lto.toml"
EXADATA_NAME = "Exadata full rack – restore from LTO-4 over InfiniBand"
ZFS_NAME = "OLTP on RAC – restore from ZFS appliance, RMAN MEDIUM"
SMALL_NAME = "Small ERP – restore over GigE from LTO-5"


@pytest.fixture
def stored(service):
    """Three demo scenarios in the store, the small one with two versions."""
    store = service.store
    for path in (EXADATA, ZFS, SMALL):
        store.import_scenario(path)
    store.save_scenario(SMALL.read_text(encoding="utf-8"), comment="second look")
    return service


@pytest.fixture
def win(qtbot, stored):
    w = show_window(qtbot, stored)
    w.doc.wait_idle()
    yield w
    close_window(w)


def _row(panel, name):
    return panel.proxy.mapFromSource(panel.model.index(panel.model.row_of(name), COL_NAME))


# ---------------------------------------------------------------------- models


def test_models_pass_the_model_tester(qtmodeltester, stored):
    model = ScenarioListModel()
    model.set_rows(stored.store.scenarios())
    assert model.rowCount() == 3
    qtmodeltester.check(model)
    model.set_current(SMALL_NAME)
    versions = VersionListModel()
    versions.set_rows(stored.store.history(SMALL_NAME))
    qtmodeltester.check(versions)
    assert versions.rowCount() == 2
    assert versions.data(versions.index(1, 0)) == "v2 (current)"
    assert versions.data(versions.index(1, 2)) == "second look"


def test_model_formats_in_data(stored):
    model = ScenarioListModel()
    model.set_rows(stored.store.scenarios())
    row = model.row_of(SMALL_NAME)
    assert model.data(model.index(row, COL_VERSIONS)) == "2"
    saved = model.data(model.index(row, COL_SAVED))
    assert len(saved) == 5 and saved[2] == ":"  # today: just the time
    assert "second look" in model.data(model.index(row, 3))
    assert model.data(model.index(row, 0), NameRole) == SMALL_NAME
    model.set_current(SMALL_NAME)
    assert model.data(model.index(row, 0), Qt.ItemDataRole.FontRole).bold()
    assert "2 versions" in model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole)


def test_format_saved_says_today_yesterday_or_the_date():
    now = datetime(2026, 3, 10, 15, 0, tzinfo=UTC).astimezone()
    assert format_saved(now - timedelta(minutes=5), now).startswith("today")
    assert format_saved(now - timedelta(days=1), now).startswith("yesterday")
    assert format_saved(now - timedelta(days=40), now)[:4] == "2026"
    assert format_saved(None) == ""
    assert (
        format_saved_short(now - timedelta(minutes=5), now)
        == f"{(now - timedelta(minutes=5)):%H:%M}"
    )
    assert format_saved_short(datetime(2024, 5, 1, 12, tzinfo=UTC), now) == "2024-05-01"


# ---------------------------------------------------------------------- the list


def test_list_shows_the_store_and_the_demo_files(win):
    panel = win.scenario_list
    assert sorted(panel.visible_names()) == sorted([EXADATA_NAME, ZFS_NAME, SMALL_NAME])
    assert panel.store_box.isVisible() and not panel.note.isVisible()
    assert "(3)" in panel.store_title.text()
    groups = [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]
    assert "Demo scenarios" in groups


def test_list_reloads_when_the_store_changes(qtbot, win):
    """A write elsewhere (here: straight to the store) reaches the list via `changed`."""
    text = EXADATA.read_text(encoding="utf-8").replace(EXADATA_NAME, "Reloaded")
    with qtbot.waitSignal(win.store_service.changed):
        win.store_service.store.save_scenario(text)
    assert "Reloaded" in win.scenario_list.visible_names()


def test_search_filters_names_and_comments(qtbot, win):
    panel = win.scenario_list
    qtbot.keyClicks(panel.search, "zfs")
    assert panel.visible_names() == [ZFS_NAME]
    files = panel.tree.topLevelItem(panel.tree.topLevelItemCount() - 1)
    shown = [
        files.child(i).text(0) for i in range(files.childCount()) if not files.child(i).isHidden()
    ]
    assert shown == ["oltp zfs nas"]
    panel.search.clear()
    qtbot.keyClicks(panel.search, "SECOND LOOK")  # the comment of the latest version
    assert panel.visible_names() == [SMALL_NAME]
    panel.search.clear()
    assert len(panel.visible_names()) == 3


def test_duplicate_saves_a_copy_under_a_new_name(qtbot, win, monkeypatch):
    panel = win.scenario_list
    asked = []

    def get_text(parent, title, label, echo, text):
        asked.append(text)
        return "ERP copy", True

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    panel.select(SMALL_NAME)
    panel.duplicate_action.trigger()
    assert asked == [f"{SMALL_NAME} (copy)"]
    store = win.store_service.store
    assert "ERP copy" in panel.visible_names()
    assert panel.selected_name() == "ERP copy"
    copy = store.scenario_version("ERP copy")
    assert copy.version == 1 and "duplicated from" in copy.comment
    assert tomllib.loads(copy.text)["name"] == "ERP copy"
    original = tomllib.loads(SMALL.read_text(encoding="utf-8"))
    assert tomllib.loads(copy.text)["database"] == original["database"]
    assert store.scenario_version(SMALL_NAME).version == 2  # the original is untouched


def test_duplicate_refuses_a_taken_name(win, monkeypatch):
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    assert win.scenario_list.duplicate(SMALL_NAME, ZFS_NAME) is None
    assert warned and "already has" in warned[0]


def test_delete_then_undo_brings_it_back(qtbot, win):
    panel = win.scenario_list
    store = win.store_service.store
    panel.select(ZFS_NAME)
    panel.delete_action.trigger()
    assert ZFS_NAME not in panel.visible_names()
    bin_ = [s.name for s in store.scenarios(include_deleted=True) if s.deleted_at]
    assert bin_ == [ZFS_NAME]
    message = panel.undo_message
    assert message.isVisible() and ZFS_NAME in message.label.text()
    assert win.scenario_list.undo_delete_action.isEnabled()
    qtbot.mouseClick(message.button, Qt.MouseButton.LeftButton)
    assert ZFS_NAME in panel.visible_names()
    assert not message.isVisible()
    assert len(store.history(ZFS_NAME)) == 1

    # Edit › Undo Delete does the same.
    panel.select(EXADATA_NAME)
    panel.delete_action.trigger()
    assert EXADATA_NAME not in panel.visible_names()
    edit_menu = win.menuBar().actions()[1].menu()
    assert panel.undo_delete_action in edit_menu.actions()
    panel.undo_delete_action.trigger()
    assert EXADATA_NAME in panel.visible_names()
    assert not panel.undo_delete_action.isEnabled()


def test_deleted_scenarios_dialog_restores(qtbot, win):
    panel = win.scenario_list
    panel.delete(SMALL_NAME)
    dialog = panel.show_deleted()
    assert dialog.model.names() == [SMALL_NAME]
    assert dialog.model.data(dialog.model.index(0, 4)).startswith("today")
    dialog.select(SMALL_NAME)
    assert dialog.restore_selected() == [SMALL_NAME]
    assert SMALL_NAME in panel.visible_names()
    assert dialog.model.rowCount() == 0
    dialog.close()


def test_double_click_opens_a_stored_scenario_and_save_adds_a_version(qtbot, win):
    panel = win.scenario_list
    index = _row(panel, ZFS_NAME)
    rect = panel.view.visualRect(index)
    # A click first: an item view acts on a double-click only at the pressed index.
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    win.doc.wait_idle()
    assert win.doc.store_origin == StoreOrigin(ZFS_NAME, 1)
    assert win.doc.file_path is None
    assert win.doc.raw["name"] == ZFS_NAME
    assert panel.model.data(panel.model.index(panel.model.row_of(ZFS_NAME), 0),
                            Qt.ItemDataRole.FontRole).bold()  # fmt: skip
    assert "(stored, version 1)" in win.windowTitle()

    type_into(qtbot, win, "backup.channels", "24")
    assert win.doc.is_dirty
    win.save_action.trigger()
    store = win.store_service.store
    history = store.history(ZFS_NAME)
    assert [v.version for v in history] == [1, 2]
    assert tomllib.loads(history[-1].text)["backup"]["channels"] == 24
    assert win.doc.store_origin == StoreOrigin(ZFS_NAME, 2)
    assert not win.doc.is_dirty
    assert panel.model.data(panel.model.index(panel.model.row_of(ZFS_NAME), COL_VERSIONS)) == "2"


def test_save_with_comment_keeps_the_comment(qtbot, win, monkeypatch):
    win.open_stored(SMALL_NAME, ask=False)
    type_into(qtbot, win, "backup.channels", "4")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("four channels", True))
    assert win.save_comment_action.shortcut().toString() == "Ctrl+Alt+S"
    win.save_comment_action.trigger()
    latest = win.store_service.store.scenario_version(SMALL_NAME)
    assert latest.version == 3 and latest.comment == "four channels"


def test_new_scenarios_get_free_names_and_save_to_the_store(qtbot, win):
    win.new_action.trigger()
    win.doc.wait_idle()
    assert win.doc.raw["name"] == "New scenario"
    assert win.save()
    assert win.doc.store_origin == StoreOrigin("New scenario", 1)
    win.new_action.trigger()
    win.doc.wait_idle()
    assert win.doc.raw["name"] == "New scenario 2"
    assert win.save()
    assert {"New scenario", "New scenario 2"} <= set(win.scenario_list.visible_names())


def test_saving_under_a_taken_name_asks_first(qtbot, win, monkeypatch):
    win.new_action.trigger()
    win.doc.set_value("name", ZFS_NAME)  # (keyClicks cannot type the en dash)
    win.doc.wait_idle()
    answers = []

    def question(parent, title, text, *args):
        answers.append(text)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", question)
    assert not win.save()
    assert "already has a scenario" in answers[0]
    assert len(win.store_service.store.history(ZFS_NAME)) == 1


def test_invalid_scenario_is_not_stored(qtbot, win, monkeypatch):
    win.open_stored(ZFS_NAME, ask=False)
    type_into(qtbot, win, "database.size", "12 TX")
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    assert not win.save()
    assert "only valid scenarios" in warned[0]
    assert len(win.store_service.store.history(ZFS_NAME)) == 1


def test_a_file_saves_to_its_file_and_can_be_added_to_the_store(qtbot, win, demo_copy, monkeypatch):
    assert win.open_file(demo_copy, ask=False)
    win.doc.wait_idle()
    assert win.add_to_store_action.isEnabled()
    type_into(qtbot, win, "backup.channels", "12")
    assert win.save()
    assert tomllib.loads(demo_copy.read_text(encoding="utf-8"))["backup"]["channels"] == 12
    store = win.store_service.store
    assert len(store.history(EXADATA_NAME)) == 1  # Save wrote the file only

    # Add to store: the name exists, so it asks; the document stays with its file.
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Save)
    win.add_to_store_action.trigger()
    history = store.history(EXADATA_NAME)
    assert len(history) == 2 and history[-1].comment == "added from demo.toml"
    assert tomllib.loads(history[-1].text)["backup"]["channels"] == 12
    assert win.doc.file_path == demo_copy and win.doc.store_origin is None


def test_export_toml_writes_a_copy_and_keeps_the_origin(qtbot, win, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    win.open_stored(SMALL_NAME, ask=False)
    target = tmp_path / "exported"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert win.export_toml()
    text = (tmp_path / "exported.rto.toml").read_text(encoding="utf-8")  # scenario file type
    assert tomllib.loads(text)["name"] == SMALL_NAME
    assert win.doc.store_origin == StoreOrigin(SMALL_NAME, 2)


def test_opening_an_old_version_then_saving_makes_a_new_one(qtbot, win):
    assert win.open_stored(SMALL_NAME, 1, ask=False)
    assert win.doc.store_origin == StoreOrigin(SMALL_NAME, 1)
    assert "current: v2" in win.statusBar().currentMessage()
    type_into(qtbot, win, "backup.channels", "3")
    assert win.save()
    assert win.doc.store_origin == StoreOrigin(SMALL_NAME, 3)
