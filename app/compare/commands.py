"""View › Compare… and the comparisons the scenario list and History ask for: the
main window's compare windows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QDialog, QMessageBox

from rtoplanner.core.errors import CoreError

if TYPE_CHECKING:
    from .chooser import CompareSource
    from .compare_window import CompareWindow


class CompareCommands(QObject):
    """Opens compare windows over the window's document and store."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.host = host
        self.compare_windows: list[CompareWindow] = []

    @property
    def _store(self) -> Any:
        return self.host.scenario_list.store

    @Slot()
    def compare_dialog(self) -> CompareWindow | None:
        """View › Compare…: choose two scenarios or versions, then compare them."""
        from .chooser import CompareChooser

        chooser = CompareChooser(self._store, self.host.doc, self.host)
        if chooser.exec() != QDialog.DialogCode.Accepted:
            return None
        return self.compare_sources(*chooser.sources())

    @Slot(str, int, str, int)
    def compare_stored(self, name_a: str, version_a: int, name_b: str, version_b: int):
        from .chooser import STORED, CompareSource

        return self.compare_sources(
            CompareSource(STORED, name_a, version_a), CompareSource(STORED, name_b, version_b)
        )

    def compare_sources(self, a: CompareSource, b: CompareSource) -> CompareWindow | None:
        from .chooser import resolve_source
        from .compare_window import CompareWindow

        doc = self.host.doc
        try:
            label_a, scenario_a = resolve_source(a, doc, self._store, doc.catalog)
            label_b, scenario_b = resolve_source(b, doc, self._store, doc.catalog)
        except (CoreError, ValueError) as exc:
            QMessageBox.warning(self.host, "Compare", f"Cannot compare:\n\n{exc}")
            return None
        for old in [w for w in self.compare_windows if not w.isVisible()]:
            self.compare_windows.remove(old)
            old.deleteLater()
        window = CompareWindow(self.host, binary=self.host.binary)
        self.compare_windows.append(window)
        window.compare_scenarios(label_a, scenario_a, label_b, scenario_b, doc.catalog)
        window.show()
        return window

    def shutdown(self) -> None:
        for window in self.compare_windows:
            window.shutdown()
            window.close()
