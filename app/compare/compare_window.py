"""Two plans side by side: both recovery timelines on one time axis, and key figures.

    ┌ Compare: A vs B ──────────────────────────────────────────────┐
    │ A: ERP v3 — MEETS: 5 h 10 min of 8 h                          │
    │ [Gantt of A's phases, RTO line]                               │
    │ B: ERP v5 — MISSES: 9 h 02 min of 8 h                         │
    │ [Gantt of B's phases, RTO line]      ← X axes linked (setXLink)│
    │ figure            A          B          B − A                 │
    │ Worst-case …      5 h 10     9 h 02     +3 h 52 min (red)     │
    └───────────────────────────────────────────────────────────────┘

The timelines are the main window's `TimelinePanel` (so a phase looks the same
everywhere), linked on X with one range covering both plans, and with equal left-axis
widths so that one second is at the same pixel column in both. Plans come either ready
(`set_items`) or as two scenarios computed with core's `compute_plan` in a worker
(`compare_scenarios`: the full plan with the cycle scan and growth outlook takes
longer than a frame).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.headline import Headline, plan_headline
from rtoplanner.core.plan import Plan, compute_plan
from rtoplanner.core.scenario import Scenario
from rtoplanner.core.units import format_duration

from ..plots.timeline_panel import TimelinePanel
from ..shell.placement import fit_size
from ..theme import VERDICT_COLORS, VERDICT_WORDS
from ..workers import Cancelled, TaskRunner
from .key_figures import COL_DIFF, COL_FIGURE, KeyFiguresModel

LEFT_AXIS_WIDTH = 150
"""Both timelines reserve the same room for phase names, so their time axes line up."""


@dataclass(frozen=True)
class CompareItem:
    label: str
    plan: Plan
    headline: Headline | None = None
    """The plan's headline with its probability (None: the plan's verdict alone)."""


def compute_pair(
    a: Scenario, b: Scenario, should_cancel: Callable[[], bool] | None = None
) -> tuple[Plan, Plan]:
    """Both full plans (runs in a worker)."""
    plan_a = compute_plan(a)
    if should_cancel is not None and should_cancel():
        raise Cancelled
    return plan_a, compute_plan(b)


def compute_pair_with_odds(
    a: Scenario, b: Scenario, catalog: Any = None, should_cancel: Callable[[], bool] | None = None
) -> tuple[Plan, Plan, Headline, Headline]:
    """Both full plans and their headlines with the probability `rto-planner plan` states
    (its trials and seed: Compare and the terminal agree), in a worker."""
    plan_a, plan_b = compute_pair(a, b, should_cancel)
    if should_cancel is not None and should_cancel():
        raise Cancelled
    odds_a = plan_headline(plan_a, catalog=catalog)
    return plan_a, plan_b, odds_a, plan_headline(plan_b, catalog=catalog)


class CompareTimeline(TimelinePanel):
    """A timeline whose headline names the plan: "A: label — MEETS 5 h of 8 h"."""

    def __init__(self, tag: str, parent=None) -> None:
        super().__init__(parent)
        self.tag = tag
        self.label = ""
        self.odds: Headline | None = None
        self.partner: CompareTimeline | None = None
        """The other plan's timeline: one time axis must show both."""
        self.note.hide()
        self.plot.getPlotItem().getAxis("left").setWidth(LEFT_AXIS_WIDTH)
        self.plot.setMinimumHeight(150)

    def shared_x_max(self) -> float:
        """The shared axis ends where the longer of the two plans (and its labels) ends,
        whichever panel was redrawn or resized last."""
        return max(self.x_max_needed(), self.partner.x_max_needed() if self.partner else 0.0)

    def redraw(self) -> None:
        super().redraw()
        plan = self.plan
        assert plan is not None
        rec = plan.recovery
        odds = self.odds
        verdict = plan.verdict if odds is None else odds.verdict
        color = VERDICT_COLORS[verdict]
        word = "margin" if rec.margin_s >= 0 else "over by"
        decided = "" if plan.decided_by == "recovery" else f" (decided by {plan.deciding.title})"
        sure = "" if odds is None else f" — {odds.sure()}"
        self.headline.setText(
            f"{self.tag}: {_html(self.label)} — <span style='color:{color}'>"
            f"{VERDICT_WORDS[verdict]}{_html(sure)}</span>{_html(decided)}; recovery "
            f"{format_duration(rec.total_s)} of an RTO "
            f"of {format_duration(rec.rto_s)}, {word} {format_duration(abs(rec.margin_s))}"
        )


class CompareWindow(QWidget):
    ready = Signal()
    """Both plans are shown."""
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, binary: bool = False) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setObjectName("compare_window")
        self.setWindowTitle("Compare plans")
        fit_size(self, 1200, 900)
        self.items: tuple[CompareItem, CompareItem] | None = None

        self.timeline_a = CompareTimeline("A")
        self.timeline_b = CompareTimeline("B")
        for t in (self.timeline_a, self.timeline_b):
            t.set_binary(binary)
        # One time axis: B follows A's X range (and A follows B's), long enough for both.
        self.timeline_b.plot.setXLink(self.timeline_a.plot)
        self.timeline_a.partner = self.timeline_b
        self.timeline_b.partner = self.timeline_a

        self.model = KeyFiguresModel(self)
        self.table = QTableView()
        self.table.setObjectName("key_figures")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_FIGURE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_DIFF, QHeaderView.ResizeMode.ResizeToContents)

        self.status = QLabel("")
        self.status.setObjectName("compare_status")

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.timeline_a)
        split.addWidget(self.timeline_b)
        split.addWidget(self.table)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 2)
        split.setSizes([270, 270, 310])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)

        self._labels: tuple[str, str] = ("A", "B")
        self._runner = TaskRunner(self)
        self._runner.done.connect(self._on_plans)
        self._runner.failed.connect(self._on_failed)

    # ------------------------------------------------------------------ input

    def compare_scenarios(
        self, label_a: str, a: Scenario, label_b: str, b: Scenario, catalog: Any = None
    ) -> None:
        """Compute both full plans and their probabilities in a worker; `ready` fires when
        they are shown."""
        self._labels = (label_a, label_b)
        self.setWindowTitle(f"Compare: {label_a}  ·  {label_b}")
        self.status.setText("Computing both plans and how likely each is to hold…")
        self._runner.submit(compute_pair_with_odds, a, b, catalog)

    def set_items(self, a: CompareItem, b: CompareItem) -> None:
        """Show two computed plans (full plans give the growth date; fast ones say so)."""
        self.items = (a, b)
        self.setWindowTitle(f"Compare: {a.label}  ·  {b.label}")
        for t, item in ((self.timeline_a, a), (self.timeline_b, b)):
            t.label = item.label
            t.odds = item.headline
            t.set_plan(item.plan)
        self._share_axes()
        self.model.set_plans(a.label, a.plan, b.label, b.plan, (a.headline, b.headline))
        self.table.resizeColumnToContents(COL_FIGURE)
        self.status.setText("Both timelines share one time axis; B − A is green where B is better.")
        self.ready.emit()

    def _share_axes(self) -> None:
        assert self.items is not None
        rows = max(len(t.shown) for t in (self.timeline_a, self.timeline_b)) or 1
        for t in (self.timeline_a, self.timeline_b):
            t.min_rows = rows
            t._fit()

    @Slot(object)
    def _on_plans(self, plans: object) -> None:
        plan_a, plan_b, *odds = plans  # type: ignore[misc]
        head_a, head_b = odds or (None, None)
        self.set_items(CompareItem(self._labels[0], plan_a, head_a),
                       CompareItem(self._labels[1], plan_b, head_b))  # fmt: skip

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self.status.setText(f"Cannot compute the plans: {exc}")
        self.failed.emit(str(exc))

    # ------------------------------------------------------------------ lifetime

    @property
    def busy(self) -> bool:
        return self._runner.busy

    def set_binary(self, binary: bool) -> None:
        for t in (self.timeline_a, self.timeline_b):
            t.set_binary(binary)
        if self.items is not None:
            self._share_axes()

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self._runner.wait(timeout_ms)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
