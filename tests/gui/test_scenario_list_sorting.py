"""The stored-scenario list sorts in its model, not in a sort proxy (issue 14): a proxy
asks `data()` twice per comparison, seconds of start-up for 10,000 scenarios."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from PySide6.QtCore import QModelIndex, Qt

from rtoplanner.app.models.scenario_list_model import (
    COL_NAME,
    COL_VERSIONS,
    NameRole,
    ScenarioListModel,
)
from rtoplanner.app.scenario_list import ScenarioListPanel
from rtoplanner.core.store.models import ScenarioSummary

pytestmark = pytest.mark.gui

T0 = datetime(2026, 1, 1)


def summary(name: str, versions: int) -> ScenarioSummary:
    when = T0 + timedelta(hours=versions)
    return ScenarioSummary(name, versions, versions, when, "", T0)


class CountingModel(ScenarioListModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.calls = 0

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        self.calls += 1
        return super().data(index, role)


def shown_names(panel: ScenarioListPanel) -> list[str]:
    proxy = panel.proxy
    return [proxy.index(r, COL_NAME).data(NameRole) for r in range(proxy.rowCount())]


def test_rows_are_sorted_by_the_model_and_keep_the_header_order(qtbot):
    panel = ScenarioListPanel(None)
    qtbot.addWidget(panel)
    rows = [summary("beta", 3), summary("Alpha", 1), summary("gamma", 2)]
    panel.model.set_rows(rows)
    assert panel.proxy.sortColumn() == -1  # the proxy only filters
    assert shown_names(panel) == ["Alpha", "beta", "gamma"]  # case-insensitive by name
    panel.view.sortByColumn(COL_VERSIONS, Qt.SortOrder.DescendingOrder)
    assert shown_names(panel) == ["beta", "gamma", "Alpha"]
    panel.model.set_rows([*rows, summary("delta", 9)])  # a reload keeps the chosen order
    assert shown_names(panel) == ["delta", "beta", "gamma", "Alpha"]


def test_the_selection_follows_its_row_through_a_sort(qtbot):
    panel = ScenarioListPanel(None)
    qtbot.addWidget(panel)
    panel.model.set_rows([summary("b", 1), summary("a", 2)])
    assert panel.select("b")
    panel.view.sortByColumn(COL_VERSIONS, Qt.SortOrder.DescendingOrder)
    assert panel.selected_name() == "b"
    assert shown_names(panel) == ["a", "b"]


def test_sorting_asks_the_model_nothing_per_comparison(qtbot):
    model = CountingModel()
    model.set_rows([summary(f"s{i:05d}", i % 7) for i in range(2000)])
    model.calls = 0
    model.sort(COL_VERSIONS, Qt.SortOrder.AscendingOrder)
    assert model.calls == 0
    versions = [model.index(r, COL_VERSIONS).data() for r in range(model.rowCount(QModelIndex()))]
    assert versions == sorted(versions, key=int)
