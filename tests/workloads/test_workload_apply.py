"""Stored workloads back as figures, into scenarios with provenance, and as report evidence."""

from __future__ import annotations

import pytest
from workload_helpers import CSV, FIXTURES, SCENARIO, SYNTHETIC, sysstat_csv

from rtoplanner.core.importers import load_sysstat_csv, parse_file, redo_series
from rtoplanner.core.importers.apply import ApplyError, ApplyRequest, apply_imports
from rtoplanner.core.importers.evidence import (
    evidence_for,
    evidence_for_scenario,
)
from rtoplanner.core.importers.store_import import import_file, import_paths
from rtoplanner.core.importers.stored import (
    AmbiguousDatabaseError,
    database_workload,
    list_imports,
    workload_summaries,
)
from rtoplanner.core.scenario import dump_scenario, load_scenario, load_scenario_text
from rtoplanner.core.store import NotFoundError
from rtoplanner.core.units import DAY

ORCL = [
    FIXTURES / "1newstar-awr2csv__awr_11204_1.txt",
    FIXTURES / "1newstar-awr2csv__awr_11204_2.txt",
]


@pytest.fixture
def prod(store, tmp_path):
    """48 hourly DBA_HIST_SYSSTAT intervals of PROD (dbid 1234), two RAC instances."""
    path = sysstat_csv(tmp_path / "prod.csv", hours=48, instances=2)
    assert import_file(store, path).imported == 96
    return path


def test_series_from_the_store_is_the_series_of_the_files(store, prod) -> None:
    expected = redo_series(load_sysstat_csv(prod))
    w = database_workload(store, "prod")
    s = w.series
    assert s is not None
    assert (s.avg_Bps, s.p95_Bps, s.peak_Bps) == (
        expected.avg_Bps, expected.p95_Bps, expected.peak_Bps,
    )  # fmt: skip
    assert s.per_day_bytes == expected.per_day_bytes == s.avg_Bps * DAY
    assert s.busiest_hour == expected.busiest_hour
    assert s.busiest_hour_of_day == expected.busiest_hour_of_day
    assert s.instances == ("1", "2") and len(s.hours) == 48
    assert w.series_counts == {"sysstat": 96}
    assert w.label == "PROD (dbid 1234)"
    assert database_workload(store, "1234") == w


def test_rac_awr_reports_add_up(store) -> None:
    for p in ORCL:
        import_file(store, p)
    expected = redo_series([r for p in ORCL for r in parse_file(p)])
    s = database_workload(store, "ORCL").series
    assert s is not None and s.instances == ("1", "2")
    assert (s.avg_Bps, s.p95_Bps, s.peak_Bps) == (
        expected.avg_Bps, expected.p95_Bps, expected.peak_Bps,
    )  # fmt: skip
    assert s.peak_Bps == pytest.approx(477.1 + 730.5, abs=0.5)


def test_apply_sets_p95_in_mb_s_and_records_provenance(store, prod) -> None:
    scenario = load_scenario(SCENARIO)
    series = database_workload(store, "PROD").series
    result = apply_imports(store, scenario, ApplyRequest(database="PROD"))
    new = result.scenario
    # 4 significant figures in MB/s (issue 25.8), the figure the file says
    assert result.values[0].value == "8.932 MB/s"
    assert new.database.redo_rate_Bps == 8.932e6
    assert new.database.redo_rate_Bps == pytest.approx(series.p95_Bps, rel=5e-4)
    text = new.provenance["database.redo_rate"]
    assert text.startswith("p95 of hourly redo over 96 DBA_HIST_SYSSTAT intervals of PROD")
    assert "(dbid 1234)" in text and "2024-03-01 00:00 → 2024-03-03 00:00" in text
    assert new.provenance["workload.database"] == "PROD"
    assert new.provenance["workload.dbid"] == "1234"
    # the rest is untouched, and the file round-trips exactly
    assert new.database.daily_change == scenario.database.daily_change
    assert new.backup == scenario.backup and new.path == scenario.path
    again = load_scenario_text(dump_scenario(new))
    assert again.database.redo_rate_Bps == new.database.redo_rate_Bps
    assert dict(again.provenance) == dict(new.provenance)
    (value,) = result.values
    assert (value.key, value.previous) == ("database.redo_rate", "1 MB/s")


@pytest.mark.parametrize("which", ["avg", "peak"])
def test_apply_avg_and_peak(store, prod, which) -> None:
    s = database_workload(store, "PROD").series
    new = apply_imports(store, load_scenario(SCENARIO), ApplyRequest("PROD", redo=which)).scenario
    want = {"avg": s.avg_Bps, "peak": s.peak_Bps}[which]
    assert new.database.redo_rate_Bps == pytest.approx(want, rel=5e-4)
    assert s.avg_Bps < s.p95_Bps <= s.peak_Bps


def test_apply_measured_figures(store) -> None:
    for p in (SYNTHETIC / "awr_19c_text.txt",):
        import_file(store, p)
    import_file(store, CSV / "rman_backup_job_details.csv", database="PROD19")
    import_file(store, CSV / "recovery_progress.csv", database="prod19")
    scenario = load_scenario(SCENARIO)
    req = ApplyRequest(
        "PROD19", redo=None, change=True, compression=True, apply_rate=True, measured_path=True
    )
    result = apply_imports(store, scenario, req)
    new = result.scenario
    assert new.database.redo_rate_Bps == scenario.database.redo_rate_Bps
    # compression: datafile backups to tape only (26.48 TB in, 6.49 TB out)
    assert new.backup.compression_ratio == pytest.approx(26.48e12 / 6.49e12)
    assert "SBT_TAPE" in new.provenance["backup.compression_ratio"]
    # the measured stage: the DB FULL job, 20 TB in 5 h, carrying data bytes
    stage = new.path[-1]
    assert (stage.kind, stage.carries, stage.count) == ("measured", "data", 1)
    assert stage.rate_Bps == pytest.approx(20e12 / 18000, rel=5e-4)
    assert new.path[:-1] == scenario.path
    assert f"path[{len(new.path) - 1}].rate" in new.provenance
    # apply rate: 88765 KiB/s
    assert new.recovery.redo_apply_rate_Bps == pytest.approx(88765 * 1024, rel=5e-4)
    assert new.provenance["recovery.redo_apply_rate"].startswith("Average Apply Rate of 1")
    # change: 25,117.9 block changes/s × 8 KiB × 24 h over 1.5 TB, an upper bound capped at 1
    assert new.database.daily_change == 1.0
    assert new.provenance["database.daily_change"].startswith("upper bound")
    assert any("upper bound" in n for n in result.notes)
    # a second apply updates the measured stage instead of adding another
    again = apply_imports(store, new, req).scenario
    assert len(again.path) == len(new.path)


def test_change_below_the_cap_is_block_changes_times_block_size(store) -> None:
    import_file(store, SYNTHETIC / "awr_10g_text_ja.txt")  # 402.17 block changes/s
    w = database_workload(store, "ORCL10")
    scenario = load_scenario(SCENARIO)
    req = ApplyRequest("ORCL10", redo=None, change=True, block_size=16384)
    new = apply_imports(store, scenario, req).scenario
    expected = w.block_changes_per_s * 16384 * DAY / scenario.database.size_bytes
    assert new.database.daily_change == pytest.approx(expected, rel=1e-12)
    assert "16.0 KiB blocks" in new.provenance["database.daily_change"]


def test_apply_errors(store, prod) -> None:
    scenario = load_scenario(SCENARIO)
    with pytest.raises(NotFoundError, match="nothing imported for database 'TEST'"):
        apply_imports(store, scenario, ApplyRequest("TEST"))
    with pytest.raises(ApplyError, match="no completed RMAN datafile backups"):
        apply_imports(store, scenario, ApplyRequest("PROD", compression=True))
    with pytest.raises(ApplyError, match="Average Apply Rate"):
        apply_imports(store, scenario, ApplyRequest("PROD", apply_rate=True))
    with pytest.raises(ApplyError, match="block changes"):
        apply_imports(store, scenario, ApplyRequest("PROD", change=True))
    with pytest.raises(ApplyError, match="nothing to apply"):
        apply_imports(store, scenario, ApplyRequest("PROD", redo=None))
    import_file(store, CSV / "rman_backup_job_details.csv", database="PROD")
    with pytest.raises(ApplyError, match="device type LTO"):
        apply_imports(store, scenario, ApplyRequest("PROD", compression=True, device_type="LTO"))


def test_two_databases_of_one_name_need_the_dbid(store, tmp_path) -> None:
    import_file(store, sysstat_csv(tmp_path / "a.csv", hours=3, dbid=1))
    import_file(store, sysstat_csv(tmp_path / "b.csv", hours=3, dbid=2))
    with pytest.raises(AmbiguousDatabaseError, match=r"dbid 1.*dbid 2"):
        database_workload(store, "PROD")
    assert database_workload(store, "2").dbid == 2


def test_summaries_and_list(store) -> None:
    list(import_paths(store, [FIXTURES]))
    import_file(store, CSV / "rman_backup_job_details.csv")
    names = [w.label for w in workload_summaries(store)]
    assert names[-1] == "(no database)"
    assert "DBU (dbid 3128649325)" in names
    dbu = database_workload(store, "dbu")
    assert dbu.series.instances == ("*",)  # a global RAC report: the database total
    assert dbu.series.warnings  # one 6-day report: its peak is its average
    listed = list_imports(store, "ORCL")
    assert [i.instances for i in listed] == [("orcl1",), ("orcl2",)]


def test_evidence_for_the_report(store, prod) -> None:
    ev = evidence_for(store, "prod")
    s = database_workload(store, "PROD").series
    assert ev is not None
    assert (ev.period_start, ev.period_end, ev.reports) == (s.first, s.last, 96)
    assert (ev.redo_avg_Bps, ev.redo_p95_Bps, ev.redo_peak_Bps) == (
        s.avg_Bps, s.p95_Bps, s.peak_Bps,
    )  # fmt: skip
    assert len(ev.series) == 48 and ev.series[0].redo_Bps == s.hours[0].redo_bytes_per_s
    assert (ev.series[0].end - ev.series[0].start).total_seconds() == 3600
    assert ev.db_name == "PROD" and "96 DBA_HIST_SYSSTAT intervals of PROD" in ev.source
    assert evidence_for(store, "NOPE") is None
    scenario = load_scenario(SCENARIO)
    assert evidence_for_scenario(store, scenario) is None
    applied = apply_imports(store, scenario, ApplyRequest("PROD")).scenario
    assert evidence_for_scenario(store, applied) == ev
