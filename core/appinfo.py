"""The application's names, in one place: QSettings, platformdirs, the desktop entry,
the MIME type and the log all use these, so every file the app keeps is found under one
name (`rto-planner`) on every platform."""

from __future__ import annotations

APP_ID = "rto-planner"
"""Folder and file name: platformdirs' app name, QSettings' organisation and application
name, the desktop entry (`rto-planner.desktop`), the icon and the command."""

APP_NAME = "RTO Planner"
"""What a person reads: window titles, menus, the desktop entry's Name."""

ORG_DOMAIN = "rtoplanner.org"
"""Reverse-DNS base for macOS (bundle identifier org.rtoplanner.RTOPlanner)."""

SCENARIO_MIME_TYPE = "application/x-rtoplanner-scenario"
"""Scenario files named `*.rto.toml` (resources/rto-planner-mime.xml); plain `*.toml`
files stay what the desktop thinks they are and still open with File › Open."""

SCENARIO_SUFFIX = ".rto.toml"
