"""Dialogs over the main window: workload import, hardware catalog, PDF export.

Importing this package registers their commands (`shell/registry.py`); the dialogs'
modules load when first opened (`commands.py`).
"""

from __future__ import annotations

from ..shell.registry import Command, Place, View, load, register


def _commands(name: str):
    return lambda host: load("dialogs.commands", name)(host)


register(View("catalog", "Hardware Catalog", _commands("CatalogCommands"), Place.WINDOW,
              order=120, attr="catalog", commands=(
    Command("View", "windows", "Hardware &Catalog…", "show_catalog_browser", shortcut="Ctrl+K",
            tip="The hardware catalog with its sources; add and edit your own items",
            name="catalog_action"),
)))  # fmt: skip
register(View("import", "Import Workload", _commands("ImportCommands"), Place.WINDOW,
              order=140, attr="imports", commands=(
    Command("File", "io", "&Import Workload…", "show_import_dialog", shortcut="Ctrl+I",
            tip="Read AWR / Statspack reports and CSV exports (or drop them on the window); "
                "apply their redo rate to the scenario", name="import_action"),
)))  # fmt: skip
register(View("pdf", "Export PDF", _commands("PdfCommands"), Place.WINDOW, order=150,
              attr="pdf", commands=(
    Command("File", "io", "Export &PDF…", "export_pdf", shortcut="Ctrl+E",
            tip="Write the plan as a PDF report", name="export_pdf_action"),
)))  # fmt: skip
