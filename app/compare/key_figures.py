"""Key figures of two plans side by side, with the difference (STYLE §7).

Rows are figures a DBA quotes (worst-case recovery, margin, verdict, bottleneck, level 0
backup time, site-loss RPO, the date growth breaks the plan); columns are plan A, plan B
and B − A. The values are read from core's result objects (`Plan`, `RecoveryResult`,
`BackupJob`, `RpoResult`, `GrowthResult`); formatting goes through core's
`format_duration`, and the only arithmetic is the difference of two shown numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from rtoplanner.core.headline import Headline, sure_percent
from rtoplanner.core.plan import Plan
from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import bottleneck_words

from ..models.row_table_model import RIGHT_ALIGNED, RowTableModel, bold_font
from ..theme import VERDICT_COLORS, VERDICT_WORDS

COL_FIGURE = 0
COL_A = 1
COL_B = 2
COL_DIFF = 3
COLUMN_COUNT = 4

ValueRole = Qt.ItemDataRole.UserRole + 1
"""The raw value of a plan cell (seconds, a verdict key, a date, a name, or None)."""
FigureRole = Qt.ItemDataRole.UserRole + 2
"""The row's figure key (`total`, `margin`, …)."""


@dataclass(frozen=True)
class Figure:
    key: str
    title: str
    kind: str  # duration | verdict | text | date
    value: Callable[[Plan], Any]
    better: int = 0
    """-1: smaller is better, +1: larger is better, 0: neither."""
    tip: str = ""
    odds: Callable[[Headline], Any] | None = None
    """The value from the plan's headline with its probability, when there is one."""


def _level0(plan: Plan) -> float | None:
    job = plan.job("level0")
    return job.duration_s if job is not None else None


def _breaks_on(plan: Plan) -> date | None:
    return plan.growth.breaks_on if plan.growth is not None else None


FIGURES: tuple[Figure, ...] = (
    Figure("total", "Worst-case recovery", "duration", lambda p: p.recovery.total_s, -1,
           "Recovery time for a failure at the worst moment of the backup cycle"),
    Figure("rto", "RTO", "duration", lambda p: p.recovery.rto_s),
    Figure("margin", "Margin", "duration", lambda p: p.recovery.margin_s, +1,
           "RTO minus the worst-case recovery; negative when the plan misses"),
    Figure("verdict", "Verdict", "verdict", lambda p: p.verdict,
           tip="The headline verdict: the worse of the plan at its figures (recovery vs "
               "RTO, RPO vs its target, each backup vs its window) and its probability",
           odds=lambda h: h.verdict),
    Figure("p_meets", "Likely to meet every target", "probability", lambda p: None, +1,
           "Share of trials (every uncertain figure drawn from its range) that meet every "
           "target at once; below targets.confidence the plan is at risk, below 50 % it "
           "misses", odds=lambda h: h.p_meets),
    Figure("planned_verdict", "Verdict at the planned figures", "verdict",
           lambda p: p.verdict),
    Figure("decided_by", "Decided by", "text", lambda p: p.deciding.title),
    Figure("recovery_verdict", "Recovery vs RTO", "verdict", lambda p: p.recovery.verdict),
    Figure("bottleneck", "Restore bottleneck", "text",
           lambda p: bottleneck_words(p.restore_path.bottleneck)),
    Figure("longest", "Longest phase", "text", lambda p: p.recovery.longest_phase.title),
    Figure("level0", "Level 0 backup", "duration", _level0, -1,
           "Duration of the full backup, channel start-up included"),
    Figure("rpo_site", "RPO, site loss", "duration", lambda p: p.rpo.site_loss_s, -1,
           "Worst-case data loss when the site is lost"),
    Figure("breaks_on", "Growth breaks the plan", "date", _breaks_on, +1,
           "First date on which growth makes the worst case miss the RTO or a backup "
           "overrun its window"),
)  # fmt: skip
_VERDICT_RANK = {"meets": 0, "at_risk": 1, "misses": 2}


class KeyFiguresModel(RowTableModel[Figure]):
    """One row per figure in `FIGURES` once two plans are set; none before."""

    HEADERS = ("", "A", "B", "B − A")  # COL_FIGURE, COL_A, COL_B, COL_DIFF

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.labels = ("A", "B")
        self.plans: tuple[Plan, Plan] | None = None
        self.odds: tuple[Headline | None, Headline | None] = (None, None)

    def set_plans(
        self, label_a: str, plan_a: Plan, label_b: str, plan_b: Plan,
        odds: tuple[Headline | None, Headline | None] = (None, None),
    ) -> None:  # fmt: skip
        self.labels = (label_a, label_b)
        self.plans = (plan_a, plan_b)
        self.odds = odds
        self.set_rows(FIGURES)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COLUMN_COUNT - 1)

    def clear(self) -> None:
        self.set_rows([])
        self.plans = None

    def row_of(self, key: str) -> int:
        return next((i for i, f in enumerate(FIGURES) if f.key == key), -1)

    # ---------------------------------------------------------------- formatting

    def _value(self, fig: Figure, col: int) -> Any:
        assert self.plans is not None
        odds = self.odds[col - COL_A]
        if fig.odds is not None and odds is not None:
            return fig.odds(odds)
        return fig.value(self.plans[col - COL_A])

    def _format(self, fig: Figure, value: Any, plan: Plan) -> str:
        if fig.kind == "duration":
            if value is None:
                return "—"
            # One minus sign in the table: the B − A column writes "−1 h 24 min".
            return ("−" if value < 0 else "") + format_duration(abs(value))
        if fig.kind == "verdict":
            return VERDICT_WORDS.get(value, str(value))
        if fig.kind == "probability":
            return "—" if value is None else sure_percent(value)
        if fig.kind == "date":
            if value is not None:
                return value.isoformat()
            g = plan.growth
            if g is None:
                return "not computed"
            return f"holds {g.horizon_years:g} years"
        return str(value)

    def _difference(self, fig: Figure) -> tuple[str, int]:
        """The B − A text and whether B is better (+1), worse (−1) or neither (0)."""
        a = self._value(fig, COL_A)
        b = self._value(fig, COL_B)
        if fig.kind == "duration":
            if a is None or b is None:
                return ("—", 0) if a == b else ("differs", 0)
            d = b - a
            if abs(d) < 0.5:
                return "same", 0
            sign = "+" if d > 0 else "−"
            good = 0 if fig.better == 0 else (1 if d * fig.better > 0 else -1)
            return f"{sign}{format_duration(abs(d))}", good
        if fig.kind == "verdict":
            if a == b:
                return "same", 0
            ra, rb = _VERDICT_RANK.get(a, 0), _VERDICT_RANK.get(b, 0)
            return f"{VERDICT_WORDS[a]} → {VERDICT_WORDS[b]}", (1 if rb < ra else -1)
        if fig.kind == "probability":
            if a is None or b is None:
                return "—", 0
            d = b - a
            if abs(d) < 0.0005:
                return "same", 0
            return f"{'+' if d > 0 else '−'}{abs(d) * 100:.1f} points", (1 if d > 0 else -1)
        if fig.kind == "date":
            if a == b:
                return "same", 0
            if a is None:
                return "B breaks", -1
            if b is None:
                return "B holds", 1
            days = (b - a).days
            return f"{'+' if days > 0 else '−'}{abs(days)} days", (1 if days > 0 else -1)
        return ("same", 0) if a == b else ("differs", 0)

    # ---------------------------------------------------------------- Qt model API

    def header(self, section: int) -> str | None:
        if section in (COL_A, COL_B):
            return f"{self.HEADERS[section]}: {self.labels[section - COL_A]}"
        return super().header(section)

    def header_tip(self, section: int) -> str | None:
        return self.labels[section - COL_A] if section in (COL_A, COL_B) else None

    def cell(self, fig: Figure, row: int, col: int, role: int) -> Any:
        if self.plans is None:  # no rows without plans
            return None
        if role == FigureRole:
            return fig.key
        if col == COL_FIGURE:
            if role == Qt.ItemDataRole.DisplayRole:
                return fig.title
            if role == Qt.ItemDataRole.ToolTipRole:
                return fig.tip or None
            return None
        if col in (COL_A, COL_B):
            plan = self.plans[col - COL_A]
            value = self._value(fig, col)
            if role == Qt.ItemDataRole.DisplayRole:
                return self._format(fig, value, plan)
            if role == ValueRole:
                return value
            if role == Qt.ItemDataRole.ForegroundRole and fig.kind == "verdict":
                return QBrush(QColor(VERDICT_COLORS.get(value, "#808080")))
            if role == Qt.ItemDataRole.FontRole and fig.kind == "verdict":
                return bold_font()
            if role == Qt.ItemDataRole.ToolTipRole and fig.kind == "date" and plan.growth:
                return plan.growth.reason or None
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return RIGHT_ALIGNED
            return None
        if col == COL_DIFF:
            text, good = self._difference(fig)
            if role == Qt.ItemDataRole.DisplayRole:
                return text
            if role == Qt.ItemDataRole.ForegroundRole and good:
                return QBrush(QColor(VERDICT_COLORS["meets" if good > 0 else "misses"]))
            if role == Qt.ItemDataRole.ToolTipRole and good:
                return "B is better" if good > 0 else "B is worse"
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return RIGHT_ALIGNED
        return None
