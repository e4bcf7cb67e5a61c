"""Detection by content, truncation, transport damage, and the number/date readers."""

from __future__ import annotations

import gzip
import re
from datetime import datetime

import pytest
from awr_paths import FIXTURES, SYNTHETIC

from rtoplanner.core.errors import CoreError
from rtoplanner.core.importers.errors import (
    NotAReportError,
    ReportError,
    TruncatedReportError,
    UnsupportedReportError,
)
from rtoplanner.core.importers.numbers import month_number, parse_number, parse_oracle_datetime
from rtoplanner.core.importers.reader import parse_bytes, parse_file

TXT = FIXTURES / "1newstar-awr2csv__awr_11204_1.txt"
HTML = FIXTURES / "1newstar-awr2csv__awr_11204_1.html"
RESAVED = FIXTURES / "Azure-Oracle-Workloads-for-Azure__AWR_DBS.html"


def test_detection_ignores_the_file_name(tmp_path) -> None:
    renamed = tmp_path / "monday.csv"
    renamed.write_bytes(TXT.read_bytes())
    (r,) = parse_file(renamed)
    assert (r.kind, r.format, r.redo_bytes_per_s) == ("awr", "text", 477.1)
    renamed = tmp_path / "report.txt"
    renamed.write_bytes(HTML.read_bytes())
    assert parse_file(renamed)[0].format == "html"


@pytest.mark.parametrize(
    ("data", "error", "words"),
    [
        (b"", NotAReportError, "empty"),
        (b"   \n\n", NotAReportError, "empty"),
        (b"name,value\nredo,1\n", NotAReportError, "not an AWR or Statspack report"),
        (gzip.compress(b"WORKLOAD REPOSITORY report for"), NotAReportError, "gzip"),
        (b"%PDF-1.4 ...", NotAReportError, "PDF"),
        (b"\x00\x01\x02binary" * 10, NotAReportError, "binary"),
        (b"ASH Report For ORCL/orcl\n", UnsupportedReportError, "ASH"),
        (b"WORKLOAD REPOSITORY SQL Report\n", UnsupportedReportError, "SQL report"),
    ],
)
def test_not_a_report(data: bytes, error: type, words: str) -> None:
    with pytest.raises(error, match=re.escape(words)) as info:
        parse_bytes(data, "some/file.txt")
    assert str(info.value).startswith("some/file.txt: ")
    assert isinstance(info.value, CoreError)


def test_missing_file_names_it(tmp_path) -> None:
    with pytest.raises(ReportError, match="no such file") as info:
        parse_file(tmp_path / "nope.html")
    assert "nope.html" in str(info.value)


def _cut_before(data: bytes, marker: bytes) -> bytes:
    return data[: data.index(marker)]


@pytest.mark.parametrize(
    ("path", "marker", "what"),
    [
        (TXT, b"Load Profile", "Load Profile"),
        (TXT, b"Begin Snap:", "Begin Snap"),
        (TXT, b"   Elapsed:", "Load Profile"),  # elapsed then comes from the snap times
        (TXT, b"      Redo size (bytes):", "Load Profile"),
        (HTML, b"<p />Load Profile", "Load Profile"),
        # cut at the snapshot table: ids come from the title, but no Elapsed time
        (
            HTML,
            b'<table border="0" width="600" class="tdiff" summary="This table displays snap',
            "Elapsed",
        ),
    ],
)
def test_reports_cut_before_the_figures_are_refused(path, marker, what) -> None:
    data = _cut_before(path.read_bytes(), marker)
    with pytest.raises(TruncatedReportError) as info:
        parse_bytes(data, path.name)
    message = str(info.value)
    assert message.startswith(path.name + ": ")
    assert what in message


def test_report_cut_after_the_summary_parses_with_a_warning() -> None:
    data = _cut_before(TXT.read_bytes(), b"Top 10 Foreground Events")
    (r,) = parse_bytes(data, "cut.txt")
    assert r.redo_bytes_per_s == 477.1
    assert r.redo_size_bytes is None
    assert any("End of Report" in w for w in r.warnings)


def test_global_report_without_its_per_second_table_is_refused() -> None:
    path = FIXTURES / "Azure-Oracle-Workloads-for-Azure__AWR_DBU.html"
    data = _cut_before(path.read_bytes(), b'summary="System Statistics"')
    with pytest.raises(TruncatedReportError, match="System Statistics - Per Second"):
        parse_bytes(data, "dbu.html")


def test_crlf_and_lost_form_feeds_change_nothing() -> None:
    data = TXT.read_bytes()
    assert b"\f" in data
    damaged = data.replace(b"\f", b"").replace(b"\n", b"\r\n")
    (a,) = parse_bytes(data, "a.txt")
    (b,) = parse_bytes(damaged, "b.txt")
    assert a.content_hash == b.content_hash
    assert a.to_dict() | {"file": None} == b.to_dict() | {"file": None}


def test_html_without_summary_attributes_uses_the_header_cells() -> None:
    data = RESAVED.read_bytes()
    stripped = re.sub(rb'summary="[^"]*"', b"", data)
    assert b"summary=" not in stripped
    (a,) = parse_bytes(data, "a.html")
    (b,) = parse_bytes(stripped, "b.html")
    for key in ("dbid", "instance", "begin_snap", "end", "elapsed_s", "redo_bytes_per_s",
                "txn_per_s", "physical_reads_per_s", "redo_size_bytes"):  # fmt: skip
        assert getattr(a, key) == getattr(b, key), key


def test_lower_case_markup_and_upper_case_markup_agree() -> None:
    data = RESAVED.read_bytes()
    assert b"<TABLE class=tdiff" in data
    (a,) = parse_bytes(data, "upper.html")
    (b,) = parse_bytes(data.lower().replace(b"workload repository", b"WORKLOAD REPOSITORY"), "l")
    assert a.redo_bytes_per_s == b.redo_bytes_per_s


def test_unknown_month_names_keep_the_report_and_warn() -> None:
    data = (SYNTHETIC / "awr_19c_text.txt").read_bytes().replace(b"-Mar-24", b"-Xyz-24")
    (r,) = parse_bytes(data, "x.txt")
    assert r.begin is None and r.end is None
    assert r.elapsed_s == pytest.approx(60.25 * 60)
    assert any("not understood" in w for w in r.warnings)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,399,224.8", 1399224.8),
        ("  .9", 0.9),
        ("3.32929172E+09", 3.32929172e09),
        ("1.E+03", 1000.0),
        ("1.0E+02", 100.0),
        ("-12.5", -12.5),
        ("27.9K", 27900.0),
        ("##############", None),
        ("\xa0", None),
        ("", None),
        (None, None),
        ("n/a", None),
    ],
)
def test_parse_number(text, value) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("23-Apr-14 18:30:05", datetime(2014, 4, 23, 18, 30, 5)),
        ("23-Apr-14 18:30:05 (Wed)", datetime(2014, 4, 23, 18, 30, 5)),
        ("16-2月 -13 05:00:50", datetime(2013, 2, 16, 5, 0, 50)),
        ("01-Mär-23 08:00:01", datetime(2023, 3, 1, 8, 0, 1)),
        ("12-MAI-21 10:00", datetime(2021, 5, 12, 10, 0)),
        ("03-déc.-19 23:59:59", datetime(2019, 12, 3, 23, 59, 59)),
        ("07-окт-22 01:02:03", datetime(2022, 10, 7, 1, 2, 3)),
        ("5-10월-22 09:00:00", datetime(2022, 10, 5, 9, 0)),
        ("2024-03-04 09:00:12", datetime(2024, 3, 4, 9, 0, 12)),
        ("31-Feb-14 18:30:05", None),
        ("yesterday", None),
    ],
)
def test_parse_oracle_datetime(text, when) -> None:
    assert parse_oracle_datetime(text) == when


def test_month_numbers() -> None:
    assert [month_number(m) for m in ("Jan", "févr.", "MRZ", "Okt", "dic", "12")] == [
        1, 2, 3, 10, 12, 12,
    ]  # fmt: skip
    assert month_number("Foo") is None
