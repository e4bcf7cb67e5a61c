"""Dialogs over the main window: workload import, hardware catalog, PDF export."""
