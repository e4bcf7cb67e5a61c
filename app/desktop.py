"""The app as a desktop citizen: its names, its icon, and settings kept under one name.

`apply_identity(app)` names the application `rto-planner` for QSettings (the same name
platformdirs uses for the store and the log, `core/appinfo.py`), sets the display name,
the desktop file name (so a Linux desktop matches the window to `rto-planner.desktop`
and its icon instead of "python") and the window icon, and carries settings over from
the names version 0.1 used.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication, QIcon

from rtoplanner.core.appinfo import APP_ID, APP_NAME, ORG_DOMAIN
from rtoplanner.core.paths import resources_dir

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
OLD_SETTINGS_NAME = "RTO Planner"
"""Organisation and application name of version 0.1's QSettings."""


def app_icon() -> QIcon:
    """The application icon from `resources/icons/` (PNG sizes, SVG when a size is missing)."""
    folder = resources_dir() / "icons"
    icon = QIcon()
    for size in ICON_SIZES:
        png = folder / f"{APP_ID}-{size}.png"
        if png.is_file():
            icon.addFile(str(png))
    return icon


def apply_identity(app: QGuiApplication) -> None:
    """Names, desktop file name and icon; call right after creating the QApplication."""
    app.setOrganizationName(APP_ID)
    app.setOrganizationDomain(ORG_DOMAIN)
    app.setApplicationName(APP_ID)
    app.setApplicationDisplayName(APP_NAME)
    QGuiApplication.setDesktopFileName(APP_ID)
    app.setWindowIcon(app_icon())
    carry_over_old_settings()


def carry_over_old_settings() -> Path | None:
    """Copy 0.1's settings file (`RTO Planner/RTO Planner.conf`) to the new name once, so
    recent files and the window layout survive the rename. Returns the new file if copied."""
    new = Path(QSettings().fileName())
    old = new.parent.parent / OLD_SETTINGS_NAME / (OLD_SETTINGS_NAME + new.suffix)
    if new.exists() or not old.is_file() or new.suffix not in (".conf", ".ini"):
        return None
    new.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(old, new)
    return new
