"""RESTORE PREVIEW fills a scenario: the volumes a restore will really read.

From `RESTORE DATABASE PREVIEW` (docs/evidence.md), with provenance `exact: RESTORE
PREVIEW …` on every value set:

* `database.size` — the level 0 backup sets (full or incremental level 0): what RMAN
  reads and writes through the path. RMAN backs up used blocks only, so this is the
  volume a restore moves, which may be less than the datafiles' allocated size;
* `recovery.incremental_size` — the level 1 sets: one backup per tag (one tag per backup
  run); one tag is a cumulative level 1, several are differentials (the size is then per
  backup); `backup.level1` is set when the scenario had none;
* `recovery.redo_volume` — the archived-log backup sets; `recovery.archivelogs_on_disk`
  follows where RMAN will read the logs (from backups, or `List of Archived Log Copies`);
* what no key holds is said: the tape volumes (cartridges) to load against the plan's
  own count, the archived-log sequence range per thread.

Sizes are backup bytes: with `Compressed: YES` they are multiplied by the scenario's
`backup.compression_ratio` (data bytes per backup byte) and the provenance says so.
The PREVIEW is a restore at one moment; the plan takes its volumes as the worst case
(`recovery.incremental_size` and `redo_volume` are the worst case's, DESIGN §3.4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog
from ..engine.path import RESTORE, build_path_model
from ..errors import CoreError
from ..importers.preview import PreviewSet, RestorePreview
from ..jsonable import json_ready
from ..scenario import Scenario, with_values
from ..units import format_size


class PreviewFillError(CoreError, ValueError):
    """A PREVIEW that cannot fill a scenario (a SUMMARY, no sizes)."""


@dataclass(frozen=True)
class FilledValue:
    key: str
    value: Any
    previous: Any
    provenance: str


@dataclass(frozen=True)
class PreviewFill:
    scenario: Scenario
    values: tuple[FilledValue, ...]
    cartridges: tuple[str, ...]
    log_ranges: tuple[tuple[int, int, int, int], ...]
    """(thread, first sequence, last sequence, logs) of the archived logs recovery needs."""
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        out = json_ready({k: v for k, v in self.__dict__.items() if k != "scenario"})
        out["scenario"] = self.scenario.name
        return out


def _bytes(sets: tuple[PreviewSet, ...], ratio: float) -> tuple[float, bool]:
    """Data bytes of the sets and whether RMAN compression was applied to any."""
    compressed = any(s.compressed for s in sets)
    total = sum(s.size_bytes or 0.0 for s in sets)
    return total * (ratio if compressed else 1.0), compressed


def _size_text(b: float) -> str:
    """Decimal GB to the hundredth: RMAN prints each set's size to two decimals."""
    return f"{b / 1e9:.2f} GB"


def _words(n: int, what: str, size: float, compressed: bool, ratio: float, src: str) -> str:
    text = f"exact: RESTORE PREVIEW ({src}), {n} {what}, {format_size(size)}"
    if compressed:
        text += f" (backup bytes × backup.compression_ratio {ratio:g})"
    return text


def log_ranges(preview: RestorePreview) -> tuple[tuple[int, int, int, int], ...]:
    by: dict[int, list[int]] = {}
    for thread, seq in preview.logs:
        by.setdefault(thread, []).append(seq)
    return tuple((t, min(s), max(s), len(s)) for t, s in sorted(by.items()))


class _Fill:
    def __init__(self, scenario: Scenario, preview: RestorePreview) -> None:
        self.s, self.p = scenario, preview
        self.ratio = scenario.backup.compression_ratio
        self.src = preview.source.rsplit("/", 1)[-1]
        self.changes: dict[str, Any] = {}
        self.prov: dict[str, str] = {}
        self.notes: list[str] = []

    def set(self, key: str, value: Any, provenance: str) -> None:
        """A value with its provenance (a figure) or, for a setting (a choice, a yes/no),
        the reason in the notes: `[provenance]` is for figures."""
        self.changes[key] = value
        if isinstance(value, bool) or key == "backup.level1":
            self.notes.append(f"{key} = {str(value).lower()}: {provenance.removeprefix('exact: ')}")
        else:
            self.prov[key] = provenance

    def level0(self) -> None:
        sets = self.p.of_level("0")
        if not sets:
            self.notes.append("no level 0 backup set in the PREVIEW: database.size kept")
            return
        size, comp = _bytes(sets, self.ratio)
        self.set(
            "database.size",
            _size_text(size),
            _words(len(sets), "level 0 backup sets", size, comp, self.ratio, self.src),
        )
        self.notes.append(
            f"database.size is now the volume RMAN backed up and will restore "
            f"({format_size(size)}; it was {format_size(self.s.database.size_bytes)})"
            ": RMAN skips never-used blocks, so the datafiles may be larger"
        )
        self._largest_file(size)
        if comp and self.ratio == 1.0:
            self.notes.append(COMPRESSED_AT_RATIO_1)

    def _largest_file(self, size: float) -> None:
        """database.largest_file goes when it is more than the whole level 0 backup."""
        largest = self.s.database.largest_file_bytes
        if largest and largest > size:
            self.changes["database.largest_file"] = None
            self.notes.append(
                f"database.largest_file ({format_size(largest)}) is more than the "
                "level 0 backup: removed"
            )

    def level1(self) -> None:
        sets = self.p.of_level("1")
        if not sets:
            if self.s.backup.level1 != "none":
                self.notes.append(NO_LEVEL1)
            return
        tags = {s.tag for s in sets} or {""}
        total, comp = _bytes(sets, self.ratio)
        per = total / len(tags)
        what = f"level 1 backup sets of {len(tags)} backup{'s' if len(tags) > 1 else ''}"
        self.set(
            "recovery.incremental_size",
            _size_text(per),
            _words(len(sets), what, total, comp, self.ratio, self.src),
        )
        self._level1_kind(len(tags), what)

    def _level1_kind(self, backups: int, what: str) -> None:
        """backup.level1 from how many level 1 backups the restore applies (one: cumulative)."""
        kind = "cumulative" if backups == 1 else "differential"
        if self.s.backup.level1 == "none":
            self.set("backup.level1", kind, f"exact: RESTORE PREVIEW ({self.src}) lists {what}")
        elif self.s.backup.level1 == "cumulative" and backups > 1:
            self.notes.append(
                f"the PREVIEW applies {backups} level 1 backups: differentials, "
                "though backup.level1 says cumulative"
            )

    def redo(self) -> None:
        sets, disk = self.p.of_level("archivelog"), self.p.disk_logs
        if sets:
            self._redo_volume(sets)
        self._logs_on_disk(sets, disk)

    def _redo_volume(self, sets: tuple[PreviewSet, ...]) -> None:
        """recovery.redo_volume: the archived-log backup sets' volume."""
        size, comp = _bytes(sets, self.ratio)
        n = sum(len(s.logs) for s in sets)
        what = f"archived-log backup sets ({n} logs)"
        self.set(
            "recovery.redo_volume",
            _size_text(size),
            _words(len(sets), what, size, comp, self.ratio, self.src),
        )

    def _logs_on_disk(
        self, sets: tuple[PreviewSet, ...], disk: tuple[tuple[int, int], ...]
    ) -> None:
        """recovery.archivelogs_on_disk when the PREVIEW reads every log from one place."""
        if disk and sets:
            self.notes.append(
                f"{len(disk)} archived logs are read from disk (no size in the "
                "PREVIEW): recovery.redo_volume counts only those in backups"
            )
        elif sets and self.s.recovery.archivelogs_on_disk:
            self.set(
                "recovery.archivelogs_on_disk",
                False,
                f"exact: RESTORE PREVIEW ({self.src}) reads every archived log from backups",
            )
        elif disk and not sets and not self.s.recovery.archivelogs_on_disk:
            self.set(
                "recovery.archivelogs_on_disk",
                True,
                f"exact: RESTORE PREVIEW ({self.src}) reads every archived log from disk",
            )


COMPRESSED_AT_RATIO_1 = (
    "the backups are compressed but backup.compression_ratio is 1: "
    "the sizes are backup bytes, the data is larger"
)
NO_LEVEL1 = (
    "no level 1 backup set in the PREVIEW (a restore right after "
    "a level 0): the incremental keys are kept"
)


def _cartridge_note(scenario: Scenario, media: tuple[str, ...]) -> str | None:
    """The plan's own count of cartridge loads against the PREVIEW's volumes."""
    if not media:
        return None
    model = build_path_model(scenario, RESTORE)
    if not math.isfinite(model.cartridge_data_bytes):
        return (
            f"{len(media)} tape volumes to load ({', '.join(media[:4])}"
            f"{', …' if len(media) > 4 else ''}); the plan has no cartridge capacity for "
            "its tape drives (name a catalog item) and counts no loads"
        )
    planned = math.ceil(scenario.database.size_bytes / model.cartridge_data_bytes)
    return (
        f"{len(media)} tape volumes to load; the plan counts about {planned} cartridges "
        f"for the level 0 ({format_size(model.cartridge_data_bytes)} of data each)"
    )


def fill_from_preview(
    scenario: Scenario, preview: RestorePreview, catalog: Catalog | None = None
) -> PreviewFill:
    """The scenario with the PREVIEW's volumes (validated), what was set and what was not."""
    if preview.summary:
        raise PreviewFillError(
            f"{preview.source}: PREVIEW SUMMARY prints no sizes; a scenario needs the volumes",
            hint="run RESTORE DATABASE PREVIEW (without SUMMARY)",
        )
    f = _Fill(scenario, preview)
    f.level0()
    f.level1()
    f.redo()
    if not f.changes:
        raise PreviewFillError(f"{preview.source}: nothing in the PREVIEW to put in a scenario")
    new = with_values(scenario, f.changes, catalog, provenance=f.prov)
    note = _cartridge_note(new, preview.media)
    values = tuple(
        FilledValue(k, v, _previous(scenario, k), f.prov.get(k, "a setting: see the notes"))
        for k, v in f.changes.items()
    )
    return PreviewFill(
        new, values, preview.media, log_ranges(preview), tuple(([note] if note else []) + f.notes)
    )


def _previous(scenario: Scenario, key: str) -> Any:
    section, _, name = key.partition(".")
    return (scenario.raw.get(section) or {}).get(name)


__all__ = ["FilledValue", "PreviewFill", "PreviewFillError", "fill_from_preview", "log_ranges"]
