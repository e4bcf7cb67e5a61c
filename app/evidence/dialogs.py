"""Dialogs of the Evidence views: a calibration as a diff, and RESTORE PREVIEW into the
scenario. Each shows what would change (figure, before, after, where it comes from) and
applies it, when accepted, as one undoable step of the document."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.errors import CoreError
from rtoplanner.core.evidence.calibrate import (
    CALIBRATION_HEADER,
    Calibration,
    calibrate,
    calibration_rows,
)
from rtoplanner.core.evidence.drill import drill_from_dict
from rtoplanner.core.evidence.edits import raw_edits
from rtoplanner.core.evidence.preview_fill import PreviewFill, fill_from_preview
from rtoplanner.core.scenario import Scenario
from rtoplanner.core.units import format_duration

from ..shell.placement import fit_size
from .panel import EVIDENCE_FILTER


def calibration_for(scenario: Scenario, stored: Any) -> Calibration:
    return calibrate(scenario, drill_from_dict(stored.drill), stored.number)


def _table(name: str, headers: list[str], rows: list[list[str]]) -> QTableWidget:
    t = QTableWidget(len(rows), len(headers))
    t.setObjectName(name)
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().hide()
    t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            t.setItem(r, c, item)
    t.resizeColumnsToContents()
    t.horizontalHeader().setStretchLastSection(True)
    return t


class _DiffDialog(QDialog):
    def __init__(
        self,
        title: str,
        lead: str,
        table: QTableWidget,
        notes: list[str],
        ok: str,
        parent: QWidget | None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        fit_size(self, 860, 420)
        layout = QVBoxLayout(self)
        head = QLabel(lead)
        head.setWordWrap(True)
        layout.addWidget(head)
        layout.addWidget(table, 1)
        if notes:
            n = QLabel("<br>".join(f"• {x}" for x in notes))
            n.setWordWrap(True)
            layout.addWidget(n)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.addButton(ok, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class CalibrationDialog(_DiffDialog):
    """The figures a drill updates: before, the drill's value, after, and their ranges."""

    def __init__(self, cal: Calibration, stored: Any, parent: QWidget | None = None) -> None:
        rows = calibration_rows(cal.updates)
        table = _table("calibration_table", list(CALIBRATION_HEADER), rows)
        lead = (
            f"Drill {stored.number} updates {len(cal.updates)} figure(s): each becomes the "
            "Bayesian posterior of its range and the drill's measurement, stated as measured "
            f"with the drill as its source. Over the phases the drill timed the plan goes "
            f"from {format_duration(cal.plan_before_s)} to {format_duration(cal.plan_after_s)}; "
            f"the drill took {format_duration(cal.actual_s)}. One step: Undo reverts it."
        )
        super().__init__("Calibrate from Drill", lead, table, list(cal.notes), "Apply", parent)


NEW_SCENARIO = 2
"""PreviewDialog's result when the volumes go into a new scenario."""


class PreviewDialog(_DiffDialog):
    """The volumes a RESTORE PREVIEW puts in the scenario (or in a new one)."""

    def __init__(self, fill: PreviewFill, parent: QWidget | None = None) -> None:
        rows = [
            [
                v.key,
                str(v.previous if v.previous is not None else "—"),
                str(v.value if v.value is not None else "(removed)"),
                v.provenance,
            ]
            for v in fill.values
        ]
        table = _table("preview_table", ["Key", "Before", "After", "From"], rows)
        logs = "; ".join(
            f"thread {t}: sequences {a}–{b} ({n} logs)" for t, a, b, n in fill.log_ranges
        )
        lead = (
            "RESTORE PREVIEW lists what a restore will read. These values follow "
            f"(one step: Undo reverts it). Archived logs: {logs or 'none'}."
        )
        super().__init__(
            "Fill from RESTORE PREVIEW", lead, table, list(fill.notes), "Apply", parent
        )
        new = QPushButton("New Scenario from It")
        new.setToolTip("Open a new, untitled scenario with these volumes; this one stays as it is")
        new.clicked.connect(lambda _c=False: self.done(NEW_SCENARIO))
        self.findChild(QDialogButtonBox).addButton(new, QDialogButtonBox.ButtonRole.ActionRole)


class PreviewCommands:
    """File › Fill from RESTORE PREVIEW…: read the output, show the diff, apply it."""

    def __init__(self, host: Any) -> None:
        self.host = host

    def fill(self, path: str | None = None, apply: bool | str | None = None) -> bool:
        """Read a PREVIEW, show the diff and apply it (`apply`: True, "new" for a new
        scenario, False; None asks)."""
        doc = self.host.doc
        parent = self.host if isinstance(self.host, QWidget) else None
        if doc.scenario is None:
            QMessageBox.information(
                parent, "Fill from RESTORE PREVIEW", "Fix the scenario's errors first."
            )
            return False
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                parent, "RESTORE PREVIEW output", "", EVIDENCE_FILTER
            )
        if not path:
            return False
        try:
            from rtoplanner.core.importers.preview import load_preview

            fill = fill_from_preview(doc.scenario, load_preview(path))
        except CoreError as exc:
            QMessageBox.warning(parent, "Fill from RESTORE PREVIEW", str(exc))
            return False
        if apply is None:
            code = PreviewDialog(fill, parent).exec()
            apply = "new" if code == NEW_SCENARIO else code == QDialog.DialogCode.Accepted
        if apply == "new":
            return self._new(fill)
        if apply:
            doc.set_values(raw_edits(doc.scenario, fill.scenario), "Volumes from RESTORE PREVIEW")
        return bool(apply)

    def _new(self, fill: PreviewFill) -> bool:
        """A new untitled scenario with the filled figures (after the unsaved-changes
        question), named after the old one."""
        files = self.host.view("files")
        if files is not None and not files.maybe_save():
            return False
        raw = dict(fill.scenario.raw)
        raw["name"] = f"{fill.scenario.name} (from RESTORE PREVIEW)"
        self.host.doc.new(raw)
        return True


__all__ = ["CalibrationDialog", "PreviewCommands", "PreviewDialog", "calibration_for"]
