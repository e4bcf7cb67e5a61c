"""The History dialog on a real store: versions, diff, open, restore, compare."""

from __future__ import annotations

import tomllib

import pytest

from rtoplanner.app.document import StoreOrigin

from .conftest import DEMO, close_window, show_window
from .helpers import compare_items, type_into

pytestmark = pytest.mark.gui

NAME = "Exadata full rack – restore from LTO-4 over InfiniBand"


@pytest.fixture
def win(qtbot, service):
    service.store.import_scenario(DEMO)
    w = show_window(qtbot, service)
    assert w.open_stored(NAME, ask=False)
    w.doc.wait_idle()
    yield w
    close_window(w)


def _save_three_times(qtbot, win) -> None:
    """v1 is the import; the editor then saves v2 and v3 with other channel counts."""
    for channels in ("10", "20"):
        type_into(qtbot, win, "backup.channels", channels)
        assert win.save()


def test_three_saves_are_three_versions_in_the_history(qtbot, win):
    _save_three_times(qtbot, win)
    win.scenario_list.select(NAME)
    win.scenario_list.history_action.trigger()
    dialog = win.scenario_list.history_dialogs[NAME]
    assert dialog.isVisible()
    assert [v.version for v in dialog.model.rows] == [1, 2, 3]
    assert dialog.model.rows[0].comment == "imported from exadata_tape_infiniband.toml"
    # The current version is selected and shows what it changed from v2.
    assert dialog.selected_version().version == 3
    assert "v3 (current) changed from v2" in dialog.diff_title.text()
    diff = dialog.diff_view.toPlainText()
    assert "-channels = 10" in diff and "+channels = 20" in diff
    assert not dialog.restore_button.isEnabled()
    dialog.close()


def test_a_new_scenario_saved_three_times_has_three_versions(qtbot, win, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    win.new_action.trigger()
    win.doc.wait_idle()
    assert win.save()  # v1
    type_into(qtbot, win, "backup.channels", "6")
    assert win.save()  # v2
    type_into(qtbot, win, "backup.channels", "8")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("eight channels", True))
    assert win.save_with_comment()  # v3
    dialog = win.scenario_list.show_history("New scenario")
    assert [v.version for v in dialog.model.rows] == [1, 2, 3]
    assert dialog.model.data(dialog.model.index(2, 2)) == "eight channels"
    assert dialog.model.data(dialog.model.index(2, 0)) == "v3 (current)"
    dialog.close()


def test_selecting_an_old_version_diffs_it_against_the_current_one(qtbot, win):
    _save_three_times(qtbot, win)
    dialog = win.scenario_list.show_history(NAME)
    dialog.select_version(1)
    assert dialog.selected_version().version == 1
    assert "From v1 (selected) to v3 (current)" in dialog.diff_title.text()
    diff = dialog.diff_view.toPlainText()
    assert diff.splitlines()[0].startswith("--- ")
    assert "-channels = 14" in diff and "+channels = 20" in diff
    assert dialog.restore_button.isEnabled() and dialog.compare_button.isEnabled()
    dialog.close()


def test_restore_an_old_version(qtbot, win):
    _save_three_times(qtbot, win)
    store = win.store_service.store
    dialog = win.scenario_list.show_history(NAME)
    dialog.select_version(1)
    new = dialog.restore_selected()
    assert new.version == 4 and new.restored_from == 1
    assert [v.version for v in dialog.model.rows] == [1, 2, 3, 4]
    assert dialog.selected_version().version == 4
    assert store.scenario_version(NAME).text == store.scenario_version(NAME, 1).text
    assert "Restored v1 as v4" in dialog.status.text()
    # The list heard about it through the store's Changes.
    panel = win.scenario_list
    row = panel.model.row_of(NAME)
    assert panel.model.summary(row).versions == 4
    dialog.close()


def test_open_this_version_opens_it_in_the_editor(qtbot, win):
    _save_three_times(qtbot, win)
    dialog = win.scenario_list.show_history(NAME)
    dialog.select_version(2)
    dialog.open_button.click()
    win.doc.wait_idle()
    assert win.doc.store_origin == StoreOrigin(NAME, 2)
    assert win.doc.value("backup.channels") == 10
    assert tomllib.loads(win.doc.text())["backup"]["channels"] == 10
    dialog.close()


def test_compare_with_current_opens_a_compare_window(qtbot, win):
    _save_three_times(qtbot, win)
    dialog = win.scenario_list.show_history(NAME)
    dialog.select_version(1)
    dialog.compare_button.click()
    assert len(win.compare_windows) == 1
    compare = win.compare_windows[0]
    a, b = compare_items(qtbot, compare)
    assert a.label == f"{NAME} v1" and b.label == f"{NAME} v3 (current)"
    assert a.plan.scenario.backup.channels == 14
    assert b.plan.scenario.backup.channels == 20
    compare.close()
    dialog.close()
