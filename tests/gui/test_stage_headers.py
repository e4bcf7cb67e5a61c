"""The stage table's headers are read whole (issue 23): "Drive compression" (the
words the ledger and the tornado use, not "HW compression") was cut to
"Drive compressior" in its 110 px column."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle

pytestmark = pytest.mark.gui


def test_every_header_fits_its_column(window):
    view = window.stages.view
    header = view.horizontalHeader()
    metrics = header.fontMetrics()
    model = view.model()
    names = []
    for col in range(model.columnCount()):
        text = str(model.headerData(col, Qt.Orientation.Horizontal))
        names.append(text)
        if col == model.columnCount() - 1:
            continue  # the last column stretches
        margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin)
        need = metrics.horizontalAdvance(text) + margin
        assert need <= view.columnWidth(col), (text, view.columnWidth(col))
    assert "Drive compression" in names and "HW compression" not in names


def test_the_price_header_fits_its_column(window):
    """The What it takes panel's prices read "rice of one uni" at 1440 px."""
    window.show_view("fix")
    table = window.results.panel("fix").price_table
    header = table.horizontalHeader()
    text = str(table.model().headerData(2, Qt.Orientation.Horizontal))
    margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin)
    assert text == "Price of one unit"
    assert header.fontMetrics().horizontalAdvance(text) + margin <= table.columnWidth(2)


def _fits(view, col: int, text: str) -> bool:
    return view.fontMetrics().horizontalAdvance(text) + 8 <= view.columnWidth(col)


def test_every_kind_reads_whole_in_the_kind_columns(window):
    """After the catalog's new kinds the Kind columns read "object stora…" and "backup
    appli…" (lead, 17:25): a kind's short words fit, its tooltip has them all."""
    from rtoplanner.app.models.stage_table_model import COL_KIND
    from rtoplanner.core.wording import STAGE_KIND_WORDS, stage_kind_short

    shorts = [stage_kind_short(k) for k in STAGE_KIND_WORDS]
    assert "object storage" in shorts and "backup appliance" in shorts
    view = window.stages.view
    assert all(_fits(view, COL_KIND, t) for t in shorts)
    index = view.model().index(0, COL_KIND)
    assert index.data() == stage_kind_short("tape_drive")
    assert "tape drive" in index.data(Qt.ItemDataRole.ToolTipRole)
    browser = window.show_catalog_browser()
    try:
        assert all(_fits(browser.view, 0, t) for t in shorts)
    finally:
        browser.close()


def test_the_prices_kind_column_fits_every_kind(window):
    """The What it takes panel's prices read "datafile st…"."""
    from rtoplanner.core.wording import STAGE_KIND_WORDS, stage_kind_short

    window.show_view("fix")
    table = window.results.panel("fix").price_table
    assert all(_fits(table, 0, stage_kind_short(k)) for k in STAGE_KIND_WORDS)


@pytest.mark.parametrize(
    ("kind", "name"),
    [("nas_head", "ZFS Storage Appliance head"),
     ("backup_appliance", "Recovery Appliance RA23 (ZDLRA) rack")],
)  # fmt: skip
def test_a_catalog_pick_reads_whole_in_its_row(window, kind, name):
    """Issue 23.3 in the table: the catalog's ZFS head, picked from the catalog, plans
    (it was refused as "not in the catalog"); its rate read "2.50 GB/s …" (the
    "(catalog)" cut in 120 px) and the appliance's name "Recovery Appliance RA23 …"."""
    from PySide6.QtGui import QFontMetrics

    from rtoplanner.app.models.stage_table_model import COL_NAME, COL_RATE

    panel, doc = window.stages, window.doc
    panel.use_catalog_item(panel.catalog.find(kind, name), 0)
    assert doc.wait_idle() and doc.is_valid, doc.errors
    view = panel.view
    rate = view.model().index(0, COL_RATE)
    assert rate.data().endswith("(catalog)")
    italic = rate.data(Qt.ItemDataRole.FontRole)
    assert italic.italic()
    assert QFontMetrics(italic).horizontalAdvance(rate.data()) + 8 <= view.columnWidth(COL_RATE)
    assert _fits(view, COL_NAME, name)
    tip = view.model().index(0, COL_NAME).data(Qt.ItemDataRole.ToolTipRole)
    assert name in tip


def test_the_catalog_browser_reads_every_name_whole(window):
    """Issue 23.3: in the catalog browser "Exadata storage server HC (…" and "EF (…" could
    not be told apart (the Name column was 190 px)."""
    from rtoplanner.app.models.catalog_table_model import COL_NAME

    browser = window.show_catalog_browser()
    try:
        view = browser.view
        names = [view.model().index(r, COL_NAME).data() for r in range(view.model().rowCount())]
        assert "Exadata storage server HC (X8M–X11M)" in names
        assert all(_fits(view, COL_NAME, n) for n in names), view.columnWidth(COL_NAME)
    finally:
        browser.close()


def test_the_catalog_buttons_arrow_leaves_its_words_alone(window):
    """The menu arrow of "From catalog" was drawn over its "g"."""
    from PySide6.QtWidgets import QStyle

    button = window.stages.catalog_button
    words = button.text().strip()
    assert words == "From catalog"
    arrow = button.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator)
    text = button.fontMetrics().horizontalAdvance(words)
    assert (button.width() - text) / 2 >= arrow  # the centred words clear the arrow
