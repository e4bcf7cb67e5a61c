"""The program's idea of "today", overridable for reproducible output.

Plans project growth from an "as of" date and reports print a date; both honour
SOURCE_DATE_EPOCH (the reproducible-builds convention) so that the same inputs give the
same output, byte for byte.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime


def source_date_epoch() -> datetime | None:
    """SOURCE_DATE_EPOCH as an aware UTC datetime, or None when unset or not a number."""
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not text:
        return None
    try:
        return datetime.fromtimestamp(int(text), tz=UTC)
    except (ValueError, OverflowError, OSError):
        return None


def today() -> date:
    """SOURCE_DATE_EPOCH's date (UTC) when set, else the local date."""
    epoch = source_date_epoch()
    return epoch.date() if epoch else date.today()
