"""Confidence: how likely the plan is to hold (DESIGN §7) — the distribution of the
recovery time with the RTO line, P(meets / at risk / misses), the tornado of the figures
that decide it, and the ranges, editable in place.

The panel is fed a `Plan` like the others. The Monte Carlo run (core's `run_risk`,
`GUI_TRIALS` trials) goes to a worker: the previous answer stays on screen until the new
one lands, a newer plan cancels the run in flight, and Stop cancels it by hand. Editing a
range writes the scenario's `[uncertainty]` table through `set_value` (an undoable edit),
which brings a new plan and so a new run.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, Qt, Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.catalog import Catalog
from rtoplanner.core.errors import CoreError
from rtoplanner.core.plan import Plan
from rtoplanner.core.uncertainty.inputs import uncertain_inputs
from rtoplanner.core.uncertainty.result import RiskResult
from rtoplanner.core.uncertainty.words import headline, percent
from rtoplanner.core.wording import plural

from ..models.ranges_table_model import (
    COL_FROM,
    COL_PROVENANCE,
    COL_RANGE,
    COL_SOURCE,
    ChoicesRole,
    RangesTableModel,
)
from ..shell.odds import ODDS_TRIALS
from ..theme import VERDICT_COLORS
from ..workers import TaskRunner
from .common import (
    PlanPanel,
    short_duration,
)
from .confidence_charts import ConfidenceCharts

GUI_TRIALS = ODDS_TRIALS
"""The banner's trials and seed: the view and the headline state the same probability."""

SetValue = Callable[[str, Any], None]


def _risk(scenario, catalog, trials, progress=None, should_cancel=None) -> RiskResult:
    """The worker's job: a plain core call (imported here so the GUI starts without it)."""
    from rtoplanner.core.uncertainty.analysis import run_risk

    return run_risk(
        scenario, trials=trials, catalog=catalog, progress=progress, should_cancel=should_cancel
    )


class RangeDelegate(QStyledItemDelegate):
    """A line edit that hands every keystroke to the model (the run follows the typing);
    it is filled once, so a plan arriving mid-typing never resets the text."""

    editor_name = "range_editor"

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        line = QLineEdit(parent)
        line.setObjectName(self.editor_name)
        line.textEdited.connect(lambda _t, w=line: self.commitData.emit(w))
        return line

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QLineEdit) and not editor.property("filled"):
            editor.setText(str(index.data(Qt.ItemDataRole.EditRole) or ""))
            editor.setProperty("filled", True)

    def setModelData(self, editor: QWidget, model, index) -> None:
        if isinstance(editor, QLineEdit):
            model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)


class SourceDelegate(RangeDelegate):
    """The Source column: every keystroke states the source (one undo step per burst)."""

    editor_name = "source_editor"


class ProvenanceDelegate(QStyledItemDelegate):
    """A choice of the kinds a figure may be stated as (the model's `ChoicesRole`);
    choosing one writes it at once."""

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        combo = QComboBox(parent)
        combo.setObjectName("provenance_editor")
        for kind, words in index.data(ChoicesRole) or []:
            combo.addItem(words, kind)
        combo.activated.connect(lambda _i, w=combo: self._chosen(w))
        return combo

    def _chosen(self, combo: QComboBox) -> None:
        self.commitData.emit(combo)
        self.closeEditor.emit(combo)

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(editor.findData(index.data(Qt.ItemDataRole.EditRole)), 0))

    def setModelData(self, editor: QWidget, model, index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)


class _WrappingLabel(QLabel):
    """A word-wrapped label that keeps the height its wrapped text needs at its width.

    Qt's layouts do not pass height-for-width through the splitters and tabs around the
    panel, so a plain wrapped label gets one line's height and loses the rest."""

    def _fit(self) -> None:
        # QLabel.heightForWidth over-estimates a wrapped rich-text table by a few lines;
        # lay the text out as the label draws it instead.
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(self.text())
        doc.setTextWidth(max(self.contentsRect().width(), 1))
        m = self.contentsMargins()
        need = math.ceil(doc.size().height()) + m.top() + m.bottom()
        if need != self.minimumHeight():
            self.setFixedHeight(need)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()


def _whole(words: str, p: float) -> str:
    """`meets 38 %` as HTML that never breaks inside."""
    return escape(f"{words} {percent(p)}").replace(" ", "&nbsp;")


def _percentiles(d: Any, *, nbsp: bool = False) -> list[str]:
    """`P50 3 h 44 min`, … — kept whole (non-breaking spaces) when `nbsp`, so a narrow
    label wraps between percentiles, never inside one."""
    items = [f"P{p} {short_duration(d.percentile(p))}" for p in (50, 90, 95, 99)]
    return [escape(i).replace(" ", "&nbsp;") for i in items] if nbsp else items


def _target_words(name: str, title: str) -> str:
    """A check in a few words: 'recovery', 'RPO', 'Level 0 window'."""
    if name == "rpo":
        return "RPO"
    if name in ("recovery", "failover"):
        return title.lower()
    return title.removesuffix(" backup") + " window"


class ConfidencePanel(ConfidenceCharts, PlanPanel):
    title = "Confidence"
    needs_full_plan = False
    readable_height = 500
    """The probabilities, both plots and four rows of ranges: a shorter window scrolls."""
    readable_width = 500
    STACK_BELOW = 760
    """Narrower than this the tornado goes under the histogram: side by side at 1024 px
    each plot had ~260 px and the tornado's bars ~80 px of it (issue 23.4)."""
    PLOT_HEIGHT = 180

    def __init__(
        self,
        set_value: SetValue | None = None,
        catalog: Catalog | None = None,
        trials: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.trials = trials or GUI_TRIALS
        self.result: RiskResult | None = None
        self.result_count = 0
        self.error = ""
        self._scenario = None
        self._set_value = set_value
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._on_result)
        self.runner.failed.connect(self._on_failed)
        self.runner.busy_changed.connect(self._on_busy)

        self.probabilities = _WrappingLabel()
        self.probabilities.setObjectName("probabilities")
        self.probabilities.setTextFormat(Qt.TextFormat.RichText)
        # Wraps between percentiles on a narrow window rather than being cut off; the
        # tooltip has the whole line too.
        self.probabilities.setWordWrap(True)
        self.probabilities.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.probabilities.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.status = QLabel()
        self.status.setObjectName("risk_status")
        self.stop_button = QToolButton()
        self.stop_button.setText("Stop")
        self.stop_button.setToolTip("Stop the run in progress (the last answer stays)")
        self.stop_button.clicked.connect(self.cancel)
        self.stop_button.setVisible(False)
        self._layout.addWidget(self.probabilities)

        self.dist_plot = self._make_distribution_plot()
        self.tornado_plot = self._make_tornado_plot()
        plots = QSplitter(Qt.Orientation.Horizontal)
        plots.setChildrenCollapsible(False)
        plots.addWidget(self.dist_plot)
        plots.addWidget(self.tornado_plot)
        plots.setSizes([500, 500])
        self.plots = plots
        self.stacked = False

        self.model = RangesTableModel(self._set_range, self, self._set_provenance, catalog)
        self.table = QTableView()
        self.table.setObjectName("ranges_table")
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(COL_RANGE, RangeDelegate(self.table))
        self.table.setItemDelegateForColumn(COL_PROVENANCE, ProvenanceDelegate(self.table))
        self.table.setItemDelegateForColumn(COL_SOURCE, SourceDelegate(self.table))
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # A prior's range reads whole: "-23 %..+29 % (P10..P90)" was cut at 100 px.
        ranged = self.table.fontMetrics().horizontalAdvance("-23 %..+29 % (P10..P90)") + 16
        for col, width in enumerate((200, 90, max(100, ranged), 90, 90, 110, 170)):
            self.table.setColumnWidth(col, width)
        self.model.dataChanged.connect(self._show_table_error)

        self.table.setWordWrap(False)
        table_box = QWidget()
        box = QVBoxLayout(table_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        caption = QHBoxLayout()
        ranges_label = QLabel(
            "<b>Ranges</b> — type in the Range column (empty: the default); choose how a "
            "figure is known and type its source"
        )
        ranges_label.setToolTip(
            "±15% or -40%..+20% (relative to the value), 3%..9% or 90 MB/s..140 MB/s "
            "(absolute ends); the value is the most likely figure"
        )
        ranges_label.setTextFormat(Qt.TextFormat.RichText)
        ranges_label.setWordWrap(True)  # lets the view fit a 1024 px window
        caption.addWidget(ranges_label, 1)
        caption.addWidget(self.status)
        caption.addWidget(self.stop_button)
        box.addLayout(caption)
        box.addWidget(self.table, 1)
        # Neither part is squeezed away: a window too short for both scrolls instead
        # (`readable_height`, the result tabs' scroll page).
        plots.setMinimumHeight(self.PLOT_HEIGHT)
        rows = self.table.verticalHeader().defaultSectionSize()
        # Four rows, the header and the caption, which wraps to two lines when narrow.
        table_box.setMinimumHeight(4 * rows + 3 * self.fontMetrics().height() + 12)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        split.addWidget(plots)
        split.addWidget(table_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([330, 220])
        self._layout.addWidget(split, 1)
        self.finish_layout()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._stack(self.width() < self.STACK_BELOW)

    def _stack(self, stacked: bool) -> None:
        """The two plots side by side, or (narrow) one under the other, each as wide as
        the view; stacked, the view reads at a greater height and its page scrolls to it."""
        if stacked == self.stacked:
            return
        self.stacked = stacked
        vertical, horizontal = Qt.Orientation.Vertical, Qt.Orientation.Horizontal
        self.plots.setOrientation(vertical if stacked else horizontal)
        stacked_height = 2 * self.PLOT_HEIGHT + self.plots.handleWidth()
        self.plots.setMinimumHeight(stacked_height if stacked else self.PLOT_HEIGHT)
        self.plots.setSizes([500, 500])
        self.plots.parentWidget().updateGeometry()  # the outer splitter's least height grew

    def event(self, event: QEvent) -> bool:
        done = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest:  # a part's least size changed
            self._fit_page()
        return done

    def _least_height(self) -> int:
        """The parts' least heights at the view's width: a wrapped label (the headline,
        the note) by its height for that width, which the layout's minimum leaves out."""
        layout = self.layout()
        m = layout.contentsMargins()
        width = max(self.width() - m.left() - m.right(), 1)
        items = [layout.itemAt(i) for i in range(layout.count())]
        shown = [it for it in items if it.widget() is None or not it.widget().isHidden()]
        need = sum(
            it.heightForWidth(width) if it.hasHeightForWidth() else it.minimumSize().height()
            for it in shown
        )
        return need + layout.spacing() * max(len(shown) - 1, 0) + m.top() + m.bottom()

    def _fit_page(self) -> None:
        """Read at no less than every part's least height (the probabilities wrap to
        more lines when narrow; stacked plots take two heights): the result tabs' scroll
        page, which holds the view at `readable_height`, scrolls rather than overlap the
        table with the tornado's axis."""
        self.readable_height = max(type(self).readable_height, self._least_height())
        page = self.parentWidget()
        if page is not None and 0 < page.minimumHeight() != self.readable_height:
            page.setMinimumHeight(self.readable_height)

    # ------------------------------------------------------------------ plan → run

    def set_plan(self, plan: Plan) -> None:
        self.plan = plan
        self.update_count += 1
        if plan.scenario is self._scenario:
            return  # the full plan of the same scenario: nothing new to run
        self._scenario = plan.scenario
        try:
            rows = uncertain_inputs(plan.scenario, self.catalog)
        except CoreError as exc:
            self.error = str(exc)
            rows = ()
        self.model.show_inputs(plan.scenario, rows)
        self.runner.submit(_risk, plan.scenario, self.catalog, self.trials)
        if self.result is None:
            self.headline.setText("Running the plan on many trials…")

    def set_binary(self, binary: bool) -> None:
        self.binary = binary
        self.model.set_binary(binary)

    def apply_theme(self) -> None:
        super().apply_theme()
        if self.result is not None:
            self.redraw()

    @Slot()
    def cancel(self) -> None:
        """Stop the run in flight; the last answer stays on screen."""
        self.runner.cancel()
        self._on_busy(False)
        self.status.setText("stopped — edit a figure or a range to run again")

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self.runner.wait(timeout_ms)

    def wait_idle(self, timeout_ms: int = 10000) -> bool:
        """Process events until the run in flight has landed (tests, screenshots)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer

        deadline = QDeadlineTimer(timeout_ms)
        while self.runner.busy and not deadline.hasExpired():
            self.runner.pool.waitForDone(10)
            QCoreApplication.processEvents()
        return not self.runner.busy

    @Slot(object)
    def _on_result(self, result: object) -> None:
        if not isinstance(result, RiskResult):
            return
        self.result = result
        self.result_count += 1
        self.error = ""
        self.status.setText(f"{result.trials:,} trials, seed {result.seed}")
        self.redraw()

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self.error = str(exc)
        self.status.setText("")
        self.note.setText(
            f"<span style='color:{VERDICT_COLORS['misses']}'>The run failed: "
            f"{escape(self.error)}</span>"
        )

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        self.stop_button.setVisible(busy)
        if busy:
            self.status.setText(f"running {self.trials:,} trials…")

    def _set_range(self, table_key: str, text: str | None) -> None:
        if self._set_value is not None:
            self._set_value(f"uncertainty.{table_key}", text)

    def _set_provenance(self, table_key: str, text: str | None, merge: bool = False) -> None:
        """How a figure is known, stated in the scenario's `[provenance]` (one edit;
        `merge`: part of a burst of typing)."""
        if self._set_value is not None:
            self._set_value(f"provenance.{table_key}", text, merge=merge)

    @Slot()
    def _show_table_error(self) -> None:
        problem = self.model.first_error()
        if problem is not None:
            label, reason = problem
            self.note.setText(
                f"<span style='color:{VERDICT_COLORS['misses']}'>{escape(label)}: "
                f"{escape(reason)}</span> — the last valid range is used"
            )
        elif self.result is not None:
            self.note.setText(self._note_text(self.result))

    # ------------------------------------------------------------------ drawing

    def redraw(self) -> None:
        r = self.result
        if r is None:
            return
        self.headline.setText(escape(headline(r)))
        self.probabilities.setText(self._probabilities_html(r))
        self.probabilities.setToolTip(self._probabilities_plain(r))
        self._draw_distribution(r)
        self._draw_tornado(r)
        self._show_table_error()

    def _probabilities_html(self, r: RiskResult) -> str:
        c = VERDICT_COLORS
        dot = "<td>&nbsp;·&nbsp;</td>"
        rows = []
        for mode, words in (("worst", "Worst moment"), ("uniform", "Any moment")):
            d = r.distribution(mode)
            rows.append(
                f"<tr><td><b>{words.replace(' ', '&nbsp;')}</b>&nbsp;&nbsp;</td>"
                f"<td style='color:{c['meets']}'>{_whole('meets', d.p_meets)}</td>{dot}"
                f"<td style='color:{c['at_risk']}'>{_whole('at risk', d.p_at_risk)}</td>"
                f"{dot}<td style='color:{c['misses']}'>{_whole('misses', d.p_misses)}</td></tr>"
                # The percentiles on a row of their own, across the table: beside the
                # probabilities a 1024 px window left them a column four lines tall.
                f"<tr><td></td><td colspan='5'>{' · '.join(_percentiles(d, nbsp=True))}</td></tr>"
            )  # fmt: skip
        rows.append(self._targets_html(r))
        return "<table cellspacing='0'>" + "".join(rows) + "</table>"

    def _targets_html(self, r: RiskResult) -> str:
        """Every target of the plan over the same trials (issue 20.4): all at once, then
        each target's P(met)."""
        from rtoplanner.core.headline import sure_percent

        confidence = self.plan.scenario.targets.confidence if self.plan else 0.9
        ok = r.p_meets_all >= confidence
        color = VERDICT_COLORS["meets" if ok else "at_risk" if r.p_meets_all >= 0.5 else "misses"]
        each = " · ".join(
            f"{escape(_target_words(c.name, c.title))}&nbsp;{escape(percent(c.p_met))}"
            for c in r.checks
        )
        return (
            "<tr><td><b>Every&nbsp;target</b>&nbsp;&nbsp;</td>"
            f"<td colspan='5'><b style='color:{color}'>"
            f"{_whole('all at once', r.p_meets_all)}</b> "
            f"({escape(sure_percent(confidence))}&nbsp;required) · {each}</td></tr>"
        )

    @staticmethod
    def _probabilities_plain(r: RiskResult) -> str:
        """The probabilities line as plain text (the label's tooltip)."""
        lines = []
        for mode, words in (("worst", "Worst moment"), ("uniform", "Any moment")):
            d = r.distribution(mode)
            lines.append(
                f"{words}: meets {percent(d.p_meets)} · at risk {percent(d.p_at_risk)} · "
                f"misses {percent(d.p_misses)} — {' · '.join(_percentiles(d))}"
            )
        lines.append(
            f"Every target at once: {percent(r.p_meets_all)} — "
            + " · ".join(f"{_target_words(c.name, c.title)} {percent(c.p_met)}" for c in r.checks)
        )
        return "\n".join(lines)

    def _note_text(self, r: RiskResult) -> str:
        varied = len(r.varied)
        pinned = len(r.inputs) - varied
        text = (
            f"{plural(varied, 'figure')} {'varies' if varied == 1 else 'vary'} between their "
            "ends (triangular, the scenario's value most likely); "
            f"{plural(pinned, 'typed figure')} {'is' if pinned == 1 else 'are'} held at their "
            "value — give them a range in "
            "the table if they are estimates. Dotted blue line: the plan with every figure at "
            "its value; dashed curve: a failure at any moment of the cycle."
        )
        return escape(text)

    # ------------------------------------------------------------------ for tests

    def range_cell(self, key: str) -> QModelIndex:
        """The Range cell of the row of `key` (canonical, e.g. `path[0].rate`)."""
        for row, item in enumerate(self.model.rows):
            if item.key == key:
                return self.model.index(row, COL_RANGE)
        raise KeyError(key)

    def from_text(self, key: str) -> str:
        return str(self.model.data(self.range_cell(key).siblingAtColumn(COL_FROM)))
