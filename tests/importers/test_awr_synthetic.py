"""Layouts no public sample shows, in small reports written for these tests.

Each file in tests/fixtures/awr/synthetic imitates one layout the research notes describe
(10g text with two Load Profile columns and Japanese month names, 12c+ and 23ai text,
SQL*Plus-spooled text with OUTPUT headings inside the Load Profile, PDB reports, global RAC
text, compare-period text and HTML, Statspack with CRLF, no form feeds, German months and
`####` overflow, a browser-resaved 21c PDB HTML). The expected values are the ones printed
in those files.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from awr_paths import SYNTHETIC

from rtoplanner.core.importers.reader import parse_file


def one(name: str):
    reports = parse_file(SYNTHETIC / name)
    assert len(reports) == 1
    return reports[0]


def test_10g_text_two_columns_and_japanese_months() -> None:
    r = one("awr_10g_text_ja.txt")
    assert (r.kind, r.layout, r.format) == ("awr", "instance", "text")
    assert (r.db_name, r.dbid, r.instance, r.inst_num) == ("ORCL10", 987654321, "orcl10", 1)
    assert (r.version, r.rac, r.host) == ("10.2.0.4.0", False, "dbhost10")
    assert (r.begin_snap, r.end_snap) == (101, 102)
    assert r.begin == datetime(2013, 2, 16, 5, 0, 50)  # "16-2月 -13 05:00:50"
    assert r.end == datetime(2013, 2, 16, 6, 0, 52)
    assert r.elapsed_s == pytest.approx(60.03 * 60)
    assert (r.redo_bytes_per_s, r.redo_bytes_per_txn) == (68225.00, 12794.53)
    assert (r.txn_per_s, r.block_changes_per_s) == (5.33, 402.17)
    assert (r.physical_reads_per_s, r.physical_writes_per_s) == (35.60, 12.90)
    assert (r.logical_reads_per_s, r.executes_per_s) == (4512.33, 140.77)
    assert (r.redo_size_bytes, r.redo_wastage_bytes) == (245732140, 9120400)
    assert (r.log_switches, r.log_switches_per_hour) == (4, 4.00)


def test_19c_text_with_io_profile_and_form_feeds() -> None:
    r = one("awr_19c_text.txt")
    assert (r.db_name, r.dbid, r.instance, r.inst_num) == ("PROD19", 2233445566, "prod19", 1)
    assert (r.version, r.rac, r.host) == ("19.0.0.0.0", False, "dbhost19")
    assert (r.begin, r.end) == (datetime(2024, 3, 4, 9, 0, 12), datetime(2024, 3, 4, 10, 0, 27))
    assert r.elapsed_s == pytest.approx(60.25 * 60)
    assert r.db_time_s == pytest.approx(341.80 * 60)
    assert (r.redo_bytes_per_s, r.redo_bytes_per_txn) == (4812337.6, 61420.8)
    assert (r.txn_per_s, r.block_changes_per_s) == (78.4, 25117.9)
    assert (r.physical_reads_per_s, r.physical_writes_per_s) == (12004.3, 1876.5)
    assert r.redo_size_bytes == 17396600448
    assert r.redo_wastage_bytes == 881420332
    assert (r.redo_blocks_written, r.redo_writes) == (35702114, 758902)
    assert (r.log_switches, r.log_switches_per_hour) == (17, 16.93)
    assert r.io_redo_bytes_per_s == pytest.approx(9.4 * 1024 * 1024)
    assert r.io_redo_write_bytes_per_s == pytest.approx(4.8 * 1024 * 1024)


def test_23ai_text_spooled_from_sqlplus() -> None:
    """OUTPUT headings and blank lines inside the Load Profile; E-notation redo."""
    r = one("awr_23ai_text_sqlplus.txt")
    assert (r.db_name, r.dbid, r.instance, r.version) == (
        "FREE23",
        3141592653,
        "free231",
        "23.0.0.0.0",
    )
    assert r.rac is True
    assert (r.begin_snap, r.end_snap) == (812, 813)
    assert r.redo_bytes_per_s == 1.23456789e07
    assert r.redo_bytes_per_txn == 246913.6
    assert (r.block_changes_per_s, r.physical_writes_per_s) == (61200.5, 5004.8)
    assert (r.executes_per_s, r.txn_per_s) == (9870.1, 50.0)
    keys = {row.key for row in r.load_profile}
    assert {"gc_blocks_received", "gc_blocks_served"} <= keys  # "RAC GC blocks ..." labels
    assert r.redo_size_bytes == 2.2236e10


def test_pdb_text_report() -> None:
    r = one("awr_pdb_19c_text.txt")
    assert (r.layout, r.db_name, r.container) == ("pdb", "CDB19", "SALESPDB")
    assert (r.redo_bytes_per_s, r.redo_bytes_per_txn) == (2.4, 54.7)
    assert r.io_redo_bytes_per_s is None  # blank in PDB reports
    assert any("PDB" in w for w in r.warnings)


def test_21c_pdb_html_resaved_by_a_browser() -> None:
    """Upper-case tags, unquoted attributes, &nbsp;, a script holding "<table>"."""
    r = one("awr_21c_pdb_resaved.html")
    assert (r.layout, r.format) == ("pdb", "html")
    assert (r.db_name, r.dbid, r.version, r.container) == (
        "CDB21",
        2121212121,
        "21.0.0.0.0",
        "HRPDB",
    )
    assert (r.instance, r.inst_num, r.host) == ("cdb21", 1, "hr21host")
    assert (r.begin_snap, r.end_snap, r.elapsed_s) == (900, 901, 3600.0)
    assert (r.redo_bytes_per_s, r.redo_bytes_per_txn, r.txn_per_s) == (3912.6, 4420.9, 0.9)
    assert r.logical_reads_per_s == 1.2e03
    assert r.io_redo_bytes_per_s is None


def test_global_rac_text() -> None:
    r = one("awrgrpt_19c_text.txt")
    assert (r.layout, r.db_name, r.dbid, r.rac) == ("global_rac", "ERPRAC", 4455667788, True)
    assert r.instances == ("erprac1", "erprac2")
    assert (r.begin_snap, r.end_snap) == (7201, 7202)
    assert (r.begin, r.end) == (datetime(2023, 5, 8, 13, 0), datetime(2023, 5, 8, 14, 0))
    assert r.elapsed_s == pytest.approx(60.10 * 60)
    assert r.redo_bytes_per_s == pytest.approx(3584.5 * 1024)  # Sum row, KiB/s
    assert [i.redo_bytes_per_s for i in r.instance_rates] == [2048.0 * 1024, 1536.5 * 1024]
    assert (r.txn_per_s, r.block_changes_per_s) == (400.60, 18501.2)
    assert (r.physical_reads_per_s, r.physical_writes_per_s) == (6151.0, 790.8)


def test_compare_text_gives_both_periods() -> None:
    first, second = parse_file(SYNTHETIC / "awrddrpt_11g_text.txt")
    assert (first.layout, first.period, second.period) == ("compare", 1, 2)
    assert (first.begin_snap, first.end_snap, second.begin_snap, second.end_snap) == (
        1822, 1823, 1830, 1831,
    )  # fmt: skip
    assert first.begin == datetime(2014, 4, 23, 18, 30, 5)
    assert second.end == datetime(2014, 4, 24, 18, 45, 4)
    assert first.elapsed_s == pytest.approx(15.03 * 60)
    assert (first.db_time_s, second.db_time_s) == pytest.approx((106.74 * 60, 148.60 * 60))
    assert (first.redo_bytes_per_s, second.redo_bytes_per_s) == (393267.0, 552173.5)
    assert (first.redo_bytes_per_txn, second.redo_bytes_per_txn) == (1931.8, 1933.1)
    assert (first.txn_per_s, second.txn_per_s) == (203.6, 285.6)
    assert (first.physical_writes_per_s, second.physical_writes_per_s) == (300.7, 420.2)
    assert (first.db_name, first.dbid, first.host) == ("DBM11203", 1717171717, "exadb01")
    assert first.content_hash != second.content_hash


def test_compare_html_gives_both_periods() -> None:
    first, second = parse_file(SYNTHETIC / "awrddrpt_12c.html")
    assert (first.format, first.layout) == ("html", "compare")
    assert (first.db_name, first.dbid, first.instance, first.version) == (
        "SHOP", 2020202020, "shop1", "12.1.0.2.0",
    )  # fmt: skip
    assert (first.begin_snap, first.end_snap, second.begin_snap, second.end_snap) == (
        310, 311, 334, 335,
    )  # fmt: skip
    assert first.begin == datetime(2016, 11, 14, 10, 0, 4)
    assert (first.elapsed_s, second.elapsed_s) == pytest.approx((60.10 * 60, 60.03 * 60))
    assert (first.redo_bytes_per_s, second.redo_bytes_per_s) == (812440.7, 1204118.2)
    assert (first.redo_bytes_per_txn, second.redo_bytes_per_txn) == (9870.3, 10211.5)
    assert (first.txn_per_s, second.txn_per_s) == (82.3, 117.9)
    assert (first.block_changes_per_s, second.block_changes_per_s) == (5402.6, 7950.1)


def test_statspack_crlf_without_form_feeds_german_months_and_overflow() -> None:
    raw = (SYNTHETIC / "statspack_19c_crlf_de.txt").read_bytes()
    assert b"\r\n" in raw and b"\f" not in raw
    r = one("statspack_19c_crlf_de.txt")
    assert (r.kind, r.layout) == ("statspack", "statspack")
    assert (r.db_name, r.dbid, r.instance, r.version, r.host) == (
        "LAGER", 3030303030, "lager", "19.0.0.0.0", "lagerhost",
    )  # fmt: skip
    assert (r.begin, r.end) == (datetime(2023, 3, 1, 8, 0, 1), datetime(2023, 3, 1, 8, 30, 1))
    assert (r.elapsed_s, r.db_time_s) == pytest.approx((30.00 * 60, 42.15 * 60))
    assert (r.redo_bytes_per_s, r.redo_bytes_per_txn) == (250880.4, 8362.7)
    assert r.logical_reads_per_s is None  # "##############"
    assert (r.block_changes_per_s, r.physical_reads_per_s) == (1402.5, 310.2)
    assert (r.redo_size_bytes, r.redo_wastage_bytes) == (451584720, 12440332)
    assert (r.log_switches, r.log_switches_per_hour) == (6, 12.00)
