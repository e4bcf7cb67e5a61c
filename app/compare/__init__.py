"""Compare two plans side by side: two scenarios, or two versions of one (issue 5 §4).

`CompareWindow` shows both recovery timelines on one shared time axis and a table of key
figures with their differences; `CompareChooser` picks what to compare (stored
scenarios and versions, the scenario in the editor, a file).
"""

from .chooser import CompareChooser, CompareSource
from .compare_window import CompareItem, CompareWindow
from .key_figures import KeyFiguresModel

__all__ = ["CompareChooser", "CompareItem", "CompareSource", "CompareWindow", "KeyFiguresModel"]
