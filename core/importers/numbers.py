"""Numbers, durations and dates as AWR and Statspack print them.

Oracle prints thousands separators (`1,399,224.8`), drops leading zeros (`.9`), switches to
E-notation when a column overflows (`3.32929172E+09`, `1.E+03`), or gives up with `####`.
Snapshot times follow the session's NLS settings, so month names may be German, French,
Japanese (`2月`) and so on. Everything here returns None for "no value" rather than raising:
the caller decides whether a missing figure is fatal.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime

NUMBER_RE = re.compile(r"[+-]?(?:\d[\d,]*\.?\d*|\.\d+)(?:[Ee][+-]?\d+)?")
_OVERFLOW_RE = re.compile(r"#+")
_FULL_NUMBER_RE = re.compile(rf"^(?:{NUMBER_RE.pattern})$")
_SUFFIX_RE = re.compile(rf"^({NUMBER_RE.pattern})\s*([KMGT])$")
_SUFFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def is_number_token(token: str) -> bool:
    """True for a token that is a printed number or an overflow mark (`####`)."""
    return bool(_FULL_NUMBER_RE.match(token) or _OVERFLOW_RE.fullmatch(token))


def parse_number(text: str | None) -> float | None:
    """`1,399,224.8` → 1399224.8; blank, `&nbsp;`, `####` or junk → None.

    A trailing K/M/G/T (decimal, as AWR prints outside Cache Sizes) is accepted because the
    12.2+ wait tables use it; Load Profile figures never carry one.
    """
    if text is None:
        return None
    s = text.strip().replace("\xa0", "")
    if not s or s.startswith("#"):
        return None
    if _FULL_NUMBER_RE.match(s):
        try:
            return float(s.replace(",", ""))
        except ValueError:  # "1,2,,": commas the regex let through but float refuses
            return None
    m = _SUFFIX_RE.match(s)
    if m:
        try:
            return float(m.group(1).replace(",", "")) * _SUFFIX[m.group(2)]
        except ValueError:
            return None
    return None


def split_numeric_tail(line: str) -> tuple[str, list[str]]:
    """Split `redo size   1,723,792   477.1  59,441.1` into the label and the number tokens.

    Statistic names contain spaces and sometimes digits, so the label is everything before
    the longest run of numeric tokens at the end of the line.
    """
    tokens = line.split()
    i = len(tokens)
    while i > 0 and is_number_token(tokens[i - 1]):
        i -= 1
    return " ".join(tokens[:i]), tokens[i:]


_MINUTES_RE = re.compile(rf"({NUMBER_RE.pattern})\s*\(mins?\)", re.IGNORECASE)


def parse_minutes(text: str | None) -> float | None:
    """`4,319.92 (mins)` → 4319.92 (minutes, as printed)."""
    if not text:
        return None
    m = _MINUTES_RE.search(text)
    if m:
        return parse_number(m.group(1))
    return parse_number(text)


# Month abbreviations by NLS_DATE_LANGUAGE, lower case, without accents or dots. Only
# the languages a DBA is likely to meet; numeric months (`2月`, `02`) work in any language.
_MONTHS: dict[str, int] = {}
for _i, _names in enumerate(
    (
        "jan janv januar janvier enero ene gen gennaio januari jänner jaen janeiro sty led янв",
        "feb febr februar fevr fevrier febrero febbraio februari fev fevereiro lut uno фев",
        "mar mär maer marz mrz mars marzo maart mrt marco bre мар",
        "apr april avr avril abr abril aprile kwi dub апр",
        "may mai mei mayo mag maggio maj kve мая май",
        "jun juni juin junio giu giugno jun junho cze cvn июн",
        "jul juli juil juillet julio lug luglio julho lip cvc июл",
        "aug august aout ago agosto sie srp авг",
        "sep sept september septembre septiembre set settembre setembro wrz zar сен",
        "oct okt oktober octobre octubre ott ottobre out outubro paz rij окт",
        "nov november novembre noviembre novembro lis list ноя",
        "dec dez dezember decembre diciembre dic dicembre december dezembro gru pro дек",
    ),
    start=1,
):
    for _n in _names.split():
        _MONTHS.setdefault(_n, _i)


def _fold(text: str) -> str:
    """Lower case, accents removed: `Mär.` → `mar`, `févr.` → `fevr`."""
    decomposed = unicodedata.normalize("NFKD", text.strip().rstrip(".").lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def month_number(name: str) -> int | None:
    """Month number from an abbreviation in a common NLS language, or a numeric month."""
    s = name.strip().rstrip(".")
    # `2月` (Japanese/Chinese), `2월` (Korean), `02`; also `2` followed by a CJK month sign
    # that was decoded with the wrong code page: digits and no ASCII letter after them.
    digits = re.match(r"^(\d{1,2})\s*(?:月|월|[^\x00-\x7f]*)$", s)
    if digits:
        n = int(digits.group(1))
        return n if 1 <= n <= 12 else None
    folded = _fold(s)
    if folded in _MONTHS:
        return _MONTHS[folded]
    if len(folded) >= 3 and folded[:3] in _MONTHS:
        return _MONTHS[folded[:3]]
    return None


DATETIME_RE = re.compile(
    r"(?P<d>\d{1,2})\s*[-./ ]\s*(?P<mon>[^\s\-./\d][^\s\-./]*?|\d{1,2}\s*(?:月|월)?)\s*[-./ ]+\s*"
    r"(?P<y>\d{4}|\d{2})\s+(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?"
)
_ISO_RE = re.compile(
    r"(?P<y>\d{4})-(?P<mon>\d{1,2})-(?P<d>\d{1,2})[ T](?P<H>\d{1,2}):(?P<M>\d{2})"
    r"(?::(?P<S>\d{2})(?:[.,]\d+)?)?"
)


def parse_oracle_datetime(text: str | None) -> datetime | None:
    """`23-Apr-14 18:30:05`, `16-2月 -13 05:00:50`, `10-Jul-14 03:10` → naive datetime.

    AWR prints no time zone, so the result is naive and means the database host's local
    time. Two-digit years are taken as 19xx from 70 on (Oracle's RR format), else 20xx.
    """
    if not text:
        return None
    m = None if _ISO_RE.match(text.strip()) else DATETIME_RE.search(text)
    if m:
        mon = month_number(m.group("mon"))
        year = int(m.group("y"))
        if year < 100:
            year += 1900 if year >= 70 else 2000
    else:
        m = _ISO_RE.search(text)
        if not m:
            return None
        mon = int(m.group("mon"))
        year = int(m.group("y"))
    if mon is None:
        return None
    try:
        return datetime(
            year, mon, int(m.group("d")), int(m.group("H")), int(m.group("M")),
            int(m.group("S") or 0),
        )  # fmt: skip
    except ValueError:
        return None
