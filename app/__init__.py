"""RTO Planner desktop application (PySide6 + pyqtgraph) over `rtoplanner.core`."""
