"""A database alone in an estate, on its own hardware, gets exactly its own plan."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rtoplanner.core.estate import run_estate
from rtoplanner.core.plan import compute_core
from rtoplanner.core.scenario import load_scenario

from .estate_helpers import DRIVE, MEDIA, estate, scenario, shared_stage

REPO = Path(__file__).resolve().parents[2]


def assert_same_as_plan(est, scn) -> None:
    plan = compute_core(scn)[2]
    got = run_estate(est).databases[0]
    assert [p.name for p in got.phases] == [p.name for p in plan.phases]
    for mine, theirs in zip(got.phases, plan.phases, strict=True):
        assert mine.start_s == pytest.approx(theirs.start_s, rel=1e-9, abs=1e-6)
        assert mine.duration_s == pytest.approx(theirs.duration_s, rel=1e-9, abs=1e-6)
    assert got.open_s == pytest.approx(plan.total_s, rel=1e-9)
    assert got.verdict == plan.verdict
    assert got.waited_s == 0


@pytest.mark.parametrize("path", sorted((REPO / "data" / "scenarios").glob("*.toml")),
                         ids=lambda p: p.stem)  # fmt: skip
def test_demo_scenario_alone_is_its_plan(path):
    scn = load_scenario(path)
    assert_same_as_plan(estate([(scn, 1)]), scn)


def test_alone_on_shared_resources_that_equal_its_own_stages_is_its_plan():
    scn = scenario(
        "db",
        path=[shared_stage(DRIVE, "LIB"), shared_stage(MEDIA, "MS")],
        level1="cumulative",
        logs_on_disk=False,
        largest_file="200 GB",
    )
    est = estate(
        [(scn, 1)],
        shared=[{**DRIVE, "name": "LIB"}, {**MEDIA, "name": "MS"}],
    )
    assert_same_as_plan(est, est.databases[0].estate_scenario)
    # and the shared stages are the scenario's own, so it is the scenario's own plan too
    assert compute_core(scn)[2].total_s == pytest.approx(run_estate(est).databases[0].open_s)


rates = st.sampled_from(["80 MB/s", "160 MB/s", "300 MB/s", "1 GB/s", "2.5 GB/s"])


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from(["50 GB", "700 GB", "3 TB", "12 TB"]),
    channels=st.integers(1, 12),
    drives=st.integers(1, 10),
    init=st.sampled_from(["0 s", "5 s", "60 s", "10 min"]),
    drive_rate=rates,
    media_rate=rates,
    largest=st.sampled_from([None, "10 GB", "40 GB", "400 GB"]),
    level1=st.sampled_from(["none", "cumulative", "differential"]),
    logs_on_disk=st.booleans(),
    compression=st.sampled_from([1.0, 2.5]),
    shared=st.booleans(),
    v2=st.fixed_dictionaries(
        {},
        optional={
            "job_overhead": st.sampled_from(["0 s", "45 s", "5 min"]),
            "archivelog_restore": st.sampled_from(["serial", "parallel"]),
            "compression": st.sampled_from(["basic", "medium"]),
            "drive": st.sampled_from(["LTO-8", "LTO-9"]),
        },
    ),
)
def test_single_database_identity_property(size, channels, drives, init, drive_rate,
                                           media_rate, largest, level1, logs_on_disk,
                                           compression, shared, v2):  # fmt: skip
    """Alone on its hardware, a database in the estate opens exactly when its plan says,
    phase by phase, with the v2 engine's rules too (job overhead, parallel archived-redo
    restore, compression CPU, tape cartridges of a catalog drive)."""
    assume(not (size == "50 GB" and largest == "400 GB"))
    drive = {**DRIVE, "count": drives, "rate": drive_rate}
    if "drive" in v2:
        drive["name"] = v2["drive"]  # a catalog drive: load + locate per cartridge
    extra: dict = {"backup": {}, "recovery": {}, "database": {}}
    if "job_overhead" in v2:
        extra["backup"]["job_overhead"] = v2["job_overhead"]
    if "archivelog_restore" in v2:
        extra["recovery"]["archivelog_restore"] = v2["archivelog_restore"]
    if "compression" in v2:
        extra["backup"]["compression"] = v2["compression"]
        extra["database"]["cpu_cores"] = 8
    media = {**MEDIA, "count": 2, "rate": media_rate}
    path = [shared_stage(drive, "LIB"), shared_stage(media, "MS")] if shared else [drive, media]
    scn = scenario("db", size=size, channels=channels, init=init, path=path, level1=level1,
                   logs_on_disk=logs_on_disk, largest_file=largest,
                   compression=compression, extra=extra)  # fmt: skip
    sh = [{**drive, "name": "LIB"}, {**media, "name": "MS"}] if shared else []
    est = estate([(scn, 1)], shared=sh)
    assert_same_as_plan(est, est.databases[0].estate_scenario)


def test_a_shared_library_of_catalog_drives_loads_cartridges_as_the_plan_does():
    """The scenario's own stage names the catalog's LTO-8 (cartridge load time and
    capacity come from the catalog); the shared library says so with `item`. The library
    had no tape mechanics: in the estate the database skipped its cartridge loads and
    opened earlier than its own plan says."""
    lto8 = {"kind": "tape_drive", "name": "LTO-8", "count": 4, "rate": "360 MB/s",
            "efficiency": 0.9, "hw_compression": 2.0}  # fmt: skip
    own = scenario("db", size="60 TB", path=[lto8, dict(MEDIA)], channels=4)
    assert own.path[0].load_s > 0 and own.path[0].capacity_bytes  # from the catalog
    shared = scenario("db", size="60 TB", path=[shared_stage(lto8, "LIB"), dict(MEDIA)],
                      channels=4)  # fmt: skip
    library = {**lto8, "name": "LIB", "item": "LTO-8"}
    est = estate([(shared, 1)], shared=[library])
    stage = est.databases[0].estate_scenario.path[0]
    assert (stage.name, stage.load_s, stage.capacity_bytes) == (
        "LIB", own.path[0].load_s, own.path[0].capacity_bytes)  # fmt: skip
    assert_same_as_plan(est, own)


def test_an_item_not_in_the_catalog_is_refused_with_the_key():
    from rtoplanner.core.errors import CoreError

    lto8 = {"kind": "tape_drive", "count": 4, "rate": "360 MB/s"}
    scn = scenario("db", path=[shared_stage(lto8, "LIB")])
    with pytest.raises(CoreError, match=r"shared\[0\]\.item.*no tape_drive named 'LTO-88'"):
        estate([(scn, 1)], shared=[{**lto8, "name": "LIB", "item": "LTO-88"}])
