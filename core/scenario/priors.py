"""Priors: how far a catalog figure or a class default lands from reality (DESIGN §10).

A *prior* is the distribution of `achieved ÷ planned` for one kind of figure — an LTO
drive's streaming rate against its datasheet rate × derate, a workload class's redo apply
rate against the class figure, a tape load time against IBM's average. It is a
**lognormal factor**: the figure a trial uses is `value × median × exp(sigma × z)`, z a
standard normal draw. Priors live with their evidence, in `data/catalog/*.toml`:

```toml
[[prior]]
kind = "tape_drive"        # a catalog kind; "*" for any stage kind without its own
figure = "rate"            # rate, hw_compression, ratio, load_time, compress_rate, …
item = "LTO-9"             # optional: one catalog item only (else every item of the kind)
fit = "how the numbers below were fitted"
# either published points (each achieved ÷ planned, with its source) …
points = [
  { ratio = 0.89, source = "title, date, where in the source: the figures" },
  { ratio = 1.11, source = "…" },
]
# … or the fitted percentiles of the factor, with one source line that cites them:
# p10 = 0.6
# p90 = 1.3
# source = "…"
```

Points are fitted by `fit_points`: the log-mean gives the median factor, and the spread
is the 80 % *prediction* interval of a new case (Student's t with n − 1 degrees of
freedom and the factor √(1 + 1/n)), so three points give a much wider band than thirty
(thin evidence is wide by construction). Every prior is at least ±10 % wide
(`MIN_SIGMA`): no catalog figure is surer than a measurement of one's own. A catalog
item whose source or notes mark it unverified (⚠) gets twice its kind's spread
(`UNVERIFIED_WIDEN`).

`method = "random_effects"` fits the points by `fit_random_effects` instead: for a
figure measured on the case it predicted, each point also carries `other_sigma` (the
log-sd the case's other ranges already give its outcome) and `weight` (how strongly the
measured figures set the outcome); sigma is the maximum-likelihood spread left to the
measured figure, centred on it (the catalog's `measured` prior; bench/fidelity.py
--measured-points).

A user catalog item (kept in the store) may carry its own prior as `prior_p10`,
`prior_p90` and `prior_source` (item extras), which win over the shipped ones.

This module is numpy-free: the loader and the GUI read priors; `sampling` draws them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalog import (
    Catalog,
    CatalogError,
    CatalogItem,
    _norm,
    read_catalog_toml,
    shipped_catalog_files,
)
from ..toml_read import TOMLDecodeError
from ..units import format_percent

Z90 = 1.2815515655446004
"""The standard normal's 90th percentile: P10..P90 is median × exp(∓Z90 × sigma)."""

MIN_SIGMA = math.log(1.10) / Z90
"""The narrowest prior: P10..P90 of about ±10 %."""
WIDE_AS_FACTORS = (0.1, 5.0)
"""A prior whose P10 is below 0.1× or whose P90 is above 5× (a change beyond −90 % or
+400 %) is written as factors, not per cent."""

UNVERIFIED_WIDEN = 2.0
"""An unverified catalog figure (⚠ in its source or notes) gets this times the spread."""

_T90 = (3.078, 1.886, 1.638, 1.533, 1.476, 1.440, 1.415, 1.397, 1.383, 1.372, 1.363,
        1.356, 1.350, 1.345, 1.341, 1.337, 1.333, 1.330, 1.328, 1.325, 1.323, 1.321,
        1.319, 1.318, 1.316, 1.315, 1.314, 1.313, 1.311, 1.310)  # fmt: skip
"""Student's t 90th percentile for 1..30 degrees of freedom (any statistics table)."""

ANY_KIND = "*"


@dataclass(frozen=True)
class Prior:
    """A lognormal factor on a planned figure: `median` (the factor's median) and
    `sigma` (the log-sd), with where it comes from."""

    kind: str
    figure: str
    median: float
    sigma: float
    source: str
    """The evidence: titles, dates and where in each source."""
    fit: str = ""
    """How the numbers were fitted from the evidence."""
    item: str | None = None
    points: int = 0
    """How many published points it was fitted on (0: given as percentiles)."""

    def factor(self, p_z: float) -> float:
        """The factor at standard normal quantile `p_z` (−Z90: its P10)."""
        return self.median * math.exp(self.sigma * p_z)

    @property
    def p10(self) -> float:
        return self.factor(-Z90)

    @property
    def p90(self) -> float:
        return self.factor(Z90)

    @property
    def thin(self) -> bool:
        """Fitted on fewer than five published points, or on none."""
        return self.points < 5

    def widened(self, by: float) -> Prior:
        return Prior(self.kind, self.figure, self.median, self.sigma * by, self.source,
                     self.fit, self.item, self.points)  # fmt: skip

    @property
    def text(self) -> str:
        """`−25 %..+21 % (P10..P90)`: the factor's P10 and P90 as changes of the value;
        as factors when that would read in the hundreds or thousands of per cent
        (`×0.059..×17 (P10..P90)`, not `-94 %..+1559 %`: a thin prior's width)."""
        if self.p10 < WIDE_AS_FACTORS[0] or self.p90 > WIDE_AS_FACTORS[1]:
            return f"×{self.p10:.2g}..×{self.p90:.2g} (P10..P90)"
        return f"{signed_percent(self.p10 - 1)}..{signed_percent(self.p90 - 1)} (P10..P90)"

    @property
    def evidence_words(self) -> str:
        """How much evidence stands behind it, for the ledger and the ranges table."""
        if self.points:
            n = f"{self.points} published point{'s' if self.points != 1 else ''}"
            return n + (" (thin evidence: wide by construction)" if self.thin else "")
        return "published percentiles"


def signed_percent(x: float) -> str:
    """`-25 %`, `+21 %`, `+0 %`: a change as a signed whole or one-decimal percentage,
    written by the house's `format_percent`."""
    pct = 100 * x
    return format_percent(x, 0 if abs(pct) >= 10 or pct == round(pct) else 1, signed=True)


# ------------------------------------------------------------------------ fitting


def t90(df: int) -> float:
    """Student's t 90th percentile with `df` degrees of freedom (df ≥ 1)."""
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df <= len(_T90):
        return _T90[df - 1]
    return Z90 + (Z90**3 + Z90) / (4 * df)  # the first Cornish-Fisher term: 1.3098 at 30


def fit_points(ratios: Sequence[float]) -> tuple[float, float]:
    """(median, sigma) of a lognormal factor from published `achieved ÷ planned` ratios:
    the log-mean, and the log-sd scaled so that P10..P90 is the 80 % prediction
    interval of one more case (t with n − 1 df, × √(1 + 1/n)); at least `MIN_SIGMA`.
    Needs two ratios or more, all above zero."""
    if len(ratios) < 2:
        raise ValueError("a prior needs at least two published points")
    if any(not (r > 0 and math.isfinite(r)) for r in ratios):
        raise ValueError("every point's ratio must be a finite number above zero")
    logs = [math.log(r) for r in ratios]
    n = len(logs)
    mean = sum(logs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (n - 1))
    sigma = sd * math.sqrt(1 + 1 / n) * t90(n - 1) / Z90
    return math.exp(mean), max(sigma, MIN_SIGMA)


MAD_TO_SIGMA = 1.4826
"""A normal's standard deviation per unit of median absolute deviation."""


def fit_spread(ratios: Sequence[float]) -> tuple[float, float]:
    """(1, sigma) of a lognormal factor centred on the figure, from `achieved ÷ planned`
    ratios of figures that are neither catalog nor measured (typed estimates): sigma is
    the median |ln ratio| × 1.4826, the robust scale of how far such figures land from
    the outcome — a few gross guesses (a VM's disk typed at 100 MB/s that ran at
    16 MB/s) do not widen every estimate's band; at least `MIN_SIGMA`. The median stays
    1: an estimate is a rate, a size or a time alike, equally likely high as low."""
    if len(ratios) < 2:
        raise ValueError("a spread needs at least two published points")
    if any(not (r > 0 and math.isfinite(r)) for r in ratios):
        raise ValueError("every point's ratio must be a finite number above zero")
    import statistics  # here: `statistics` pulls in fractions and decimal at start-up

    scale = statistics.median(abs(math.log(r)) for r in ratios) * MAD_TO_SIGMA
    return 1.0, max(scale, MIN_SIGMA)


@dataclass(frozen=True)
class Point:
    """One published outcome a measured figure predicted: `ratio` (achieved ÷ planned),
    `other_sigma` (the log-sd the case's *other* figures' own ranges already give the
    outcome) and `weight` (how strongly the measured figures move the outcome: the root
    sum of squares of their elasticities, 1 for a rate that alone sets the time)."""

    ratio: float
    other_sigma: float = 0.0
    weight: float = 1.0


def fit_random_effects(points: Sequence[Point]) -> tuple[float, float]:
    """(1, sigma) of a lognormal factor on a measured figure, from outcomes it predicted:
    each point's log ratio is taken as `weight × e + o`, e ~ N(0, sigma²) the measured
    figure's own error and o ~ N(0, other_sigma²) what the case's other ranges already
    draw, and sigma is the maximum-likelihood value (golden-section on the profile
    likelihood). So a case band is not counted twice — the spread its other figures
    already carry is taken out — and a point whose measured figure does not set its
    outcome (weight near 0) says nothing about it. Centred on the figure (median 1): a
    measured rate, time or size is as likely high as low. At least `MIN_SIGMA`."""
    pts = [p for p in points if p.weight > 0]
    if len(pts) < 2:
        raise ValueError("a spread needs at least two published points that the figure sets")
    if any(not (p.ratio > 0 and math.isfinite(p.ratio)) for p in pts):
        raise ValueError("every point's ratio must be a finite number above zero")

    def loglik(log_sigma: float) -> float:
        var = math.exp(2 * log_sigma)
        total = 0.0
        for p in pts:
            v = p.weight**2 * var + p.other_sigma**2
            total -= 0.5 * (math.log(v) + math.log(p.ratio) ** 2 / v)
        return total

    lo, hi = math.log(1e-3), math.log(3.0)
    golden = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, b = hi - golden * (hi - lo), lo + golden * (hi - lo)
        if loglik(a) < loglik(b):
            lo = a
        else:
            hi = b
    return 1.0, max(math.exp((lo + hi) / 2), MIN_SIGMA)


def from_percentiles(p10: float, p90: float) -> tuple[float, float]:
    """(median, sigma) of the lognormal with these P10 and P90 factors; at least
    `MIN_SIGMA` wide."""
    if not (0 < p10 < p90 and math.isfinite(p90)):
        raise ValueError(f"p10 {p10!r} and p90 {p90!r}: need 0 < p10 < p90")
    sigma = math.log(p90 / p10) / (2 * Z90)
    return math.sqrt(p10 * p90), max(sigma, MIN_SIGMA)


# ------------------------------------------------------------------------ reading


def _number(raw: Mapping[str, Any], key: str, where: str) -> float:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CatalogError(f"{where}: '{key}' must be a number, not {value!r}")
    return float(value)


def _text(raw: Mapping[str, Any], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(f"{where}: '{key}' must be text", hint="cite title, date and where")
    return value.strip()


def _points(raw: Mapping[str, Any], where: str) -> tuple[list[Point], list[str]]:
    points = raw["points"]
    if not isinstance(points, list) or not all(isinstance(p, dict) for p in points):
        raise CatalogError(f"{where}: 'points' must be a list of {{ ratio, source }} tables")
    out = [_point(p, f"{where} point {i + 1}") for i, p in enumerate(points)]
    sources = [_text(p, "source", f"{where} point {i + 1}") for i, p in enumerate(points)]
    return out, sources


def _point(raw: Mapping[str, Any], where: str) -> Point:
    unknown = set(raw) - {"ratio", "source", "other_sigma", "weight"}
    if unknown:
        raise CatalogError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    ratio = _number(raw, "ratio", where)
    other = _number(raw, "other_sigma", where) if "other_sigma" in raw else 0.0
    weight = _number(raw, "weight", where) if "weight" in raw else 1.0
    if other < 0 or weight < 0:
        raise CatalogError(f"{where}: 'other_sigma' and 'weight' cannot be negative")
    return Point(ratio, other, weight)


FITS = {"prediction": "fit_points", "random_effects": "fit_random_effects"}
"""A `[[prior]]`'s `method` for its points (default "prediction")."""


def _fit(method: str, points: list[Point], where: str) -> tuple[float, float]:
    if method == "random_effects":
        return fit_random_effects(points)
    if method == "prediction":
        return fit_points([p.ratio for p in points])
    raise CatalogError(f"{where}: method {method!r} is not one of {', '.join(FITS)}")


def prior_from_mapping(raw: Mapping[str, Any], *, where: str) -> Prior:
    """A `[[prior]]` table (see the module docstring); CatalogError naming `where`."""
    kind, figure = _text(raw, "kind", where), _text(raw, "figure", where)
    item = raw.get("item")
    if item is not None and not isinstance(item, str):
        raise CatalogError(f"{where}: 'item' must be a catalog item's name")
    keys = {"kind", "figure", "item", "fit", "method", "points", "p10", "p90", "source"}
    unknown = set(raw) - keys
    if unknown:
        raise CatalogError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    fit = str(raw.get("fit", "")).strip()
    try:
        if "points" in raw:
            points, sources = _points(raw, where)
            median, sigma = _fit(str(raw.get("method", "prediction")), points, where)
            n = sum(p.weight > 0 for p in points)
            return Prior(kind, figure, median, sigma, "; ".join(sources), fit, item, n)
        median, sigma = from_percentiles(_number(raw, "p10", where), _number(raw, "p90", where))
    except ValueError as exc:
        raise CatalogError(f"{where}: {exc}") from None
    return Prior(kind, figure, median, sigma, _text(raw, "source", where), fit, item)


def priors_in_file(path: Path) -> list[Prior]:
    try:
        doc = read_catalog_toml(path)
    except (OSError, UnicodeDecodeError, TOMLDecodeError) as exc:
        raise CatalogError(f"{path}: cannot read the catalog file ({exc})") from None
    tables = doc.get("prior", [])
    if not isinstance(tables, list):
        raise CatalogError(f"{path}: expected [[prior]] tables")
    return [
        prior_from_mapping(raw, where=f"{path.name} prior {i + 1} "
                           f"({raw.get('kind', '?')}.{raw.get('figure', '?')})")
        for i, raw in enumerate(tables)
    ]  # fmt: skip


class Priors:
    """Priors by (kind, figure), and by (kind, item, figure) where one item has its own."""

    def __init__(self, priors: Iterable[Prior] = ()) -> None:
        self._by: dict[tuple[str, str, str], Prior] = {}
        for p in priors:
            self._by[(p.kind, _norm(p.item) if p.item else "", p.figure)] = p

    def __iter__(self):
        return iter(self._by.values())

    def find(self, kind: str, figure: str, item: CatalogItem | str | None = None) -> Prior | None:
        """The prior of `figure` for a catalog item (its own, from the store's extras or
        the shipped tables), else of its kind, else of any stage kind (`*`)."""
        if isinstance(item, CatalogItem):
            own = _item_prior(item, figure)
            if own is not None:
                return own
            name = item.name
        else:
            name = item
        if name:
            found = self._by.get((kind, _norm(name), figure))
            if found is not None:
                return found
        return self._by.get((kind, "", figure)) or self._by.get((ANY_KIND, "", figure))


def _item_prior(item: CatalogItem, figure: str) -> Prior | None:
    """A user item's own prior (`prior_p10`, `prior_p90`, `prior_source` extras; for the
    rate, or `prior_<figure>_p10` … for another figure)."""
    prefix = "prior_" if figure == "rate" else f"prior_{figure}_"
    lo, hi = item.extra.get(prefix + "p10"), item.extra.get(prefix + "p90")
    if lo is None or hi is None:
        return None
    try:
        median, sigma = from_percentiles(float(lo), float(hi))
    except ValueError:
        return None
    source = item.extra.get(prefix + "source") or f"your catalog item {item.name}"
    return Prior(item.kind, figure, median, sigma, source, "given on the catalog item", item.name)


@functools.lru_cache(maxsize=1)
def shipped_priors() -> Priors:
    """The priors in `data/catalog/*.toml` (read once per process)."""
    out: list[Prior] = []
    for path in shipped_catalog_files():
        out.extend(priors_in_file(path))
    return Priors(out)


def is_unverified(*texts: str) -> bool:
    return any("⚠" in t or "unverified" in t.lower() for t in texts)


def catalog_prior(
    priors: Priors, catalog: Catalog | None, kind: str, figure: str, name: str | None
) -> Prior | None:
    """The prior of a catalog figure, widened when the item is unverified."""
    item = catalog.find(kind, name) if catalog is not None and name else None
    prior = priors.find(kind, figure, item or name)
    if prior is not None and item is not None and is_unverified(item.source, item.notes):
        prior = prior.widened(UNVERIFIED_WIDEN)
    return prior


__all__ = [
    "MIN_SIGMA",
    "UNVERIFIED_WIDEN",
    "Z90",
    "Point",
    "Prior",
    "Priors",
    "catalog_prior",
    "fit_points",
    "fit_random_effects",
    "from_percentiles",
    "is_unverified",
    "prior_from_mapping",
    "priors_in_file",
    "shipped_priors",
    "signed_percent",
    "t90",
]
