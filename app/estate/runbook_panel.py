"""The Estate window's "Runbook order (free)" (DESIGN §12, policy before purchase): the
order within priority 1, the library units kept for it and the lower tiers' start that
make priority 1 meet without buying anything, as numbered steps, with *Apply*. Every
word is `core.estate.policy_words`'; nothing is computed here."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from rtoplanner.core.estate import LeastHardware
from rtoplanner.core.estate.model import Estate
from rtoplanner.core.estate.policy_words import method_line, policy_summary

NOT_SEARCHED = (
    "No runbook was searched: every priority-1 database meets its RTO as the estate is run, "
    "or one misses even with the shared hardware to itself (see the least hardware)."
)


class RunbookPanel(QWidget):
    """The runbook's sentence, its steps and how it was found; Apply follows it."""

    apply_requested = Signal()
    """Apply: follow the runbook in the estate (one undoable step)."""

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
            "Follow this runbook in the estate (Undo takes it back; Save As writes it as [policy])"
        )
        self.apply_button.clicked.connect(self.apply_requested)
        top.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)
        self.steps = QLabel("")
        self.steps.setObjectName("runbookSteps")
        self.steps.setWordWrap(True)
        self.steps.setTextFormat(Qt.TextFormat.RichText)
        self.steps.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.steps)
        self.method = QLabel("")
        self.method.setWordWrap(True)
        self.method.setStyleSheet("color: gray")
        layout.addWidget(self.method)
        layout.addStretch(1)
        self._can_apply = False
        self.set_answer(None, None)

    def set_busy(self, busy: bool) -> None:
        """While the estate is computed the runbook shown may be stale: no Apply."""
        self.apply_button.setEnabled(not busy and self._can_apply)

    def set_answer(self, estate: Estate | None, least: LeastHardware | None) -> None:
        answer = None if least is None else least.policy
        self._can_apply = bool(answer is not None and answer.found and answer.changed)
        self.apply_button.setEnabled(self._can_apply)
        self.apply_button.setVisible(self._can_apply)
        if estate is None or answer is None:
            self.summary.setText("Not computed yet." if least is None else NOT_SEARCHED)
            self.steps.setText("")
            self.method.setText("")
            return
        lead, *steps = policy_summary(estate, answer)
        self.summary.setText(lead)
        self.steps.setText("<br>".join(html.escape(s) for s in steps))
        self.method.setText(method_line(answer))
