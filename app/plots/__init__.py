"""Thin pyqtgraph panels showing a `Plan` (STYLE §13): items created once, updated with
setData, axis labels with units, hover tooltips.

Importing this package registers the result views (`shell/registry.py`); a panel's
module is imported when its tab is first shown.
"""

from __future__ import annotations

from ..shell.registry import View, load, register


def _panel(module: str, name: str):
    return lambda _host: load(f"plots.{module}", name)()


def _confidence(host):
    return load("plots.confidence_panel", "ConfidencePanel")(host.doc.set_value, host.doc.catalog)


PLOTS = (  # name, title, module, class, what it shows
    ("timeline", "Timeline", "timeline_panel", "TimelinePanel",
     "Recovery phases against the RTO"),
    ("path", "Path", "path_panel", "PathPanel", "Capacity of each stage and the bottleneck"),
    ("backups", "Backups", "backups_panel", "BackupsPanel",
     "Backup durations against the window, channel start-up"),
    ("cycle", "Cycle", "cycle_panel", "CyclePanel", "Recovery time across the level 0 cycle"),
    ("rpo", "RPO and growth", "rpo_growth_panel", "RpoGrowthPanel",
     "Data loss, and when growth breaks the plan"),
)  # fmt: skip

for position, (name, title, module, cls, tip) in enumerate(PLOTS, start=1):
    register(View(name, title, _panel(module, cls), order=10 * position, tip=tip, help=title))
register(View("confidence", "Confidence", _confidence, order=60, help="Confidence",
              tip="How likely the plan is to hold, what decides it"))  # fmt: skip
