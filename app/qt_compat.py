"""Work-arounds for bugs in the Qt bindings we ship with.

PySide6 6.12.0 on CPython 3.11 drops a reference to `None` on every call of a method
that returns nothing (`QPen.setCosmetic`, `QGraphicsItem.prepareGeometryChange`, …):
measured here, `sys.getrefcount(None)` falls by one per call, and `True`/`False` leak
the same way on some paths (pyqtgraph's paint and range code). From Python 3.12 these
singletons are immortal (PEP 683) and the bug is harmless; on 3.11 the count reaches
zero after some tens of thousands of calls, a few minutes of typing with live plots,
and the process aborts with "Fatal Python error: none_dealloc" (or bool_dealloc).
The proper fix is a PySide6 without the bug, or Python 3.12+; until then we give the
interpreter's static singletons a reference count no session can use up.
"""

from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 40
_applied = False


def guard_none_refcount() -> bool:
    """On CPython < 3.12, add 2^40 to the reference counts of the static singletons
    (None, True, False, the small ints, the empty tuple/str/bytes), once. They are never
    freed, so the only effect is that the leak above can no longer bring a count to zero.
    Returns True when applied."""
    global _applied
    if _applied or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    singletons: list[object] = [None, True, False, (), "", b"", *range(-5, 257)]
    for obj in singletons:
        # ob_refcnt is the first field of every PyObject in a release build.
        ctypes.c_ssize_t.from_address(id(obj)).value += _RESERVE
    _applied = True
    return True
