"""Words shared by every output (terminal, GUI, PDF), so a verdict reads the same way."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .units import format_duration

VERDICT_WORDS = {"meets": "MEETS", "at_risk": "AT RISK", "misses": "MISSES", "unknown": "—"}

_PSEUDO_BOTTLENECKS = {
    "fixed": "fixed time",
    "—": "",
    "redo_apply_rate": "redo apply rate",
    "incremental_apply_rate": "incremental apply rate",
    "largest_file": "largest file on one channel",
    "channels": "RMAN channel count",
    "job_overhead": "fixed time per job",
    "channel_startup": "serial channel start-up",
    "ramp_down": "ramp-down (the last channels run alone)",
    "redo_log_cost": "apply cost per archived log",
}


_RTO_VERBS = {"meets": "meets", "at_risk": "is at risk against", "misses": "misses"}


def recovery_clause(recovery_s: float, recovery_verdict: str) -> str:
    """'worst-case recovery 5 h 02 min, which meets the RTO': the recovery with its own
    verdict, so a headline decided by the RPO never lends it its MISSES (issue 23.6)."""
    from .units import format_duration

    verb = _RTO_VERBS.get(recovery_verdict, recovery_verdict.replace("_", " "))
    return f"worst-case recovery {format_duration(recovery_s)}, which {verb} the RTO"


def bottleneck_words(name: str) -> str:
    """A stage label as it is, a pseudo-bottleneck in words (the terminal, the GUI and
    the PDF print these; JSON keeps the raw label)."""
    return _PSEUDO_BOTTLENECKS.get(name, name)


STAGE_KIND_WORDS = {
    "tape_drive": "tape drive",
    "disk": "backup disk",
    "nas_head": "NAS / ZFS head",
    "media_server": "media server",
    "network": "network link",
    "channel": "RMAN channel",
    "cpu": "database CPU",
    "storage_write": "datafile storage (write)",
    "measured": "measured rate",
    "backup_appliance": "backup appliance",
    "object_storage": "object storage (per channel)",
}
"""A stage kind as a DBA says it (the file keeps `nas_head`; screens and pages say this)."""


CHOICE_WORDS = {
    "with_size": "grows with the database",
    "constant": "stays as measured",
    "level1_every": "a level 1 interval",
}
"""A choice of the format as a DBA reads it (the file keeps `with_size`)."""


def choice_words(value: str) -> str:
    """`with_size` → "grows with the database"; a stage kind in words; else the value."""
    return CHOICE_WORDS.get(value) or STAGE_KIND_WORDS.get(value) or value


def stage_kind_words(kind: str) -> str:
    """`nas_head` → "NAS / ZFS head"; an unknown kind reads as its words."""
    return STAGE_KIND_WORDS.get(kind, kind.replace("_", " "))


def stage_kind_short(kind: str) -> str:
    """A stage kind for a table's Kind column: its words without the bracket
    ("object storage", "datafile storage"); the cell's tooltip has them all."""
    return stage_kind_words(kind).split(" (", 1)[0]


def describe_cycle_time(since_level0_s: float, period_s: float, level0_s: float = 0.0) -> str:
    """'just before the next level 0', 'just before the next level 0 finishes' (a backup
    is usable only when it has finished) or 'on day 2 at 05:00 after the level 0'."""
    if level0_s > 0 and 0 <= level0_s - since_level0_s < 1.0:
        return "just before the next level 0 finishes"
    if period_s - since_level0_s < 1.0:
        return "just before the next level 0"
    d, rem = divmod(since_level0_s, 86400)
    clock = f"{int(rem // 3600):02d}:{int(rem % 3600 // 60):02d}"
    return f"on day {int(d) + 1} at {clock} after the level 0"


def today_words(
    recovery_s: float,
    recovery_verdict: str,
    rto_s: float,
    verdict: str,
    decided_by: str,
    rpo_s: float | None = None,
    rpo_target_s: float | None = None,
) -> str:
    """'Today the worst-case recovery takes 5 h 02 min against the RTO of 6 h 00 min
    (MEETS); the plan as a whole MISSES on its RPO (…)': a recovery time carries the
    recovery's verdict, and the plan's own verdict is named with what decides it."""
    out = (
        f"Today the worst-case recovery takes {format_duration(recovery_s)} against the "
        f"RTO of {format_duration(rto_s)} ({VERDICT_WORDS[recovery_verdict]})"
    )
    if verdict == recovery_verdict:
        return out + "."
    if decided_by == "rpo" and rpo_s is not None and rpo_target_s is not None:
        why = (
            f"on its RPO (worst-case data loss {format_duration(rpo_s)} against "
            f"{format_duration(rpo_target_s)})"
        )
    elif decided_by == "failover":
        why = "on the failover route"
    elif decided_by.startswith("backup."):
        why = "on a backup that overruns its window"
    else:
        why = "on another target"
    return f"{out}; the plan as a whole {VERDICT_WORDS[verdict]} {why}."


def growth_assumptions(redo_growth: str) -> str:
    """What a growth outlook scales and what it holds, as the engine does it
    (core/engine/growth.py: the level 1s and, with `with_size`, the redo grow with the
    database; the largest file never does)."""
    if redo_growth == "constant":
        return (
            "The incremental backups grow with the database; redo generation stays as "
            "measured (it is set not to grow) and the largest file is held constant."
        )
    return (
        "The incremental backups and redo generation grow in proportion to the database; "
        "the largest file is held constant."
    )


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """'1 channel', '3 channels', '0 backups' (`nouns` when the plural is not noun + s)."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


NAMES_SHOWN = 8
"""Database names a sentence lists before "and N more" (a table lists them all)."""


def name_list(names: Sequence[str], shown: int = NAMES_SHOWN) -> str:
    """'a, b and c', or the first `shown` and 'and N more' (an estate of 1,000 databases
    can have hundreds missing alone: a sentence naming them all is a wall of text)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    if len(names) <= shown:
        return ", ".join(names[:-1]) + " and " + names[-1]
    return f"{', '.join(names[:shown])} and {len(names) - shown:,} more"


# -------------------------------------------------------------- how the plan has fared
# A drill's error over the phases it timed ((actual − plan) ÷ plan, as recorded with it);
# the sentence the drills list, the Evidence window and the PDF say (issue 21).


def _signed_pct(x: float) -> str:
    return f"{'−' if x < 0 else '+'}{abs(x) * 100:.0f} %"


def fared(comparisons: Sequence[dict[str, Any]], n: int = 3) -> str | None:
    """The sentence for the last `n` comparisons (oldest first), None without one."""
    errors = [c["error"] for c in comparisons if c.get("error") is not None][-n:]
    if not errors:
        return None
    if len(errors) == 1:
        return f"last drill: {_signed_pct(errors[0])} against the plan"
    low, high = _signed_pct(min(errors)), _signed_pct(max(errors))
    return f"last {len(errors)} drills: within {low}..{high} of the plan"


# -------------------------------------------------------------- words for a reader
# The engine's notes name file keys and the command line, which a DBA at the terminal
# needs; the GUI and the customer's PDF show the same sentences through `for_reader`.

_KEY = re.compile(r"\b(database|backup|recovery|targets)\.([a-z][a-z0-9_]*)\b")
_PRICE_CLI = (
    (re.compile(r"give your quote with `rto-planner catalog price[^`]*`(?: or in the catalog "
                r"browser)?"), "give your quote in the hardware catalog (its Price column)"),
    (re.compile(r"\(rto-planner catalog price [^)]*\)"),
     "(the hardware catalog's Price column)"),
    # A prior's source names the script that fitted it: the reader gets what it is.
    (re.compile(r"the fidelity corpus \(bench/fidelity\.py[^)]*\)"),
     "RTO Planner's corpus of published restore and recovery cases"),
    (re.compile(r" \(bench/[\w./-]+(?: --?[\w-]+)*\)"), ""),
)  # fmt: skip


def for_reader(text: str) -> str:
    """A sentence for the GUI or the PDF: a file key (`backup.compression`) as the form
    calls it (“RMAN compression level”), and no command-line instruction (issue 23.6)."""
    from .scenario import label_for_key  # the field table; scenario never imports this

    for pattern, words in _PRICE_CLI:
        text = pattern.sub(words, text)
    return _KEY.sub(lambda m: f"“{label_for_key(m.group(0))}”", text)
