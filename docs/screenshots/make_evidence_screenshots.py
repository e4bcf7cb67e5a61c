"""Regenerate `evidence_window.png` and `recovery_in_progress.png` (offscreen): the Exadata
demo with the two drills of tests/fixtures/evidence in a temporary store, and the recovery
clock after 14 of the fixtures' snapshots and the RESTORE PREVIEW.

    .venv/bin/python docs/screenshots/make_evidence_screenshots.py
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
EVIDENCE = REPO / "tests" / "fixtures" / "evidence"
DEMO = REPO / "data" / "scenarios" / "exadata_tape_infiniband.toml"
FULL = ("drill_prod_iso.log", "rman_status_drill.csv", "clock/20261012_0120_recovery.csv",
        "preview_prod.txt")  # fmt: skip


def pump(app, seconds: float) -> None:
    end = time.time() + seconds
    while time.time() < end:
        app.processEvents()
        time.sleep(0.02)


def until(app, ready, seconds: float = 60) -> None:
    end = time.time() + seconds
    while not ready() and time.time() < end:
        pump(app, 0.1)


def add_drill(app, panel, names) -> None:
    n = panel.drill_model.rowCount()
    panel.add_drill([str(EVIDENCE / name) for name in names])
    until(app, lambda: panel.drill_model.rowCount() > n)


def main() -> int:
    from PySide6.QtCore import QCoreApplication, QSettings

    from rtoplanner.app.main import make_app
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings
    from rtoplanner.app.store_service import StoreService

    app = make_app()
    tmp = Path(tempfile.mkdtemp())
    QCoreApplication.setOrganizationName("RTO Planner Screenshots")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp))
    demo = tmp / "demo.toml"
    shutil.copy(DEMO, demo)
    service = StoreService(tmp / "store.duckdb")
    win = MainWindow(AppSettings(), service)
    win.open_file(demo, ask=False)
    win.resize(1800, 1000)
    win.show()
    win.doc.wait_idle()
    panel = win.evidence.show_window()
    panel.window().resize(1100, 720)
    add_drill(app, panel, FULL)
    add_drill(app, panel, ("drill_prod_default_nls.log",))
    panel.drill_table.selectRow(1)
    pump(app, 0.5)
    panel.window().grab().save(str(HERE / "evidence_window.png"))
    clock = win.recovery_clock.show_window()
    clock.resize(1100, 700)  # the offscreen screen is 800 px: windows fit it
    snaps = sorted((EVIDENCE / "clock").glob("*.csv"))[:14]
    clock.add_files([str(p) for p in snaps] + [str(EVIDENCE / "preview_prod.txt")])
    until(app, lambda: clock.clock is not None and len(clock.clock.history) == 14)
    pump(app, 0.5)
    clock.grab().save(str(HERE / "recovery_in_progress.png"))
    win.recovery_clock.shutdown()
    win.doc.undo_stack.setClean()
    win.close()
    win.doc.shutdown()
    service.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
