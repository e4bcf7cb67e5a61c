"""Thin pyqtgraph panels showing a `Plan` (STYLE §13): items created once, updated with
setData, axis labels with units, hover tooltips."""
