"""The Estate window's "Least hardware for priority 1" (DESIGN §9 with §8): what to buy
for every priority-1 database to meet its RTO, with prices and the total, each
database's own fix when sharing is not what stops it, and the frontier of cost against
the worst priority-1 margin. Everything shown is `core.estate.least_words`' wording of
the core's answer; nothing is computed here."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.estate import LeastHardware
from rtoplanner.core.estate.least_words import (
    alone_rows,
    answer_rows,
    frontier_rows,
    least_summary,
)
from rtoplanner.core.wording import for_reader

from ..tables import read_only_table


def _fill(model: QStandardItemModel, header: list[str], rows: list[tuple[str, ...]],
          bold: set[int] = frozenset()) -> None:  # type: ignore[assignment]  # fmt: skip
    model.clear()
    model.setHorizontalHeaderLabels(header)
    for r, row in enumerate(rows):
        items = [QStandardItem(cell) for cell in row]
        for item in items:
            item.setToolTip(item.text())
            if r in bold:
                font = QFont(item.font())
                font.setBold(True)
                item.setFont(font)
        model.appendRow(items)


class LeastPanel(QWidget):
    """Sentences, the answer's changes (or each database's own fix), the frontier."""

    apply_requested = Signal()
    """Apply: make the answer's purchases in the estate (one undoable step)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        top.addWidget(self.summary, 1)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip(
            "Make these purchases in the estate (Undo takes them back; Save As writes them)"
        )
        self.apply_button.clicked.connect(self.apply_requested)
        top.addWidget(self.apply_button)
        layout.addLayout(top)
        self.changes_model = QStandardItemModel(self)
        self.changes = read_only_table(self.changes_model, "leastChanges")
        layout.addWidget(self.changes)
        self.frontier_caption = QLabel(
            "Cost against the worst priority-1 margin (bold: the answer)"
        )
        layout.addWidget(self.frontier_caption)
        self.frontier_model = QStandardItemModel(self)
        self.frontier = read_only_table(self.frontier_model, "leastFrontier")
        layout.addWidget(self.frontier, 1)
        self.method = QLabel("")
        self.method.setWordWrap(True)
        self.method.setStyleSheet("color: gray")
        layout.addWidget(self.method)
        layout.addStretch(0)  # takes the room when there is no frontier to show
        self.set_least(None)

    def set_busy(self, busy: bool) -> None:
        """While the estate is computed the answer shown may be stale: no Apply."""
        self.apply_button.setEnabled(not busy and self._can_apply)

    def set_least(self, least: LeastHardware | None) -> None:
        self._can_apply = bool(least is not None and least.answer and least.answer.changes)
        self.apply_button.setEnabled(self._can_apply)
        self.apply_button.setVisible(self._can_apply)
        sentences = [_in_window(for_reader(t)) for t in least_summary(least)] if least else []
        searched = least is not None and least.purchase_needed and not least.misses_alone
        method = sentences.pop() if searched and sentences else ""
        self.summary.setText("\n".join(sentences) or "Not computed yet.")
        self.method.setText(method)
        self.method.setVisible(bool(method))
        if least is not None and least.alone_fixes:
            _fill(self.changes_model, ["Database", "Its own cheapest fix (What it takes)", "Cost"],
                  alone_rows(least))  # fmt: skip
            self.changes.setProperty("stretch", 1)
        else:
            rows = answer_rows(least) if least is not None else []
            _fill(self.changes_model, ["Change", "Cost"], rows, {len(rows) - 1})
            self.changes.setProperty("stretch", None)
        self.changes.setVisible(self.changes_model.rowCount() > 0)
        front = frontier_rows(least) if least is not None else []
        answer = {i for i, p in enumerate(least.frontier) if p is least.answer} if least else set()
        numbered = [(str(n), *r) for n, r in enumerate(front, start=1)]
        _fill(self.frontier_model, ["#", "Cost", "Worst margin", "Tier 1", "Changes"], numbered,
              answer)  # fmt: skip
        show = len(front) > 1
        self.frontier.setVisible(show)
        self.frontier_caption.setVisible(show)
        for view in (self.changes, self.frontier):
            _fit(view)


def _fit(view: QTableView) -> None:
    """Columns fit their contents; the one named by the `stretch` property (else the
    last) takes the rest."""
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    stretch = view.property("stretch")
    header.setSectionResizeMode(header.count() - 1 if stretch is None else int(stretch),
                                QHeaderView.ResizeMode.Stretch)  # fmt: skip
    if view.objectName() == "leastChanges":
        rows = view.model().rowCount()
        view.setMaximumHeight(26 + 22 * max(1, rows))


def _in_window(text: str) -> str:
    """The runbook is in its own tab here, not above as on the page (issue 23)."""
    return text.replace("the runbook order above", "the runbook order (its tab)")
