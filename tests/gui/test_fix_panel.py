"""The What it takes panel: computed in a worker when the plan misses, each point's
changes in words, Apply as one undoable step, prices set from the panel."""

from __future__ import annotations

import pytest

from rtoplanner.app.fix_panel import WhatItTakesPanel
from rtoplanner.app.store_service import StoreService
from rtoplanner.core.money import Money
from rtoplanner.core.scenario import dump_scenario, load_scenario, with_values

from .conftest import close_window, show_window


@pytest.fixture
def failing_demo(tmp_path, demo_paths):
    path = next(p for p in demo_paths if p.stem == "small_gige_lto")
    s = load_scenario(path)
    s = with_values(s, {"database.size": f"{s.database.size_bytes * 2} B"})
    out = tmp_path / "small_2x.toml"
    out.write_text(dump_scenario(s), encoding="utf-8")
    return out


def _panel(qtbot, win) -> WhatItTakesPanel:
    win.doc.wait_idle()
    with qtbot.waitSignal(win.results.currentChanged, timeout=5000, raising=False):
        win.results.show_view("fix")
    panel = win.results.panel("fix")
    qtbot.waitUntil(lambda: panel.result is not None, timeout=30000)
    return panel


def test_failing_plan_flags_the_tab_and_the_panel_lists_costed_points(
    qtbot, failing_demo, store_path
):
    service = StoreService(store_path)
    service.store.set_currency("EUR")
    service.store.set_price("network", "Gigabit Ethernet", 800.0)
    win = show_window(qtbot, service, failing_demo)
    try:
        names = win.results.names()
        index = names.index("fix")
        qtbot.waitUntil(lambda: "●" in win.results.tabText(index), timeout=10000)
        panel = _panel(qtbot, win)
        assert panel.model.rowCount() >= 2
        assert "800 EUR" in panel.headline.text()
        # In words, with real plurals: not "(decided by rpo)" nor "4 change(s)".
        assert "(decided by RPO)" in panel.headline.text()
        assert "(s)" not in panel.headline.text()
        # The recommended point's odds of meeting every target are said with it.
        assert panel.result.odds is not None
        assert "likely to meet every target" in panel.headline.text() or (
            "sure to meet every target" in panel.headline.text()
        )
        assert panel.result.recommended is not None
        # The recommended point is selected, its changes listed in words.
        point = panel.selected_point()
        assert point is panel.result.recommended
        assert "Gigabit Ethernet" in panel.details.text()
        # Unpriced purchases are listed to be priced.
        assert any(r.price is None for r in panel.price_model.rows)
    finally:
        close_window(win)
        service.close()


def test_apply_makes_the_plan_meet_and_undo_reverts_in_one_step(qtbot, failing_demo):
    win = show_window(qtbot, None, failing_demo)
    try:
        panel = _panel(qtbot, win)
        before = win.doc.undo_stack.count()
        assert win.doc.plan.verdict != "meets"
        assert panel.apply_selected()
        win.doc.wait_idle()
        qtbot.waitUntil(lambda: win.doc.plan is not None and win.doc.plan.verdict == "meets",
                        timeout=10000)  # fmt: skip
        assert win.doc.undo_stack.count() == before + 1
        assert win.doc.undo_stack.undoText().startswith("What it takes")
        win.doc.undo_stack.undo()
        win.doc.wait_idle()
        qtbot.waitUntil(lambda: win.doc.plan.verdict != "meets", timeout=10000)
    finally:
        close_window(win)


def test_setting_a_price_from_the_panel_recomputes_with_it(qtbot, failing_demo, store_path):
    service = StoreService(store_path)
    win = show_window(qtbot, service, failing_demo)
    try:
        panel = _panel(qtbot, win)
        unpriced = next(r for r in panel.price_model.rows if r.price is None)
        first = panel.result
        assert panel.set_price(unpriced.kind, unpriced.name, 1234.0)
        qtbot.waitUntil(lambda: panel.result is not first, timeout=30000)
        assert service.store.user_prices()[(unpriced.kind, unpriced.name)].amount == 1234.0
        row = next(r for r in panel.price_model.rows if r.name == unpriced.name)
        assert row.price == 1234.0
    finally:
        close_window(win)
        service.close()


def test_a_plan_that_meets_computes_only_on_demand(qtbot, demo_paths):
    path = next(p for p in demo_paths if p.stem == "exadata_tape_infiniband")
    win = show_window(qtbot, None, path)
    try:
        win.doc.wait_idle()
        win.results.show_view("fix")
        panel = win.results.panel("fix")
        if win.doc.plan.verdict == "meets":
            assert panel.result is None and "meets every target" in panel.headline.text()
        panel.recompute()
        qtbot.waitUntil(lambda: panel.result is not None, timeout=30000)
    finally:
        close_window(win)


def test_catalog_browser_shows_and_sets_prices(qtbot, store_path):
    from rtoplanner.app.dialogs.catalog_browser import CatalogBrowser
    from rtoplanner.app.models.catalog_table_model import COL_NAME, COL_PRICE

    service = StoreService(store_path)
    service.store.set_currency("EUR")
    win = show_window(qtbot, service)
    try:
        browser = CatalogBrowser(win)
        qtbot.addWidget(browser)
        assert browser.select("tape_drive", "LTO-9")
        row = browser.view.currentIndex().row()
        assert browser.proxy.index(row, COL_PRICE).data() == ""
        assert browser.set_price("tape_drive", "LTO-9", 9500.0)
        assert browser.proxy.index(row, COL_NAME).data() == "LTO-9"
        assert browser.proxy.index(row, COL_PRICE).data() == "9,500 EUR"
        assert service.store.user_prices() == {("tape_drive", "LTO-9"): Money(9500.0, "EUR")}
        browser.close()
    finally:
        close_window(win)
        service.close()


def test_a_quote_in_another_currency_is_shown_as_given_and_never_added(
    qtbot, failing_demo, store_path
):
    """Issue 25.4: 9,000 EUR stays 9,000 EUR in the browser after the currency becomes
    USD, and What it takes says in one line why it cannot add it into USD totals."""
    from rtoplanner.app.dialogs.catalog_browser import CatalogBrowser
    from rtoplanner.app.models.catalog_table_model import COL_PRICE

    service = StoreService(store_path)
    service.store.set_currency("EUR")
    service.store.set_price("tape_drive", "LTO-8", 9000.0)
    service.store.set_currency("USD")
    service.store.set_price("tape_drive", "LTO-9", 9500.0)
    win = show_window(qtbot, service, failing_demo)
    try:
        browser = CatalogBrowser(win)
        qtbot.addWidget(browser)
        assert browser.select("tape_drive", "LTO-8")
        row = browser.view.currentIndex().row()
        assert browser.proxy.index(row, COL_PRICE).data() == "9,000 EUR"
        assert browser.select("tape_drive", "LTO-9")
        row = browser.view.currentIndex().row()
        assert browser.proxy.index(row, COL_PRICE).data() == "9,500 USD"
        browser.close()
        win.doc.wait_idle()
        win.results.show_view("fix")
        panel = win.results.panel("fix")
        panel.recompute()
        qtbot.waitUntil(lambda: "two currencies" in panel.status.text(), timeout=30000)
        assert "LTO-8 9,000 EUR" in panel.status.text() and panel.result is None
    finally:
        close_window(win)
        service.close()


def test_switching_scenario_drops_the_frontier_and_never_applies_it_elsewhere(
    qtbot, failing_demo, demo_paths
):
    # Issue 22 item 10: after opening another scenario (another demo, or a database's
    # plan from the Estate window) the previous frontier was still shown and "Apply this
    # point" wrote its changes into the new scenario.
    meets = next(p for p in demo_paths if p.stem == "exadata_tape_infiniband")
    other = next(p for p in demo_paths if p.stem == "oltp_zfs_nas")
    win = show_window(qtbot, None, failing_demo)
    try:
        panel = _panel(qtbot, win)
        first = panel.result
        assert panel.model.rowCount() >= 1 and panel.selected_point() is not None
        stale = panel.selected_point()

        # A scenario that meets: nothing of the old frontier stays, nothing to apply.
        assert win.open_file(meets, ask=False)
        win.doc.wait_idle()
        qtbot.waitUntil(lambda: win.doc.plan is not None and win.doc.plan.verdict == "meets",
                        timeout=10000)  # fmt: skip
        assert panel.result is None
        assert panel.model.rowCount() == 0
        assert not panel.apply_button.isEnabled()
        before = win.doc.undo_stack.count()
        assert not panel.apply_selected()
        assert win.doc.undo_stack.count() == before

        # A scenario that misses: its own frontier is worked out.
        assert win.open_file(other, ask=False)
        win.doc.wait_idle()
        qtbot.waitUntil(lambda: panel.result is not None, timeout=30000)
        assert panel.result is not first
        assert panel.result.scenario == win.doc.scenario.name
        assert panel.result_for == win.doc.scenario
        assert stale not in panel.result.frontier
    finally:
        close_window(win)


def test_apply_refuses_a_point_worked_out_for_another_scenario(qtbot, failing_demo, demo_paths):
    other = next(p for p in demo_paths if p.stem == "oltp_zfs_nas")
    win = show_window(qtbot, None, failing_demo)
    try:
        panel = _panel(qtbot, win)
        rows, first = panel.model.rows, panel.result
        assert win.open_file(other, ask=False)
        win.doc.wait_idle()
        qtbot.waitUntil(lambda: win.doc.plan is not None, timeout=10000)
        panel.runner.wait()  # its own frontier not worked out yet
        before = win.doc.undo_stack.count()
        assert not panel.apply_selected()
        assert win.doc.undo_stack.count() == before
        # The old frontier back on screen, as a stale panel showed it: still refused.
        panel.result = first
        panel.model.set_rows(rows)
        panel.table.selectRow(0)
        assert panel.selected_point() is not None
        before = win.doc.undo_stack.count()
        raw = dict(win.doc.raw)
        assert not panel.apply_selected()
        assert win.doc.undo_stack.count() == before
        assert win.doc.raw == raw
        assert "another scenario" in panel.status.text()
    finally:
        close_window(win)
