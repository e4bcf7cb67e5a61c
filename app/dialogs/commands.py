"""The main window's dialogs, one of each, made when first asked for: File › Import
Workload… (and files dropped on the window), File › Export PDF…, View › Hardware
Catalog…."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Slot


def _raise(window: Any) -> Any:
    window.show()
    window.raise_()
    window.activateWindow()
    return window


class ImportCommands(QObject):
    """The import dialog (one per window), and drops of workload files."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.host = host
        self.import_dialog = None
        host.setAcceptDrops(True)

    def show_import_dialog(self, paths: list[str] | None = None):
        """The import dialog, reading `paths` when given."""
        from .import_dialog import ImportDialog

        if self.import_dialog is None:
            self.import_dialog = ImportDialog(self.host)
        dlg = _raise(self.import_dialog)
        if paths and not dlg.start(paths):
            self.host.statusBar().showMessage(
                "An import is still running; drop again when done", 5000
            )
        return dlg

    def drag_enter(self, event: Any) -> None:
        from .import_dialog import local_paths

        if local_paths(event.mimeData()):
            event.acceptProposedAction()

    def drop(self, event: Any) -> None:
        """Dropped scenario files open; anything else goes to the import dialog."""
        from .import_dialog import local_paths

        paths = local_paths(event.mimeData())
        if not paths:
            return
        event.acceptProposedAction()
        if len(paths) == 1 and paths[0].lower().endswith(".toml"):
            self.host.open_file(paths[0])
        else:
            self.show_import_dialog(paths)

    def shutdown(self) -> None:
        """Cancel an import still running and wait for it (before the window closes)."""
        if self.import_dialog is not None:
            self.import_dialog.shutdown()
            self.import_dialog.close()


class PdfCommands(QObject):
    """File › Export PDF…: one export at a time, in a worker."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.host = host
        self.pdf_exporter = None

    def export_pdf(self, path: str | Path | None = None) -> bool:
        """Ask for a file (unless `path`) and export in a worker."""
        from .export_pdf import PdfExporter

        if self.pdf_exporter is None:
            self.pdf_exporter = PdfExporter(self.host)
            self.pdf_exporter.action = self.host.export_pdf_action
        return self.pdf_exporter.export(path)

    def shutdown(self) -> None:
        if self.pdf_exporter is not None:
            self.pdf_exporter.shutdown()


class CatalogCommands(QObject):
    """View › Hardware Catalog…: the catalog browser (one per window)."""

    def __init__(self, host: Any) -> None:
        super().__init__(host)
        self.host = host
        self.catalog_browser = None

    @Slot()
    def show_catalog_browser(self):
        from .catalog_browser import CatalogBrowser

        if self.catalog_browser is None:
            self.catalog_browser = CatalogBrowser(self.host)
        return _raise(self.catalog_browser)

    def shutdown(self) -> None:
        if self.catalog_browser is not None:
            self.catalog_browser.close()
