"""The Estate window: real widgets, the demo estate computed in a worker."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest
from estate.test_estate_policy import tight_demo
from PySide6.QtCore import Qt

from rtoplanner.app.estate.estate_table_model import COL_NAME, COL_RTO, COL_TIER, COL_VERDICT
from rtoplanner.app.estate.estate_window import EstateWindow
from rtoplanner.core.estate import least_hardware, load_estate, run_estate
from rtoplanner.core.wording import VERDICT_WORDS

from .conftest import close_window, show_window

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"


def wait_computed(qtbot, win: EstateWindow) -> None:
    qtbot.waitUntil(lambda: not win.runner.busy and win.result is not None, timeout=20000)


@pytest.fixture
def estate_window(qtbot):
    win = EstateWindow()
    qtbot.addWidget(win)
    assert win.open_estate(DEMO)
    win.show()
    wait_computed(qtbot, win)
    yield win
    win.close()


def open_window(qtbot, path: Path, **kwargs) -> EstateWindow:
    win = EstateWindow(**kwargs)
    qtbot.addWidget(win)
    assert win.open_estate(path)
    win.show()
    wait_computed(qtbot, win)
    return win


def row_of(win: EstateWindow, name: str) -> int:
    return next(i for i, d in enumerate(win.model.rows) if d.name == name)


def test_shows_every_database_with_the_core_answers(estate_window):
    expected = run_estate(load_estate(DEMO))
    model = estate_window.model
    assert model.rowCount() == len(expected.databases)
    for d in expected.databases:
        r = row_of(estate_window, d.name)
        assert model.index(r, COL_VERDICT).data() == VERDICT_WORDS[d.verdict]
    tiers = [int(model.index(r, COL_TIER).data()) for r in range(model.rowCount())]
    assert tiers == sorted(tiers)  # recovery order
    assert len(estate_window.gantt.rows) == model.rowCount()
    assert expected.deciding in estate_window.headline.text()
    # Policy before purchase: the demo's answer is a runbook, nothing to buy
    least = least_hardware(load_estate(DEMO), expected)
    assert least.policy is not None and least.policy.found and least.answer is None
    steps = estate_window.runbook_panel.steps.text()
    assert "1. At the site loss, priority 1" in steps and "priority 2" in steps
    assert not estate_window.runbook_panel.apply_button.isHidden()
    assert "runbook order is enough" in estate_window.least_label.text()
    assert "None needed" in estate_window.least_panel.summary.text()


def test_the_least_hardware_tab_on_an_estate_no_runbook_saves(qtbot, tmp_path):
    win = open_window(qtbot, tight_demo(tmp_path))
    least = least_hardware(load_estate(tight_demo(tmp_path / "again")))
    assert least.answer is not None
    panel = win.least_panel
    shown = [panel.changes_model.item(r, 0).text() for r in range(panel.changes_model.rowCount())]
    assert shown == [*(c.words for c in least.answer.changes), "Total"]
    total = panel.changes_model.item(len(shown) - 1, 1).text()
    assert total == least.answer.cost.text(least.currency)
    assert least.answer.changes[0].words in win.least_label.text()
    assert panel.frontier_model.rowCount() == len(least.frontier)
    assert "No runbook makes every priority-1 database meet" in win.runbook_panel.summary.text()
    assert win.runbook_panel.apply_button.isHidden()
    win.close()


def test_editing_an_rto_recomputes_the_verdict(qtbot, estate_window):
    model = estate_window.model
    r = row_of(estate_window, "Billing")
    assert model.index(r, COL_VERDICT).data() == "MISSES"
    assert model.setData(model.index(r, COL_RTO), "8 h")
    wait_computed(qtbot, estate_window)
    qtbot.waitUntil(lambda: estate_window.model.index(row_of(estate_window, "Billing"),
                                                      COL_VERDICT).data() == "MEETS")  # fmt: skip
    assert estate_window.estate.databases[2].rto_override_s == 8 * 3600


def test_a_bad_rto_is_refused_with_a_message(qtbot, estate_window):
    model = estate_window.model
    with qtbot.waitSignal(model.edit_refused) as sig:
        assert not model.setData(model.index(0, COL_RTO), "soon")
    assert "RTO" in sig.args[0]


def test_dragging_a_database_onto_another_moves_it_to_that_tier(qtbot, estate_window):
    model = estate_window.model
    hr = row_of(estate_window, "HR")
    billing = row_of(estate_window, "Billing")
    data = model.mimeData([model.index(hr, COL_NAME)])
    with qtbot.waitSignal(model.priority_edited) as sig:
        model.dropMimeData(data, Qt.DropAction.MoveAction, -1, -1, model.index(billing, 0))
    assert sig.args == ["HR", 1]
    wait_computed(qtbot, estate_window)
    qtbot.waitUntil(lambda: model.rows[row_of(estate_window, "HR")].priority == 1)
    # in tier 1 the library no longer keeps HR waiting behind the others of tier 1
    assert next(d for d in estate_window.estate.databases if d.name == "HR").priority == 1


def test_open_plan_asks_for_the_database_scenario(qtbot, estate_window):
    estate_window.table.selectRow(row_of(estate_window, "HR"))
    with qtbot.waitSignal(estate_window.open_plan_requested) as sig:
        estate_window.open_selected_plan()
    assert sig.args[0].endswith("hr.toml")


def test_save_as_writes_an_estate_that_loads_with_the_edits(qtbot, tmp_path):
    folder = tmp_path / "estates"
    shutil.copytree(DEMO.parent, folder)
    win = EstateWindow()
    qtbot.addWidget(win)
    assert win.open_estate(folder / DEMO.name)
    wait_computed(qtbot, win)
    win.edits.set_priority("HR", 1)
    wait_computed(qtbot, win)
    assert win.save_to(folder / "edited.toml")
    again = load_estate(folder / "edited.toml")
    assert next(d for d in again.databases if d.name == "HR").priority == 1
    win.close()


def test_save_as_over_the_file_keeps_its_comments(qtbot, tmp_path):
    folder = tmp_path / "estates"
    shutil.copytree(DEMO.parent, folder)
    path = folder / DEMO.name
    comments = [ln.strip() for ln in DEMO.read_text(encoding="utf-8").splitlines()
                if ln.strip().startswith("#")]  # fmt: skip
    assert len(comments) > 10
    win = EstateWindow()
    qtbot.addWidget(win)
    assert win.open_estate(path)
    wait_computed(qtbot, win)
    win.edits.set_priority("HR", 1)
    wait_computed(qtbot, win)
    assert win.save_to(path)
    saved = path.read_text(encoding="utf-8")
    assert [ln.strip() for ln in saved.splitlines() if ln.strip().startswith("#")] == comments
    before = DEMO.read_text(encoding="utf-8").splitlines()
    changed = [ln for ln in difflib.ndiff(before, saved.splitlines()) if ln[:2] in ("- ", "+ ")]
    assert len(changed) == 2 and all("priority" in ln for ln in changed), changed
    again = load_estate(path)
    assert [d.priority for d in again.databases] == [
        1 if d.name == "HR" else d.priority for d in load_estate(DEMO).databases
    ]
    win.close()


def test_export_pdf_in_the_background(qtbot, estate_window, tmp_path):
    out = tmp_path / "estate.pdf"
    estate_window.export_pdf(out)
    qtbot.waitUntil(lambda: out.exists() and not estate_window.pdf_runner.busy, timeout=30000)
    assert out.read_bytes().startswith(b"%PDF")


def test_gantt_hover_names_phase_and_wait(estate_window):
    gantt = estate_window.gantt
    i = next(i for i, d in enumerate(gantt.rows) if d.name == "Billing")
    phase = next(p for p in gantt.rows[i].phases if p.waited_s > 0)
    text = gantt.text_at((phase.start_s + phase.end_s) / 2, i)
    assert "Billing" in text and "lost to sharing" in text


def test_main_window_registers_the_estate_window(qtbot, demo_copy):
    win = show_window(qtbot, path=demo_copy)
    try:
        assert win.doc.wait_idle()
        titles = [a.text() for m in win.menuBar().actions() if m.menu()
                  for a in m.menu().actions()]  # fmt: skip
        assert "Open &Estate…" in titles and "&Estate…" in titles
        estate = win.estates.open_file(DEMO)
        wait_computed(qtbot, estate)
        hr = next(d for d in estate.model.rows if d.name == "HR")
        assert win.estates.open_plan(hr.source)  # its own plan opens in the main window
        assert win.doc.file_path is not None and win.doc.file_path.name == "hr.toml"
        assert win.doc.wait_idle()
    finally:
        close_window(win)


def test_bad_estate_file_shows_the_error(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\nname = "x"\n[[database]]\nscenario = "nope.toml"\npriority = 1\n')
    win = EstateWindow()
    qtbot.addWidget(win)
    assert not win.open_estate(bad)
    assert "database[0].scenario" in shown[0] and str(bad) in shown[0]


def test_least_hardware_tab_uses_your_prices(qtbot, tmp_path):
    from rtoplanner.core.catalog import shipped_catalog
    from rtoplanner.core.fix.prices import PriceBook

    quotes = {("tape_drive", "LTO-8 library"): 9000.0, ("media_server", "Media servers"): 30000.0}
    book = PriceBook.from_catalog(shipped_catalog(), quotes, "EUR")
    win = open_window(qtbot, tight_demo(tmp_path), prices=lambda: book)
    least = win.least
    assert least is not None and least.answer is not None and least.currency == "EUR"
    assert least.answer.cost.priced
    model = win.least_panel.changes_model
    total = model.item(model.rowCount() - 1, 1).text()
    assert total == least.answer.cost.text("EUR") and total.endswith("EUR")
    win.tabs.setCurrentWidget(win.least_panel)
    assert win.least_panel.frontier.isVisibleTo(win)
    assert "Unpriced" not in win.least_panel.summary.text()
    win.close()


def test_apply_makes_the_purchase_in_one_undoable_step(qtbot, tmp_path):
    """Apply makes the purchase and the runbook to follow with it in one step; Undo takes
    both back. Afterwards priority 1 is not said to "meet" where one is at risk (22.4)."""
    path = tight_demo(tmp_path)
    win = open_window(qtbot, path)
    least = win.least
    assert least is not None and least.answer is not None
    (change,) = least.answer.changes
    ((key, count),) = change.edits.items()
    index = int(key[len("shared[") : key.index("]")])
    name = win.estate.shared[index].name
    before = win.estate.resource(name).stage.count
    win.tabs.setCurrentWidget(win.least_panel)
    assert win.least_panel.apply_button.isEnabled()
    qtbot.mouseClick(win.least_panel.apply_button, Qt.MouseButton.LeftButton)
    assert win.estate.resource(name).stage.count == count
    assert win.estate.policy == least.runbook
    wait_computed(qtbot, win)
    qtbot.waitUntil(lambda: win.least is not None and win.least.already_met, timeout=20000)
    assert win.result.tier1_all_meet
    assert not win.least_panel.apply_button.isVisible()
    at_risk = [d.name for d in win.result.databases if d.priority == 1 and d.verdict == "at_risk"]
    summary = win.least_panel.summary.text()
    if at_risk:
        assert "at risk" in summary and at_risk[0] in summary and "meets its RTO" not in summary
    # Save As writes the purchase and the runbook, keeping the file's comments.
    out = path.with_name("bought.toml")
    assert win.save_to(out)
    written = out.read_text(encoding="utf-8")
    assert "# Two media servers" in written and f"count = {count}" in written
    assert load_estate(out).policy == least.runbook
    win.undo_stack.undo()
    assert win.estate.resource(name).stage.count == before
    assert win.estate.policy.empty
    wait_computed(qtbot, win)
    qtbot.waitUntil(lambda: win.least is not None and not win.least.already_met, timeout=20000)
    assert win.undo_button.isEnabled() is False
    win.close()


def test_apply_the_runbook_in_one_undoable_step(qtbot, estate_window):
    win = estate_window
    least = win.least
    assert least is not None and least.policy is not None and least.policy.found
    win.tabs.setCurrentWidget(win.runbook_panel)
    qtbot.mouseClick(win.runbook_panel.apply_button, Qt.MouseButton.LeftButton)
    assert win.estate.policy == least.policy.best.policy
    wait_computed(qtbot, win)
    qtbot.waitUntil(lambda: win.result is not None and win.result.tier1_all_meet, timeout=20000)
    held = [d.name for d in win.result.databases if any(p.name == "held" for p in d.phases)]
    assert held  # the lower tiers wait for their start
    legend = win.legend.text().replace("&nbsp;", " ")  # entries never break inside
    assert "Held back by the runbook" in legend or "held back" in legend
    win.undo_stack.undo()
    assert win.estate.policy.empty


def test_tier_and_rto_edits_and_drags_are_undone(qtbot, estate_window):
    """22.4: tier edits and drags could not be undone."""
    win = estate_window
    model = win.model
    assert model.setData(model.index(row_of(win, "Billing"), COL_RTO), "8 h")
    assert model.setData(model.index(row_of(win, "HR"), COL_TIER), 1)
    data = model.mimeData([model.index(row_of(win, "Test / QA"), COL_NAME)])
    model.dropMimeData(data, Qt.DropAction.MoveAction, -1, -1, model.index(row_of(win, "HR"), 0))
    tiers = {d.name: d.priority for d in win.estate.databases}
    assert tiers["HR"] == 2 or tiers["HR"] == 1
    assert win.undo_stack.count() == 3
    assert "Test / QA moved to tier" in win.undo_stack.undoText()
    for _ in range(3):
        win.undo_stack.undo()
    original = load_estate(DEMO)
    assert [(d.name, d.priority, d.rto_s) for d in win.estate.databases] == [
        (d.name, d.priority, d.rto_s) for d in original.databases
    ]
    win.undo_stack.redo()
    assert next(d for d in win.estate.databases if d.name == "Billing").rto_s == 8 * 3600
    wait_computed(qtbot, win)


def test_export_pdf_button_asks_where_and_writes(qtbot, estate_window, tmp_path, monkeypatch):
    """22.4: Export PDF… crashed with `TypeError … not bool` before any dialog (the
    button's clicked(bool) was taken for the path)."""
    from PySide6.QtWidgets import QFileDialog

    out = tmp_path / "from-the-button.pdf"
    asked = []

    def dialog(*args, **kwargs):
        asked.append(args)
        return str(out), "PDF files (*.pdf)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    qtbot.mouseClick(estate_window.pdf_button, Qt.MouseButton.LeftButton)
    assert asked
    qtbot.waitUntil(lambda: out.exists() and not estate_window.pdf_runner.busy, timeout=30000)
    assert out.read_bytes().startswith(b"%PDF")


def test_an_empty_window_offers_to_open_an_estate_or_the_demo(qtbot, monkeypatch, tmp_path):
    """23.12: View › Estate opened an empty table over a bare 0–1 plot, and Open Estate…
    started in $HOME with the demo listed nowhere."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QFileDialog

    from rtoplanner.app.estate.estate_window import LAST_FOLDER_KEY
    from rtoplanner.core.paths import estates_dir

    QSettings().remove(LAST_FOLDER_KEY)
    win = EstateWindow()
    qtbot.addWidget(win)
    win.show()
    assert win.pages.currentWidget() is win.start
    assert "No estate open" in win.start.findChild(type(win.headline), "estateStartText").text()
    starts = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (starts.append(a[2]), ("", ""))[1])  # fmt: skip
    qtbot.mouseClick(win.start.open_button, Qt.MouseButton.LeftButton)
    assert starts == [str(estates_dir())]
    qtbot.mouseClick(win.start.demo_button, Qt.MouseButton.LeftButton)
    wait_computed(qtbot, win)
    assert win.pages.currentWidget() is not win.start
    assert win.path == estates_dir() / "site_loss.toml"
    win.open_dialog()
    assert starts[-1] == str(estates_dir())  # the estate's own folder
    win.close()


def test_off_chart_rtos_are_marked_and_the_tier_editor_fits(qtbot, estate_window):
    """23.12: RTOs beyond the chart (2 d, 3 d) were not marked on screen as the PDF marks
    them; the Tier column was too narrow for its editor; 'Waited for' was unexplained."""
    from PySide6.QtWidgets import QSpinBox

    from rtoplanner.app.estate.estate_table_model import COL_WAITED

    win = estate_window
    far = sorted(item.toPlainText() for item in win.gantt.far)
    assert far == ["RTO 2 d →", "RTO 3 d →"]
    width = win.table.horizontalHeader().sectionSize(COL_TIER)
    assert width >= QSpinBox().sizeHint().width()
    r = row_of(win, "Billing")
    tip = win.model.index(r, COL_WAITED).data(Qt.ItemDataRole.ToolTipRole)
    assert "lower tiers" in tip and "runbook" in tip


def test_a_large_estates_gantt_scrolls_its_rows(qtbot):
    """120 databases: as many rows in view as can be read, the wheel and the table's
    selection scroll the rest, and the RTO ticks are no taller than a row (they merged
    into black blocks)."""
    from estate.estate_helpers import DRIVE, MEDIA, estate, scenario, shared_stage
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    from rtoplanner.app.estate.estate_gantt import ROW_PX

    path = [shared_stage(DRIVE, "LTO"), shared_stage(MEDIA, "MS")]
    n = 120
    dbs = [(scenario(f"db{i:03d}", size=f"{1 + i % 5} TB", path=path, rto="30 d"), 1 + i % 2)
           for i in range(n)]  # fmt: skip
    win = EstateWindow()
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    win.set_estate(estate(dbs, shared=[{**DRIVE, "count": 16}, {**MEDIA, "count": 4}]))
    wait_computed(qtbot, win)
    gantt = win.gantt
    first, last = gantt.visible_rows()
    shown = last - first + 1
    assert first == 0 and 3 <= shown < n
    y0, y1 = gantt.view.viewRange()[1]
    px_per_row = gantt.view.height() / (y1 - y0)
    assert px_per_row >= ROW_PX and gantt.rto_ticks.opts["size"] <= px_per_row
    # One notch of the wheel down scrolls three rows.
    viewport = gantt.viewport()
    centre = QPointF(viewport.width() / 2, viewport.height() / 2)
    wheel = QWheelEvent(centre, viewport.mapToGlobal(centre), QPoint(), QPoint(0, -120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)  # fmt: skip
    QApplication.sendEvent(viewport, wheel)
    assert gantt.visible_rows()[0] == 3
    win.table.selectRow(110)
    first, last = gantt.visible_rows()
    assert first <= 110 <= last and last - first + 1 == shown
    win.close()


def test_a_caution_shows_under_the_headline(qtbot, tmp_path):
    shutil.copytree(DEMO.parent / "site_loss", tmp_path / "site_loss")
    path = tmp_path / "site_loss.toml"
    path.write_text(DEMO.read_text(encoding="utf-8").replace('item = "LTO-8"\n', ""),
                    encoding="utf-8")  # fmt: skip
    win = EstateWindow()
    qtbot.addWidget(win)
    assert win.open_estate(path)
    wait_computed(qtbot, win)
    assert "Caution:" in win.headline.text() and "item = &quot;LTO-8&quot;" in win.headline.text()
    assert win.open_estate(DEMO)
    wait_computed(qtbot, win)
    assert "Caution:" not in win.headline.text()
    win.close()
