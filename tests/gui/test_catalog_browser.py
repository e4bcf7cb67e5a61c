"""The hardware catalog browser: model, filter and sort, user items through a real store."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from rtoplanner.app.models.catalog_table_model import (
    COL_KIND,
    COL_NAME,
    COL_ORIGIN,
    COL_PRACTICAL,
    COL_RATE,
    COL_SOURCE,
    CatalogTableModel,
    rows_from_catalog,
)
from rtoplanner.core.catalog import shipped_catalog

pytestmark = pytest.mark.gui


def _texts(view, col):
    m = view.model()
    return [m.index(r, col).data() for r in range(m.rowCount())]


def test_catalog_model(qtmodeltester):
    model = CatalogTableModel()
    model.set_rows(rows_from_catalog(shipped_catalog()))
    qtmodeltester.check(model)
    row = model.find("tape_drive", "lto 8")  # matched as core matches names
    assert row >= 0
    assert model.index(row, COL_NAME).data() == "LTO-8"
    assert model.index(row, COL_RATE).data() == "360 MB/s"
    assert model.index(row, COL_PRACTICAL).data() == "324 MB/s"
    assert model.index(row, COL_ORIGIN).data() == "shipped"
    tip = model.index(row, COL_SOURCE).data(Qt.ItemDataRole.ToolTipRole)
    assert "IBM TS4500" in tip and "Notes" in tip


def test_filter_by_kind_and_text_and_sort_by_rate(qtbot, window):
    browser = window.show_catalog_browser()
    qtbot.addWidget(browser)
    assert browser.read_only  # the fixture window has no store
    assert "read-only" in browser.note.text()
    assert not browser.add_button.isEnabled()
    assert browser.proxy.rowCount() == len(shipped_catalog())

    browser.kind_combo.setCurrentIndex(browser.kind_combo.findData("tape_drive"))
    assert set(_texts(browser.view, COL_KIND)) == {"tape drive"}
    browser.view.sortByColumn(COL_RATE, Qt.SortOrder.DescendingOrder)
    rates = [
        browser.proxy.index(r, COL_RATE).data(browser.proxy.sortRole())
        for r in range(browser.proxy.rowCount())
    ]
    assert rates == sorted(rates, reverse=True) and rates[0] > rates[-1]

    qtbot.keyClicks(browser.filter_edit, "lto-9")
    names = _texts(browser.view, COL_NAME)
    assert "LTO-9" in names and "LTO-8" not in names and len(names) < 5
    browser.filter_edit.clear()
    browser.kind_combo.setCurrentIndex(0)
    qtbot.keyClicks(browser.filter_edit, "infiniband")  # found in the source text too
    assert browser.proxy.rowCount() >= 1
    browser.close()


def test_adding_a_user_item_changes_a_plan_that_names_it(qtbot, store_window, service, monkeypatch):
    doc = store_window.doc
    # The LTO-4 stage gives its own figures; make it take the catalog's instead.
    store_window.stages.select_row(0)
    browser = store_window.show_catalog_browser()
    qtbot.addWidget(browser)
    assert not browser.read_only
    assert browser.select("tape_drive", "LTO-4")
    qtbot.mouseClick(browser.use_button, Qt.MouseButton.LeftButton)
    assert doc.wait_idle()
    assert doc.raw["path"][0]["name"] == "LTO-4" and "rate" not in doc.raw["path"][0]
    before = doc.plan.restore_path.stages[0].unit_Bps

    # Edit the shipped LTO-4: saved as the user's copy with a lower rate.
    form = browser.edit_item()
    assert form is not None and "own copy" in form.windowTitle()
    form.fields["rate"].setText("60 MB/s")
    form.source.setText("our test restore, 2024-03-01")
    form.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert doc.wait_idle()
    assert browser.current_row().is_user
    assert browser.current_row().item.rate_Bps == pytest.approx(60e6)
    origin = browser.proxy.index(browser.view.currentIndex().row(), COL_ORIGIN).data()
    assert origin == "user (replaces shipped)"
    after = doc.plan.restore_path.stages[0].unit_Bps
    assert after < before
    assert "our test restore" in doc.scenario.path[0].source

    # A new item that a stage names.
    form = browser.add_item()
    form.kind.setCurrentIndex(form.kind.findData("network"))
    form.name.setText("Lab 25 GbE")
    form.fields["rate"].setText("oops")
    form.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert form.isVisible() and form.error_label.isVisible()  # a bad unit stays in the form
    form.fields["rate"].setText("25 Gb/s")
    form.fields["derate"].setText("80%")
    form.source.setText("iperf3 between the media servers")
    form.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert [
        e.item.name for e in service.store.catalog_entries("network") if e.origin == "user"
    ] == ["Lab 25 GbE"]
    store_window.stages.select_row(2)
    assert browser.select("network", "Lab 25 GbE")
    assert browser.use_in_path()
    assert doc.wait_idle()
    assert doc.scenario.path[2].rate_Bps == pytest.approx(25e9 / 8)
    assert doc.scenario.path[2].efficiency == pytest.approx(0.8)

    # Removing the user copy of LTO-4 brings the shipped figure back.
    assert browser.select("tape_drive", "LTO-4")
    asked = []
    monkeypatch.setattr(
        QMessageBox,
        "question",
        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes,
    )
    assert browser.remove_item()
    assert doc.wait_idle()
    assert doc.plan.restore_path.stages[0].unit_Bps == pytest.approx(before)
    assert "shipped item of that name applies again" in asked[0]
    browser.close()
