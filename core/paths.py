"""Where shipped data lives.

The repository keeps `data/` and `resources/` beside `core/`; an editable install and a
source checkout find them there. A frozen bundle (PyInstaller) or an unusual install can
point elsewhere with RTOPLANNER_DATA / RTOPLANNER_RESOURCES.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _root() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    return Path(os.environ.get("RTOPLANNER_DATA") or _root() / "data")


def resources_dir() -> Path:
    return Path(os.environ.get("RTOPLANNER_RESOURCES") or _root() / "resources")


def scenarios_dir() -> Path:
    return data_dir() / "scenarios"


def demo_scenario() -> Path:
    """The scenario the app opens on first start."""
    return scenarios_dir() / "exadata_tape_infiniband.toml"
