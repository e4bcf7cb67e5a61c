"""The main window on real widgets: live timeline, inline errors, undo, files, prompt."""

from __future__ import annotations

import tomllib

import pytest
from PySide6.QtWidgets import QMessageBox, QSpinBox

from rtoplanner.app.main_window import MainWindow
from rtoplanner.app.models.stage_table_model import COL_COUNT
from rtoplanner.app.settings import AppSettings

from .helpers import distinct_colours, phase, type_into

pytestmark = pytest.mark.gui


def test_opens_demo_with_a_verdict(window):
    plan = window.doc.plan
    assert plan is not None and plan.cycle is not None and plan.growth is not None
    assert window.odds.wait_idle()
    # The headline: the worse of the plan at its figures (MEETS) and its probability.
    assert plan.recovery.verdict == "meets"
    assert window.banner.verdict == window.odds.headline.verdict
    words = {"meets": "MEETS", "at_risk": "AT RISK", "misses": "MISSES"}
    assert words[window.odds.headline.verdict] in window.verdict_label.text()
    assert window.timeline_panel.shown[0].name == "detect"
    assert window.windowTitle().startswith("Exadata full rack")


def test_channel_count_changes_the_timeline(qtbot, window):
    before = phase(window, "restore_level0").duration_s
    total_before = window.doc.plan.recovery.total_s
    type_into(qtbot, window, "backup.channels", "4")
    assert window.doc.value("backup.channels") == 4
    after = phase(window, "restore_level0").duration_s
    assert after > before * 2
    assert window.doc.plan.recovery.total_s > total_before
    assert window.doc.plan.recovery.verdict == "misses"
    assert "MISSES" in window.verdict_label.text()
    assert "MISSES" in window.banner.text()


def test_tape_drive_count_in_the_stage_table_moves_the_verdict(qtbot, window):
    """The 'done when' of the issue: change the number of tape drives, see it move."""
    view = window.stages.view
    index = window.stages.model.index(0, COL_COUNT)
    view.setCurrentIndex(index)
    view.edit(index)
    spin = view.indexWidget(index) or view.findChild(QSpinBox)
    assert isinstance(spin, QSpinBox)
    updates = window.timeline_panel.update_count
    spin.setValue(3)  # live: commits on every change, no Enter needed
    window.doc.wait_idle()
    assert window.doc.value("path[0].count") == 3
    assert window.timeline_panel.update_count > updates
    assert window.doc.plan.restore_path.bottleneck == "LTO-4"
    assert window.doc.plan.recovery.verdict == "misses"


def test_invalid_unit_shows_inline_error_and_keeps_the_last_plan(qtbot, window):
    plan = window.doc.plan
    shown = list(window.timeline_panel.shown)
    type_into(qtbot, window, "database.size", "2.5 TX")
    field = window.editor.field("database.size")
    assert field.error_label.isVisible()
    assert "TX" in field.error_label.text()
    assert field.input.property("invalid") is True
    assert window.doc.plan is plan
    assert window.timeline_panel.shown == shown
    assert "input error" in window.banner.text()
    assert "last valid plan" in window.verdict_label.text()
    assert window.editor.tabBar().tabTextColor(1).name() == "#d23c3c"

    type_into(qtbot, window, "database.size", "2.5 TB")
    assert not field.error_label.isVisible()
    assert window.doc.plan is not plan
    assert phase(window, "restore_level0").data_bytes == pytest.approx(2.5e12)
    assert window.doc.value("database.size") == "2.5 TB"


def test_cross_field_error_lands_on_its_field(qtbot, window):
    type_into(qtbot, window, "database.largest_file", "20 TB")
    field = window.editor.field("database.largest_file")
    assert field.error_label.isVisible()
    assert "larger than the database size" in field.error_label.text()


def test_undo_restores_the_previous_value(qtbot, window):
    type_into(qtbot, window, "backup.channels", "16")
    assert window.doc.value("backup.channels") == 16
    assert window.isWindowModified()
    window.undo_action.trigger()  # typing "16" was one undo step
    window.doc.wait_idle()
    assert window.doc.value("backup.channels") == 14
    assert window.editor.field("backup.channels").input.text() == "14"
    assert not window.doc.is_dirty
    window.redo_action.trigger()
    window.doc.wait_idle()
    assert window.editor.field("backup.channels").input.text() == "16"


def test_stage_add_move_remove_are_undoable(qtbot, window):
    doc = window.doc
    window.stages.select_row(1)
    window.stages.add_action.trigger()
    assert doc.stage_count == 6
    assert window.stages.current_row() == 2
    window.stages.up_action.trigger()
    assert doc.raw["path"][1] == {"kind": "network", "name": "New stage", "count": 1}
    window.stages.remove_action.trigger()
    assert doc.stage_count == 5
    for _ in range(3):
        doc.undo_stack.undo()
    doc.wait_idle()
    assert doc.stage_count == 5 and doc.raw["path"][1]["name"] == "Media server (IB DDR HCA)"
    assert not doc.is_dirty


def test_pick_from_catalog_takes_the_catalog_rate(qtbot, window):
    doc = window.doc
    item = doc.catalog.find("tape_drive", "LTO-8")
    assert item is not None
    window.stages.select_row(0)
    window.stages.use_catalog_item(item)
    doc.wait_idle()
    assert doc.raw["path"][0]["name"] == "LTO-8"
    assert "rate" not in doc.raw["path"][0]
    assert doc.scenario.path[0].source.startswith("catalog")
    text = window.stages.model.index(0, 3).data()
    assert "(catalog)" in text


def test_save_close_and_reopen_keeps_the_edits(qtbot, window, demo_copy):
    type_into(qtbot, window, "backup.channels", "16")
    type_into(qtbot, window, "database.size", "12 TB")
    assert window.save()
    assert not window.doc.is_dirty
    window.close()

    saved = tomllib.loads(demo_copy.read_text(encoding="utf-8"))
    assert saved["backup"]["channels"] == 16
    assert saved["database"]["size"] == "12 TB"  # as typed, unit and all

    again = MainWindow(AppSettings())
    assert again.open_file(demo_copy, ask=False)
    again.doc.wait_idle()
    assert again.editor.field("backup.channels").input.text() == "16"
    assert again.editor.field("database.size").input.text() == "12 TB"
    assert again.doc.plan.scenario.database.size_bytes == 12e12
    assert str(demo_copy.resolve()) in again.settings.recent_files()
    again.close()


def test_unsaved_changes_prompt(qtbot, window, monkeypatch, demo_copy):
    asked = []

    def answer(button):
        def fake(*args, **kwargs):
            asked.append(args[2] if len(args) > 2 else "")
            return button

        return fake

    type_into(qtbot, window, "backup.channels", "9")
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Cancel))
    assert not window.close()
    assert window.isVisible() and len(asked) == 1
    assert "demo.toml" in asked[0]

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Save))
    assert window.close()
    assert len(asked) == 2
    assert tomllib.loads(demo_copy.read_text(encoding="utf-8"))["backup"]["channels"] == 9


def test_discard_closes_without_saving(qtbot, window, monkeypatch, demo_copy):
    original = demo_copy.read_text(encoding="utf-8")
    type_into(qtbot, window, "backup.channels", "9")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    assert window.close()
    assert demo_copy.read_text(encoding="utf-8") == original


def test_open_a_file_with_errors_marks_them(qtbot, window, tmp_path, monkeypatch):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        (window.doc.file_path.read_text(encoding="utf-8")).replace(
            'channel_init = "10 s"', 'channel_init = "10 parsecs"'
        ),
        encoding="utf-8",
    )
    assert window.open_file(bad, ask=False)
    field = window.editor.field("backup.channel_init")
    assert field.error_label.isVisible()
    assert window.doc.plan is None
    type_into(qtbot, window, "backup.channel_init", "10 s")
    assert window.doc.plan is not None and not window.doc.errors


def test_binary_units_are_kept_in_settings(qtbot, window):
    window.set_binary_units(True)
    assert "TiB" in window.timeline_panel.labels[1].toPlainText()
    assert AppSettings().binary_units is True
    window.set_binary_units(False)
    assert AppSettings().binary_units is False


def test_timeline_hover_explains_the_phase(window):
    p = phase(window, "restore_level0")
    row = window.timeline_panel.shown.index(p)
    text = window.timeline_panel.text_at(p.start_s + p.duration_s / 2, row)
    assert "Restore level 0" in text
    assert "Media server (IB DDR HCA)" in text
    assert "10.0 TB" in text
    assert window.timeline_panel.text_at(p.end_s + 600, row) == ""


def test_tooltips_use_the_field_help(window):
    tip = window.editor.field("backup.channel_init").input.toolTip()
    assert "media manager session" in tip


def test_screenshot_of_each_view(qtbot, window, tmp_path):
    out = tmp_path / "shots"
    out.mkdir()
    for i in range(window.results.count()):
        window.results.setCurrentIndex(i)
        qtbot.wait(10)
        image = window.grab().toImage()
        path = out / f"view_{i}.png"
        assert image.save(str(path))
        assert path.stat().st_size > 10_000
        assert distinct_colours(image) > 20, f"view {i} looks blank"
        panel_image = window.results.currentWidget().grab().toImage()
        assert distinct_colours(panel_image, step=5) > 8


def test_geometry_is_restored(qtbot, window):
    window.resize(760, 560)  # inside the offscreen screen (800 × 600): restoreGeometry clamps
    size = (window.width(), window.height())
    window.doc.undo_stack.setClean()
    window.close()
    again = MainWindow(AppSettings())
    # Offscreen, restoreGeometry clamps the width to the 800-pixel screen; the height
    # and the stored state show the round trip.
    assert again.height() == size[1]
    assert AppSettings().get("window/geometry") is not None
    again.close()


def test_result_views_say_what_limits_and_when_it_breaks(window):
    plan = window.doc.plan
    path = window.path_panel
    assert "Media server (IB DDR HCA)" in path.headline.text()
    row = plan.restore_path.bottleneck_index
    assert "Bottleneck" in path.text_at(1.0, row - 0.18)
    assert "every backup fits" in window.backups_panel.headline.text()
    assert "worst" in window.cycle_panel.worst_label.toPlainText()
    assert plan.growth.breaks_on.isoformat() in window.rpo_growth_panel.growth_title.text()


def test_about_names_the_versions(window):
    from PySide6 import __version__ as pyside

    from rtoplanner.app.shell.commands import about_text

    text = about_text()
    assert pyside in text and "pyqtgraph" in text and "Engine" in text


def test_recent_files_menu_lists_the_open_file(window, demo_copy):
    names = [a.text().split("  —  ")[0] for a in window.recent_menu.actions()]
    assert demo_copy.name in names
