"""Chart labels inside their plots (issue 23 item 7), on real widgets."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtoplanner.app.plots.cycle_panel import CyclePanel
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario

pytestmark = pytest.mark.gui

DEMOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.mark.parametrize("demo", ["small_gige_lto", "oltp_zfs_nas"])
def test_cycle_worst_case_label_is_not_clipped(qtbot, demo):
    """The worst case lies just after the cycle's start (a failure before the level 0
    finishes): its label, right-aligned on the dot, ran off the plot's left edge."""
    plan = compute_plan(load_scenario(DEMOS / f"{demo}.toml"), include_growth=False)
    assert plan.cycle.worst_at_s < 0.5 * plan.cycle.points[-1].since_level0_s
    panel = CyclePanel()
    qtbot.addWidget(panel)
    panel.resize(900, 500)
    panel.show()
    panel.set_plan(plan)
    qtbot.waitExposed(panel)
    qtbot.wait(50)  # the view range settles, the label follows it
    vb = panel.plot.getPlotItem().getViewBox()
    label = panel.worst_label
    label.updateTransform(force=True)
    rect = label.sceneBoundingRect()
    area = vb.sceneBoundingRect()
    assert label.toPlainText().startswith("worst ")
    assert area.left() - 1 <= rect.left() and rect.right() <= area.right() + 1


@pytest.mark.parametrize("demo", ["exadata_tape_infiniband", "nas_two_heads", "oltp_zfs_nas"])
def test_path_legend_covers_no_bar_value(qtbot, demo):
    """The path view's legend, top right, sat over the first stage's figures: the key is
    in the axis title now, nothing lies over the bars."""
    from rtoplanner.app.plots.path_panel import PathPanel

    plan = compute_plan(load_scenario(DEMOS / f"{demo}.toml"), include_growth=False,
                        include_cycle=False)  # fmt: skip
    panel = PathPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 520)
    panel.show()
    panel.set_plan(plan)
    qtbot.waitExposed(panel)
    qtbot.wait(50)
    item = panel.plot.getPlotItem()
    assert item.legend is None
    title = item.getAxis("bottom").labelText
    assert "restore" in title and "backup" in title
    assert [lab for lab in panel.labels if lab.isVisible()]
