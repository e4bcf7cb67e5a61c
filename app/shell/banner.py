"""The verdict above the result views, and the status bar's verdict, units and busy note."""

from __future__ import annotations

import html

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QLabel, QStatusBar

from rtoplanner.core.decisive import banner_tooltip, decisive_assumptions
from rtoplanner.core.engine.verdict import decided_by_words, phase_sentence
from rtoplanner.core.headline import Headline, headline_of, sure_percent
from rtoplanner.core.plan import Plan
from rtoplanner.core.units import format_duration
from rtoplanner.core.wording import for_reader

from ..editor.fields import error_words, key_words
from ..theme import VERDICT_COLORS, VERDICT_WORDS

BUSY_AFTER_MS = 300
"""The full plan usually takes ~15 ms: say "computing" only when it lasts (STYLE §5), or
the status bar would flicker with every keystroke."""


TYPING_COLOR = "#808080"
ASSUMPTIONS_LINK = "#assumptions"


class VerdictBanner(QLabel):
    """The answer first: verdict, worst-case recovery, RTO and margin, in colour."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("verdict_banner")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setMargin(8)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.setFont(font)
        self.verdict = ""
        self.errors: dict[str, str] = {}
        self.plan: Plan | None = None
        self.typing = False
        self.odds: Headline | None = None
        """The headline with its probability (`HeadlineOdds`); pending until it lands."""
        # The "read them" link takes the keyboard too (Tab, then Enter): the decisive
        # assumptions are not only in a hover tooltip (issue 23.10).
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    def set_typing(self, typing: bool) -> None:
        """While a number is being typed the plan is of the value so far ("1" of "16"):
        its verdict is shown without its colour until the field is left."""
        if typing != self.typing:
            self.typing = typing
            self.show_plan(self.plan, self.errors)

    def show_plan(self, plan: Plan | None, errors: dict[str, str]) -> None:
        self.plan = plan
        self.errors = errors
        parts = []
        if plan is not None:
            odds = _odds_for(plan, self.odds)
            parts += self._plan_lines(plan, odds, self.typing)
            self.verdict = odds.verdict
            bg = TYPING_COLOR if self.typing else VERDICT_COLORS[odds.verdict]
            tip = for_reader(banner_tooltip(plan))
            self.setToolTip(f"{odds.why()}\n\n{tip}" if tip else odds.why())
        else:
            self.verdict = ""
            bg = VERDICT_COLORS["at_risk"]
        if errors:
            parts.append(self._error_line(errors, plan is not None))
        self.setText("<br>".join(parts) or "No plan yet")
        self.setStyleSheet(
            f"#verdict_banner {{ border-left: 6px solid {bg}; background: palette(base); }}"
        )

    @staticmethod
    def _error_line(errors: dict[str, str], has_plan: bool) -> str:
        n = len(errors)
        first_key, first = next(iter(errors.items()))
        # The field as the form names it, and any key in the reason too (issue 23.6).
        where = f"{key_words(first_key)}: " if first_key else ""
        first = error_words(first)
        if len(first) > 90:  # the field itself shows the whole reason
            first = first[:88].rstrip() + "…"
        return (
            f"<span style='color:{VERDICT_COLORS['misses']}'>⚠ {n} input error"
            f"{'s' if n > 1 else ''} ({where}{first})"
            + (" — showing the last valid plan" if has_plan else "")
            + "</span>"
        )

    @staticmethod
    def _plan_lines(plan: Plan, odds: Headline, typing: bool = False) -> list[str]:
        """The headline verdict with its probability and what decides it, then the
        recovery and its phase."""
        rec = plan.recovery
        check = plan.deciding
        so_far = " <i>(as typed so far)</i>" if typing else ""
        if odds.probability_decides:
            # The odds decide: name the target least often met, then the plan's own words.
            lines = [
                f"{headline_html(odds, typing)}{so_far} — "
                f"{sure_percent(odds.confidence)} required; least sure: "
                f"<b>{html.escape(decided_by_words(odds.weakest))}</b> "
                f"({sure_percent(odds.weakest_p)}) <span style='color:gray'>· at the planned "
                f"figures {VERDICT_WORDS[odds.planned]}, decided by "
                f"{html.escape(check.sentence())}</span>"
            ]
        else:
            lines = [
                f"{headline_html(odds, typing)}{so_far} — decided by "
                f"<b>{html.escape(check.sentence())}</b>"
            ]
        word = "margin" if rec.margin_s >= 0 else "over by"
        rec_color = TYPING_COLOR if typing else VERDICT_COLORS[rec.verdict]
        lines.append(
            f"Recovery <b style='color:{rec_color}'>{VERDICT_WORDS[rec.verdict].lower()}</b> "
            f"the RTO of <b>{format_duration(rec.rto_s)}</b> — worst case "
            f"<b>{format_duration(rec.total_s)}</b>, {word} "
            f"<b>{format_duration(abs(rec.margin_s))}</b>; "
            f"{html.escape(phase_sentence(rec))}"
        )
        said = []
        if n := len(decisive_assumptions(plan)):
            said.append(f"{n} default{'s' if n > 1 else ''} that decide{'' if n > 1 else 's'}")
        if n := len(plan.notes):
            said.append(f"{n} note{'s' if n > 1 else ''}")
        if said:
            said_text = " and ".join(said)
            lines[0] += (
                f" <span style='color:gray'>· {said_text} "
                f"(<a href='{ASSUMPTIONS_LINK}'>read them</a>, Ctrl+Shift+I)</span>"
            )
        return lines


def _odds_for(plan: Plan, odds: Headline | None) -> Headline:
    """`odds` when it is this plan's, else the plan's headline with its probability
    pending."""
    if odds is not None and odds.deciding == plan.deciding and odds.planned == plan.verdict:
        return odds
    return headline_of(plan, None)


def headline_html(odds: Headline, typing: bool = False) -> str:
    """'<b>MEETS</b> — 93 % sure', or the verdict with the probability visibly pending
    (uncoloured while a number is being typed)."""
    color = TYPING_COLOR if typing else VERDICT_COLORS[odds.verdict]
    words = f"<b style='color:{color}'>{VERDICT_WORDS[odds.verdict]}</b>"
    if odds.pending:
        return f"{words} <span style='color:gray'><i>— probability pending…</i></span>"
    return f"{words} — <b style='color:{color}'>{html.escape(odds.sure())}</b>"


class StatusParts(QObject):
    """The status bar's permanent parts: "computing…" when it lasts, the units, the
    verdict."""

    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.busy_label = QLabel("")
        self._busy_timer = QTimer(self)
        self._busy_timer.setSingleShot(True)
        self._busy_timer.setInterval(BUSY_AFTER_MS)
        self._busy_timer.timeout.connect(self._show_busy)
        self.units_label = QLabel()
        self.verdict_label = QLabel()
        self.verdict_label.setObjectName("status_verdict")
        self.verdict_label.setTextFormat(Qt.TextFormat.RichText)
        for label in (self.busy_label, self.units_label, self.verdict_label):
            bar.addPermanentWidget(label)
        self.odds: Headline | None = None
        """The headline with its probability (set by the window as it lands)."""

    def set_busy(self, busy: bool) -> None:
        if busy:
            self._busy_timer.start()
        else:
            self._busy_timer.stop()
            self.busy_label.setText("")

    def _show_busy(self) -> None:
        self.busy_label.setText("computing cycle and growth…")

    def set_units(self, binary: bool) -> None:
        self.units_label.setText("binary units (TiB)" if binary else "decimal units (TB)")
        self.units_label.setToolTip(
            "Results use TiB = 2^40 bytes" if binary else "Results use TB = 10^12 bytes"
        )

    def set_verdict(self, plan: Plan | None, stale: bool, typing: bool = False) -> None:
        """The deciding verdict and the recovery against its RTO ("last valid plan" when
        the inputs have errors; uncoloured while a number is being typed)."""
        if plan is None:
            self.verdict_label.setText("no plan")
            return
        rec = plan.recovery
        odds = _odds_for(plan, self.odds)
        by = odds.decided_by
        decided = "" if by == "recovery" else f" ({decided_by_words(by)})"
        self.verdict_label.setText(
            f"{headline_html(odds, typing)}{decided} · recovery "
            f"{format_duration(rec.total_s)} of {format_duration(rec.rto_s)}"
            + (" (last valid plan)" if stale else "")
        )
        self.verdict_label.setToolTip(f"{odds.why()}\n\n{for_reader(banner_tooltip(plan))}".strip())
