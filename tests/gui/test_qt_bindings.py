"""Guards against Qt binding regressions that would crash the app in the field.

PySide6 6.12.0 dropped a reference to `None` on every call of a method returning
nothing; on Python 3.11 the count reaches zero after minutes of live plotting and the
process aborts ("Fatal Python error: none_dealloc"). pyproject.toml pins PySide6 below
6.12; this test fails on any binding that leaks again, before a user finds out.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QPen


def test_void_methods_do_not_leak_references_to_none():
    before = sys.getrefcount(None)
    for _ in range(2000):
        QPen().setCosmetic(True)
    assert abs(sys.getrefcount(None) - before) < 50
