"""The result views' tab widget: a registry of panel factories, built on first view.

The window adds the views registered with `Place.TAB` (`shell/registry.py`); by hand:

    tabs.add_view("rpo", "RPO and growth", RpoGrowthPanel, tip="…", needs={Need.PLAN})

where the factory is anything that returns a panel with what its `needs` call
(`set_plan`, `set_binary`, `apply_theme`; the plots follow the `PlanPanel` protocol,
which has all three and `needs_full_plan`). Until a view is first
shown its tab holds an empty page, so start-up pays for one plot, not all of them, and a
new plan redraws only the view on screen: the others are marked stale and catch up when
they are shown or asked for (`panel(name)`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QVBoxLayout, QWidget

from .shell.registry import ALL_NEEDS, Need


def lazy(module: str, name: str, *args: Any) -> Callable[[], Any]:
    """A factory that imports `rtoplanner.app.<module>` only when the view is first shown
    and returns `name(*args)` from it (start-up imports the timeline's module alone)."""

    def make() -> Any:
        return getattr(importlib.import_module(f"rtoplanner.app.{module}"), name)(*args)

    return make


READABLE_HEIGHT = 330
"""Below this a plot's labels collide: a view shorter than its `readable_height` (or this)
scrolls instead of squeezing (issue 23.4: the Confidence view at 1024 × 700)."""
READABLE_WIDTH = 480


class _BodyLayout(QVBoxLayout):
    """The page's layout: the view fills the page down to its readable size. A wrapped
    label's height-for-width made the scroll area size the view at its preferred height
    instead (a scroll bar at 1440 × 900 where everything fits)."""

    def hasHeightForWidth(self) -> bool:
        return False


class _ScrollPage(QScrollArea):
    """A tab's page: the view fills it, and scrolls when the window is smaller than the
    view can be read at."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.setObjectName(f"view_{name}")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.body = QWidget()
        layout = _BodyLayout(self.body)
        layout.setContentsMargins(0, 0, 0, 0)
        self.setWidget(self.body)

    def hold(self, panel: QWidget) -> None:
        """Put the view on the page with the least size it reads at."""
        self.body.layout().addWidget(panel)
        self.body.setMinimumSize(
            getattr(panel, "readable_width", READABLE_WIDTH),
            getattr(panel, "readable_height", READABLE_HEIGHT),
        )


@dataclass
class _View:
    name: str
    title: str
    factory: Callable[[], Any]
    page: _ScrollPage
    tip: str = ""
    needs: frozenset[Need] = ALL_NEEDS
    panel: Any = None
    stale: bool = field(default=False)


class ResultTabs(QTabWidget):
    """Tabs of result panels, each built by its factory when first shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._views: dict[str, _View] = {}
        self._plan: Any = None
        self._binary = False
        self.currentChanged.connect(self._on_current_changed)

    # ------------------------------------------------------------------ registry

    def add_view(
        self,
        name: str,
        title: str,
        factory: Callable[[], Any],
        *,
        tip: str = "",
        needs: frozenset[Need] = ALL_NEEDS,
    ) -> int:
        """Register a view; its panel is built the first time it is shown."""
        if name in self._views:
            raise ValueError(f"a result view named {name!r} is already registered")
        page = _ScrollPage(name)
        self._views[name] = _View(name, title, factory, page, tip, frozenset(needs))
        index = self.addTab(page, title)
        if tip:
            self.setTabToolTip(index, tip)
        if self.currentIndex() == index:  # the first view: build it now, it is on screen
            self._on_current_changed(index)
        return index

    def names(self) -> list[str]:
        return list(self._views)

    def title(self, name: str) -> str:
        return self._views[name].title

    def is_built(self, name: str) -> bool:
        return self._views[name].panel is not None

    def built_panels(self) -> Iterator[Any]:
        return (v.panel for v in self._views.values() if v.panel is not None)

    def panel(self, name: str) -> Any:
        """The view's panel, built and showing the latest plan (built now if need be)."""
        view = self._views[name]
        self._ensure_built(view)
        self._catch_up(view)
        return view.panel

    def current_name(self) -> str:
        """The name of the view on screen ("" when none)."""
        view = self._view_at(self.currentIndex())
        return view.name if view is not None else ""

    def show_view(self, name: str) -> None:
        self.setCurrentWidget(self._views[name].page)

    def set_flag(self, name: str, reason: str | None) -> None:
        """Flag a view's tab ("title ●", `reason` as its tooltip), or unflag it (None)."""
        view = self._views[name]
        index = self.indexOf(view.page)
        self.setTabText(index, f"{view.title} ●" if reason else view.title)
        self.setTabToolTip(index, reason or view.tip)

    # ------------------------------------------------------------------ plan dispatch

    def set_plan(self, plan: Any) -> None:
        """Draw `plan` in the view on screen; the others redraw when next shown."""
        self._plan = plan
        current = self.currentWidget()
        for view in self._views.values():
            if view.panel is None or Need.PLAN not in view.needs:
                continue
            if view.page is current:
                view.panel.set_plan(plan)
                view.stale = False
            else:
                view.stale = True

    def set_binary(self, binary: bool) -> None:
        self._binary = binary
        for panel in self._built(Need.BINARY):
            panel.set_binary(binary)

    def apply_theme(self) -> None:
        for panel in self._built(Need.THEME):
            panel.apply_theme()

    def shutdown(self) -> None:
        """Let panels with work of their own (a worker) stop it before the window closes."""
        for panel in self.built_panels():
            stop = getattr(panel, "shutdown", None)
            if stop is not None:
                stop()

    # ------------------------------------------------------------------ internals

    def _built(self, need: Need) -> Iterator[Any]:
        return (v.panel for v in self._views.values() if v.panel is not None and need in v.needs)

    def _view_at(self, index: int) -> _View | None:
        page = self.widget(index)
        return next((v for v in self._views.values() if v.page is page), None)

    @Slot(int)
    def _on_current_changed(self, index: int) -> None:
        view = self._view_at(index)
        if view is None:
            return
        self._ensure_built(view)
        self._catch_up(view)

    def _ensure_built(self, view: _View) -> None:
        if view.panel is not None:
            return
        panel = view.factory()
        view.panel = panel
        if Need.BINARY in view.needs:
            panel.set_binary(self._binary)
        view.page.hold(panel)
        view.stale = self._plan is not None and Need.PLAN in view.needs

    def _catch_up(self, view: _View) -> None:
        if view.stale and self._plan is not None:
            view.stale = False
            view.panel.set_plan(self._plan)
