"""Choose what to compare: each side is the scenario in the editor, a stored scenario (its
latest or an older version) or a scenario file.

`resolve_source` turns a choice into a label and a validated `Scenario` (core's
`Store.load_scenario` / `load_scenario`, with the store's catalog), ready for
`CompareWindow.compare_scenarios`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from rtoplanner.core.catalog import Catalog
from rtoplanner.core.errors import CoreError
from rtoplanner.core.scenario import Scenario, load_scenario
from rtoplanner.core.store import Store

from ..document import ScenarioDocument

EDITOR = "editor"
STORED = "stored"
FILE = "file"


@dataclass(frozen=True)
class CompareSource:
    kind: str  # editor | stored | file
    name: str = ""
    version: int = 0
    """A stored version; 0 for the latest."""
    path: Path | None = None


def resolve_source(
    source: CompareSource,
    doc: ScenarioDocument | None,
    store: Store | None,
    catalog: Catalog | None = None,
) -> tuple[str, Scenario]:
    """The label and scenario of a choice; raises CoreError (or ValueError) with a reason."""
    if source.kind == EDITOR:
        if doc is None or doc.scenario is None:
            raise ValueError("the scenario in the editor has no valid state yet")
        name = doc.scenario.name or "Scenario"
        if doc.store_origin is not None:
            where = f"editor, from v{doc.store_origin.version}"
        else:
            where = "editor" if doc.file_path is None else f"editor, {doc.file_path.name}"
        if doc.is_dirty:
            where += ", unsaved"
        if doc.errors:
            where += ", last valid state"
        return f"{name} ({where})", doc.scenario
    if source.kind == STORED:
        if store is None:
            raise ValueError("the store is not available")
        v = store.scenario_version(source.name, source.version or None)
        latest = store.scenario_version(source.name)
        scenario = store.load_scenario(source.name, v.version)
        tail = " (current)" if v.version == latest.version else ""
        return f"{source.name} v{v.version}{tail}", scenario
    if source.kind == FILE and source.path is not None:
        return source.path.name, load_scenario(source.path, catalog=catalog)
    raise ValueError(f"nothing to compare: {source}")


class SourcePicker(QWidget):
    """One side: what (editor / a stored scenario / a file) and which version."""

    def __init__(self, store: Store | None, has_editor: bool, parent=None) -> None:
        super().__init__(parent)
        self.store = store
        self.path: Path | None = None
        self.what = QComboBox()
        self.what.setMinimumContentsLength(28)
        self.version = QComboBox()
        self.version.setMinimumContentsLength(14)
        if has_editor:
            self.what.addItem("The scenario in the editor", (EDITOR, ""))
        if store is not None:
            try:
                names = [s.name for s in store.scenarios()]
            except CoreError:
                names = []
            for name in names:
                self.what.addItem(f"Stored: {name}", (STORED, name))
        self.what.addItem("A scenario file…", (FILE, ""))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.what, 3)
        layout.addWidget(self.version, 1)
        self.what.activated.connect(self._on_activated)
        self.what.currentIndexChanged.connect(self._fill_versions)
        self._fill_versions()

    def set_source(self, source: CompareSource) -> None:
        for i in range(self.what.count()):
            kind, name = self.what.itemData(i)
            if kind == source.kind and (kind != STORED or name == source.name):
                self.what.setCurrentIndex(i)
                break
        if source.kind == FILE and source.path is not None:
            self._set_path(source.path)
        if source.kind == STORED:
            i = self.version.findData(source.version)
            if i >= 0:
                self.version.setCurrentIndex(i)

    def source(self) -> CompareSource:
        kind, name = self.what.currentData()
        if kind == STORED:
            return CompareSource(STORED, name, int(self.version.currentData() or 0))
        if kind == FILE:
            return CompareSource(FILE, path=self.path)
        return CompareSource(EDITOR)

    @Slot(int)
    def _fill_versions(self, *_args) -> None:
        self.version.clear()
        kind, name = self.what.currentData()
        if kind != STORED or self.store is None:
            self.version.setEnabled(False)
            return
        self.version.setEnabled(True)
        self.version.addItem("latest", 0)
        try:
            history = self.store.history(name)
        except CoreError:
            history = []
        for v in reversed(history):
            text = f"v{v.version}" + (f" – {v.comment}" if v.comment else "")
            self.version.addItem(text, v.version)

    @Slot(int)
    def _on_activated(self, index: int) -> None:
        kind, _ = self.what.itemData(index)
        if kind == FILE:
            path, _ = QFileDialog.getOpenFileName(
                self, "Scenario to compare", str(self.path or ""), "Scenario files (*.toml)"
            )
            if path:
                self._set_path(Path(path))

    def _set_path(self, path: Path) -> None:
        self.path = path
        i = self.what.count() - 1
        self.what.setItemText(i, f"File: {path.name}")
        self.what.setItemData(i, str(path), Qt.ItemDataRole.ToolTipRole)


class CompareChooser(QDialog):
    """Pick A and B. `sources()` gives the two choices after `accept`."""

    def __init__(
        self,
        store: Store | None,
        doc: ScenarioDocument | None = None,
        parent: QWidget | None = None,
        a: CompareSource | None = None,
        b: CompareSource | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("compare_chooser")
        self.setWindowTitle("Compare Plans")
        has_editor = doc is not None
        self.a = SourcePicker(store, has_editor)
        self.b = SourcePicker(store, has_editor)
        default_a, default_b = default_sources(store, doc)
        self.a.set_source(a or default_a)
        self.b.set_source(b or default_b)
        form = QFormLayout()
        form.addRow("A:", self.a)
        form.addRow("B:", self.b)
        note = QLabel(
            "Two scenarios, or two versions of one: both recovery timelines on one time "
            "axis, with the key figures side by side."
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Compare")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def sources(self) -> tuple[CompareSource, CompareSource]:
        return self.a.source(), self.b.source()


def default_sources(
    store: Store | None, doc: ScenarioDocument | None
) -> tuple[CompareSource, CompareSource]:
    """A: the editor. B: the version before the one in the editor when it came from the
    store, else the first other stored scenario, else a file."""
    a = CompareSource(EDITOR) if doc is not None else CompareSource(FILE)
    origin = doc.store_origin if doc is not None else None
    if store is not None and origin is not None:
        return a, CompareSource(STORED, origin.name, max(origin.version - 1, 0))
    if store is not None:
        try:
            names = [s.name for s in store.scenarios()]
        except CoreError:
            names = []
        current = doc.raw.get("name") if doc is not None else None
        others = [n for n in names if n != current] or names
        if others:
            return a, CompareSource(STORED, others[0], 0)
    return a, CompareSource(FILE)
