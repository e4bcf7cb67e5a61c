"""GUI speed: cold start to a painted window, and a keystroke to a repainted view.

    python bench/bench_gui.py [--repeat N]     # offscreen unless QT_QPA_PLATFORM is set

Targets (issue 14): cold start to a painted window <= 1.0 s; with 10,000 stored
scenarios within 0.2 s of the same with 100; keystroke to the repainted timeline <= 30 ms
(median). On a shared machine the wall clock of a keystroke counts other processes'
turns too: the UI thread's own CPU time per keystroke is printed beside it.

The cold start is measured from outside, as `rto-planner gui` does it: the parent starts
a fresh interpreter that opens a store (of 100, then of 10,000 scenarios), builds the
window on the demo scenario and reports the timeline plot's first paint; imports,
interpreter start-up, the store and the first plan all count. The CPU time of that child
is printed too (user + system, until it exits right after the paint): on a machine shared
with other work it shows what a quiet one would do. The keystroke is measured inside a
child: a real key event into the channels field, until the timeline panel has redrawn and
the window has painted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from stores import DEMO, store_with_scenarios


def open_window(db: str | None):
    """The app and a shown main window on the demo, as `rto-planner gui` builds it."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings

    from rtoplanner.app.main import make_app

    app = make_app()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "/tmp/rto-bench")
    from rtoplanner.app.main_window import MainWindow
    from rtoplanner.app.settings import AppSettings
    from rtoplanner.app.store_service import StoreService

    service = StoreService(Path(db)) if db else None
    window = MainWindow(AppSettings(persist=False), service)
    window.open_file(DEMO, ask=False)
    window.resize(1440, 900)
    return app, window, service


class PaintWatch:
    def __init__(self, widget) -> None:
        from PySide6.QtCore import QEvent, QObject

        self.count = 0
        watch = self

        class Filter(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint:
                    watch.count += 1
                return False

        self.filter = Filter()
        widget.installEventFilter(self.filter)


def child_cold(db: str) -> None:
    app, window, _service = open_window(db)
    watch = PaintWatch(window.timeline_panel.plot.viewport())
    window.show()
    while watch.count == 0:
        app.processEvents()
    print("PAINTED", flush=True)
    os._exit(0)  # the clock has stopped: no need to wait for a tidy shutdown


def _keystrokes(app, window, field, watch, n: int, before=None) -> tuple[list[float], list[float]]:
    """`n` keystrokes into `field`, each timed to the repainted timeline: (wall ms, UI
    thread CPU ms). `before` runs ahead of each (e.g. a probability run started)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    viewport = window.timeline_panel.plot.viewport()
    wall, cpu = [], []
    for i in range(n):
        field.selectAll()
        if before is not None:
            before()
        before_updates = window.timeline_panel.update_count
        before_paints = watch.count
        start, start_cpu = time.perf_counter(), time.thread_time()
        QTest.keyClick(field, Qt.Key.Key_4 if i % 2 == 0 else Qt.Key.Key_9)
        while window.timeline_panel.update_count == before_updates or watch.count == before_paints:
            app.processEvents()
            if watch.count == before_paints:
                viewport.repaint()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        window.doc.wait_idle()
        if before is not None:
            window.odds.wait_idle()
    return wall, cpu


def child_keys(db: str) -> None:

    app, window, service = open_window(db)
    viewport = window.timeline_panel.plot.viewport()
    watch = PaintWatch(viewport)
    window.show()
    while watch.count == 0:
        app.processEvents()
    window.doc.wait_idle()
    field = window.editor.field("backup.channels").input
    window.editor.show_field("backup.channels")

    def start_odds() -> None:
        window.odds._timer.stop()
        window.odds._start()  # a run in flight, as a moment after the typing stopped

    ms, cpu = _keystrokes(app, window, field, watch, 40)
    print(
        f"KEYSTROKE to the repainted timeline: median {statistics.median(ms):.1f} ms, "
        f"max {max(ms):.1f} ms (n={len(ms)}; target <= 30 ms; was 65 ms with the 50 ms "
        f"debounce); UI thread CPU median {statistics.median(cpu):.1f} ms "
        f"(load average {os.getloadavg()[0]:.1f})",
        flush=True,
    )
    # The same keystroke while the headline's probability (20,000 trials) runs in a
    # worker: the run must not hold the repaint up (issue 20.5).
    ms, cpu = _keystrokes(app, window, field, watch, 20, before=start_odds)
    print(
        f"KEYSTROKE with the probability run in flight: median {statistics.median(ms):.1f} ms, "
        f"max {max(ms):.1f} ms (n={len(ms)}; target <= 30 ms); UI thread CPU median "
        f"{statistics.median(cpu):.1f} ms",
        flush=True,
    )
    window.doc.undo_stack.setClean()
    window.odds.shutdown()
    window.close()
    if service is not None:
        service.close()


def cold_starts(db: Path, repeat: int) -> tuple[float, float]:
    """Median wall-clock and CPU seconds from process start to the first paint."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", "cold", str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("PAINTED"):
                walls.append(time.perf_counter() - t0)
        proc.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> int:
    if len(sys.argv) > 3 and sys.argv[1] == "--child":
        (child_cold if sys.argv[2] == "cold" else child_keys)(sys.argv[3])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="cold starts per store (median)")
    args = ap.parse_args()
    small, large = store_with_scenarios(100), store_with_scenarios(10_000)
    figures = {}
    for label, db in (("100", small), ("10,000", large)):
        wall, cpu = cold_starts(db, args.repeat)
        figures[label] = wall
        print(
            f"COLD START to a painted window, {label:>6} stored scenarios: median "
            f"{wall:.2f} s wall, {cpu:.2f} s CPU (n={args.repeat}; target <= 1.0 s)"
        )
    print(
        f"10,000 scenarios add {figures['10,000'] - figures['100']:+.2f} s to the start "
        "(target <= 0.2 s; was +2.8 s)"
    )
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    subprocess.run([sys.executable, __file__, "--child", "keys", str(small)], env=env, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
