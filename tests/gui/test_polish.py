"""What a DBA winced at (issue 15): hover tips, small windows, invalid files, demos,
help and the small things, each checked on the real widgets."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPointF
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from rtoplanner.app.scenario_list import PathRole

from .conftest import DEMO, close_window, show_window
from .helpers import phase

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = show_window(qtbot, path=DEMO)
    win.doc.wait_idle()
    yield win
    close_window(win)


def activate(qtbot, win) -> None:
    """Make the window the active one (shortcuts need it), offscreen or on a real X."""
    win.raise_()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)


def rest_mouse_on(plot, view_x: float, view_y: float) -> None:
    """Move the mouse to a point of the plot, then let it rest (Qt's ToolTip event)."""
    vb = plot.getPlotItem().getViewBox()
    scene_pt = vb.mapViewToScene(QPointF(view_x, view_y))
    pos = plot.mapFromScene(scene_pt)
    viewport = plot.viewport()
    plot.scene().sigMouseMoved.emit(scene_pt)
    event = QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos))
    QApplication.sendEvent(viewport, event)


def test_timeline_hover_tip_stays_and_shows_volume_rate_and_bottleneck(qtbot, window):
    window.show_view("timeline")
    panel = window.timeline_panel
    qtbot.wait(50)
    p = phase(window, "restore_level0")
    row = panel.shown.index(p)
    rest_mouse_on(panel.plot, p.start_s + p.duration_s / 2, row)
    qtbot.wait(600)  # Qt hides an empty tip after a delay
    assert QToolTip.isVisible()
    text = QToolTip.text()
    assert "Volume" in text and "Rate" in text and "Bottleneck" in text
    # Resting again (Qt repeats the event) keeps it up.
    rest_mouse_on(panel.plot, p.start_s + p.duration_s / 2, row)
    qtbot.wait(600)
    assert QToolTip.isVisible() and "Bottleneck" in QToolTip.text()
    QToolTip.hideText()


def test_path_hover_tip_stays(qtbot, window):
    window.show_view("path")
    panel = window.path_panel
    qtbot.wait(50)
    row = window.doc.plan.restore_path.bottleneck_index
    rest_mouse_on(panel.plot, 1.0, row - 0.18)
    qtbot.wait(600)  # Qt hides an empty tip after a delay
    assert QToolTip.isVisible() and "Bottleneck" in QToolTip.text()
    QToolTip.hideText()


def _bad_copy(tmp_path, old: str = "redo_rate", new: str = "redo_rat"):
    text = DEMO.read_text(encoding="utf-8")
    assert f"\n{old} =" in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(f"\n{old} =", f"\n{new} =", 1), encoding="utf-8")
    return bad


def test_an_invalid_file_never_shows_the_previous_plan(qtbot, window, tmp_path):
    """Issue 15.4: the previous scenario's plan stayed next to the new file's values."""
    from PySide6.QtCore import Qt

    assert window.plan_area.showing_plan
    assert window.open_file(_bad_copy(tmp_path), ask=False)
    assert window.doc.plan is None
    assert not window.plan_area.showing_plan
    assert not window.results.isVisible()
    empty = window.plan_area.empty
    assert "No plan" in empty.title.text() and "1 input error" in empty.reason.text()
    assert "MEETS" not in window.banner.text() and "MISSES" not in window.banner.text()
    assert "no plan" in window.verdict_label.text()
    # Nor does the stage table keep the previous plan's capacities.
    model = window.stages.model
    assert all(
        not model.index(r, c).data()
        for r in range(model.rowCount())
        for c in range(model.columnCount())
        if model.headerData(c, Qt.Orientation.Horizontal) == "Capacity (data)"
    )


def test_an_unknown_key_is_fixed_by_renaming_it(qtbot, window, tmp_path):
    window.open_file(_bad_copy(tmp_path), ask=False)
    buttons = window.plan_area.empty.fix_buttons["database.redo_rat"]
    assert [b.text() for b in buttons] == ["Rename to redo_rate", "Remove the key"]
    buttons[0].click()
    window.doc.wait_idle()
    assert window.doc.value("database.redo_rate") is not None
    assert window.doc.value("database.redo_rat") is None
    assert window.doc.plan is not None and window.plan_area.showing_plan
    assert window.undo_action.text() == "&Undo Rename database.redo_rat to database.redo_rate"


def test_an_unknown_key_without_a_near_miss_can_be_removed(qtbot, window, tmp_path):
    text = DEMO.read_text(encoding="utf-8").replace("[backup]\n", "[backup]\ncolour = 3\n", 1)
    bad = tmp_path / "colour.toml"
    bad.write_text(text, encoding="utf-8")
    window.open_file(bad, ask=False)
    buttons = window.plan_area.empty.fix_buttons["backup.colour"]
    assert [b.text() for b in buttons] == ["Remove the key"]
    buttons[0].click()
    window.doc.wait_idle()
    assert window.doc.plan is not None and window.plan_area.showing_plan


def test_a_bad_value_leads_to_its_field(qtbot, window, tmp_path):
    bad = _bad_copy(tmp_path, "size", "size")
    bad.write_text(
        bad.read_text(encoding="utf-8").replace("\nsize =", '\nsize = "lots"\n#', 1),
        encoding="utf-8",
    )
    window.open_file(bad, ask=False)
    (button,) = window.plan_area.empty.fix_buttons["database.size"]
    window.editor.setCurrentIndex(0)
    button.click()
    # The window's focus widget (hasFocus also needs the window active, which a bare X
    # server without a window manager may not grant).
    assert window.focusWidget() is window.editor.field("database.size").input


def test_size_edits_read_as_changes_in_undo(qtbot, window):
    window.doc.set_value("database.size", "30 TB")
    assert window.undo_action.text() == "&Undo Database size (datafiles) change"
    window.doc.set_value("path[1].count", 3)
    assert window.undo_action.text() == "&Undo Stage 2 units change"


def test_a_demo_opens_as_an_untitled_copy(qtbot, window, monkeypatch):
    """Issue 15.6: clicking a demo opened the shipped file and Save overwrote it."""
    from PySide6.QtWidgets import QFileDialog

    tree = window.scenario_list.tree
    demos = next(
        tree.topLevelItem(i)
        for i in range(tree.topLevelItemCount())
        if tree.topLevelItem(i).text(0) == "Demo scenarios"
    )
    item = demos.child(0)
    shipped = item.data(0, PathRole)
    before = Path(shipped).read_bytes()
    tree.itemActivated.emit(item, 0)
    window.doc.wait_idle()
    assert window.doc.file_path is None
    assert "copy of" in window.doc.display_name
    assert window.doc.plan is not None
    window.doc.set_value("database.size", "99 TB")
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: asked.append(a) or ("", ""))
    assert window.save() is False  # Save asks for a new file; cancelled
    assert asked
    assert Path(shipped).read_bytes() == before


def test_recent_files_name_their_folder(qtbot, window, tmp_path):
    """Issue 15.8: two recent files of one name were told apart by nothing."""
    import shutil

    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(DEMO, tmp_path / sub / DEMO.name)
        window.open_file(tmp_path / sub / DEMO.name, ask=False)
    texts = [a.text() for a in window.recent_menu.actions() if a.text().endswith(("/a", "/b"))]
    assert len(texts) == 2 and texts[0] != texts[1]
    tree = window.scenario_list.tree
    recent = tree.topLevelItem(0)
    assert recent.text(0) == "Recent files"
    labels = {recent.child(i).text(0) for i in range(recent.childCount())}
    assert len(labels) == recent.childCount()


def _bar_rects(panel):
    from PySide6.QtCore import QRectF

    from rtoplanner.app.plots.timeline_panel import BAR_HEIGHT

    vb = panel.plot.getPlotItem().getViewBox()
    return [
        vb.mapViewToScene(QRectF(p.start_s, i - BAR_HEIGHT / 2, p.duration_s, BAR_HEIGHT))
        .boundingRect()
        .adjusted(1, 1, -1, -1)
        for i, p in enumerate(panel.shown)
    ]


@pytest.mark.parametrize("demo", sorted(DEMO.parent.glob("*.toml")), ids=lambda p: p.stem)
def test_the_timeline_is_readable_at_1024_by_700(qtbot, demo):
    """Issue 15.5: at 1024 × 700 the timeline squeezed to ~40 px and its labels overlapped
    the bars; the "RPO and growth" tab name was cut."""
    from rtoplanner.app.plots.timeline_panel import min_plot_height

    win = show_window(qtbot, path=demo, size=(1024, 700))
    try:
        win.doc.wait_idle()
        win.show_view("timeline")
        qtbot.wait(50)
        panel = win.timeline_panel
        assert panel.plot.height() >= min_plot_height(len(panel.shown))
        bars = _bar_rects(panel)
        line_labels = [panel.rto_label, panel.margin_label]
        phase_labels = [lb for lb in panel.labels if lb.isVisible()]
        boxes = [lb.sceneBoundingRect() for lb in line_labels + phase_labels]
        names = [lb.toPlainText() for lb in line_labels + phase_labels]
        for i, a in enumerate(boxes):
            for j in range(i + 1, len(boxes)):
                assert not a.intersects(boxes[j]), (names[i], names[j])
            for k, bar in enumerate(bars):
                assert not a.intersects(bar), (names[i], panel.shown[k].name)
        view = panel.plot.getPlotItem().getViewBox().sceneBoundingRect()
        for box, name in zip(boxes, names, strict=True):
            assert view.contains(box), name  # nothing cut at the plot's edges
        tabs = win.results.tabBar()
        for i in range(tabs.count()):
            text_px = tabs.fontMetrics().horizontalAdvance(tabs.tabText(i))
            assert tabs.tabRect(i).width() >= text_px + 8, tabs.tabText(i)
            assert tabs.tabRect(i).right() <= tabs.width(), tabs.tabText(i)  # no scrolling
    finally:
        close_window(win)


def test_a_file_opened_in_the_window_keeps_its_comments_for_the_pdf(qtbot, window):
    assert "1.6 GB/sec" in window.doc.scenario.comments["path[1].rate"]
    window.doc.set_value("database.size", "12 TB")
    window.doc.wait_idle()
    assert window.doc.scenario.comments.get("")  # the file's opening comment


def test_f1_opens_the_guide_at_the_view_on_screen(qtbot, window):
    """Issue 15.7: Help had only About and F1 did nothing."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QKeySequence

    menus = {a.text(): a.menu() for a in window.menuBar().actions() if a.menu()}
    texts = [a.text() for a in menus["&Help"].actions()]
    assert "&User Guide" in texts and "Help on This &View" in texts
    assert window.context_help_action.shortcut() == QKeySequence(
        QKeySequence.StandardKey.HelpContents
    )
    window.show_view("path")
    qtbot.wait(20)
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    help_window = window.help_window
    assert help_window is not None and help_window.isVisible()
    qtbot.wait(50)
    assert help_window.current_page() == "guide.md"
    assert help_window.heading_at_top() == "Path"
    text = help_window.browser.toPlainText()
    assert "User guide" in text and "Timeline" in text
    # A link to another page opens it in the same window.
    help_window.browser.setSource(help_window.browser.source().resolved("importing.md"))
    assert help_window.current_page() == "importing.md"
    help_window.close()


def test_the_guide_is_read_through_the_installed_package():
    from rtoplanner.core import paths

    from .conftest import REPO

    assert paths.docs_dir().samefile(REPO / "docs")
    assert (paths.docs_dir() / "guide.md").is_file()


def test_a_status_tip_never_covers_the_undo_message(qtbot, window):
    from PySide6.QtGui import QStatusTipEvent

    undo = window.scenario_list.undo_message
    undo.show_message("Deleted “ERP”.", lambda: None)
    assert undo.isVisible()
    QApplication.sendEvent(window, QStatusTipEvent("Save the scenario"))
    assert window.statusBar().currentMessage() == "Save the scenario"
    assert undo.isVisible()  # a temporary message hides the bar's normal widgets
    undo.dismiss()


def test_the_catalog_sorts_names_as_people_read_them():
    from rtoplanner.app.models.catalog_table_model import natural_key

    names = ["LTO-10", "16GFC", "LTO-9", "1GFC", "LTO-1", "8GFC"]
    assert sorted(names, key=natural_key) == ["1GFC", "8GFC", "16GFC", "LTO-1", "LTO-9", "LTO-10"]


def test_a_catalog_stage_lands_in_restore_order_not_after_the_datafiles(qtbot, window):
    stages = window.stages
    stages.view.clearSelection()
    stages.view.setCurrentIndex(stages.model.index(-1, 0))
    item = window.doc.catalog.by_kind("network")[0]
    kinds_before = [s["kind"] for s in window.doc.raw["path"]]
    assert kinds_before[-1] == "storage_write"
    stages.use_catalog_item(item)
    kinds = [s["kind"] for s in window.doc.raw["path"]]
    assert kinds[-1] == "storage_write"
    assert kinds.index("network") < kinds.index("storage_write")
    assert len(kinds) == len(kinds_before) + 1


def test_alt_up_moves_a_stage_wherever_the_focus_is(qtbot, window):
    from PySide6.QtCore import Qt

    window.stages.select_row(2)
    before = [s["name"] for s in window.doc.raw["path"]]
    activate(qtbot, window)
    window.editor.show_field("database.size")  # focus in the editor form
    field = window.editor.field("database.size").input
    qtbot.keyClick(field, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    after = [s["name"] for s in window.doc.raw["path"]]
    assert after[1] == before[2] and after[2] == before[1]


def test_the_save_with_comment_dialog_is_wide_enough_for_its_title(qtbot, service):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QInputDialog

    seen = []

    def look_and_cancel():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, look_and_cancel)
            return
        title_px = dialog.fontMetrics().horizontalAdvance(dialog.windowTitle())
        seen.append((dialog.width(), title_px))
        dialog.reject()

    win = show_window(qtbot, service, DEMO)
    try:
        QTimer.singleShot(20, look_and_cancel)
        assert win.save_with_comment() is False
    finally:
        close_window(win)
    ((width, title_px),) = seen
    assert width >= title_px + 200  # the title, the icon and the window's buttons


def test_phase_colours_are_the_pdfs():
    from rtoplanner.app.theme import PHASE_COLORS
    from rtoplanner.core.palette import PHASE_STYLE
    from rtoplanner.core.report.charts import PHASE_COLOURS

    for name, style in PHASE_STYLE.items():
        assert PHASE_COLORS[name].lower() == "#" + PHASE_COLOURS[style].hexval()[2:].lower()


def test_a_bad_stage_value_leads_to_its_row(qtbot, window, tmp_path):
    text = DEMO.read_text(encoding="utf-8").replace('rate = "1.6 GB/s"', 'rate = "fast"', 1)
    bad = tmp_path / "bad_stage.toml"
    bad.write_text(text, encoding="utf-8")
    window.open_file(bad, ask=False)
    (button,) = window.plan_area.empty.fix_buttons["path[1].rate"]
    button.click()
    assert window.stages.current_row() == 1
    assert window.focusWidget() is window.stages.view


def test_every_result_view_fits_a_1024_wide_window(qtbot):
    """Issue 15.5: showing the Confidence view widened a 1024 × 700 window (its caption
    line did not wrap), so the window could not stay at 1024."""
    win = show_window(qtbot, path=DEMO, size=(1024, 700))
    try:
        win.doc.wait_idle()
        for name in win.results.names():
            win.show_view(name)
            qtbot.wait(20)
            assert win.width() <= 1024, name
            assert win.minimumSizeHint().width() <= 1024, name
    finally:
        close_window(win)


def test_form_labels_and_stage_headers_are_the_field_tables(window):
    """The editor names each key as the field table does (the PDF ledger uses the same
    label), so a key added to the table appears with its DBA words, not its TOML name."""
    from rtoplanner.app.models.stage_table_model import COLUMN_KEYS, HEADERS
    from rtoplanner.core.scenario import FIELDS, STAGE_FIELDS

    for spec in FIELDS:
        if spec.section == "path" or spec.key == "format":
            continue
        editor = window.editor.field(spec.dotted)
        label = editor.parentWidget().layout().labelForField(editor)
        assert label.text() == spec.label + ("*" if spec.required else ""), spec.dotted
        assert spec.help in editor.input.toolTip()
    tip = window.editor.field("database.redo_rate").input.toolTip()
    assert "Unit: redo bytes/s." in tip and "Default: 0 B/s." in tip
    headers = {s.key: s.header for s in STAGE_FIELDS}
    assert {COLUMN_KEYS[c]: HEADERS[c] for c in COLUMN_KEYS} == headers
