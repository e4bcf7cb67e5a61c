"""The main window: scenario list, editor, path table and result views.

    ┌ Scenarios ┐┌ editor tabs ─────────┐┌ verdict banner ─────────────────────┐
    │ recent    ││ Scenario|Database|…  ││ Timeline | Path | Backups | Cycle | │
    │ demos     ││ (forms from specs)   ││ RPO and growth                      │
    │ (store    │└──────────────────────┘│                                     │
    │  LATER)   │┌ restore path (stage table, full width) ─────────────────────┐
    └───────────┘└─────────────────────────────────────────────────────────────┘
    status bar: message · computing… · units · verdict

The window wires the `ScenarioDocument` to the views and owns the file commands
(new, open, save, save as, recent files, unsaved-changes prompt); it never computes.
"""

from __future__ import annotations

import html
import logging
import platform
import re
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QEvent, Qt, QTimer, Slot, qVersion
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core import ENGINE_VERSION
from rtoplanner.core import __version__ as core_version
from rtoplanner.core.appinfo import SCENARIO_SUFFIX
from rtoplanner.core.decisive import banner_tooltip, decisive_assumptions
from rtoplanner.core.engine.verdict import phase_sentence
from rtoplanner.core.errors import CoreError
from rtoplanner.core.plan import Plan
from rtoplanner.core.units import format_duration

from .dialogs.confirm import confirm
from .document import NEW_SCENARIO, ScenarioDocument, StoreOrigin
from .editor.scenario_editor import ScenarioEditor
from .editor.stage_table import StageTablePanel
from .estate import install_estate
from .fix_panel import register_what_it_takes
from .plan_area import PlanArea
from .plots.timeline_panel import TimelinePanel
from .result_tabs import ResultTabs, lazy
from .scenario_list import ScenarioListPanel, short_folder
from .settings import AppSettings
from .store_service import StoreService
from .theme import VERDICT_COLORS, VERDICT_WORDS

if TYPE_CHECKING:  # compare windows load when first opened (start-up time, issue 14)
    from .compare import CompareSource, CompareWindow

log = logging.getLogger(__name__)  # core/logs.py attaches the log file

APP_NAME = "RTO Planner"
FILE_FILTER = "Scenario files (*.toml);;All files (*)"
VIEW_NAMES = ("timeline", "path", "backups", "cycle", "rpo", "confidence")


def app_version() -> str:
    try:
        return metadata.version("rtoplanner")
    except metadata.PackageNotFoundError:
        return core_version


class VerdictBanner(QLabel):
    """The answer first: verdict, worst-case recovery, RTO and margin, in colour."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("verdict_banner")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setMargin(8)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.setFont(font)
        self.verdict = ""
        self.errors: dict[str, str] = {}
        self.plan: Plan | None = None

    def show_plan(self, plan: Plan | None, errors: dict[str, str]) -> None:
        self.plan = plan
        self.errors = errors
        parts = []
        if plan is not None:
            parts += self._plan_lines(plan)
            self.verdict = plan.verdict
            bg = VERDICT_COLORS[plan.verdict]
            self.setToolTip(banner_tooltip(plan))
        else:
            self.verdict = ""
            bg = VERDICT_COLORS["at_risk"]
        if errors:
            n = len(errors)
            first_key, first = next(iter(errors.items()))
            where = f"{first_key}: " if first_key else ""
            if len(first) > 90:  # the field itself shows the whole reason
                first = first[:88].rstrip() + "…"
            parts.append(
                f"<span style='color:{VERDICT_COLORS['misses']}'>⚠ {n} input error"
                f"{'s' if n > 1 else ''} ({where}{first})"
                + (" — showing the last valid plan" if plan is not None else "")
                + "</span>"
            )
        self.setText("<br>".join(parts) or "No plan yet")
        self.setStyleSheet(
            f"#verdict_banner {{ border-left: 6px solid {bg}; background: palette(base); }}"
        )

    @staticmethod
    def _plan_lines(plan: Plan) -> list[str]:
        """The headline verdict and what decides it, then the recovery and its phase."""
        rec = plan.recovery
        check = plan.deciding
        color = VERDICT_COLORS[check.verdict]
        lines = [
            f"<b style='color:{color}'>{VERDICT_WORDS[check.verdict]}</b> — decided by "
            f"<b>{html.escape(check.sentence())}</b>"
        ]
        word = "margin" if rec.margin_s >= 0 else "over by"
        rec_color = VERDICT_COLORS[rec.verdict]
        lines.append(
            f"Recovery <b style='color:{rec_color}'>{VERDICT_WORDS[rec.verdict].lower()}</b> "
            f"the RTO of <b>{format_duration(rec.rto_s)}</b> — worst case "
            f"<b>{format_duration(rec.total_s)}</b>, {word} "
            f"<b>{format_duration(abs(rec.margin_s))}</b>; "
            f"{html.escape(phase_sentence(rec))}"
        )
        said = []
        if n := len(decisive_assumptions(plan)):
            said.append(f"{n} default{'s' if n > 1 else ''} that decide{'' if n > 1 else 's'}")
        if n := len(plan.notes):
            said.append(f"{n} note{'s' if n > 1 else ''}")
        if said:
            said_text = " and ".join(said)
            lines[0] += f" <span style='color:gray'>· {said_text} (point here to read)</span>"
        return lines


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
        self.setWindowTitle(APP_NAME)
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks)

        # ---- views
        self.editor = ScenarioEditor(self.doc)
        self.editor.setMinimumWidth(270)  # at 1024 px the result tabs need the room
        self.stages = StageTablePanel(self.doc, self.doc.catalog, self.binary)
        self.banner = VerdictBanner()
        self.results = ResultTabs()
        self.results.setObjectName("results")
        self.results.setDocumentMode(True)
        self.results.tabBar().setStyleSheet("QTabBar::tab { padding: 4px 9px; }")  # 1024 px
        self.results.set_binary(self.binary)
        # Result views, in tab order: each panel is built the first time it is shown.
        add_view = self.results.add_view
        add_view(
            "timeline", "Timeline", TimelinePanel, tip="Recovery phases against the RTO (Ctrl+1)"
        )
        add_view("path", "Path", lazy("plots.path_panel", "PathPanel"),
                 tip="Capacity of each stage and the bottleneck (Ctrl+2)")  # fmt: skip
        add_view("backups", "Backups", lazy("plots.backups_panel", "BackupsPanel"),
                 tip="Backup durations against the window, channel start-up (Ctrl+3)")  # fmt: skip
        add_view("cycle", "Cycle", lazy("plots.cycle_panel", "CyclePanel"),
                 tip="Recovery time across the level 0 cycle (Ctrl+4)")  # fmt: skip
        add_view("rpo", "RPO and growth", lazy("plots.rpo_growth_panel", "RpoGrowthPanel"),
                 tip="Data loss, and when growth breaks the plan (Ctrl+5)")  # fmt: skip
        add_view("confidence", "Confidence",
                 lambda: lazy("plots.confidence_panel", "ConfidencePanel",
                              self.doc.set_value, self.doc.catalog)(),
                 tip="How likely the plan is to hold, what decides it (Ctrl+6)")  # fmt: skip
        register_what_it_takes(self)  # Ctrl+7; flags its tab when the plan misses

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

        self.scenario_list = ScenarioListPanel(store_service)
        self.list_dock = QDockWidget("Scenarios", self)
        self.list_dock.setObjectName("scenarios_dock")
        self.list_dock.setWidget(self.scenario_list)
        self.list_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
        )
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.list_dock)
        dock_width = 300 if self.scenario_list.store is not None else 190  # names, versions, dates
        self.resizeDocks([self.list_dock], [dock_width], Qt.Orientation.Horizontal)
        self.scenario_list.open_requested.connect(self.open_file)
        self.scenario_list.demo_requested.connect(self.open_demo)
        self.scenario_list.new_requested.connect(self.new_scenario)
        self.scenario_list.browse_requested.connect(self.open_dialog)
        self.scenario_list.open_stored_requested.connect(self.open_stored)
        self.scenario_list.compare_requested.connect(self.compare_stored)
        self.compare_windows: list[CompareWindow] = []

        # ---- status bar
        self.busy_label = QLabel("")
        self._busy_timer = QTimer(self)
        self._busy_timer.setSingleShot(True)
        self._busy_timer.setInterval(300)
        self._busy_timer.timeout.connect(self._show_busy)
        self.units_label = QLabel()
        self.verdict_label = QLabel()
        self.verdict_label.setObjectName("status_verdict")
        self.verdict_label.setTextFormat(Qt.TextFormat.RichText)
        sb = self.statusBar()
        sb.addPermanentWidget(self.busy_label)
        sb.addPermanentWidget(self.units_label)
        sb.addPermanentWidget(self.verdict_label)
        # Permanent: a button's status tip must not paint over "Deleted … Undo".
        sb.insertPermanentWidget(0, self.scenario_list.undo_message, 1)

        self._make_actions()
        self._make_menus()
        self._make_dialog_menus()
        self.estates = install_estate(self)  # File › Open Estate…, View › Estate…
        self._update_units_label()

        # ---- document → views
        self.doc.plan_changed.connect(self._on_plan)
        self.doc.errors_changed.connect(self._on_errors)
        self.doc.file_changed.connect(self._update_title)
        self.doc.dirty_changed.connect(self._update_title)
        self.doc.busy_changed.connect(self._on_busy)
        self.doc.plan_failed.connect(self._on_plan_failed)
        self.doc.plan_cleared.connect(self._on_plan_cleared)
        self.doc.raw_changed.connect(self._on_raw_changed)
        QApplication.styleHints().colorSchemeChanged.connect(self._on_scheme_changed)

        self._restore_geometry()
        self._refresh_recent()
        self._update_title()

    # ------------------------------------------------------------------ actions & menus

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        return action

    def _make_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.new_action = self._action("&New", self.new_scenario, K.New, "Start a new scenario")
        self.open_action = self._action("&Open…", self.open_dialog, K.Open, "Open a scenario file")
        self.save_action = self._action("&Save", self.save, K.Save, "Save the scenario")
        self.save_as_action = self._action(
            "Save &As…", self.save_as, K.SaveAs, "Save the scenario under a new name"
        )
        self.save_comment_action = self._action(
            "Save with &Comment…", self.save_with_comment, "Ctrl+Alt+S",
            "Save a new version to the store, with a comment on what changed",
        )  # fmt: skip
        self.export_action = self._action(
            "&Export TOML…", self.export_toml,
            tip="Write the scenario to a TOML file; the window stays with the scenario",
        )  # fmt: skip
        self.add_to_store_action = self._action(
            "Add to S&tore", lambda: self.add_to_store(),
            tip="Keep a copy of this scenario in the store (Save still writes its file)",
        )  # fmt: skip
        self.compare_action = self._action(
            "&Compare…", self.compare_dialog, "Ctrl+Shift+C",
            "Two scenarios, or two versions of one, side by side on one time axis",
        )  # fmt: skip
        self.quit_action = self._action("&Quit", self.close, K.Quit, "Quit RTO Planner")
        self.undo_action = self.doc.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence(K.Undo))
        self.redo_action = self.doc.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence(K.Redo), QKeySequence("Ctrl+Y")])
        self.binary_action = self._action(
            "&Binary units (TiB, GiB/s)",
            self.set_binary_units,
            tip="Show results in binary units (TiB = 2^40 bytes) instead of decimal (TB)",
        )
        self.binary_action.setCheckable(True)
        self.binary_action.setChecked(self.binary)
        self.about_action = self._action("&About RTO Planner", self.about)
        self.guide_action = self._action(
            "&User Guide", lambda: self.show_help(), tip="The user guide and the docs, offline"
        )
        self.context_help_action = self._action(
            "Help on This &View", lambda: self.show_help(context=True),
            QKeySequence.StandardKey.HelpContents, "The guide's section on the view on screen",
        )  # fmt: skip
        self.help_window = None
        self.view_actions = []
        for i, name in enumerate(self.results.names()):
            action = self._action(
                self.results.title(name),
                lambda _c=False, name=name: self.results.show_view(name),
                f"Ctrl+{i + 1}" if i < 9 else None,
            )
            self.view_actions.append(action)

    def _make_menus(self) -> None:
        mb = self.menuBar()
        file_menu = mb.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        file_menu.addSeparator()
        file_menu.addActions([self.save_action, self.save_as_action])
        file_menu.addActions(
            [self.save_comment_action, self.export_action, self.add_to_store_action]
        )
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = mb.addMenu("&Edit")
        edit_menu.addActions([self.undo_action, self.redo_action])
        edit_menu.addAction(self.scenario_list.undo_delete_action)
        edit_menu.addSeparator()
        for action in (
            self.stages.add_action,
            self.stages.remove_action,
            self.stages.up_action,
            self.stages.down_action,
        ):
            edit_menu.addAction(action)
        view_menu = mb.addMenu("&View")
        view_menu.addActions(self.view_actions)
        view_menu.addSeparator()
        view_menu.addAction(self.binary_action)
        view_menu.addAction(self.list_dock.toggleViewAction())
        view_menu.addSeparator()
        view_menu.addActions([self.compare_action, self.scenario_list.deleted_action])
        help_menu = mb.addMenu("&Help")
        help_menu.addActions([self.guide_action, self.context_help_action])
        help_menu.addSeparator()
        help_menu.addAction(self.about_action)

    # ------------------------------------------------------------------ document → views

    @Slot(object)
    def _on_plan(self, plan: Plan) -> None:
        self.results.set_plan(plan)
        self.banner.show_plan(plan, self.doc.errors)
        self._update_status_verdict()

    @Slot()
    def _on_plan_cleared(self) -> None:
        """Another scenario was opened: nothing of the previous plan stays on screen."""
        self.banner.show_plan(None, self.doc.errors)
        self._update_status_verdict()

    @Slot(dict)
    def _on_errors(self, errors: dict[str, str]) -> None:
        self.banner.show_plan(self.doc.plan, errors)
        self._update_status_verdict()
        if errors:
            key, msg = next(iter(errors.items()))
            self.statusBar().showMessage(f"{key or 'Scenario'}: {msg}", 8000)
        else:
            self.statusBar().clearMessage()

    def _update_status_verdict(self) -> None:
        plan = self.doc.plan
        if plan is None:
            self.verdict_label.setText("no plan")
            return
        rec = plan.recovery
        check = plan.deciding
        color = VERDICT_COLORS[check.verdict]
        stale = " (last valid plan)" if self.doc.errors else ""
        decided = "" if check.name == "recovery" else f" ({check.title})"
        self.verdict_label.setText(
            f"<b style='color:{color}'>{VERDICT_WORDS[check.verdict]}</b>{decided} · recovery "
            f"{format_duration(rec.total_s)} of {format_duration(rec.rto_s)}{stale}"
        )
        self.verdict_label.setToolTip(banner_tooltip(plan))

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        # The full plan usually takes ~15 ms: say so only when it lasts (STYLE §5), or
        # the status bar would flicker with every keystroke.
        if busy:
            self._busy_timer.start()
        else:
            self._busy_timer.stop()
            self.busy_label.setText("")

    def _show_busy(self) -> None:
        self.busy_label.setText("computing cycle and growth…")

    @Slot(str)
    def _on_plan_failed(self, message: str) -> None:
        self.statusBar().showMessage(f"The full plan failed: {message}", 10000)

    @Slot(bool)
    def _on_raw_changed(self, _structural: bool) -> None:
        self._update_title()

    @Slot()
    def _update_title(self, *_args) -> None:
        name = self.doc.raw.get("name") if isinstance(self.doc.raw.get("name"), str) else ""
        self.setWindowTitle(f"{name or 'Scenario'} — {self.doc.display_name}[*] — {APP_NAME}")
        self.setWindowModified(self.doc.is_dirty)

    def _update_units_label(self) -> None:
        self.units_label.setText("binary units (TiB)" if self.binary else "decimal units (TB)")
        self.units_label.setToolTip(
            "Results use TiB = 2^40 bytes" if self.binary else "Results use TB = 10^12 bytes"
        )

    @Slot(bool)
    def set_binary_units(self, binary: bool) -> None:
        self.binary = bool(binary)
        self.settings.binary_units = self.binary
        self.binary_action.setChecked(self.binary)
        self.results.set_binary(self.binary)
        self.stages.model.set_binary(self.binary)
        self._update_units_label()

    @Slot(object)
    def _on_scheme_changed(self, _scheme) -> None:
        # The application palette follows the system (theme.follow_system_palette); the
        # plots draw with their own colours, so they are told after it has switched.
        QTimer.singleShot(0, self._apply_theme)

    def _apply_theme(self) -> None:
        self.results.apply_theme()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
        super().changeEvent(event)

    # ------------------------------------------------------------------ files

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False when the user cancels."""
        if not self.doc.is_dirty:
            return True
        answer = QMessageBox.question(
            self,
            APP_NAME,
            f"Save the changes to “{self.doc.display_name}” before closing it?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    @Slot()
    def new_scenario(self) -> None:
        if self.maybe_save():
            raw = None
            if self.scenario_list.store is not None:  # a name the store does not have yet
                raw = {**NEW_SCENARIO, "name": self.scenario_list.unique_name(NEW_SCENARIO["name"])}
            self.doc.new(raw)
            self._refresh_recent()

    @Slot()
    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = self.settings.get("files/last_dir") or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Open scenario", start, FILE_FILTER)
        if path:
            self.open_file(path, ask=False)

    @Slot(str)
    def open_file(self, path: str | Path, ask: bool = True) -> bool:
        """Open a scenario (an estate file opens in an Estate window); errors are shown,
        not raised. Returns False on failure."""
        from rtoplanner.core.estate.model import is_estate_file  # (loads the estate code)

        if is_estate_file(path):
            return self.estates.open_file(path).estate is not None
        if ask and not self.maybe_save():
            return False
        try:
            self.doc.open(path)
        except CoreError as exc:
            log.warning("cannot open %s: %s", path, exc)
            QMessageBox.critical(self, APP_NAME, f"Cannot open the scenario:\n\n{exc}")
            return False
        p = Path(path)
        self.settings.set("files/last_dir", str(p.resolve().parent))
        self.settings.add_recent_file(p)
        self._refresh_recent()
        errors = self.doc.errors
        if errors:
            key, msg = next(iter(errors.items()))
            self.statusBar().showMessage(f"Opened with errors — {key}: {msg}", 10000)
            if key:
                self.editor.show_field(key)
        else:
            self.statusBar().showMessage(f"Opened {p.name}", 4000)
        return True

    @Slot(str)
    def open_demo(self, path: str | Path, ask: bool = True) -> bool:
        """Open a shipped demo as an untitled copy: Save never writes over the demo."""
        if ask and not self.maybe_save():
            return False
        try:
            self.doc.open(path, as_copy=True)
        except CoreError as exc:
            QMessageBox.critical(self, APP_NAME, f"Cannot open the demo:\n\n{exc}")
            return False
        self._refresh_recent()
        self.statusBar().showMessage(
            f"Opened the demo {Path(path).name} as an untitled copy; Save asks where to keep it",
            6000,
        )
        return True

    @Slot()
    def save(self) -> bool:
        if self._saves_to_store():
            return self.save_to_store()
        if self.doc.file_path is None:
            return self.save_as()
        return self._save_to(self.doc.file_path)

    @Slot()
    def save_as(self) -> bool:
        start = str(self.doc.file_path or Path(self.settings.get("files/last_dir") or Path.home())
                    / f"scenario{SCENARIO_SUFFIX}")  # fmt: skip
        path = self._ask_toml_path("Save scenario as", start)
        return path is not None and self._save_to(path)

    def _ask_toml_path(self, caption: str, start: str) -> Path | None:
        """A file name to write TOML to (`.rto.toml`, the scenario file type, added when no
        `.toml` is given), or None."""
        path, _ = QFileDialog.getSaveFileName(self, caption, start, FILE_FILTER)
        if not path:
            return None
        if not path.lower().endswith(".toml"):
            path += SCENARIO_SUFFIX
        return Path(path)

    def _write_toml(self, write: Callable[[Path], Path], path: Path, verb: str) -> Path | None:
        """Write with `write` (the document's save or export); on failure say so and return
        None, else remember the folder for the next file dialog."""
        try:
            saved = write(path)
        except (OSError, ValueError) as exc:
            log.warning("cannot %s %s: %s", verb, path, exc)
            QMessageBox.critical(self, APP_NAME, f"Cannot {verb} {path}:\n\n{exc}")
            return None
        self.settings.set("files/last_dir", str(saved.resolve().parent))
        return saved

    def _save_to(self, path: Path) -> bool:
        if self.doc.errors and not confirm(
            self,
            APP_NAME,
            "The scenario has input errors; the file will not open cleanly until "
            "they are fixed. Save it anyway?",
            QMessageBox.StandardButton.Save,
            warning=True,
        ):
            return False
        saved = self._write_toml(self.doc.save, path, "save")
        if saved is None:
            return False
        self.settings.add_recent_file(saved)
        self._refresh_recent()
        self.statusBar().showMessage(f"Saved {saved.name}", 4000)
        return True

    # ------------------------------------------------------------------ store (issue 5)

    def _saves_to_store(self) -> bool:
        """Save goes to the store for a stored scenario and a new one (when there is a
        store); a scenario opened from a file saves back to its file."""
        has_store = self.scenario_list.store is not None
        return has_store and (self.doc.store_origin is not None or self.doc.file_path is None)

    def save_to_store(self, comment: str = "") -> bool:
        origin = self.doc.store_origin
        version = self.scenario_list.store_document(self.doc, comment)
        if version is None:
            return False
        self._refresh_recent()
        note = ""
        if origin is not None and origin.name != version.scenario:
            note = f" (renamed: “{origin.name}” is unchanged)"
        self.statusBar().showMessage(
            f"Saved “{version.scenario}” v{version.version} in the store{note}", 5000
        )
        return True

    @Slot()
    def save_with_comment(self) -> bool:
        """Store a version with a comment; a file's scenario is also saved to its file."""
        if self.scenario_list.store is None:
            return self.save()
        # The label sets the dialog's width: long enough that the title is not cut.
        comment, ok = QInputDialog.getText(
            self,
            "Save with Comment",
            "What changed in this version? (kept with it in the scenario's history)",
        )
        if not ok:
            return False
        if self._saves_to_store():
            return self.save_to_store(comment.strip())
        return self.save() and self.add_to_store(comment.strip())

    def add_to_store(self, comment: str = "") -> bool:
        version = self.scenario_list.add_document(self.doc, comment)
        if version is None:
            return False
        where = f"; Save still writes {self.doc.display_name}" if self.doc.file_path else ""
        self.statusBar().showMessage(
            f"Added “{version.scenario}” to the store as v{version.version}{where}", 6000
        )
        return True

    @Slot()
    def export_toml(self) -> bool:
        name = self.doc.raw.get("name")
        stem = re.sub(r"[^\w.-]+", "_", name).strip("_") if isinstance(name, str) else ""
        folder = Path(self.settings.get("files/last_dir") or Path.home())
        start = str(folder / f"{stem or 'scenario'}.toml")
        path = self._ask_toml_path("Export TOML", start)
        saved = self._write_toml(self.doc.export, path, "write") if path is not None else None
        if saved is None:
            return False
        self.statusBar().showMessage(f"Exported {saved.name}", 4000)
        return True

    @Slot(str, int)
    def open_stored(self, name: str, version: int = 0, ask: bool = True) -> bool:
        """Open a stored scenario (version 0: the latest) in the editor."""
        store = self.scenario_list.store
        if store is None or (ask and not self.maybe_save()):
            return False
        try:
            v = store.scenario_version(name, version or None)
            latest = store.scenario_version(name).version
            self.doc.open_text(v.text, StoreOrigin(name, v.version))
        except CoreError as exc:
            QMessageBox.critical(self, APP_NAME, f"Cannot open “{name}”:\n\n{exc}")
            return False
        self._refresh_recent()
        if self.doc.errors:
            key, msg = next(iter(self.doc.errors.items()))
            self.statusBar().showMessage(f"Opened with errors — {key}: {msg}", 10000)
        elif v.version != latest:
            self.statusBar().showMessage(
                f"Opened v{v.version} of “{name}” (current: v{latest}); Save makes it "
                f"v{latest + 1}", 8000,
            )  # fmt: skip
        else:
            self.statusBar().showMessage(f"Opened “{name}” v{v.version} from the store", 4000)
        return True

    @Slot()
    def compare_dialog(self) -> CompareWindow | None:
        """View › Compare…: choose two scenarios or versions, then compare them."""
        from .compare import CompareChooser

        chooser = CompareChooser(self.scenario_list.store, self.doc, self)
        if chooser.exec() != QDialog.DialogCode.Accepted:
            return None
        return self.compare_sources(*chooser.sources())

    @Slot(str, int, str, int)
    def compare_stored(self, name_a: str, version_a: int, name_b: str, version_b: int):
        from .compare import CompareSource
        from .compare.chooser import STORED

        return self.compare_sources(
            CompareSource(STORED, name_a, version_a), CompareSource(STORED, name_b, version_b)
        )

    def compare_sources(self, a: CompareSource, b: CompareSource) -> CompareWindow | None:
        from .compare import CompareWindow
        from .compare.chooser import resolve_source

        store = self.scenario_list.store
        try:
            label_a, scenario_a = resolve_source(a, self.doc, store, self.doc.catalog)
            label_b, scenario_b = resolve_source(b, self.doc, store, self.doc.catalog)
        except (CoreError, ValueError) as exc:
            QMessageBox.warning(self, "Compare", f"Cannot compare:\n\n{exc}")
            return None
        for old in [w for w in self.compare_windows if not w.isVisible()]:
            self.compare_windows.remove(old)
            old.deleteLater()
        window = CompareWindow(self, binary=self.binary)
        self.compare_windows.append(window)
        window.compare_scenarios(label_a, scenario_a, label_b, scenario_b)
        window.show()
        return window

    def _refresh_recent(self) -> None:
        recent = self.settings.recent_files()
        self.recent_menu.clear()
        for p in recent:
            action = self.recent_menu.addAction(f"{Path(p).name}  —  {short_folder(Path(p))}")
            action.setToolTip(p)
            action.setStatusTip(p)
            action.triggered.connect(lambda _c=False, p=p: self.open_file(p))
        self.recent_menu.setEnabled(bool(recent))
        if recent:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear list", self._clear_recent)
        current = str(self.doc.file_path.resolve()) if self.doc.file_path else None
        self.scenario_list.populate(recent, current)
        origin = self.doc.store_origin
        self.scenario_list.set_current_stored(origin.name if origin else None)
        has_store = self.scenario_list.store is not None
        self.save_comment_action.setEnabled(has_store)
        self.add_to_store_action.setEnabled(has_store and origin is None)

    def _clear_recent(self) -> None:
        self.settings.clear_recent_files()
        self._refresh_recent()

    # ------------------------------------------------------------------ import, catalog, PDF

    def _make_dialog_menus(self) -> None:
        """File › Import Workload… and Export PDF…, View › Hardware Catalog…, file drops."""
        self.import_dialog = None
        self.catalog_browser = None
        self.pdf_exporter = None
        self.import_action = self._action(
            "&Import Workload…", lambda: self.show_import_dialog(), "Ctrl+I",
            "Read AWR / Statspack reports and CSV exports (or drop them on the window); "
            "apply their redo rate to the scenario",
        )  # fmt: skip
        self.export_pdf_action = self._action(
            "Export &PDF…", lambda: self.export_pdf(), "Ctrl+E", "Write the plan as a PDF report"
        )
        self.catalog_action = self._action(
            "Hardware &Catalog…", self.show_catalog_browser, "Ctrl+K",
            "The hardware catalog with its sources; add and edit your own items",
        )  # fmt: skip
        menus = {a.text(): a.menu() for a in self.menuBar().actions() if a.menu()}
        file_menu = menus["&File"]
        file_menu.insertActions(self.quit_action, [self.import_action, self.export_pdf_action])
        file_menu.insertSeparator(self.quit_action)
        view_menu = menus["&View"]
        view_menu.addSeparator()
        view_menu.addAction(self.catalog_action)
        self.setAcceptDrops(True)

    def dragEnterEvent(self, event) -> None:
        from .dialogs.import_dialog import local_paths

        if local_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        """Dropped scenario files open; anything else goes to the import dialog."""
        from .dialogs.import_dialog import local_paths

        paths = local_paths(event.mimeData())
        if not paths:
            return
        event.acceptProposedAction()
        if len(paths) == 1 and paths[0].lower().endswith(".toml"):
            self.open_file(paths[0])
        else:
            self.show_import_dialog(paths)

    def show_import_dialog(self, paths: list[str] | None = None):
        """The import dialog (one per window), reading `paths` when given."""
        from .dialogs.import_dialog import ImportDialog

        if self.import_dialog is None:
            self.import_dialog = ImportDialog(self)
        dlg = self.import_dialog
        dlg.show()
        dlg.raise_()
        dlg.activateWindow()
        if paths and not dlg.start(paths):
            self.statusBar().showMessage("An import is still running; drop again when done", 5000)
        return dlg

    @Slot()
    def show_catalog_browser(self):
        from .dialogs.catalog_browser import CatalogBrowser

        if self.catalog_browser is None:
            self.catalog_browser = CatalogBrowser(self)
        browser = self.catalog_browser
        browser.show()
        browser.raise_()
        browser.activateWindow()
        return browser

    def export_pdf(self, path: str | Path | None = None) -> bool:
        """File › Export PDF…: ask for a file (unless `path`) and export in a worker."""
        from .dialogs.export_pdf import PdfExporter

        if self.pdf_exporter is None:
            self.pdf_exporter = PdfExporter(self)
            self.pdf_exporter.action = self.export_pdf_action
        return self.pdf_exporter.export(path)

    def _shutdown_dialogs(self) -> None:
        """Cancel an import or export still running and wait for it (before closing)."""
        if self.import_dialog is not None:
            self.import_dialog.shutdown()
            self.import_dialog.close()
        if self.pdf_exporter is not None:
            self.pdf_exporter.shutdown()
        if self.catalog_browser is not None:
            self.catalog_browser.close()

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

    def _restore_geometry(self) -> None:
        geometry = self.settings.get("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1440, 900)
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
        for w in self.compare_windows:
            w.shutdown()
            w.close()
        self.estates.shutdown()
        self._shutdown_dialogs()
        self.results.shutdown()
        self.doc.shutdown()
        self._save_geometry()
        event.accept()

    def show_help(self, context: bool = False):
        """Help › User Guide, or (F1) the guide's section on the result view on screen."""
        from .help_window import GUIDE, VIEW_TOPICS, HelpWindow

        if self.help_window is None:
            self.help_window = HelpWindow(self)
        heading = ""
        if context:
            heading = VIEW_TOPICS.get(self.results.current_name(), "")
        self.help_window.show_page(GUIDE, heading)
        return self.help_window

    @Slot()
    def about(self) -> None:
        QMessageBox.about(self, f"About {APP_NAME}", about_text())


def about_text() -> str:
    return (
        f"<h3>{APP_NAME} {app_version()}</h3>"
        "<p>Prove an Oracle database can be restored and recovered inside its RTO and "
        "RPO, phase by phase.</p>"
        "<table>"
        f"<tr><td>Engine</td><td>{ENGINE_VERSION}</td></tr>"
        f"<tr><td>Python</td><td>{platform.python_version()}</td></tr>"
        f"<tr><td>PySide6 / Qt</td><td>{pyside_version} / {qVersion()}</td></tr>"
        f"<tr><td>pyqtgraph</td><td>{pg.__version__}</td></tr>"
        f"<tr><td>numpy</td><td>{np.__version__}</td></tr>"
        f"<tr><td>Platform</td><td>{platform.platform()} ({sys.platform})</td></tr>"
        "</table>"
        "<p>Units: TB = 10<sup>12</sup> bytes, TiB = 2<sup>40</sup> bytes; volumes are "
        "datafile bytes.</p>"
    )
