"""The main window: a shell that wires the document to the views that register themselves.

    ┌ Scenarios ┐┌ editor tabs ─────────┐┌ verdict banner ─────────────────────┐
    │ (a dock,  ││ Scenario|Database|…  ││ Timeline | Path | … (registered tabs)│
    │ registers ││ (forms from specs)   ││                                     │
    │ itself)   │└──────────────────────┘│                                     │
    │           │┌ restore path (stage table, full width) ─────────────────────┐
    └───────────┘└─────────────────────────────────────────────────────────────┘
    status bar: undo message · computing… · units · verdict

The window owns the document, the editor, the path table, the banner and the status bar,
and holds no view logic: result views, docks and windows (and the File, Edit and Help
commands) register themselves — title, place, menu commands, what they need from the
document — with `shell.registry.register`, and `shell.views.InstalledViews` puts them in
this window. To add a view, write its panel module and one registration; the API is
documented in `shell/registry.py` and docs/views.md.

Commands that the registered parts own stay reachable on the window under their old
names (`window.save()`, `window.export_pdf(path)`, `window.compare_windows`…): see
`FORWARDS` at the end.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QVBoxLayout, QWidget

from rtoplanner.core.appinfo import APP_NAME
from rtoplanner.core.plan import Plan

from .document import ScenarioDocument
from .editor.fields import error_words, key_words
from .editor.scenario_editor import ScenarioEditor
from .editor.stage_table import StageTablePanel
from .plan_area import PlanArea
from .result_tabs import ResultTabs
from .settings import AppSettings
from .shell.banner import StatusParts, VerdictBanner
from .shell.odds import HeadlineOdds
from .shell.placement import place_in_screen
from .shell.views import InstalledViews
from .store_service import StoreService


class MainWindow(QMainWindow):
    def __init__(
        self, settings: AppSettings | None = None, store_service: StoreService | None = None
    ) -> None:
        super().__init__()
        self.settings = settings or AppSettings()
        self.binary = self.settings.binary_units
        # The store (scenario history, user catalog items, imports); None = files only.
        self.store_service = store_service
        catalog = store_service.catalog() if store_service is not None else None
        self.doc = ScenarioDocument(self, catalog=catalog)
        # The headline's probability, computed in a worker after each new plan.
        self.odds = HeadlineOdds(catalog, parent=self)
        self.setWindowTitle(APP_NAME)
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks)
        self._make_central()
        self.status = StatusParts(self.statusBar())
        self.verdict_label = self.status.verdict_label
        self.views = InstalledViews(self, self.results)
        self.status.set_units(self.binary)
        self._connect_document()
        self._restore_geometry()
        self.files.refresh_recent()
        self._update_title()

    def _make_central(self) -> None:
        """Editor and result views side by side, the restore path's table below."""
        self.editor = ScenarioEditor(self.doc)
        self.editor.setMinimumWidth(270)  # at 1024 px the result tabs need the room
        self.stages = StageTablePanel(self.doc, self.doc.catalog, self.binary)
        self.banner = VerdictBanner()
        self.results = ResultTabs()
        self.results.setObjectName("results")
        self.results.setDocumentMode(True)
        self.results.tabBar().setStyleSheet("QTabBar::tab { padding: 4px 9px; }")  # 1024 px
        self.results.set_binary(self.binary)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(2)
        rl.addWidget(self.banner)
        self.plan_area = PlanArea(self.results, self.doc, self.show_input)
        rl.addWidget(self.plan_area, 1)
        self.top_split = QSplitter(Qt.Orientation.Horizontal)
        self.top_split.addWidget(self.editor)
        self.top_split.addWidget(right)
        # Both give when the window narrows (1024 px): the result tabs keep their names.
        self.top_split.setStretchFactor(0, 1)
        self.top_split.setStretchFactor(1, 2)
        self.top_split.setSizes([410, 900])
        self.main_split = QSplitter(Qt.Orientation.Vertical)
        self.main_split.setObjectName("main_split")
        self.main_split.addWidget(self.top_split)
        self.main_split.addWidget(self.stages)
        # Both give when the window is small (1024 × 700), the stage table less.
        self.main_split.setStretchFactor(0, 4)
        self.main_split.setStretchFactor(1, 1)
        self.main_split.setSizes([620, 230])
        self.setCentralWidget(self.main_split)

    def _connect_document(self) -> None:
        doc = self.doc
        doc.plan_changed.connect(self._on_plan)
        doc.errors_changed.connect(self._on_errors)
        doc.file_changed.connect(self._update_title)
        doc.dirty_changed.connect(self._update_title)
        doc.busy_changed.connect(self.status.set_busy)
        doc.plan_failed.connect(self._on_plan_failed)
        doc.plan_cleared.connect(self._on_plan_cleared)
        doc.raw_changed.connect(self._update_title)
        self.odds.changed.connect(self._on_odds)
        doc.raw_changed.connect(self.odds.hold)  # an edit stops the probability run at once
        doc.typing_changed.connect(self._on_typing)
        QApplication.styleHints().colorSchemeChanged.connect(self._on_scheme_changed)

    def view(self, name: str) -> Any:
        """A registered view's object: a tab's panel (built now if need be), a dock's
        widget, a window's controller."""
        return self.views.get(name)

    # ------------------------------------------------------------------ document → views

    @Slot(object)
    def _on_plan(self, plan: Plan) -> None:
        self.results.set_plan(plan)
        self.views.set_plan(plan)
        self.odds.set_plan(plan)  # the banner and status bar follow through _on_odds

    @Slot(object)
    def _on_odds(self, odds: object) -> None:
        """The plan's headline: its verdict at once, its probability when it lands."""
        self.banner.odds = self.status.odds = odds  # type: ignore[assignment]
        self.banner.show_plan(self.doc.plan, self.doc.errors)
        self.status.set_verdict(self.doc.plan, bool(self.doc.errors), self.doc.typing)

    @Slot(bool)
    def _on_typing(self, typing: bool) -> None:
        """No green MEETS for the "1" of "16": the verdict waits, uncoloured, for the
        field to be left (Enter, Tab)."""
        self.banner.set_typing(typing)
        self.status.set_verdict(self.doc.plan, bool(self.doc.errors), typing)

    @Slot()
    def _on_plan_cleared(self) -> None:
        """Another scenario was opened: nothing of the previous plan stays on screen."""
        self.odds.set_plan(None)
        self.banner.show_plan(None, self.doc.errors)
        self.status.set_verdict(self.doc.plan, bool(self.doc.errors))

    @Slot(dict)
    def _on_errors(self, errors: dict[str, str]) -> None:
        self.banner.show_plan(self.doc.plan, errors)
        self.status.set_verdict(self.doc.plan, bool(errors), self.doc.typing)
        if errors:
            key, msg = next(iter(errors.items()))
            self.statusBar().showMessage(f"{key_words(key)}: {error_words(msg)}", 8000)
        else:
            self.statusBar().clearMessage()

    @Slot(str)
    def _on_plan_failed(self, message: str) -> None:
        self.statusBar().showMessage(f"The full plan failed: {message}", 10000)

    @Slot()
    def _update_title(self, *_args) -> None:
        name = self.doc.raw.get("name") if isinstance(self.doc.raw.get("name"), str) else ""
        self.setWindowTitle(f"{name or 'Scenario'} — {self.doc.display_name}[*] — {APP_NAME}")
        self.setWindowModified(self.doc.is_dirty)

    @Slot(bool)
    def set_binary_units(self, binary: bool) -> None:
        self.binary = bool(binary)
        self.settings.binary_units = self.binary
        self.views.set_binary(self.binary)
        self.stages.model.set_binary(self.binary)
        self.status.set_units(self.binary)

    @Slot(object)
    def _on_scheme_changed(self, _scheme) -> None:
        # The application palette follows the system (theme.follow_system_palette); the
        # plots draw with their own colours, so they are told after it has switched.
        QTimer.singleShot(0, self.views.apply_theme)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "views"):
            self.views.apply_theme()
        super().changeEvent(event)

    # ------------------------------------------------------------------ window

    def show_input(self, key: str) -> bool:
        """Take the user to an input: a form field, or a stage's row of the path table."""
        m = re.fullmatch(r"path\[(\d+)\](?:\..*)?", key)
        if m is None:
            return self.editor.show_field(key)
        self.stages.select_row(int(m.group(1)))
        self.stages.view.setFocus()
        return True

    def show_view(self, name: str) -> None:
        self.results.show_view(name)

    # The result panels, built (and brought up to date) on first use.
    timeline_panel = property(lambda self: self.results.panel("timeline"))
    path_panel = property(lambda self: self.results.panel("path"))
    backups_panel = property(lambda self: self.results.panel("backups"))
    cycle_panel = property(lambda self: self.results.panel("cycle"))
    rpo_growth_panel = property(lambda self: self.results.panel("rpo"))

    def dragEnterEvent(self, event) -> None:
        self.imports.drag_enter(event)

    def dropEvent(self, event) -> None:
        self.imports.drop(event)

    def _restore_geometry(self) -> None:
        geometry = self.settings.get("window/geometry")
        restored = geometry is not None and self.restoreGeometry(geometry)
        place_in_screen(self, restored)
        state = self.settings.get("window/state")
        if state is not None:
            self.restoreState(state)
        split = self.settings.get("window/splitter")
        if split is not None:
            self.main_split.restoreState(split)

    def _save_geometry(self) -> None:
        self.settings.set("window/geometry", self.saveGeometry())
        self.settings.set("window/state", self.saveState())
        self.settings.set("window/splitter", self.main_split.saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.views.shutdown()
        self.odds.shutdown()
        self.doc.shutdown()
        self._save_geometry()
        event.accept()


FORWARDS = {
    "files": ("maybe_save", "new_scenario", "open_dialog", "open_file", "open_demo",
              "open_stored", "save", "save_as", "save_to_store", "save_with_comment",
              "add_to_store", "export_toml", "recent_menu"),
    "compare": ("compare_dialog", "compare_stored", "compare_sources", "compare_windows"),
    "imports": ("show_import_dialog", "import_dialog"),
    "pdf": ("export_pdf", "pdf_exporter"),
    "catalog": ("show_catalog_browser", "catalog_browser"),
    "help": ("show_help", "help_window", "about"),
}  # fmt: skip
"""The window's commands that registered parts own (`window.attr`, by their `View.attr`)."""


def _forward(owner: str, name: str) -> property:
    return property(lambda self: getattr(getattr(self, owner), name))


for _owner, _names in FORWARDS.items():
    for _name in _names:
        setattr(MainWindow, _name, _forward(_owner, _name))
