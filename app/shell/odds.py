"""The headline's probability, computed off the UI thread (DESIGN §10, issue 20.5).

Every new scenario gets the plan's verdict at once (the banner and the status bar show it
with "probability pending…") and, a moment after the typing stops, a Monte Carlo run in a
`TaskRunner` worker: core's `run_risk` with the Confidence view's trial count and seed,
so the banner and the Confidence view state the same probability. A newer scenario
cancels the run in flight (its result is dropped); the headline is core's
(`core.headline.headline_of`): the worse of the plan at its figures and its probability.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from rtoplanner.core.headline import Headline, headline_of
from rtoplanner.core.plan import Plan

from ..workers import TaskRunner

ODDS_TRIALS = 20_000
"""Trials of the banner's run: the Confidence view's, so both say the same."""

SETTLE_MS = 250
"""The run starts once the typing has paused this long: a keystroke never waits for it."""


def run_odds(scenario: Any, catalog: Any, trials: int, should_cancel=None) -> Any:
    """The worker's job: the trials alone (no tornado), a plain core call."""
    from rtoplanner.core.uncertainty.analysis import run_risk

    return run_risk(
        scenario, trials=trials, catalog=catalog, should_cancel=should_cancel, tornado_too=False
    )


class HeadlineOdds(QObject):
    """Keeps `headline` for the latest plan; `changed(Headline | None)` when it moves
    (a new plan: pending; the run landed: with its probability)."""

    changed = Signal(object)

    def __init__(
        self, catalog: Any = None, trials: int = ODDS_TRIALS, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.trials = trials
        self.plan: Plan | None = None
        self.headline: Headline | None = None
        self._risk: Any = None
        self._scenario: Any = None
        self.runner = TaskRunner(self)
        self.runner.done.connect(self._on_result)
        self.runner.failed.connect(self._on_failed)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self._start)

    def set_plan(self, plan: Plan | None) -> None:
        """A new plan: its headline now (pending unless the scenario is unchanged)."""
        self.plan = plan
        if plan is None:
            self._timer.stop()
            self.runner.cancel()
            self._scenario, self._risk, self.headline = None, None, None
            self.changed.emit(None)
            return
        if plan.scenario is not self._scenario:
            self._scenario, self._risk = plan.scenario, None
            self.runner.cancel()
            self._timer.start()
        self.headline = headline_of(plan, self._risk)
        self.changed.emit(self.headline)

    @Slot()
    @Slot(bool)
    def hold(self, *_args: object) -> None:
        """The scenario is being edited: a run in flight is for a plan about to be
        replaced, so it stops now (within one chunk of trials), not when the new plan
        arrives — the run would otherwise share the UI thread's turn with the keystroke's
        own recompute and repaint. The settle timer starts again: if no new plan comes
        (the edit left an error) the same plan's run starts after the pause."""
        if self.runner.busy and self._scenario is not None:
            self.runner.cancel()
            self._timer.start()

    @property
    def pending(self) -> bool:
        return self.plan is not None and self._risk is None

    @Slot()
    def _start(self) -> None:
        if self._scenario is not None:
            self.runner.submit(run_odds, self._scenario, self.catalog, self.trials)

    @Slot(object)
    def _on_result(self, risk: object) -> None:
        if self.plan is None:  # a result of a superseded run never arrives (TaskRunner)
            return
        self._risk = risk
        self.headline = headline_of(self.plan, risk)  # type: ignore[arg-type]
        self.changed.emit(self.headline)

    @Slot(object)
    def _on_failed(self, _exc: object) -> None:
        """The plan's verdict stays; the probability is not claimed."""

    def wait_idle(self, timeout_ms: int = 10000) -> bool:
        """Start a settling run now and process events until it has landed (tests)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer

        if self._timer.isActive():
            self._timer.stop()
            self._start()
        deadline = QDeadlineTimer(timeout_ms)
        while self.runner.busy and not deadline.hasExpired():
            self.runner.pool.waitForDone(10)
            QCoreApplication.processEvents()
        return not self.runner.busy

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self._timer.stop()
        self.runner.wait(timeout_ms)
