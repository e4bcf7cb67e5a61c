"""The *What it takes* view (DESIGN §8): what to buy or change, and what it costs.

A self-contained panel fed a `Plan`, registered as a result view (`shell/registry.py`;
its tab is flagged while the plan misses or is at risk). When the plan misses or is at
risk it computes, in a worker, `core.fix.what_it_takes` — the frontier of cost against
worst-case recovery time and the cheapest set of changes that meets every target — and
lists each point's changes in a DBA's words. *Apply* makes one point's changes as one
undoable step; prices are set from the panel (kept in the store) and the answer is
recomputed.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.catalog import parse_price
from rtoplanner.core.engine.verdict import decided_by_words
from rtoplanner.core.errors import CoreError
from rtoplanner.core.fix import FixPoint, FixResult, PriceBook, common_changes, what_it_takes
from rtoplanner.core.fix.answer import odds_words
from rtoplanner.core.fix.prices import format_money, price_book
from rtoplanner.core.plan import Plan
from rtoplanner.core.scenario import Scenario
from rtoplanner.core.units import format_duration, format_percent
from rtoplanner.core.wording import for_reader, plural, recovery_clause

from .document import ScenarioDocument
from .models.fix_table_model import (
    COL_CHANGES,
    FrontierRow,
    FrontierTableModel,
    PriceRow,
    PriceTableModel,
)
from .shell.registry import View, register
from .tables import kind_column_width, read_only_table
from .theme import VERDICT_COLORS, VERDICT_WORDS
from .workers import TaskRunner

VIEW_NAME = "fix"
TITLE = "What it takes"


def _compute(
    scenario: Scenario,
    catalog: Any,
    prices: PriceBook,
    budget: float | None,
    progress: Any = None,
    should_cancel: Any = None,
) -> tuple[Scenario, FixResult]:
    """The worker's job: the core's answer, nothing computed here (with the scenario it
    answers for: a frontier belongs to one scenario)."""
    return scenario, what_it_takes(
        scenario,
        catalog=catalog,
        prices=prices,
        budget=budget,
        progress=progress,
        should_cancel=should_cancel,
    )


class WhatItTakesPanel(QWidget):
    """The frontier, the chosen point's changes, Apply, and the prices they depend on."""

    needs_full_plan = False
    readable_height = 560
    """The headline, five rows of the frontier and the chosen point's changes beside the
    prices: a shorter window scrolls (at 1024 × 700 the frontier showed two rows and the
    changes a few words, issue 23.4)."""

    def __init__(self, doc: ScenarioDocument, store_service: Any = None) -> None:
        super().__init__()
        self.setObjectName("what_it_takes")
        self.doc = doc
        self.store_service = store_service
        self.plan: Plan | None = None
        self.result: FixResult | None = None
        self.result_for: Scenario | None = None
        """The scenario `result` was worked out for: a frontier is never shown, nor
        applied, for another one (another demo, a database opened from the Estate
        window, or the scenario after an edit)."""
        self._computed_for: Scenario | None = None
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._on_done)
        self.runner.failed.connect(self._on_failed)
        self.runner.progress.connect(self._on_progress)
        self._build()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.headline = QLabel()
        self.headline.setObjectName("fix_headline")
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.headline)

        bar = QHBoxLayout()
        bar.addWidget(QLabel("Budget"))
        self.budget_edit = QLineEdit()
        self.budget_edit.setObjectName("fix_budget")
        self.budget_edit.setPlaceholderText("none")
        self.budget_edit.setMaximumWidth(120)
        self.budget_edit.setToolTip("Pick the fastest point whose known cost fits this amount")
        self.budget_edit.editingFinished.connect(self.recompute)
        bar.addWidget(self.budget_edit)
        self.currency_label = QLabel()
        bar.addWidget(self.currency_label)
        self.compute_button = QPushButton("Compute")
        self.compute_button.setToolTip("Work out what it takes now (also when the plan meets)")
        self.compute_button.clicked.connect(self.recompute)
        bar.addWidget(self.compute_button)
        self.status = QLabel()
        self.status.setObjectName("fix_status")
        bar.addWidget(self.status, 1)
        self.apply_button = QPushButton("Apply this point")
        self.apply_button.setObjectName("fix_apply")
        self.apply_button.setToolTip("Make the selected point's changes (one step: Undo reverts)")
        self.apply_button.clicked.connect(self.apply_selected)
        bar.addWidget(self.apply_button)
        layout.addLayout(bar)

        self.common = QLabel()
        self.common.setObjectName("fix_common")
        self.common.setWordWrap(True)
        layout.addWidget(self.common)

        split = QSplitter(Qt.Orientation.Vertical)
        self.model = FrontierTableModel(self)
        self.table = read_only_table(self.model, "fix_frontier")
        self.table.horizontalHeader().setSectionResizeMode(
            COL_CHANGES, QHeaderView.ResizeMode.Stretch
        )
        for col, width in enumerate((44, 175, 90, 70)):
            self.table.setColumnWidth(col, width)
        self.table.selectionModel().currentRowChanged.connect(self._show_details)
        self.table.doubleClicked.connect(lambda _i: self.apply_selected())
        split.addWidget(self.table)

        lower = QWidget()
        ll = QHBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        self.details = QLabel()
        self.details.setObjectName("fix_details")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.details)
        ll.addWidget(scroll, 3)
        prices_box = QVBoxLayout()
        prices_head = QHBoxLayout()
        prices_head.addWidget(QLabel("<b>Prices</b> (yours win; double-click to set)"))
        self.price_button = QPushButton("Set price…")
        self.price_button.clicked.connect(self._ask_price)
        prices_head.addWidget(self.price_button)
        prices_box.addLayout(prices_head)
        self.price_model = PriceTableModel(self)
        self.price_table = read_only_table(self.price_model, "fix_prices")
        self.price_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.price_table.setColumnWidth(0, kind_column_width(self.price_table))
        head = self.price_table.horizontalHeader()  # "Price of one unit" whole (issue 23)
        self.price_table.setColumnWidth(2, head.fontMetrics().horizontalAdvance(
            self.price_model.HEADERS[2]) + 2 * head.style().pixelMetric(
            QStyle.PixelMetric.PM_HeaderMargin) + 4)  # fmt: skip
        self.price_table.doubleClicked.connect(lambda _i: self._ask_price())
        prices_box.addWidget(self.price_table)
        ll.addLayout(prices_box, 2)
        split.addWidget(lower)
        split.setChildrenCollapsible(False)
        rows = self.table.verticalHeader().defaultSectionSize()
        self.table.setMinimumHeight(6 * rows + 4)  # the header and five points
        lower.setMinimumHeight(8 * self.fontMetrics().lineSpacing())
        split.setSizes([260, 200])
        layout.addWidget(split, 1)
        self._update_buttons()

    # ------------------------------------------------------------------ PlanPanel protocol

    def set_plan(self, plan: Plan) -> None:
        self.plan = plan
        if self.result_for is not None and plan.scenario != self.result_for:
            self._clear()
        if plan.verdict != "meets":
            self.recompute(force=False)
        elif self.result is None:
            self.runner.cancel()  # a frontier still being worked out is for another one
            self._computed_for = None
            self._show_meets(plan)

    def _clear(self) -> None:
        """Forget a frontier that belongs to another scenario."""
        self.result = None
        self.result_for = None
        self.model.set_rows([])
        self.price_model.set_rows([])
        self.common.setVisible(False)
        self.details.setText("")
        self.status.setText("")
        self._update_buttons()

    def set_binary(self, binary: bool) -> None:  # costs and times only: nothing to redo
        del binary

    def apply_theme(self) -> None:
        if self.result is not None:
            self._show_result(self.result)

    # ------------------------------------------------------------------ computing

    def prices(self) -> PriceBook:
        store = getattr(self.store_service, "store", None)
        if store is not None:
            try:
                return price_book(store, self.doc.catalog)
            except CoreError:
                pass
        return price_book(None, self.doc.catalog)

    def budget(self) -> float | None:
        text = self.budget_edit.text().strip()
        if not text:
            return None
        try:
            return parse_price(text, what="budget")
        except CoreError as exc:
            self.status.setText(html.escape(str(exc)))
            return None

    @Slot()
    def recompute(self, force: bool = True) -> None:
        """Work out what it takes for the current plan, in a worker (latest wins)."""
        if self.plan is None:
            return
        scenario = self.plan.scenario
        if not force and scenario == self._computed_for:
            return
        self._computed_for = scenario
        prices = self.prices()
        self.currency_label.setText(prices.currency)
        self.status.setText("Working out what it takes…")
        self.runner.submit(_compute, scenario, self.doc.catalog, prices, self.budget())

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the worker before the window closes (called by the result tabs)."""
        return self.runner.wait(timeout_ms)

    @Slot(object)
    def _on_done(self, value: object) -> None:
        scenario, result = value  # type: ignore[misc]
        assert isinstance(result, FixResult)
        if self.plan is None or scenario != self.plan.scenario:
            return  # worked out for a scenario no longer shown
        self.result = result
        self.result_for = scenario
        self._show_result(result)

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self.status.setText(f"Could not work it out: {html.escape(str(exc))}")

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        self.status.setText(f"{message} {format_percent(fraction, 0)}")

    # ------------------------------------------------------------------ showing

    def _show_meets(self, plan: Plan) -> None:
        self.headline.setText(
            f"<b style='color:{VERDICT_COLORS['meets']}'>The plan meets every target.</b> "
            "Press Compute to see what faster recovery would cost anyway."
        )

    def _show_result(self, result: FixResult) -> None:
        today = result.today
        color = VERDICT_COLORS.get(today.verdict, "")
        rec = result.recommended
        decided = html.escape(decided_by_words(today.decided_by))
        recovery = html.escape(recovery_clause(today.recovery_s, today.recovery_verdict))
        head = (
            f"Today: <b style='color:{color}'>{VERDICT_WORDS[today.verdict]}</b> (decided by "
            f"{decided}); {recovery}. "
        )
        if today.verdict == "meets":
            head += "<b>It meets every target</b>; the points below buy a faster recovery."
        elif rec is not None:
            cost = html.escape(rec.cost.text(result.currency))
            head += (
                f"<b>Cheapest way to meet every target: {cost}</b> "
                f"(★, {plural(len(rec.changes), 'change')}, worst case "
                f"{format_duration(rec.recovery_s)})."
            )
            if result.odds is not None:
                head += f"<br>{html.escape(odds_words(result.odds))}"
        elif result.frontier:
            head += "No combination considered makes every target meet; the fastest is last."
        else:
            head += "No change considered makes a difference."
        self.headline.setText(head)
        self.currency_label.setText(result.currency)
        self.status.setText(f"{len(result.frontier)} points, {result.evaluated} variants computed")
        common = common_changes(result.frontier)
        self.common.setText("Every point includes: " + "; ".join(common) if common else "")
        self.common.setVisible(bool(common))
        rows = [
            FrontierRow(n, p, result.currency, tuple(c.words for c in p.changes
                                                     if c.words not in common))
            for n, p in enumerate(result.frontier, start=1)
        ]  # fmt: skip
        self.model.set_rows(rows)
        chosen = result.chosen or rec
        if chosen is not None and chosen in result.frontier:
            self.table.selectRow(result.frontier.index(chosen))
        self._fill_prices(result)
        self._show_details()
        self._update_buttons()

    def _fill_prices(self, result: FixResult) -> None:
        book = self.prices()
        quotes = [(kind, name, book.money(kind, name)) for kind, name in result.purchases()]
        rows = [
            PriceRow(kind, name, None if q is None else q.amount,
                     book.currency if q is None else q.currency)
            for kind, name, q in quotes
        ]  # fmt: skip
        self.price_model.set_rows(sorted(rows, key=lambda r: (r.price is not None, r.name)))

    def selected_point(self) -> FixPoint | None:
        row = self.model.row_at(self.table.currentIndex())
        return row.point if row is not None else None

    @Slot()
    def _show_details(self, *_args: Any) -> None:
        result, point = self.result, self.selected_point()
        if result is None or point is None:
            self.details.setText("")
            self._update_buttons()
            return
        n = result.frontier.index(point) + 1
        lines = [
            f"<b>Point {n}{' ★ (cheapest that meets every target)' if point.recommended else ''}"
            f"</b>: {html.escape(point.cost.text(result.currency))}, worst case "
            f"{format_duration(point.recovery_s)}, {VERDICT_WORDS[point.verdict]}.<ul>"
        ]
        for c in point.changes:
            same = (
                f"<br><i>the same result: {html.escape('; '.join(c.alternatives))}</i>"
                if c.alternatives
                else ""
            )
            lines.append(f"<li>{html.escape(c.words)}{same}</li>")
        lines.append("</ul>")
        lines += [f"<p>{html.escape(for_reader(note))}</p>" for note in result.notes]
        self.details.setText("".join(lines))
        self._update_buttons()

    def _current(self) -> bool:
        """Whether the frontier shown was worked out for the scenario open now."""
        return self.result_for is not None and self.result_for == self.doc.scenario

    def _update_buttons(self) -> None:
        self.apply_button.setEnabled(self.selected_point() is not None and self._current())
        store = getattr(self.store_service, "store", None)
        self.price_button.setEnabled(store is not None and self.price_model.rowCount() > 0)
        if store is None:
            self.price_button.setToolTip("Prices are kept in the store, which is not available")

    # ------------------------------------------------------------------ actions

    @Slot()
    def apply_selected(self) -> bool:
        """Make the selected point's changes in the scenario: one undoable step."""
        point = self.selected_point()
        if point is None or self.result is None:
            return False
        if not self._current():
            self.status.setText(
                "This frontier was worked out for another scenario (or before an edit): "
                "it is not applied. Press Compute for this one."
            )
            self._update_buttons()
            return False
        n = self.result.frontier.index(point) + 1
        self.doc.set_values(point.edits, f"What it takes: point {n}")
        return True

    def set_price(self, kind: str, name: str, amount: float | None) -> bool:
        """Keep the user's price in the store and work the answer out again."""
        store = getattr(self.store_service, "store", None)
        if store is None:
            return False
        store.set_price(kind, name, amount)
        self.recompute()
        return True

    @Slot()
    def _ask_price(self) -> None:
        row = self.price_model.row_at(self.price_table.currentIndex())
        if row is None and self.price_model.rowCount():
            row = self.price_model.row_at(0)
        if not isinstance(row, PriceRow):
            return
        current = "" if row.price is None else f"{row.price:.0f}"
        text, ok = QInputDialog.getText(
            self,
            "Price of one unit",
            f"{row.name} ({row.kind.replace('_', ' ')}), in {row.currency}; empty forgets yours:",
            text=current,
        )
        if not ok:
            return
        try:
            amount = parse_price(text) if text.strip() else None
        except CoreError as exc:
            self.status.setText(html.escape(str(exc)))
            return
        self.set_price(row.kind, row.name, amount)


def attention(plan: object) -> str | None:
    """Why the tab is flagged: the plan misses or is at risk (None: it is not)."""
    if isinstance(plan, Plan) and plan.verdict != "meets":
        return "The plan misses or is at risk: see what it takes to meet every target"
    return None


register(View(VIEW_NAME, TITLE, lambda host: WhatItTakesPanel(host.doc, host.store_service),
              order=70, tip="What to buy or change to meet every target, and what it costs",
              flag=attention, help=TITLE))  # fmt: skip


__all__ = ["WhatItTakesPanel", "attention", "format_money"]
