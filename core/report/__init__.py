"""The PDF plan: report data computed here, rendered by a thin reportlab module."""
