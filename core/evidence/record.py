"""Recording a drill: evidence files + a stored scenario version → a numbered drill.

One call for the CLI and the GUI: read every file (all or nothing), measure the drill,
compare it with the plan of the scenario version it is recorded against, and store the
three together. Re-comparing a stored drill runs the same engine on that version.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..importers.errors import EvidenceError
from ..importers.readfile import read_input
from ..importers.restore_evidence import EvidenceFile, read_evidence_bytes
from ..scenario import Scenario
from ..store import Store
from ..store.drills import StoredDrill, add_drill
from .compare import DrillComparison, compare_drill
from .drill import Drill, drill_from_dict, drill_from_evidence


@dataclass(frozen=True)
class ReadEvidence:
    """The files as read, with what identifies each (for the store's duplicate check)."""

    files: tuple[EvidenceFile, ...]
    identities: tuple[dict[str, str], ...]


def read_evidence_paths(paths: list[str | os.PathLike[str]]) -> ReadEvidence:
    """Read every file; the first bad one raises (naming it) and nothing is kept."""
    if not paths:
        raise EvidenceError("no evidence given", hint="give the RMAN log of the test restore")
    read = [_read_one(p) for p in paths]
    return ReadEvidence(tuple(f for f, _ in read), tuple(i for _, i in read))


def _read_one(p: str | os.PathLike[str]) -> tuple[EvidenceFile, dict[str, str]]:
    """One evidence file, and what identifies it in the store (name, kind, SHA-256)."""
    data = read_input(p, error=EvidenceError)
    f = read_evidence_bytes(data, str(p))
    return f, {"file": Path(p).name, "kind": f.kind, "sha256": hashlib.sha256(data).hexdigest()}


@dataclass(frozen=True)
class RecordedDrill:
    stored: StoredDrill
    drill: Drill
    comparison: DrillComparison


def measure(
    scenario: Scenario, evidence: ReadEvidence, typed: dict[str, float] | None = None
) -> tuple[Drill, DrillComparison]:
    """The drill the evidence measured and its plan vs actual, without storing anything."""
    drill = drill_from_evidence(
        list(evidence.files), typed=typed, compression_ratio=scenario.backup.compression_ratio
    )
    return drill, compare_drill(scenario, drill)


def record_drill(
    store: Store,
    name: str,
    version: int,
    evidence: ReadEvidence,
    *,
    typed: dict[str, float] | None = None,
    label: str = "",
) -> RecordedDrill:
    """Measure, compare with stored scenario `name` version `version`, and store."""
    scenario = store.load_scenario(name, version)
    drill, comparison = measure(scenario, evidence, typed)
    stored = add_drill(
        store,
        name,
        version,
        drill=drill.to_dict(),
        comparison=comparison.to_dict(),
        evidence=list(evidence.identities),
        label=label,
        drilled_at=drill.started,
    )
    return RecordedDrill(stored, drill, comparison)


def version_for_text(store: Store, text: str, source: str, comment: str) -> tuple[str, int, bool]:
    """(name, version, saved) of the stored scenario a drill is recorded against: the latest
    version of the text's scenario when its text is the same, else a new version saved
    with `comment` (a drill is tied to the exact figures it was compared with)."""
    from ..scenario import load_scenario_text

    name = load_scenario_text(text, source, catalog=store.catalog()).name
    if any(s.name == name for s in store.scenarios()):
        latest = store.history(name)[-1]
        if latest.text == text:
            return name, latest.version, False
    v = store.save_scenario(text, comment=comment, source=source)
    return v.scenario, v.version, True


def recompare(store: Store, stored: StoredDrill, version: int | None = None) -> DrillComparison:
    """Plan vs actual of a stored drill against its own scenario version (or another)."""
    scenario = store.load_scenario(stored.scenario, version or stored.scenario_version)
    return compare_drill(scenario, drill_from_dict(stored.drill))


__all__ = [
    "ReadEvidence",
    "RecordedDrill",
    "measure",
    "read_evidence_paths",
    "recompare",
    "record_drill",
    "version_for_text",
]
