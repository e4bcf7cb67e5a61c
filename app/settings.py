"""User preferences kept in QSettings, declared in one place (STYLE §10).

Every key has a declared default and type; a `settings/version` lets a later release
migrate old keys instead of misreading them. Window geometry and recent files live here
too so the main window never touches QSettings directly (and tests can point QSettings
at a temporary directory).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

SETTINGS_VERSION = 1
MAX_RECENT = 10


@dataclass(frozen=True)
class SettingSpec:
    key: str
    type: type
    default: Any
    label: str = ""


SPECS: dict[str, SettingSpec] = {
    s.key: s
    for s in (
        SettingSpec("units/binary", bool, False, "Binary units (TiB, GiB/s) in results"),
        SettingSpec("window/geometry", QByteArray, None),
        SettingSpec("window/state", QByteArray, None),
        SettingSpec("window/splitter", QByteArray, None),
        SettingSpec("files/recent", list, []),
        SettingSpec("files/last_dir", str, ""),
        SettingSpec(
            "files/last_scenario",
            str,
            "",
            "What restart reopens: file:PATH, store:NAME or demo:PATH",
        ),
    )
}

_MIGRATIONS: dict[int, Any] = {}
"""`{from_version: fn(QSettings)}` — each step migrates to `from_version + 1`."""


class AppSettings:
    """Typed access to the app's QSettings.

    QSettings hands back strings for bools and a bare string for one-item lists with
    INI files; the conversions here hide that so callers get the declared type.
    """

    def __init__(self, qsettings: QSettings | None = None, *, persist: bool = True) -> None:
        self._qs = qsettings if qsettings is not None else QSettings()
        self.persist = persist
        self._migrate()

    def _migrate(self) -> None:
        version = int(self._qs.value("settings/version", SETTINGS_VERSION) or SETTINGS_VERSION)
        while version < SETTINGS_VERSION and version in _MIGRATIONS:
            _MIGRATIONS[version](self._qs)
            version += 1
        if self.persist:
            self._qs.setValue("settings/version", SETTINGS_VERSION)

    def get(self, key: str) -> Any:
        spec = SPECS[key]
        value = self._qs.value(key, spec.default)
        if value is None:
            return spec.default
        if spec.type is bool:
            return value if isinstance(value, bool) else str(value).lower() in ("true", "1")
        if spec.type is list:
            if isinstance(value, str):
                return [value] if value else []
            return list(value)
        if spec.type is QByteArray:
            return value if isinstance(value, QByteArray) else None
        return spec.type(value)

    def set(self, key: str, value: Any) -> None:
        if key not in SPECS:
            raise KeyError(key)
        if self.persist:
            self._qs.setValue(key, value)

    def sync(self) -> None:
        if self.persist:
            self._qs.sync()

    # ------------------------------------------------------------------ conveniences

    @property
    def binary_units(self) -> bool:
        return bool(self.get("units/binary"))

    @binary_units.setter
    def binary_units(self, value: bool) -> None:
        self.set("units/binary", bool(value))

    def recent_files(self) -> list[str]:
        """Recent scenario files that still exist, newest first."""
        return [p for p in self.get("files/recent") if Path(p).is_file()]

    def add_recent_file(self, path: str | Path) -> list[str]:
        p = str(Path(path).resolve())
        recent = [r for r in self.get("files/recent") if r != p]
        recent.insert(0, p)
        del recent[MAX_RECENT:]
        self.set("files/recent", recent)
        return recent

    def clear_recent_files(self) -> None:
        self.set("files/recent", [])
