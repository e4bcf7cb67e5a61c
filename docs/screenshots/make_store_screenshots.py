"""Regenerate the store screenshots in this folder (offscreen, a throw-away store):

    .venv/bin/python docs/screenshots/make_store_screenshots.py

The scenario list with several stored scenarios, the History dialog with a diff, and
the Compare window (two versions of one scenario on one time axis).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE.parents[1] / "data" / "scenarios"


def main() -> int:
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    from rtoplanner.app.main import make_app, take_screenshot
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings
    from rtoplanner.app.store_service import StoreService

    _app = make_app()  # kept alive until the end
    tmp = Path(tempfile.mkdtemp(prefix="rto-store-shots-"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp))
    service = StoreService(tmp / "store.duckdb")
    store = service.store
    assert store is not None, service.error
    for path in sorted(SCENARIOS.glob("*.toml")):
        store.import_scenario(path)

    w = MainWindow(AppSettings(persist=False), service)
    w.resize(1440, 900)
    w.show()
    name = "Exadata full rack – restore from LTO-4 over InfiniBand"
    w.open_stored(name, ask=False)
    w.doc.wait_idle()
    # Two more versions with comments, as a DBA would save them.
    w.doc.set_value("path[0].count", 6)
    w.doc.wait_idle()
    w.save_to_store("six drives: two go to the DR site")
    w.doc.set_value("backup.channels", 12)
    w.doc.wait_idle()
    w.save_to_store("12 channels to match the drives")
    store.save_scenario(
        (SCENARIOS / "small_gige_lto.toml")
        .read_text(encoding="utf-8")
        .replace("Small ERP – restore over GigE from LTO-5", "Small ERP – 10 GbE upgrade"),
        comment="what-if: 10 GbE",
    )
    QCoreApplication.processEvents()
    w.scenario_list.select(name)
    w.doc.wait_idle()
    take_screenshot(w, HERE / "store_scenario_list.png")

    dialog = w.scenario_list.show_history(name)
    dialog.resize(860, 560)  # the offscreen screen is 800 px: windows fit it
    dialog.select_version(2)
    QApplication.processEvents()
    dialog.grab().save(str(HERE / "store_history_diff.png"))

    dialog.select_version(1)
    dialog.compare_selected()
    compare = w.compare_windows[-1]
    compare.resize(1200, 900)
    while compare.items is None:
        compare._runner.pool.waitForDone(20)
        QApplication.processEvents()
    QApplication.processEvents()
    compare.grab().save(str(HERE / "compare_versions.png"))

    compare.shutdown()
    compare.close()
    dialog.close()
    w.doc.undo_stack.setClean()
    w.close()
    w.doc.shutdown()
    service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
