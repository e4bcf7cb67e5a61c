"""The store's estates from the Estate window: Keep Version… and Stored Estates… (a real
DuckDB store, real widgets)."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox

from rtoplanner.app.estate.estate_store import NO_STORE, StoredEstatesDialog
from rtoplanner.core.store.estates import estate_history

from .conftest import close_window, show_window

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"


def demo_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "estates"
    shutil.copytree(DEMO.parent, folder)
    return folder / DEMO.name


def computed(qtbot, estate_window) -> None:
    qtbot.waitUntil(lambda: not estate_window.runner.busy and estate_window.result is not None,
                    timeout=20000)  # fmt: skip


def priority_of(estate_window, name: str) -> int:
    return next(d.priority for d in estate_window.estate.databases if d.name == name)


def test_keep_versions_and_open_an_older_one(qtbot, tmp_path, service):
    win = show_window(qtbot, service)
    try:
        path = demo_folder(tmp_path)
        ew = win.estates.open_file(path)
        computed(qtbot, ew)
        actions = ew.store_actions
        assert actions.keep_button.isVisible() and actions.stored_button.isVisible()
        first = actions.keep_version("as delivered")
        assert first is not None and first.version == 1

        ew.set_priority("HR", 1)  # an edit in the window, then a second version
        computed(qtbot, ew)
        second = actions.keep_version("HR in tier 1")
        assert second is not None and second.version == 2
        history = estate_history(service.store, first.estate)
        assert [(v.version, v.comment) for v in history] == [(1, "as delivered"),
                                                            (2, "HR in tier 1")]  # fmt: skip
        # the kept text is the file's, comments included, with only the tier edited
        assert "# Two media servers" in history[1].text
        assert history[1].text != history[0].text
        assert history[0].text == path.read_text(encoding="utf-8")

        dialog = StoredEstatesDialog(service.store, ew)
        qtbot.addWidget(dialog)
        assert dialog.names.rowCount() == 1 and dialog.versions.rowCount() == 2
        assert dialog.selected_version().version == 2  # newest first
        dialog.version_view.selectRow(1)
        older = dialog.selected_version()
        assert older.version == 1

        assert actions.open_version(older)
        computed(qtbot, ew)
        assert priority_of(ew, "HR") == 2  # as it was in version 1
        assert ew.path is None and ew.folder == path.parent.resolve()

        # Save As writes the stored text (comments kept) beside its scenario files
        out = path.parent / "again.toml"
        assert ew.save_to(out)
        assert out.read_text(encoding="utf-8") == history[0].text
    finally:
        close_window(win)


def test_stored_estates_dialog_says_when_the_store_has_none(qtbot, service):
    dialog = StoredEstatesDialog(service.store)
    qtbot.addWidget(dialog)
    assert dialog.names.rowCount() == 0
    assert not dialog.empty.isHidden()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Open).isEnabled()


def test_without_a_store_keep_version_says_so(qtbot, tmp_path):
    win = show_window(qtbot)  # no store service
    try:
        ew = win.estates.open_file(demo_folder(tmp_path))
        computed(qtbot, ew)
        assert ew.store_actions.keep_version("x") is None
        assert ew.statusBar().currentMessage() == NO_STORE
    finally:
        close_window(win)


def test_keep_version_waits_for_an_estate(qtbot, tmp_path, service):
    """View › Estate with no estate open offered Keep Version…, which then did nothing
    (issue 23.12's empty window): it is enabled once an estate is shown."""
    win = show_window(qtbot, service)
    try:
        ew = win.estates.show_window()
        keep = ew.store_actions.keep_button
        assert ew.estate is None and not keep.isEnabled()
        assert ew.store_actions.stored_button.isEnabled()  # stored estates open from here
        ew.open_estate(demo_folder(tmp_path))
        computed(qtbot, ew)
        assert keep.isEnabled()
    finally:
        close_window(win)
