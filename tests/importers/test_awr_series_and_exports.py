"""Redo series, DBA_HIST_SYSSTAT redo exports, RMAN job history and V$RECOVERY_PROGRESS.

The CSV fixtures in tests/fixtures/csv were written for these tests; the expected values
are computed by hand from the numbers printed in them (shown in the comments).
"""

from __future__ import annotations

from datetime import datetime

import pytest
from awr_paths import CSV_FIXTURES, FIXTURES

from rtoplanner.core.importers.errors import CsvImportError, ReportError
from rtoplanner.core.importers.exports import read_export, read_export_bytes
from rtoplanner.core.importers.reader import parse_file
from rtoplanner.core.importers.rman_csv import backup_rates, load_rman_jobs
from rtoplanner.core.importers.series import (
    RedoInterval,
    RedoSeries,
    intervals_from_reports,
    redo_series,
    series_by_database,
)
from rtoplanner.core.units import KiB, MiB

MB = 1e6


def test_sysstat_export_to_hourly_database_totals() -> None:
    e = read_export(CSV_FIXTURES / "dba_hist_sysstat_redo.csv")
    assert e.kind == "sysstat"
    # instance 1: 4 intervals; instance 2: 3 (its restart between snaps 101 and 102 is skipped)
    assert len(e.redo_intervals) == 7
    s = redo_series(e.redo_intervals)
    assert (s.db_name, s.dbid, s.instances) == ("ERPRAC", 2718281801, ("1", "2"))
    # inst 1: +3.6e9, +7.2e9, +3.6e9, +1.8e9 bytes per hour = 1, 2, 1, 0.5 MB/s
    # inst 2: +1.8e9, (restart), +3.6e9, +1.8e9 = 0.5, -, 1, 0.5 MB/s
    assert [h.hour.hour for h in s.hours] == [9, 10, 11, 12]
    assert [h.redo_bytes_per_s for h in s.hours] == pytest.approx(
        [1.5 * MB, 2 * MB, 2 * MB, 1 * MB]
    )
    assert [h.instances for h in s.hours] == [2, 1, 2, 2]
    assert s.avg_Bps == pytest.approx(16.2e9 / 14400 + 7.2e9 / 10800)
    assert s.per_day_bytes == pytest.approx(s.avg_Bps * 86400)
    assert s.peak_Bps == pytest.approx(2 * MB)
    assert s.p95_Bps == pytest.approx(2 * MB)
    assert s.busiest_hour == datetime(2024, 5, 6, 10)
    assert s.busiest_hour_of_day == 10
    assert any("lack reports of some instances" in w for w in s.warnings)
    s.to_dict()


def test_series_adds_rac_instances_of_the_same_snapshots() -> None:
    """ORCL orcl1 477.1 B/s + orcl2 730.5 B/s over 10-Jul-14 04:00:45 - 05:00:58."""
    reports = [
        r
        for name in (
            "1newstar-awr2csv__awr_11204_1.txt",
            "1newstar-awr2csv__awr_11204_2.txt",
            "1newstar-awr2csv__awr_11204_1.html",
        )
        for r in parse_file(FIXTURES / name)
    ]
    s = redo_series(reports)
    assert s.instances == ("1", "2")
    assert [h.hour for h in s.hours] == [datetime(2014, 7, 10, 4), datetime(2014, 7, 10, 5)]
    assert s.avg_Bps == pytest.approx(477.1 + 730.5)
    assert s.peak_Bps == pytest.approx(477.1 + 730.5)
    assert s.intervals == 3  # the HTML twin is a different file of the same interval
    # One hour of reports has one figure: its p95 and peak are its average (issue 23.11).
    assert s.single_figure == "1 hour"


def test_a_p95_said_to_be_the_average_when_the_reports_give_one_figure() -> None:
    """Issue 23.11: one report said so; one hour of two RAC instances' reports offered
    its "p95 of hourly redo" with nothing to say it was the average."""
    from rtoplanner.core.importers.apply import redo_value
    from rtoplanner.core.importers.stored import DatabaseWorkload

    def workload(series: RedoSeries) -> DatabaseWorkload:
        return DatabaseWorkload(
            key=series.db, db_name=series.db_name, dbid=series.dbid, counts={"awr": 2},
            series=series, series_counts={"awr": 2}, block_changes_per_s=None,
            block_change_reports=0, backup_rates=(), devices=(), apply_rates=(),
        )  # fmt: skip

    names = ("1newstar-awr2csv__awr_11204_1.txt", "1newstar-awr2csv__awr_11204_2.txt")
    hour = redo_series([r for name in names for r in parse_file(FIXTURES / name)])
    _rate, text, _notes = redo_value(workload(hour), "p95")
    assert text.startswith("p95 of hourly redo from a single hour, i.e. its average, over ")
    _rate, text, _notes = redo_value(workload(hour), "avg")
    assert "single" not in text
    (long,) = parse_file(FIXTURES / "Azure-Oracle-Workloads-for-Azure__AWR_DBS.html")
    assert redo_series([long]).single_figure == "1 report"
    sysstat = read_export(CSV_FIXTURES / "dba_hist_sysstat_redo.csv").redo_intervals
    assert redo_series(list(sysstat)).single_figure == ""  # hours that differ


def test_overlapping_reports_of_one_instance_are_averaged_not_added() -> None:
    t = datetime(2024, 1, 1, 0)
    day = RedoInterval("X", "1", t, datetime(2024, 1, 2, 0), 86400 * 1000.0)  # 1000 B/s all day
    hour = RedoInterval("X", "1", datetime(2024, 1, 1, 12), datetime(2024, 1, 1, 13), 3600 * 5000.0)
    s = redo_series([day, hour])
    noon = next(h for h in s.hours if h.hour.hour == 12)
    assert noon.redo_bytes_per_s == pytest.approx(3000.0)  # (1000 + 5000) / 2
    assert s.peak_Bps == pytest.approx(3000.0)
    assert s.busiest_hour == datetime(2024, 1, 1, 12)


def test_long_reports_warn_that_peaks_are_hidden() -> None:
    (r,) = parse_file(FIXTURES / "Azure-Oracle-Workloads-for-Azure__AWR_DBS.html")
    s = redo_series([r])
    assert s.peak_Bps == pytest.approx(1399224.8)  # a 3-day report shows only its average
    assert any("averaged away" in w for w in s.warnings)


def test_global_rac_report_is_the_database_total() -> None:
    (r,) = parse_file(FIXTURES / "Azure-Oracle-Workloads-for-Azure__AWR_DBU.html")
    (iv,) = intervals_from_reports([r])
    assert iv.instance == "*"
    assert iv.redo_bytes_per_s == pytest.approx(3200.95 * 1024)


def test_several_databases_need_one_series_each() -> None:
    reports = [
        *parse_file(FIXTURES / "Azure-Oracle-Workloads-for-Azure__AWR_DBS.html"),
        *parse_file(FIXTURES / "Azure-Oracle-Workloads-for-Azure__AWR_DBT.html"),
    ]
    with pytest.raises(ReportError, match="2 databases"):
        redo_series(reports)
    assert sorted(s.db_name for s in series_by_database(reports)) == ["DBS", "DBT"]
    with pytest.raises(ReportError, match="nothing to build"):
        redo_series([])


def test_rman_job_history_rates_per_device_type() -> None:
    jobs = load_rman_jobs(CSV_FIXTURES / "rman_backup_job_details.csv")
    assert len(jobs) == 8
    rates = {(r.device_type, r.input_type): r for r in backup_rates(jobs)}
    assert set(rates) == {("DISK", "ARCHIVELOG"), ("SBT_TAPE", "DB FULL"), ("SBT_TAPE", "DB INCR")}
    full = rates[("SBT_TAPE", "DB FULL")]
    # 20,000,000,000,000 bytes in 18,000 s, into 5,000,000,000,000 bytes of pieces
    assert full.input_Bps == pytest.approx(20e12 / 18000)
    assert full.compression_ratio == pytest.approx(4.0)
    incr = rates[("SBT_TAPE", "DB INCR")]
    # sessions 102, 103 and 104 (COMPLETED WITH WARNINGS counts): 1.8e12 + 3.6e12 + 1.08e12
    assert incr.jobs == 3
    assert incr.input_Bps == pytest.approx(6.48e12 / 12600)
    assert incr.compression_ratio == pytest.approx(6.48e12 / 1.49e12)
    assert incr.median_input_Bps == pytest.approx(5e8)  # 500 MB/s, 500 MB/s, 600 MB/s
    assert incr.max_input_Bps == pytest.approx(6e8)
    arch = rates[("DISK", "ARCHIVELOG")]
    # 106 FAILED and 107 (30 s, shorter than a minute) are left out: 105 and 108 remain
    assert arch.jobs == 2
    assert arch.input_Bps == pytest.approx((60e9 + 150e9) / 900)
    assert arch.compression_ratio == pytest.approx(1.0)
    assert full.to_dict()["first"] == "2024-05-04T20:00:00"


def test_recovery_progress_csv_and_listing() -> None:
    e = read_export(CSV_FIXTURES / "recovery_progress.csv")
    (rate,) = e.apply_rates
    assert rate.start == datetime(2024, 5, 7, 2, 0)
    assert rate.average_Bps == pytest.approx(88765 * KiB)  # "Average Apply Rate, KB/sec, 88765"
    assert rate.active_Bps == pytest.approx(95000 * KiB)
    assert rate.maximum_Bps == pytest.approx(120340 * KiB)
    assert rate.redo_applied_bytes == pytest.approx(304512 * MiB)
    assert (rate.elapsed_s, rate.active_s) == (3513, 3290)
    (listing,) = read_export(CSV_FIXTURES / "recovery_progress_sqlplus.txt").apply_rates
    assert listing.average_Bps == pytest.approx(41208 * KiB)
    assert listing.redo_applied_bytes == pytest.approx(61440 * MiB)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty"),
        (b"A,B,C\n1,2,3\n", "not an export we read"),
        (b"SESSION_KEY,INPUT_TYPE,OUTPUT_DEVICE_TYPE,INPUT_BYTES\n1,DB FULL,DISK,5\n", "STATUS"),
        (b"START_TIME,TYPE,ITEM,UNITS,SOFAR\nx,y,Log Files,Files,3\n", "Average Apply Rate"),
        (
            b"DBID,INSTANCE_NUMBER,SNAP_ID,END_INTERVAL_TIME,REDO_SIZE\n"
            b"1,1,10,2024-01-01 10:00:00,abc\n",
            "line 2",
        ),
        (
            b"DBID,INSTANCE_NUMBER,SNAP_ID,END_INTERVAL_TIME,REDO_SIZE\n"
            b"1,1,10,2024-01-01 10:00:00,100\n",
            "no two consecutive snapshots",
        ),
    ],
)
def test_bad_exports_name_file_and_reason(data: bytes, words: str) -> None:
    with pytest.raises(CsvImportError) as info:
        read_export_bytes(data, "export.csv")
    message = str(info.value)
    assert message.startswith("export.csv")
    assert words in message or words.replace("line ", "export.csv:") in message
