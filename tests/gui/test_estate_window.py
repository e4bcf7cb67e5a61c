"""The Estate window: real widgets, the demo estate computed in a worker."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest
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
    assert "LTO-8 library" in estate_window.headline.text()
    least = least_hardware(load_estate(DEMO), expected)
    assert least.answer is not None
    panel = estate_window.least_panel
    shown = [panel.changes_model.item(r, 0).text() for r in range(panel.changes_model.rowCount())]
    assert shown == [*(c.words for c in least.answer.changes), "Total"]
    total = panel.changes_model.item(len(shown) - 1, 1).text()
    assert total == least.answer.cost.text(least.currency)
    assert least.answer.changes[0].words in estate_window.least_label.text()
    assert panel.frontier_model.rowCount() == len(least.frontier)


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
    win.set_priority("HR", 1)
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
    win.set_priority("HR", 1)
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


def test_least_hardware_tab_uses_your_prices(qtbot):
    from rtoplanner.core.catalog import shipped_catalog
    from rtoplanner.core.fix.prices import PriceBook

    quotes = {("tape_drive", "LTO-8 library"): 9000.0, ("media_server", "Media servers"): 30000.0}
    win = EstateWindow(prices=lambda: PriceBook.from_catalog(shipped_catalog(), quotes, "EUR"))
    qtbot.addWidget(win)
    assert win.open_estate(DEMO)
    win.show()
    wait_computed(qtbot, win)
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


def test_apply_makes_the_purchase_in_one_undoable_step(qtbot, estate_window, tmp_path):
    win = estate_window
    least = win.least
    assert least is not None and least.answer is not None
    (change,) = least.answer.changes  # the demo: one more media server
    ((key, count),) = change.edits.items()
    index = int(key[len("shared[") : key.index("]")])
    name = win.estate.shared[index].name
    before = win.estate.resource(name).stage.count
    win.tabs.setCurrentWidget(win.least_panel)
    assert win.least_panel.apply_button.isEnabled()
    qtbot.mouseClick(win.least_panel.apply_button, Qt.MouseButton.LeftButton)
    assert win.estate.resource(name).stage.count == count
    wait_computed(qtbot, win)
    qtbot.waitUntil(lambda: win.least is not None and win.least.already_met, timeout=20000)
    assert win.result.tier1_all_meet
    assert not win.least_panel.apply_button.isVisible()
    # Save As writes the purchase, keeping the file's comments.
    copy = tmp_path / "estates"
    shutil.copytree(DEMO.parent, copy)
    win.path = copy / DEMO.name
    out = copy / "bought.toml"
    assert win.save_to(out)
    written = out.read_text(encoding="utf-8")
    assert "# Two media servers" in written and f"count = {count}" in written
    win.undo_stack.undo()
    assert win.estate.resource(name).stage.count == before
    wait_computed(qtbot, win)
    qtbot.waitUntil(lambda: win.least is not None and not win.least.already_met, timeout=20000)
    assert win.undo_button.isEnabled() is False


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
