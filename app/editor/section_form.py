"""Form panels generated from core's field specs (`TOP_FIELDS`, `SECTIONS[...]`).

Each field writes to the document on every keystroke (live results) and shows its own
error underneath, with the reason, while the last valid plan stays on screen.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.scenario import FieldSpec
from rtoplanner.core.wording import choice_words

from ..document import ScenarioDocument
from .fields import (
    EXAMPLES,
    label_for,
    not_set_text,
    text_from_value,
    tooltip_for,
    value_from_text,
)

ERROR_STYLE = "color: #d23c3c;"
INVALID_PROPERTY = "invalid"
FIELD_STYLESHEET = (
    "QLineEdit:focus, QComboBox:focus, QPlainTextEdit:focus"
    " { border: 2px solid palette(highlight); border-radius: 2px; }"
    'QLineEdit[invalid="true"], QComboBox[invalid="true"], QPlainTextEdit[invalid="true"]'
    " { border: 1px solid #d23c3c; border-radius: 2px; }"
)
"""The field with the keyboard focus is framed (a key typed into an unmarked combo box
changed a value unseen, issue 23.9); an invalid one is red."""
NOT_SET = "(default)"
COMBO_FRAME = 36
"""A combo box's room besides its text: frame, margins and the arrow."""
COMBO_WIDEST = 230
"""The widest a combo box asks to be: the editor is 270 px wide at 1024 px, its form
less a scroll bar (no sideways scrolling)."""


class FieldEditor(QWidget):
    """One field: its input widget and, below it, the inline error (hidden when valid)."""

    def __init__(self, doc: ScenarioDocument, key: str, spec: FieldSpec) -> None:
        super().__init__()
        self.doc = doc
        self.key = key
        self.spec = spec
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(1)
        tip = tooltip_for(spec)
        if spec.kind in ("choice", "bool"):
            combo = QComboBox()
            if not spec.required:
                combo.addItem(not_set_text(spec), None)
            choices: list[tuple[str, Any]] = (
                [("yes", True), ("no", False)]
                if spec.kind == "bool"
                else [(choice_words(c), c) for c in spec.choices]
            )
            for text, value in choices:
                combo.addItem(text, value)
            # The "(default: …)" text may be long: the list shows it whole, the box never
            # widens the editor for it (the result views keep their room at 1024 px).
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(12)
            # …but no narrower than its longest choice (up to COMBO_WIDEST): the form puts
            # the box under its label when it would be cut beside it ("(default: grows
            # with the d" at 1440 px, issue 23.9).
            longest = max(combo.fontMetrics().horizontalAdvance(combo.itemText(i))
                          for i in range(combo.count()))  # fmt: skip
            combo.setMinimumWidth(min(longest + COMBO_FRAME, COMBO_WIDEST))
            combo.activated.connect(self._on_combo)
            self.input: QWidget = combo
        elif spec.key == "notes":
            edit = QPlainTextEdit()
            edit.setFixedHeight(70)
            edit.textChanged.connect(self._on_notes)
            self.input = edit
        else:
            line = QLineEdit()
            line.setPlaceholderText(EXAMPLES.get(spec.kind, ""))
            line.textEdited.connect(self._on_text)
            line.editingFinished.connect(doc.close_edit)
            self.input = line
        self.input.setToolTip(tip)
        self.input.setObjectName(f"field:{key}")
        self.input.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.input)
        self.error_label = QLabel()
        self.error_label.setObjectName(f"error:{key}")
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self._updating = False

    # ----------------------------------------------------------------- user → document

    @Slot(str)
    def _on_text(self, text: str) -> None:
        self.doc.set_typing(True)
        self.doc.set_value(self.key, value_from_text(self.spec, text))

    @Slot(int)
    def _on_combo(self, index: int) -> None:
        combo = self.input
        assert isinstance(combo, QComboBox)
        self.doc.set_value(self.key, combo.itemData(index), merge=False)

    @Slot()
    def _on_notes(self) -> None:
        if self._updating:
            return
        edit = self.input
        assert isinstance(edit, QPlainTextEdit)
        self.doc.set_value(self.key, value_from_text(self.spec, edit.toPlainText()))

    # ----------------------------------------------------------------- document → view

    def refresh(self) -> None:
        """Show the document's value unless the widget already shows it (so the cursor of
        the field being typed into never jumps)."""
        value = self.doc.value(self.key)
        self._updating = True
        try:
            if isinstance(self.input, QComboBox):
                idx = self.input.findData(value)
                if idx < 0 and value is not None:
                    # A value the list does not offer (e.g. a bad one in a file): show it.
                    self.input.addItem(text_from_value(value), value)
                    idx = self.input.count() - 1
                self.input.setCurrentIndex(max(idx, 0))
            elif isinstance(self.input, QPlainTextEdit):
                text = text_from_value(value)
                if self.input.toPlainText() != text:
                    self.input.setPlainText(text)
            else:
                assert isinstance(self.input, QLineEdit)
                current = value_from_text(self.spec, self.input.text())
                if current != value or type(current) is not type(value):
                    self.input.setText(text_from_value(value))
                    self.input.setCursorPosition(0)
        finally:
            self._updating = False

    def set_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(bool(message))
        self.input.setProperty(INVALID_PROPERTY, bool(message))
        self.input.style().unpolish(self.input)
        self.input.style().polish(self.input)


class SectionForm(QScrollArea):
    """A scrollable form of one section's fields (or the top-level ones)."""

    def __init__(self, doc: ScenarioDocument, section: str, specs: tuple[FieldSpec, ...]) -> None:
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        body = QWidget()
        body.setStyleSheet(FIELD_STYLESHEET)
        form = QFormLayout(body)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.fields: dict[str, FieldEditor] = {}
        for spec in specs:
            if spec.key == "format":
                continue
            key = f"{section}.{spec.key}" if section else spec.key
            editor = FieldEditor(doc, key, spec)
            label = QLabel(label_for(spec) + ("*" if spec.required else ""))
            label.setToolTip(editor.input.toolTip())
            label.setBuddy(editor.input)
            label.setContentsMargins(0, 4, 0, 0)
            form.addRow(label, editor)
            self.fields[key] = editor
        self.setWidget(body)

    def refresh(self) -> None:
        for editor in self.fields.values():
            editor.refresh()
