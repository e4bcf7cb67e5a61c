"""Regenerate the screenshots of the import dialog, the catalog browser and the PDF export
progress (offscreen, with a throw-away store):

    .venv/bin/python docs/screenshots/make_dialog_screenshots.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEMO = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"
AWR = REPO / "tests" / "fixtures" / "awr"


def main() -> int:
    from PySide6.QtCore import QCoreApplication, QSettings

    from rtoplanner.app.main import make_app
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings
    from rtoplanner.app.store_service import StoreService

    app = make_app()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "/tmp/rto-shots")
    tmp = Path(tempfile.mkdtemp(prefix="rto-shots-"))
    service = StoreService(tmp / "shots.duckdb")
    w = MainWindow(AppSettings(persist=False), service)
    w.open_file(DEMO, ask=False)
    w.resize(1440, 900)
    w.show()
    w.doc.wait_idle()

    def settle(until=lambda: True, rounds: int = 400) -> None:
        for _ in range(rounds):
            QCoreApplication.processEvents()
            if until():
                break
            app.thread().msleep(10)

    # The import dialog with a preview: hourly reports, a compare report, a bad file.
    bad = tmp / "notes_from_the_meeting.html"
    bad.write_text("<html><body>Agenda</body></html>", encoding="utf-8")
    files = [
        *sorted(AWR.glob("1newstar-*")),
        AWR / "synthetic" / "awrddrpt_12c.html",
        AWR / "Azure-Oracle-Workloads-for-Azure__AWR_DBU.html",
        bad,
    ]
    dlg = w.show_import_dialog([str(f) for f in files])
    dlg.resize(1200, 680)  # the offscreen screen is 800 px: windows fit it (issue 23.4)
    settle(lambda: not dlg.busy and dlg.run is not None)
    dlg.select_database("SHOP")
    settle(rounds=5)
    dlg.grab().save(str(HERE / "import_dialog.png"))
    dlg.close()

    # The catalog browser, tape drives, with a user item.
    from rtoplanner.core.catalog import CatalogItem

    browser = w.show_catalog_browser()
    browser.resize(1180, 620)
    browser.save_item(
        CatalogItem(
            "tape_drive",
            "LTO-9 (our library)",
            "test restore 2024-03-01, 8 drives",
            rate_Bps=290e6,
            derate=0.95,
            hw_compression=1.0,
        )
    )
    browser.kind_combo.setCurrentIndex(browser.kind_combo.findData("tape_drive"))
    browser.select("tape_drive", "LTO-9 (our library)")
    settle(rounds=5)
    browser.grab().save(str(HERE / "catalog_browser.png"))
    browser.close()

    # The export progress in the status bar, as it shows after 600 ms (the question at
    # the end answered "Close": no modal box in a script).
    from PySide6.QtWidgets import QMessageBox

    QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Close)
    exporter_started = w.export_pdf(tmp / "plan.pdf")
    assert exporter_started
    exporter = w.pdf_exporter
    settle(lambda: not exporter.busy)
    exporter.progress.set_progress(0.57, "laying out page 3")
    exporter.progress.show()
    w.statusBar().showMessage("Exporting Exadata_tape_restore.pdf…")
    settle(rounds=5)
    w.grab().save(str(HERE / "export_progress.png"))
    exporter.progress.hide()

    w.doc.undo_stack.setClean()
    w.close()
    service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
