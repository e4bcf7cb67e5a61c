"""The scenario editor: one tab per section, generated from core's field tables."""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QColor, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import QTabWidget

from rtoplanner.core.scenario import SECTIONS, TOP_FIELDS

from ..document import ScenarioDocument
from .section_form import FieldEditor, SectionForm

ERROR_COLOR = "#d23c3c"

TAB_TITLES = {
    "": "Scenario",
    "database": "Database",
    "backup": "Backup",
    "recovery": "Recovery",
    "targets": "Targets",
}


class ScenarioEditor(QTabWidget):
    """Forms for the top-level keys and the `database`, `backup`, `recovery` and
    `targets` tables; the path has its own table (`StageTablePanel`)."""

    def __init__(self, doc: ScenarioDocument) -> None:
        super().__init__()
        self.doc = doc
        self.setDocumentMode(True)
        # Compact tabs: all five in view beside the Scenarios dock at 1440 px (issue 23.9).
        self.tabBar().setStyleSheet("QTabBar::tab { padding: 4px 6px; }")
        # Narrower than its five names (1024 px): every tab stays in view, its name
        # shortened ("Recov…"), rather than "Targets" hidden behind scroll arrows.
        self.setUsesScrollButtons(False)
        self.setElideMode(Qt.TextElideMode.ElideRight)
        self.forms: dict[str, SectionForm] = {}
        for section in ("", "database", "backup", "recovery", "targets"):
            specs = TOP_FIELDS if section == "" else SECTIONS[section]
            form = SectionForm(doc, section, specs)
            self.forms[section] = form
            self.addTab(form, TAB_TITLES[section])
        self.fields: dict[str, FieldEditor] = {
            key: editor for form in self.forms.values() for key, editor in form.fields.items()
        }
        self.setCurrentIndex(1)  # Database: where a DBA starts; the name is one tab away
        self._tab_keys()
        doc.raw_changed.connect(self._on_raw_changed)
        doc.field_error.connect(self.set_error)
        doc.errors_changed.connect(self._mark_tabs)
        self._mark_tabs(doc.errors)
        self.refresh()

    def _tab_keys(self) -> None:
        """Ctrl+PgDown / Ctrl+PgUp move between the tabs, as in a browser, wherever the
        focus is in the editor: in a combo box the keys changed its value unseen
        (Compression MEDIUM became HIGH, issue 23.9)."""
        for key, step in (("Ctrl+PgDown", 1), ("Ctrl+PgUp", -1)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda s=step: self.step_tab(s))

    @Slot(int)
    def step_tab(self, step: int) -> None:
        """The next (`step` 1) or previous (-1) tab, round the end; the focus goes to the
        tab bar, where it shows (not to a field the next key would change)."""
        self.setCurrentIndex((self.currentIndex() + step) % self.count())
        self.tabBar().setFocus(Qt.FocusReason.TabFocusReason)

    def field(self, key: str) -> FieldEditor | None:
        return self.fields.get(key)

    def refresh(self) -> None:
        for form in self.forms.values():
            form.refresh()

    @Slot(bool)
    def _on_raw_changed(self, _structural: bool) -> None:
        self.refresh()

    @Slot(str, str)
    def set_error(self, key: str, message: str) -> None:
        editor = self.fields.get(key)
        if editor is not None:
            editor.set_error(message)

    @Slot(dict)
    def _mark_tabs(self, errors: dict[str, str]) -> None:
        for i, section in enumerate(self.forms):
            prefix = f"{section}." if section else ""
            bad = any(
                (k.startswith(prefix) if section else ("." not in k and k and "[" not in k))
                for k in errors
            )
            # Colour, not an extra glyph: a wider tab would push the last tabs off the bar.
            color = (
                QColor(ERROR_COLOR) if bad else self.palette().color(QPalette.ColorRole.WindowText)
            )
            self.tabBar().setTabTextColor(i, color)
            # The whole name: a narrow editor shortens it ("Tar…").
            title = TAB_TITLES[section]
            self.setTabToolTip(i, f"{title}: this section has input errors" if bad else title)

    def show_field(self, key: str) -> bool:
        """Bring a field's tab forward and focus it (e.g. from an error in the banner)."""
        editor = self.fields.get(key)
        if editor is None:
            return False
        for i, form in enumerate(self.forms.values()):
            if key in form.fields:
                self.setCurrentIndex(i)
                form.ensureWidgetVisible(editor)
                break
        editor.input.setFocus()
        return True
