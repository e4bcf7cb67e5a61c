"""Regenerate the screenshots in this folder (offscreen):

    .venv/bin/python docs/screenshots/make_screenshots.py

One of the main window per result view on the demo scenario, one with an input error
(the inline message and the last valid plan), one at 1024 × 700, one of a file that does
not load (its errors with their fixes), the user guide, the Estate window on the demo
estate (its Gantt and its Least hardware tab), and one in the dark palette.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
DEMO = HERE.parents[1] / "data" / "scenarios" / "exadata_tape_infiniband.toml"
ESTATE = HERE.parents[1] / "data" / "estates" / "site_loss.toml"
VIEWS = ("timeline", "path", "backups", "cycle", "rpo", "confidence")


def main() -> int:
    from PySide6.QtCore import QSettings

    from rtoplanner.app.main import make_app, take_screenshot
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings
    from rtoplanner.app.theme import dark_palette

    app = make_app()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "/tmp/rto-shots")

    def window() -> MainWindow:
        w = MainWindow(AppSettings(persist=False))
        w.open_file(DEMO, ask=False)
        w.resize(1440, 900)
        w.show()
        w.doc.wait_idle()
        return w

    w = window()
    for view in VIEWS:
        w.show_view(view)
        take_screenshot(w, HERE / f"main_{view}.png")
    # The banner alone: the verdict with its probability (issue 20.5).
    take_screenshot(w.banner, HERE / "banner.png")
    # An input error: the inline reason, the banner, and the last valid plan kept.
    w.show_view("timeline")
    w.editor.show_field("database.size")
    w.doc.set_value("database.size", "12 TX")
    w.doc.wait_idle()
    take_screenshot(w, HERE / "input_error.png")
    w.doc.undo_stack.setClean()
    w.close()

    # At the smallest supported size, 1024 × 700.
    w = window()
    w.resize(1024, 700)
    take_screenshot(w, HERE / "main_1024x700.png")
    # A file that does not load: its errors, each with its fix, and no plan.
    bad = Path("/tmp/rto-shots/redo_rat.toml")
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text(DEMO.read_text(encoding="utf-8").replace("\nredo_rate =", "\nredo_rat =", 1),
                   encoding="utf-8")  # fmt: skip
    w.resize(1440, 900)
    w.open_file(bad, ask=False)
    take_screenshot(w, HERE / "invalid_file.png")
    # Help › User Guide at the Timeline's section (F1 on the timeline).
    w.open_file(DEMO, ask=False)
    w.show_view("timeline")
    guide = w.show_help(context=True)
    guide.resize(900, 700)  # the offscreen screen is 800 px: windows fit it
    app.processEvents()
    guide.grab().save(str(HERE / "user_guide.png"))
    guide.close()
    w.doc.undo_stack.setClean()
    w.close()

    # The demo estate: the Gantt, then its Least hardware tab (docs/estate.md).
    w = window()
    ew = w.estates.new_window()
    ew.load_file(ESTATE)
    ew.resize(1440, 900)
    ew.show()
    deadline = time.monotonic() + 120
    while (ew.result is None or ew.runner.busy) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    take_screenshot(ew, HERE / "estate_window.png")
    ew.resize(1100, 760)
    ew.tabs.setCurrentWidget(ew.least_panel)  # computed with the estate
    take_screenshot(ew, HERE / "estate_least.png")
    ew.close()
    w.doc.undo_stack.setClean()
    w.close()

    app.setPalette(dark_palette())
    w = window()
    w.doc.set_value("path[0].count", 6)
    w.editor.setCurrentIndex(2)
    w.doc.wait_idle()
    take_screenshot(w, HERE / "dark_fewer_drives.png")
    w.doc.undo_stack.setClean()
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
