"""What a DBA winced at, round 2 (issue 23, the GUI items): the editor and the views,
each checked on the real widgets."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from rtoplanner.app.document import ScenarioDocument
from rtoplanner.app.models.stage_table_model import COL_CAPACITY, COL_KIND, StageTableModel

from .conftest import REPO

pytestmark = pytest.mark.gui

NAS = REPO / "data" / "scenarios" / "nas_two_heads.toml"


@pytest.fixture
def doc(qtbot):
    d = ScenarioDocument()
    d.new()
    assert d.wait_idle()
    yield d
    d.shutdown()


# ------------------------------------------------------------ 23.1 compression and cores


@pytest.mark.parametrize("level", [None, "none"])
def test_cpu_cores_without_a_level_is_valid_in_the_editor(doc, level):
    doc.set_value("database.cpu_cores", 16)
    doc.set_value("backup.compression", level)
    assert doc.wait_idle()
    assert doc.is_valid, doc.errors
    assert any(n.startswith("CPU cores for RMAN (16) is not used") for n in doc.plan.notes)


def test_turning_compression_off_after_a_level_keeps_the_plan_valid(doc):
    doc.set_value("backup.compression", "medium")
    doc.set_value("backup.compression_ratio", 3.0)
    assert doc.wait_idle() and doc.is_valid
    doc.set_value("backup.compression", "none")
    assert doc.wait_idle()
    assert doc.is_valid, doc.errors
    assert doc.plan.scenario.backup.compression_ratio == 1.0


# ------------------------------------------------------------ 23.2 the path table


def capacities(model: StageTableModel) -> list[str]:
    return [model.index(r, COL_CAPACITY).data() for r in range(model.rowCount())]


def test_capacities_and_the_bottleneck_stay_with_cpu_cores_and_a_level(qtbot, doc):
    from rtoplanner.app.editor.stage_table import StageTablePanel

    panel = StageTablePanel(doc, doc.catalog)
    qtbot.addWidget(panel)
    model = panel.model
    doc.set_value("backup.compression", "high")  # 1.6 MB/s per core: the CPU decides
    doc.set_value("database.cpu_cores", 2)
    assert doc.wait_idle() and doc.is_valid
    assert all(capacities(model)), capacities(model)
    path = doc.plan.restore_path
    cpu = path.stages[-1]
    assert cpu.per_core and path.bottleneck_index == cpu.index
    # Two cores of four channels: min(channels, cores) × per-core rate, as the appendix.
    assert path.capacity_at_Bps(cpu.index) == pytest.approx(2 * cpu.unit_Bps)
    assert not panel.cpu_label.isHidden()
    text = panel.cpu_label.text()
    assert "min(4 channels, 2 cores)" in text and "◀ bottleneck" in text
    assert not any("bottleneck" in c for c in capacities(model))


def test_no_stale_capacities_in_an_error_state(doc):
    model = StageTableModel(doc)
    assert all(capacities(model))
    doc.set_value("path[1].rate", "10 Gx/s")
    assert doc.wait_idle()
    assert not doc.is_valid
    assert capacities(model) == ["", ""]
    doc.set_value("path[1].rate", "1 Gb/s")
    assert doc.wait_idle()
    assert all(capacities(model))


def test_stage_kinds_read_as_words_and_edit_as_the_file_key(doc):
    model = StageTableModel(doc)
    cell = model.index(0, COL_KIND)
    assert cell.data() == "tape drive"
    assert cell.data(Qt.ItemDataRole.EditRole) == "tape_drive"


# ------------------------------------------------------------ 23.4 1024 × 700, the screen


def test_first_window_fits_a_1440_by_900_screen():
    from PySide6.QtCore import QRect

    from rtoplanner.app.shell.placement import FRAME_SIDE, FRAME_TOP, first_geometry, fitted

    screen = QRect(0, 0, 1440, 900)
    first = first_geometry(QRect(0, 0, 1440, 870))  # a 30 px panel at the bottom
    assert first.top() - FRAME_TOP >= 0 and first.bottom() + FRAME_SIDE < 870
    assert first.width() <= 1440 - 2 * FRAME_SIDE
    # A geometry saved on a larger monitor comes back inside this one.
    back = fitted(QRect(1800, 200, 1900, 1100), screen)
    assert screen.contains(back.adjusted(-FRAME_SIDE, -FRAME_TOP, FRAME_SIDE, FRAME_SIDE))


def test_a_new_window_opens_inside_the_screen(qtbot):
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings

    win = MainWindow(AppSettings())
    try:
        available = win.screen().availableGeometry()
        assert win.frameGeometry().height() <= available.height()
        assert win.minimumSizeHint().width() < 1024  # narrower than 1046 px is possible
    finally:
        win.doc.shutdown()
        win.close()


@pytest.fixture
def small_window(qtbot):
    from .conftest import DEMO, close_window, show_window

    win = show_window(qtbot, path=DEMO, size=(1024, 700))
    assert win.doc.wait_idle()
    yield win
    close_window(win)


@pytest.mark.parametrize("view", ["timeline", "path", "backups", "cycle", "rpo", "confidence"])
def test_every_view_is_readable_at_1024_by_700(qtbot, small_window, view):
    """A view shorter than it can be read at scrolls rather than squeezing its plots."""
    from rtoplanner.app.result_tabs import READABLE_HEIGHT

    win = small_window
    win.show_view(view)
    panel = win.results.panel(view)
    qtbot.wait(10)
    page = win.results.currentWidget()
    wanted = getattr(panel, "readable_height", READABLE_HEIGHT)
    assert panel.height() >= wanted - 2
    if page.viewport().height() < wanted:
        assert page.verticalScrollBar().isVisible()
    assert panel.width() <= page.viewport().width()  # no sideways scrolling at 1024


def test_what_it_takes_reads_five_points_at_1024_by_700(qtbot, small_window):
    """Issue 23.4: at 1024 × 700 the frontier showed two rows and the chosen point's
    changes a few words; the view reads at its height and the page scrolls."""
    win = small_window
    win.show_view("fix")
    panel = win.results.panel("fix")
    qtbot.wait(10)
    rows = panel.table.verticalHeader().defaultSectionSize()
    assert panel.table.height() >= 6 * rows
    assert panel.details.parentWidget().height() >= 6 * panel.fontMetrics().lineSpacing()
    page = win.results.currentWidget()
    assert page.viewport().height() < panel.height() and page.verticalScrollBar().isVisible()


def test_confidence_plots_and_ranges_get_their_room_at_1024_by_700(qtbot, small_window):
    win = small_window
    win.show_view("confidence")
    panel = win.results.panel("confidence")
    assert panel.wait_idle()
    qtbot.wait(10)
    assert panel.dist_plot.height() >= 180
    assert panel.table.height() >= 4 * panel.table.verticalHeader().defaultSectionSize()


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_confidence_plots_stack_when_narrow_and_nothing_overlaps(qtbot, size):
    """Issue 23.4: at 1024 px the histogram and the tornado side by side had ~260 px each,
    the tornado's bars ~80 px of it, and its axis title cut; narrow, the tornado goes under
    the histogram, each as wide as the view, and the page scrolls to the ranges (which
    the plots overlapped when the view read at less than its parts' heights)."""
    from PySide6.QtCore import QPoint

    from .conftest import DEMO, close_window, show_window

    win = show_window(qtbot, path=DEMO, size=size)
    try:
        win.show_view("confidence")
        panel = win.results.panel("confidence")
        assert panel.wait_idle()
        qtbot.wait(20)
        dist, tornado, table = panel.dist_plot, panel.tornado_plot, panel.table
        below = tornado.mapTo(panel, QPoint(0, 0)).y() >= dist.mapTo(panel, QPoint(0, 0)).y()
        if size[0] == 1024:
            assert getattr(panel, "stacked", False) and below
            assert tornado.width() >= 0.9 * panel.width()
        else:  # side by side, and all of it in view: no scroll bar at 1440 × 900
            assert not getattr(panel, "stacked", False) and tornado.x() > dist.x()
            assert not win.results.currentWidget().verticalScrollBar().isVisible()
        tornado_bottom = tornado.mapTo(panel, QPoint(0, tornado.height())).y()
        assert tornado_bottom <= table.mapTo(panel, QPoint(0, 0)).y()
        assert table.horizontalHeader().isVisible() and table.height() >= 4 * 22
        page = win.results.currentWidget()
        assert panel.height() >= panel.readable_height - 2
        if page.viewport().height() < panel.readable_height:
            assert page.verticalScrollBar().isVisible()
    finally:
        close_window(win)


# ------------------------------------------------------------ 23.10 behaviour


def test_no_green_verdict_for_a_number_still_being_typed(qtbot, window):
    from PySide6.QtCore import Qt as _Qt

    from rtoplanner.app.theme import VERDICT_COLORS

    from .helpers import type_into

    win = window
    assert win.odds.wait_idle()  # the headline with its probability (issue 20.5)
    colour = VERDICT_COLORS[win.banner.verdict]
    assert colour in win.banner.text()
    # "5 h" on the way to "5 h 30 min": a valid plan that meets, of a value not yet typed.
    line = type_into(qtbot, win, "targets.rto", "5 h")
    assert win.doc.is_valid and win.doc.plan.recovery.verdict == "meets"
    for c in (VERDICT_COLORS["meets"], VERDICT_COLORS["at_risk"], VERDICT_COLORS["misses"]):
        assert c not in win.banner.text() and c not in win.verdict_label.text()
    assert "as typed so far" in win.banner.text()
    qtbot.keyClick(line, _Qt.Key.Key_Return)  # the field is left: the verdict is the answer
    assert "as typed so far" not in win.banner.text()
    assert win.odds.wait_idle()
    colour = VERDICT_COLORS[win.banner.verdict]
    assert colour in win.banner.text() and colour in win.verdict_label.text()


def test_no_verdict_for_a_count_still_being_typed_in_the_path_table(qtbot, window):
    """Issue 23.10 in the path table: its cells commit on every keystroke too, and the
    banner coloured the plan of 1 drive on the way to 12."""
    from PySide6.QtWidgets import QApplication, QSpinBox

    from rtoplanner.app.models.stage_table_model import COL_COUNT
    from rtoplanner.app.theme import VERDICT_COLORS

    win = window
    assert win.odds.wait_idle()
    view = win.stages.view
    index = view.model().index(0, COL_COUNT)  # 14 LTO-4 drives
    view.setCurrentIndex(index)
    view.edit(index)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QSpinBox)
    editor.selectAll()
    qtbot.keyClicks(editor, "1")  # one drive, on the way to 12
    assert win.doc.wait_idle() and win.doc.is_valid
    assert win.doc.raw["path"][0]["count"] == 1
    assert "as typed so far" in win.banner.text()
    for c in VERDICT_COLORS.values():
        assert c not in win.verdict_label.text()
    qtbot.keyClicks(editor, "2")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the cell is left: the verdict is the answer
    assert win.doc.wait_idle() and win.odds.wait_idle()
    assert win.doc.raw["path"][0]["count"] == 12
    assert "as typed so far" not in win.banner.text()
    assert VERDICT_COLORS[win.banner.verdict] in win.banner.text()


def test_undo_back_to_the_saved_state_clears_the_modified_marker(qtbot, window):
    from .helpers import type_into

    win = window
    type_into(qtbot, win, "backup.channels", "16")
    assert win.isWindowModified()
    win.doc.undo_stack.undo()
    assert win.doc.wait_idle()
    assert not win.isWindowModified()
    # Typing the saved value back by hand is no change either.
    line = type_into(qtbot, win, "backup.channels", "12")
    line.editingFinished.emit()
    type_into(qtbot, win, "backup.channels", "14")
    assert not win.isWindowModified() and not win.doc.is_dirty


def test_restart_reopens_the_last_scenario(qtbot, demo_copy, service):
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings

    from .conftest import close_window

    first = MainWindow(AppSettings(), service)
    assert first.open_file(demo_copy, ask=False)
    assert first.files.add_to_store()
    name = first.doc.raw["name"]
    assert first.files.open_stored(name, ask=False)
    close_window(first)
    again = MainWindow(AppSettings(), service)
    try:
        assert again.files.reopen_last()
        assert again.doc.store_origin is not None and again.doc.store_origin.name == name
    finally:
        close_window(again)


def test_restart_reopens_a_new_scenario_saved_to_a_file(qtbot, monkeypatch, tmp_path):
    """Issue 23.10 as the reporter walked it: File › New, Save As a file, quit, start
    again — the saved file opens, not the demo."""
    from PySide6.QtWidgets import QFileDialog

    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings

    from .conftest import close_window

    target = tmp_path / "erp"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    first = MainWindow(AppSettings())
    first.new_scenario()
    first.doc.set_value("database.size", "20 TiB")
    assert first.doc.wait_idle() and first.save_as()
    close_window(first)
    again = MainWindow(AppSettings())
    try:
        assert again.files.reopen_last()
        assert again.doc.file_path == tmp_path / "erp.rto.toml"
        assert again.doc.raw["database"]["size"] == "20 TiB"
    finally:
        close_window(again)


def test_toml_export_suggests_the_scenario_file_type(window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    asked = {}

    def fake(parent, caption, start, filters):
        asked.update(start=start, filters=filters)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake)
    assert not window.files.export_toml()
    assert asked["start"].endswith(".rto.toml")
    assert "*.rto.toml" in asked["filters"]


def test_decisive_assumptions_reachable_by_keyboard(qtbot, window):
    win = window
    assert "read them" in win.banner.text()
    assert win.banner.focusPolicy() & Qt.FocusPolicy.TabFocus
    action = win.assumptions_action
    assert action.shortcut().toString() == "Ctrl+Shift+I"
    action.trigger()
    shown = win.assumptions.window
    assert shown.isVisible()
    assert "Notes:" in shown.text.toPlainText() or "RPO" in shown.text.toPlainText()
    win.banner.linkActivated.emit("#assumptions")
    assert shown.isVisible()
    shown.close()


def test_help_window_closes_with_escape_and_ctrl_w(qtbot, window):
    from PySide6.QtWidgets import QApplication

    win = window
    for keys in (Qt.Key.Key_Escape, "Ctrl+W"):
        guide = win.show_help()
        guide.show()
        guide.activateWindow()
        qtbot.waitExposed(guide)
        qtbot.waitUntil(lambda g=guide: QApplication.activeWindow() is g, timeout=3000)
        if keys == "Ctrl+W":
            qtbot.keyClick(guide.browser, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
        else:
            qtbot.keyClick(guide.browser, keys)
        qtbot.waitUntil(lambda g=guide: not g.isVisible(), timeout=2000)


# ------------------------------------------------------------ 23.9 the editor


def test_new_scenario_prefills_no_compression_ratio(doc):
    assert "compression_ratio" not in doc.raw["backup"]
    doc.set_value("backup.compression", "medium")
    assert doc.wait_idle()
    assert doc.plan.scenario.backup.compression_ratio > 1.0  # the catalog's, not 1.0


def test_default_choices_say_what_the_default_is(window):
    combo = window.editor.field("database.redo_growth").input
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert texts[0] == "(default: grows with the database)"
    assert "with_size" not in " ".join(texts)
    workload = window.editor.field("database.workload").input
    assert workload.itemText(0) == "(default: oltp)"


def test_write_factor_column_in_view_at_1440(window):
    from rtoplanner.app.models.stage_table_model import COL_WRITE_FACTOR

    view = window.stages.view
    x = view.columnViewportPosition(COL_WRITE_FACTOR)
    assert x >= 0 and x + view.columnWidth(COL_WRITE_FACTOR) <= view.viewport().width()


def test_a_stage_named_asm_high_with_factor_1_is_named_in_the_notes(doc):
    doc.set_value("path[1].kind", "storage_write")
    doc.set_value("path[1].name", "Datafiles (ASM high)")
    doc.set_value("path[1].rate", "2 GB/s")
    assert doc.wait_idle() and doc.is_valid, doc.errors
    assert any("ASM high redundancy but its write factor is 1" in n for n in doc.plan.notes)


def test_catalog_menu_adds_or_replaces_saying_which(qtbot, window):
    panel = window.stages
    panel.select_row(1)
    panel._fill_catalog_menu()
    titles = [a.text() for a in panel.catalog_menu.actions() if not a.isEnabled()]
    assert titles[0] == "Add a stage…"
    assert titles[1].startswith("Replace stage 2 (")
    n = len(window.doc.raw["path"])
    first_add = next(a for a in panel.catalog_menu.actions() if a.menu() is not None)
    first_add.menu().actions()[0].trigger()  # from the Add section: a row is selected
    assert len(window.doc.raw["path"]) == n + 1


def test_clicking_empty_space_deselects(qtbot, window):
    from PySide6.QtCore import QPoint

    panel = window.stages
    panel.select_row(0)
    assert panel.current_row() == 0
    viewport = panel.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=QPoint(20, viewport.height() - 3))
    assert panel.current_row() == -1


def test_add_stage_does_not_change_the_plan_unnoticed(qtbot, window):
    doc = window.doc
    before = doc.plan.recovery.total_s
    window.stages.add_stage()
    assert doc.wait_idle()
    assert not doc.is_valid and any(k.endswith(".rate") for k in doc.errors)
    assert doc.plan.recovery.total_s == before  # the last valid plan, said to be so
    assert "last valid plan" in window.banner.text()


def test_focused_field_is_framed():
    from rtoplanner.app.editor.section_form import FIELD_STYLESHEET

    assert "QComboBox:focus" in FIELD_STYLESHEET


@pytest.mark.parametrize(("key", "step"), [(Qt.Key.Key_PageDown, 1), (Qt.Key.Key_PageUp, -1)])
def test_ctrl_page_keys_move_between_tabs_not_a_combo_value(qtbot, window, key, step):
    """Issue 23.9: Ctrl+PgDown in the Compression combo box changed MEDIUM to HIGH (and
    stayed on the tab); it moves to the next tab and leaves the value as it was."""
    from PySide6.QtWidgets import QApplication

    win = window
    win.activateWindow()
    win.editor.show_field("backup.compression")
    combo = win.editor.field("backup.compression").input
    qtbot.waitUntil(lambda: QApplication.focusWidget() is combo, timeout=3000)
    before, tab = win.doc.raw["backup"].get("compression"), win.editor.currentIndex()
    qtbot.keyClick(combo, key, Qt.KeyboardModifier.ControlModifier)
    assert win.doc.wait_idle()
    assert win.doc.raw["backup"].get("compression") == before
    assert win.editor.currentIndex() == (tab + step) % win.editor.count()
    assert QApplication.focusWidget() is win.editor.tabBar()  # the cue: the focused tab


def test_every_editor_tab_is_in_view_at_1024(qtbot, small_window):
    """At 1024 px "Targets" (the RTO and RPO) hid behind the tab bar's scroll arrows:
    every tab is in view, its name shortened if need be and whole in its tooltip."""
    from rtoplanner.app.editor.scenario_editor import TAB_TITLES

    bar = small_window.editor.tabBar()
    assert bar.count() == 5
    for i in range(bar.count()):
        assert bar.tabRect(i).left() >= 0 and bar.tabRect(i).right() <= bar.width(), i
        assert bar.tabToolTip(i).startswith(list(TAB_TITLES.values())[i])
    assert bar.tabRect(4).width() >= 40  # "Tar…", not a sliver


def test_editor_tabs_and_dock_names_fit(qtbot, service, tmp_path):
    from PySide6.QtWidgets import QDockWidget

    from rtoplanner.app.models.scenario_list_model import COL_NAME

    from .conftest import close_window, show_window

    win = show_window(qtbot, service, size=(1440, 900))
    long_name = "ERP production — Exadata X9M full rack, ZDLRA"
    try:
        bar = win.editor.tabBar()
        assert bar.sizeHint().width() <= win.editor.width()  # Targets not clipped
        win.doc.set_value("name", long_name)
        assert win.files.add_to_store()
    finally:
        close_window(win)
    wide = show_window(qtbot, service, size=(1920, 1080))
    try:
        qtbot.wait(20)
        panel = wide.view("scenarios")
        fm = panel.view.fontMetrics()
        assert panel.dock_width >= fm.horizontalAdvance(long_name)
        # The dock opens that wide on a 1920 px window: the name column shows the name.
        dock = wide.findChild(QDockWidget, "scenarios_dock")
        assert dock.width() > 300
        assert panel.view.columnWidth(COL_NAME) >= fm.horizontalAdvance(long_name)
    finally:
        close_window(wide)


# ------------------------------------------------------------ 23.6 wording (GUI half)


def test_assumptions_window_has_no_file_keys(qtbot, doc):
    import re

    from rtoplanner.app.shell.assumptions import AssumptionsWindow

    doc.set_value("backup.level1_every", "1d")  # with level1 = "none": a note names it
    assert doc.wait_idle() and doc.is_valid, doc.errors
    assert any(n.startswith("backup.level1_every is not used") for n in doc.plan.notes)
    window = AssumptionsWindow(None)
    qtbot.addWidget(window)
    window.show_plan(doc.plan)
    text = window.text.toPlainText()
    assert "“Level 1 backup every” is not used" in text
    assert not re.search(r"\b(database|backup|recovery|targets)\.[a-z_]+", text)


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [("database.size", "12 TX", "Database size (datafiles): "),
     ("path[0].kind", "object_storage", "Stage 1: Drive compression: ")],
)  # fmt: skip
def test_input_errors_name_the_field_as_the_form_does(qtbot, window, key, value, words):
    """Issue 23.6 (GUI): the banner, the status bar and the path's error line said
    "database.size: …" and "path[0].rate: … no object_storage named 'LTO-4' …"."""
    import re

    win = window
    win.doc.set_value(key, value)
    assert win.doc.wait_idle() and win.doc.errors
    shown = [win.banner.text(), win.statusBar().currentMessage()]
    if key.startswith("path"):
        shown.append(win.stages.error_label.text())
    for text in shown:
        assert words in text, text
        assert not re.search(r"\b(database|backup|path\[\d+\])\.[a-z_]+", text), text
        assert "object_storage" not in text and "tape_drive" not in text, text


# ------------------------------------------------------------ 23.11 AWR import


def test_awr_import_of_one_report_says_so_and_stores_what_it_shows(qtbot, store_window):
    from rtoplanner.app.dialogs.import_dialog import ImportDialog
    from rtoplanner.core.units import format_rate, parse_rate

    from .test_import_dialog import DBU, _wait

    empty = ImportDialog(store_window, [])
    qtbot.addWidget(empty)
    empty.show()
    assert not empty.progress_bar.isVisible()  # no unlabelled box before a read
    empty.close()

    dlg = ImportDialog(store_window, [DBU])
    qtbot.addWidget(dlg)
    dlg.show()
    _wait(qtbot, dlg)
    assert dlg.progress_bar.isVisible()
    # One 6-day report: its "p95 of hourly redo" is its average, and the dialog says so.
    assert "= average (1 report)" in dlg.redo_buttons["p95"].text()
    preview = dlg.apply_label.text()
    assert "from a single report, i.e. its average" in preview
    # The demo scenario does not name DBU: the dialog says the database may be another.
    assert "These reports are of DBU" in preview
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert store_window.doc.wait_idle()
    stored = store_window.doc.raw["database"]["redo_rate"]
    assert stored == format_rate(parse_rate(stored)) == "3.28 MB/s"  # one precision
    dlg.close()


def test_awr_import_of_one_hour_says_its_p95_is_its_average(qtbot, window):
    """Issue 23.11: two RAC instances' reports of one hour gave "p95 of hourly redo"
    with nothing to say it was the average (only a single report said so); a report
    read as HTML and as text counted as two."""
    from rtoplanner.app.dialogs.import_dialog import ImportDialog

    from .conftest import REPO
    from .test_import_dialog import _wait

    awr = REPO / "tests" / "fixtures" / "awr"
    files = [awr / f"1newstar-awr2csv__awr_11204_{n}" for n in ("1.txt", "1.html", "2.txt")]
    dlg = ImportDialog(window, files)
    qtbot.addWidget(dlg)
    dlg.show()
    _wait(qtbot, dlg)
    assert dlg.redo_buttons["p95"].text().endswith("= average (1 hour)")
    preview = dlg.apply_label.text()
    assert "from a single hour, i.e. its average, over 2 AWR reports of ORCL" in preview
    dlg.close()


# ------------------------------------------------------------ chart labels in view (GUI)


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_chart_labels_beside_points_stay_inside_the_plot(qtbot, size):
    """The cycle's worst-case label left of a point near the axis read "nin"; the
    confidence RTO label was cut at the plot's edge."""
    from .conftest import DEMO, close_window, show_window

    win = show_window(qtbot, path=DEMO, size=size)
    try:
        assert win.doc.wait_idle()
        win.show_view("cycle")
        cycle = win.results.panel("cycle")
        win.show_view("confidence")
        confidence = win.results.panel("confidence")
        assert confidence.wait_idle()
        win.show_view("cycle")
        cycle.redraw()
        win.show_view("confidence")
        confidence.redraw()
        qtbot.wait(20)
        for plot, label in ((cycle.plot, cycle.worst_label),
                            (confidence.dist_plot, confidence.rto_label)):  # fmt: skip
            plot.grab()  # a text item places itself when painted
            box = plot.getPlotItem().getViewBox().sceneBoundingRect()
            shown = label.sceneBoundingRect()
            assert shown.left() >= box.left() - 1 and shown.right() <= box.right() + 1, (
                label.toPlainText(),
                shown,
                box,
            )
    finally:
        close_window(win)


def test_field_errors_name_other_fields_as_the_form_does(doc):
    doc.set_value("recovery.incremental_size", "100 GB")  # with backup.level1 'none'
    assert doc.wait_idle()
    message = doc.errors["recovery.incremental_size"]
    assert "backup.level1" not in message and "“Level 1 backups”" in message


def test_level1_does_not_make_the_incremental_apply_rate_mandatory(qtbot, doc):
    """Issue 23.9: choosing level 1 left the scenario invalid until an apply rate was
    typed; now the rate has a class default the form and the plan's notes state."""
    from rtoplanner.app.editor.section_form import FieldEditor
    from rtoplanner.core.scenario.fields import spec_for_key

    doc.set_value("backup.level1", "cumulative")
    doc.set_value("backup.level1_every", "1d")
    assert doc.wait_idle()
    assert "recovery.incremental_apply_rate" not in doc.errors, doc.errors
    spec = spec_for_key("recovery.incremental_apply_rate")
    editor = FieldEditor(doc, "recovery.incremental_apply_rate", spec)
    qtbot.addWidget(editor)
    tip = editor.input.toolTip()
    assert "Required" not in tip and "incremental restore's own rate" in tip


def test_growth_labels_are_drawn_over_the_curves(qtbot, window):
    window.show_view("rpo")
    panel = window.results.panel("rpo")
    curves = [i for i in panel.growth_plot.getPlotItem().listDataItems()]
    top = max(c.zValue() for c in curves)
    for label in (panel.break_label, panel.g_rto_label, panel.g_window_label):
        assert label.zValue() > top
        # On the background, not struck through by the curves.
        assert label.fill.style() != Qt.BrushStyle.NoBrush and label.fill.color().alpha() > 150


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_editor_tabs_need_no_sideways_scrolling_and_show_their_choices(qtbot, size):
    """Issue 23.4/23.9: at 1024 px every tab of the editor scrolled sideways (its fields
    cut at "a whole nur", "(default: gr"); at 1440 px "(default: grows with the d". A
    row too narrow for its field now puts the field under its label."""
    from PySide6.QtWidgets import QComboBox

    from rtoplanner.app.editor.section_form import COMBO_FRAME, COMBO_WIDEST

    from .conftest import DEMO, close_window, show_window

    win = show_window(qtbot, path=DEMO, size=size)
    try:
        for i in range(win.editor.count()):
            win.editor.setCurrentIndex(i)
            qtbot.wait(10)  # the form lays out, its scroll bars follow
            form = win.editor.widget(i)
            assert not form.horizontalScrollBar().isVisible(), win.editor.tabText(i)
            assert form.widget().width() <= form.viewport().width()
            for key, field in form.fields.items():
                box = field.input
                if isinstance(box, QComboBox):
                    text = box.currentText()
                    need = box.fontMetrics().horizontalAdvance(text) + COMBO_FRAME
                    assert box.width() >= min(need, COMBO_WIDEST) - 6, (key, text, box.width())
    finally:
        close_window(win)


def test_confidence_rto_label_is_drawn_over_the_cdf_curves(qtbot, window):
    """Issue 23.7: the RTO label sat under the CDF curves, struck through; it is drawn
    above them (the curves' own view box lies under the plot's) on the background."""
    window.show_view("confidence")
    panel = window.results.panel("confidence")
    assert panel.wait_idle()
    label = panel.rto_label
    assert label.isVisible() and label.toPlainText().startswith("RTO ")
    plot_item = panel.dist_plot.getPlotItem()
    assert panel.cdf_box.zValue() < plot_item.zValue()  # the curves under the plot
    assert label.zValue() > max(i.zValue() for i in plot_item.listDataItems())
    assert label.fill.style() != Qt.BrushStyle.NoBrush and label.fill.color().alpha() > 150


def test_the_compression_level_default_reads_whole_in_its_box(qtbot):
    """Issue 23.9 at 1024 px: the Backup tab's level box read "(default: not named (the
    ratio as g…": its default text was wider than the widest a choice box grows
    (COMBO_WIDEST); what "not named" means is in the field's help."""
    from PySide6.QtWidgets import QComboBox

    from rtoplanner.app.editor.fields import not_set_text
    from rtoplanner.app.editor.section_form import COMBO_FRAME, COMBO_WIDEST
    from rtoplanner.core.scenario.fields import FIELDS

    box = QComboBox()
    qtbot.addWidget(box)
    spec = next(s for s in FIELDS if (s.section, s.key) == ("backup", "compression"))
    text = not_set_text(spec)
    assert box.fontMetrics().horizontalAdvance(text) + COMBO_FRAME <= COMBO_WIDEST, text
    assert "no compression CPU" in spec.help
