"""Regenerate `what_it_takes.png` (offscreen): the small demo at twice its size, with two
prices in a temporary store, in the What it takes view.

    .venv/bin/python docs/screenshots/make_fix_screenshot.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
DEMO = HERE.parents[1] / "data" / "scenarios" / "small_gige_lto.toml"


def main() -> int:
    from PySide6.QtCore import QCoreApplication, QSettings

    from rtoplanner.app.main import make_app, take_screenshot
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings
    from rtoplanner.app.store_service import StoreService
    from rtoplanner.core.scenario import dump_scenario, load_scenario, with_values

    app = make_app()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "/tmp/rto-shots")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = load_scenario(DEMO)
        doubled = with_values(scenario, {"database.size": "3 TB"})
        path = Path(tmp) / "small_erp_3tb.toml"
        path.write_text(dump_scenario(doubled), encoding="utf-8")
        service = StoreService(Path(tmp) / "store.duckdb")
        service.store.set_currency("EUR")
        service.store.set_price("network", "Gigabit Ethernet", 800.0)
        service.store.set_price("tape_drive", "LTO-5", 4500.0)
        w = MainWindow(AppSettings(persist=False), service)
        w.open_file(path, ask=False)
        w.resize(1440, 900)
        w.show()
        w.doc.wait_idle()
        w.results.show_view("fix")
        panel = w.results.panel("fix")
        deadline = time.monotonic() + 60
        while panel.result is None and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.01)
        QCoreApplication.processEvents()
        take_screenshot(w, HERE / "what_it_takes.png")
        w.doc.undo_stack.setClean()
        w.close()
        service.close()
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
