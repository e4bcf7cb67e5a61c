"""Result views are built on first view and only the view on screen redraws (issue 14)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from rtoplanner.app.plots.cycle_panel import CyclePanel
from rtoplanner.app.plots.timeline_panel import TimelinePanel
from rtoplanner.app.result_tabs import ResultTabs

from .helpers import type_into

pytestmark = pytest.mark.gui


def test_hidden_views_are_not_built_until_shown(window):
    tabs = window.results
    assert tabs.is_built("timeline")
    assert not any(tabs.is_built(name) for name in ("path", "backups", "cycle", "rpo"))
    window.show_view("cycle")
    assert tabs.is_built("cycle")
    panel = window.results.currentWidget().findChild(CyclePanel)
    assert panel is not None and panel.plan is window.doc.plan
    assert not tabs.is_built("rpo")


def test_only_the_visible_view_redraws_and_a_hidden_one_catches_up(qtbot, window):
    window.show_view("path")
    path = window.results.currentWidget().findChild(type(window.path_panel))
    window.show_view("timeline")
    timeline_updates = window.timeline_panel.update_count
    path_updates = path.update_count
    type_into(qtbot, window, "backup.channels", "4")
    window.doc.wait_idle()
    assert window.timeline_panel.update_count > timeline_updates
    assert path.update_count == path_updates  # hidden: not redrawn
    window.show_view("path")
    assert path.update_count == path_updates + 1  # one catch-up, with the latest plan
    assert path.plan is window.doc.plan


def test_a_view_joins_with_one_line_and_follows_units(qtbot):
    tabs = ResultTabs()
    qtbot.addWidget(tabs)
    built = []

    def factory():
        built.append(TimelinePanel())
        return built[-1]

    tabs.add_view("a", "A", factory, tip="first")
    tabs.add_view("b", "B", factory)
    assert len(built) == 1  # the current view only
    tabs.set_binary(True)
    assert tabs.panel("b").binary is True
    assert len(built) == 2
    assert tabs.tabToolTip(0) == "first"
    with pytest.raises(ValueError, match="already registered"):
        tabs.add_view("a", "A again", factory)


def test_incrementals_applied_while_restored_are_drawn_as_shared_time(window):
    """Issue 23.7: restore and apply of the incrementals were two equal solid bars that
    read as double counting; the apply's time shared with the restore is an outline."""
    panel = window.timeline_panel
    names = [p.name for p in panel.shown]
    row = names.index("apply_incremental")
    apply, restore = panel.shown[row], panel.shown[row - 1]
    assert restore.name == "restore_incremental"
    assert panel.shared[row] > 0
    assert panel.shared[row] == pytest.approx(apply.shared_with(restore))
    opts = panel.bars.opts
    rows = [i for i, y in enumerate(opts["y"]) if y == row]
    outlined = [i for i in rows if opts["pens"][i].style() == Qt.PenStyle.DashLine]
    assert len(outlined) == 1 and opts["brushes"][outlined[0]].color().alpha() < 255
    assert opts["width"][outlined[0]] == pytest.approx(panel.shared[row])
    assert "Apply incrementals" in panel.note.text() and "time shared, not added" in (
        panel.note.text()
    )
    # Every other phase is one solid bar.
    assert sum(1 for i, y in enumerate(opts["y"]) if y != row) == len(panel.shown) - 1
