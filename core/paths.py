"""Where shipped data lives.

The repository keeps `data/` and `resources/` at the top beside `core/`; pyproject maps
them into the package as `rtoplanner.data` and `rtoplanner.resources`, so a wheel, an
editable install and a frozen bundle all find them through `importlib.resources` as
siblings of this package. RTOPLANNER_DATA / RTOPLANNER_RESOURCES point elsewhere (tests,
an unusual install). A missing folder is an error naming where it was looked for, never
an empty catalog or list.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .errors import CoreError

# `rtoplanner` when installed; the data packages are its children. `core` may not import
# the top-level package (import contract), so the name is derived, not imported.
_TOP = (__package__ or "rtoplanner.core").rpartition(".")[0] or "rtoplanner"


class MissingDataError(CoreError):
    """Shipped data (catalog, demos, fonts) is not where the install put it."""


def _package_dir(sub: str, env: str) -> Path:
    override = os.environ.get(env)
    if override:
        return Path(override)
    path = _package_path(f"{_TOP}.{sub}")
    if path is None or not path.is_dir():
        raise MissingDataError(
            f"the shipped {sub} folder is missing (looked for the package {_TOP}.{sub})",
            hint=f"reinstall RTO Planner, or set {env} to the folder",
        )
    return path


def _package_path(name: str) -> Path | None:
    """The folder of the data package `name`: its `__path__` when it is a folder on disk
    (a wheel, an editable install, a frozen bundle's files), else what
    `importlib.resources` finds. `importlib.resources` is imported only then: it pulls
    in tempfile, random and zipfile, a tenth of `plan --no-store`'s start-up."""
    import importlib

    try:
        module = sys.modules.get(name) or importlib.import_module(name)
    except ModuleNotFoundError:
        return None
    for folder in getattr(module, "__path__", None) or ():
        if os.path.isdir(folder):
            return Path(folder)
    from importlib import resources

    try:
        return Path(str(resources.files(name)))
    except (ModuleNotFoundError, TypeError):
        return None


def data_dir() -> Path:
    """The shipped `data/` folder: catalog/, scenarios/ and what later releases add."""
    return _package_dir("data", "RTOPLANNER_DATA")


def resources_dir() -> Path:
    """The shipped `resources/` folder: fonts/, icons/, the desktop entry and MIME type."""
    return _package_dir("resources", "RTOPLANNER_RESOURCES")


def docs_dir() -> Path:
    """The shipped `docs/` folder: the user guide (guide.md) and the topic pages."""
    return _package_dir("docs", "RTOPLANNER_DOCS")


def scenarios_dir() -> Path:
    return data_dir() / "scenarios"


def estates_dir() -> Path:
    """Demo estates (DESIGN §9): ESTATE.toml files with their scenarios beside them."""
    return data_dir() / "estates"


def demo_scenario() -> Path:
    """The scenario the app opens on first start."""
    return scenarios_dir() / "exadata_tape_infiniband.toml"
