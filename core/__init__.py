"""RTO Planner core: the Qt-free model, analyses, importers, store, report and CLI."""

from .errors import CoreError, ModelError, ScenarioError, UnitError

__version__ = "0.1.0"
ENGINE_VERSION = "1"
"""Bumped whenever a formula changes, so stored results can tell they are stale."""

__all__ = ["ENGINE_VERSION", "CoreError", "ModelError", "ScenarioError", "UnitError", "__version__"]
