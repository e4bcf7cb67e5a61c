"""The Compare window: two timelines on one time axis, and the key figures."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QDialog

from rtoplanner.app.compare import CompareChooser, CompareItem, CompareSource, CompareWindow
from rtoplanner.app.compare.chooser import EDITOR, FILE, STORED, default_sources
from rtoplanner.app.compare.key_figures import (
    COL_A,
    COL_B,
    COL_DIFF,
    FIGURES,
    KeyFiguresModel,
    ValueRole,
)
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario, with_values
from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import VERDICT_WORDS

from .conftest import DEMO, REPO, close_window, show_window
from .helpers import compare_items

pytestmark = pytest.mark.gui

SMALL = REPO / "data" / "scenarios" / "small_gige_lto.toml"
NAME = "Exadata full rack – restore from LTO-4 over InfiniBand"
SMALL_NAME = "Small ERP – restore over GigE from LTO-5"


@pytest.fixture(scope="module")
def plans():
    demo = load_scenario(DEMO)
    fewer = with_values(demo, {"path[0].count": 4})
    return compute_plan(demo), compute_plan(fewer)


@pytest.fixture
def compare(qtbot):
    w = CompareWindow()
    qtbot.addWidget(w)
    w.resize(1200, 820)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.shutdown()


def test_two_timelines_share_one_time_axis(compare, plans):
    a, b = plans
    assert b.recovery.total_s > a.recovery.total_s
    compare.set_items(CompareItem("8 drives", a), CompareItem("4 drives", b))
    vb_a = compare.timeline_a.plot.getPlotItem().getViewBox()
    vb_b = compare.timeline_b.plot.getPlotItem().getViewBox()
    assert vb_b.linkedView(pg.ViewBox.XAxis) is vb_a
    x_a, x_b = vb_a.viewRange()[0], vb_b.viewRange()[0]
    assert x_a == pytest.approx(x_b)
    # One range covers the longer plan (and both RTOs).
    assert x_a[1] >= max(b.recovery.total_s, b.recovery.rto_s)
    # Zooming one zooms the other.
    vb_a.setXRange(0, 3600, padding=0)
    assert vb_b.viewRange()[0] == pytest.approx([0, 3600])
    # Equal left axes: one second is at the same pixel column in both.
    ax_a = compare.timeline_a.plot.getPlotItem().getAxis("left")
    ax_b = compare.timeline_b.plot.getPlotItem().getAxis("left")
    assert ax_a.width() == ax_b.width()
    assert compare.timeline_a.rto_line.value() == a.recovery.rto_s
    assert compare.timeline_b.total_line.value() == b.recovery.total_s
    assert "A: 8 drives" in compare.timeline_a.headline.text()
    assert "MISSES" in compare.timeline_b.headline.text()


def test_key_figures_show_both_totals(compare, plans):
    a, b = plans
    compare.set_items(CompareItem("A plan", a), CompareItem("B plan", b))
    model = compare.model
    row = model.row_of("total")
    assert model.data(model.index(row, COL_A), ValueRole) == a.recovery.total_s
    assert model.data(model.index(row, COL_B), ValueRole) == b.recovery.total_s
    assert model.data(model.index(row, COL_A)) == format_duration(a.recovery.total_s)
    assert model.data(model.index(row, COL_B)) == format_duration(b.recovery.total_s)
    diff = model.data(model.index(row, COL_DIFF))
    assert diff == "+" + format_duration(b.recovery.total_s - a.recovery.total_s)
    verdict = model.row_of("verdict")
    assert model.data(model.index(verdict, COL_DIFF)) == "MEETS → MISSES"
    level0 = model.row_of("level0")
    assert model.data(model.index(level0, COL_A), ValueRole) == a.job("level0").duration_s
    rpo = model.row_of("rpo_site")
    assert model.data(model.index(rpo, COL_B), ValueRole) == b.rpo.site_loss_s
    assert model.headerData(COL_A, pg.QtCore.Qt.Orientation.Horizontal) == "A: A plan"


def test_key_figures_model_passes_the_model_tester(qtmodeltester, plans):
    model = KeyFiguresModel()
    qtmodeltester.check(model)  # empty
    model.set_plans("a", plans[0], "b", plans[1])
    assert model.rowCount() == len(FIGURES)
    qtmodeltester.check(model)
    same = KeyFiguresModel()
    same.set_plans("a", plans[0], "a again", plans[0])
    for r in range(same.rowCount()):
        assert same.data(same.index(r, COL_DIFF)) in ("same", "—")


def test_compare_scenarios_computes_in_a_worker(qtbot, compare):
    demo = load_scenario(DEMO)
    small = load_scenario(SMALL)
    with qtbot.waitSignal(compare.ready, timeout=10000):
        compare.compare_scenarios("demo", demo, "small", small)
    a, b = compare.items
    assert a.plan.cycle is not None and b.plan.growth is not None  # full plans
    assert a.plan.recovery.total_s == compute_plan(demo).recovery.total_s
    assert not compare.busy


@pytest.fixture
def win(qtbot, service):
    service.store.import_scenario(DEMO)
    service.store.import_scenario(SMALL)
    w = show_window(qtbot, service)
    yield w
    close_window(w)


def test_view_compare_editor_against_a_stored_scenario(qtbot, win, monkeypatch):
    assert win.open_stored(NAME, ask=False)
    win.doc.set_value("path[0].count", 4)
    win.doc.wait_idle()
    chosen = {}

    def exec_(self):
        chosen["defaults"] = self.sources()
        self.b.set_source(CompareSource(STORED, SMALL_NAME, 0))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(CompareChooser, "exec", exec_)
    assert win.compare_action.shortcut().toString() == "Ctrl+Shift+C"
    win.compare_action.trigger()
    a_default, b_default = chosen["defaults"]
    assert a_default.kind == EDITOR and b_default == CompareSource(STORED, NAME, 0)
    compare = win.compare_windows[-1]
    a, b = compare_items(qtbot, compare)
    assert a.label == f"{NAME} (editor, from v1, unsaved)"
    assert a.plan.scenario.path[0].count == 4
    assert b.label == f"{SMALL_NAME} v1 (current)"
    compare.close()


def test_default_sources_without_a_store():
    a, b = default_sources(None, None)
    assert a.kind == FILE and b.kind == FILE


def test_the_shared_axis_shows_the_longer_plan_after_a_resize(qtbot, compare, plans):
    """Issue 15.1: with the failing plan as A, the axis ended at B's shorter plan."""
    short, long = plans
    compare.set_items(CompareItem("4 drives", long), CompareItem("8 drives", short))
    for size in ((1500, 1000), (1000, 700), (1300, 900)):
        compare.resize(*size)
        qtbot.wait(30)
        for t in (compare.timeline_a, compare.timeline_b):
            vb = t.plot.getPlotItem().getViewBox()
            x_max = vb.viewRange()[0][1]
            assert x_max >= max(long.recovery.total_s, long.recovery.rto_s)
            # The labels right of A's lines fit inside the shared axis too.
            tl = compare.timeline_a
            for label in (tl.rto_label, tl.margin_label):
                right = label.mapRectToView(label.boundingRect()).right()
                assert right <= x_max


def test_key_figures_compare_the_headline_verdict_and_what_decides_it(plans):
    """The GigE demo meets its RTO but misses its RPO: Compare says MISSES, decided by RPO."""
    small = compute_plan(load_scenario(SMALL))
    model = KeyFiguresModel()
    model.set_plans("a", plans[0], "b", small)
    verdict = model.row_of("verdict")
    assert model.data(model.index(verdict, COL_B)) == "MISSES"
    assert model.data(model.index(model.row_of("decided_by"), COL_B)) == "RPO"
    assert model.data(model.index(model.row_of("recovery_verdict"), COL_B)) == "MEETS"


def test_compare_states_each_plans_probability(qtbot, compare):
    """Issue 20.5: Compare computes both headlines in its worker, with the probability
    `rto-planner plan` states (same trials, same seed), and the verdict is the headline's."""
    from rtoplanner.core.headline import plan_headline, sure_percent

    demo, small = load_scenario(DEMO), load_scenario(SMALL)
    with qtbot.waitSignal(compare.ready, timeout=20000):
        compare.compare_scenarios("Exadata", demo, "GigE", small)
    model = compare.model
    expected = [plan_headline(compute_plan(s)) for s in (demo, small)]
    row = model.row_of("p_meets")
    for col, odds in ((COL_A, expected[0]), (COL_B, expected[1])):
        assert model.data(model.index(row, col)) == sure_percent(odds.p_meets)
        assert model.data(model.index(model.row_of("verdict"), col)) == VERDICT_WORDS[odds.verdict]
    planned = model.data(model.index(model.row_of("planned_verdict"), COL_A))
    assert planned == "MEETS" != model.data(model.index(model.row_of("verdict"), COL_A))
    assert expected[0].sure() in compare.timeline_a.headline.text()


def test_a_negative_margin_uses_the_difference_columns_minus_sign(plans):
    """Issue 23: "Margin -41 min 41 s" beside "B − A −1 h 24 min": two minus signs."""
    from rtoplanner.app.compare.key_figures import COL_A, COL_B

    model = KeyFiguresModel()
    model.set_plans("a", plans[0], "b", plans[1])
    row = model.row_of("margin")
    texts = [model.data(model.index(row, c)) for c in (COL_A, COL_B)]
    margins = [p.recovery.margin_s for p in plans]
    assert any(m < 0 for m in margins), margins
    for text, m in zip(texts, margins, strict=True):
        assert "-" not in text
        assert text.startswith("−") == (m < 0), text
