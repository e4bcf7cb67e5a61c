"""Every real report in the sample folder, checked against figures printed in it.

Each expected value below was read in the report itself (the row and the printed text are
given); `test_expected_text_is_printed_in_the_report` re-checks that every printed string
really occurs in its file, so a typo here cannot make a wrong parser pass.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from awr_paths import SAMPLES, sample_path

from rtoplanner.core.importers.reader import parse_file
from rtoplanner.core.units import MiB


def n(printed: str) -> float:
    """A number as the report prints it (`1,399,224.8`) as a float."""
    return float(printed.replace(",", ""))


# Per file: identity, snapshots, and (printed text) Elapsed/DB Time minutes, Load Profile
# per second / per transaction, Instance Activity `redo size` total, log switches total and
# per hour, IO Profile `Redo (MB):` Read+Write per second.
EXPECTED: dict[str, dict] = {
    "1newstar-awr2csv__awr_11204_1.txt": dict(
        kind="awr", layout="instance", format="text", db_name="ORCL", dbid=1380142923,
        instance="orcl1", inst_num=1, version="11.2.0.4.0", host="node1", rac=True,
        snaps=(2, 3), begin=datetime(2014, 7, 10, 4, 0, 45), end=datetime(2014, 7, 10, 5, 0, 58),
        elapsed="60.22", db_time="0.03", redo="477.1", redo_txn="59,441.1", txn="0.0",
        block_changes="1.3", phys_reads="0.0", phys_writes="0.2", logical_reads="5.9",
        executes="1.0", ias_redo="1,723,792", wastage="50,652", switches=("0", ".00"),
        io_redo="0.0",
    ),
    "1newstar-awr2csv__awr_11204_1.html": dict(
        kind="awr", layout="instance", format="html", db_name="ORCL", dbid=1380142923,
        instance="orcl1", inst_num=1, version="11.2.0.4.0", host="node1", rac=True,
        snaps=(2, 3), begin=datetime(2014, 7, 10, 4, 0, 45), end=datetime(2014, 7, 10, 5, 0, 58),
        elapsed="60.22", db_time="0.03", redo="477.1", redo_txn="59,441.1", txn="0.0",
        block_changes="1.3", phys_reads="0.0", phys_writes="0.2", logical_reads="5.9",
        executes="1.0", ias_redo="1,723,792", wastage="50,652", switches=("0", "0.00"),
        io_redo="0.0",
    ),
    "1newstar-awr2csv__awr_11204_2.txt": dict(
        kind="awr", layout="instance", format="text", db_name="ORCL", dbid=1380142923,
        instance="orcl2", inst_num=2, version="11.2.0.4.0", host="node2", rac=True,
        snaps=(2, 3), begin=datetime(2014, 7, 10, 4, 0, 45), end=datetime(2014, 7, 10, 5, 0, 58),
        elapsed="60.22", db_time="0.03", redo="730.5", redo_txn="11,836.1", txn="0.1",
        block_changes="4.7", phys_reads="1.3", phys_writes="0.7", ias_redo="2,639,460",
        wastage="126,336", switches=("0", ".00"), io_redo="0.0",
    ),
    "1newstar-awr2csv__awr_11204_2.html": dict(
        kind="awr", layout="instance", format="html", db_name="ORCL", dbid=1380142923,
        instance="orcl2", inst_num=2, version="11.2.0.4.0", host="node2", rac=True,
        snaps=(2, 3), begin=datetime(2014, 7, 10, 4, 0, 45), end=datetime(2014, 7, 10, 5, 0, 58),
        elapsed="60.22", db_time="0.03", redo="730.5", redo_txn="11,836.1", txn="0.1",
        block_changes="4.7", phys_reads="1.3", phys_writes="0.7", ias_redo="2,639,460",
        wastage="126,336", switches=("0", "0.00"), io_redo="0.0",
    ),
    "Azure-Oracle-Workloads-for-Azure__AWR_DBS.html": dict(
        kind="awr", layout="instance", format="html", db_name="DBS", dbid=2494196594,
        instance="dbs1", inst_num=1, version="12.2.0.1.0", host="tk08db.dummyhost.com",
        rac=True, snaps=(132132, 132420), begin=datetime(2022, 1, 23, 10, 0, 39),
        end=datetime(2022, 1, 26, 10, 0, 35), elapsed="4,319.92", db_time="7,389.87",
        redo="1,399,224.8", redo_txn="4,386,091.3", txn="0.3", block_changes="7,244.0",
        phys_reads="9,678.4", phys_writes="562.2", logical_reads="64,150.1",
        ias_redo="362,672,730,488", switches=("339", "4.71"), io_redo="2.8",
    ),
    "Azure-Oracle-Workloads-for-Azure__AWR_DBT.html": dict(
        kind="awr", layout="instance", format="html", db_name="DBT", dbid=1859718564,
        instance="dbt1", inst_num=1, version="12.2.0.1.0", rac=True,
        snaps=(163059, 163347), begin=datetime(2022, 1, 23, 10, 0, 8),
        end=datetime(2022, 1, 26, 10, 0, 12), elapsed="4,320.07", db_time="15,319.59",
        redo="2,280,751.2", redo_txn="6,021,201.3", txn="0.4", block_changes="9,146.1",
        phys_reads="16,498.7", phys_writes="482.7", ias_redo="591,179,610,612",
        switches=("354", "4.92"), io_redo="4.5",
    ),
    "Lucky29011-reports__awr.html": dict(
        kind="awr", layout="instance", format="html", db_name="DVK", dbid=2742271753,
        instance="DVK", inst_num=1, version="19.0.0.0.0", host="oemstar.com", rac=False,
        snaps=(5, 7), begin=datetime(2024, 10, 20, 19, 51, 14),
        end=datetime(2024, 10, 20, 21, 48, 53), elapsed="117.66", db_time="0.24",
        redo="1,454.9", redo_txn="427,966.0", txn="0.0", block_changes="6.6",
        phys_reads="0.4", phys_writes="0.3", ias_redo="10,271,184", switches=("0", "0.00"),
    ),
    "eyko139-awr_reports__AIMS_AWR.html": dict(
        kind="awr", layout="instance", format="html", db_name="AIMSDB", dbid=4253805188,
        instance="AIMSDB", inst_num=1, version="12.2.0.1.0", host="azvaimsproddb1", rac=False,
        snaps=(38483, 38484), begin=datetime(2020, 9, 27, 11, 0, 13),
        end=datetime(2020, 9, 27, 12, 0, 28), elapsed="60.25", db_time="5.89",
        redo="13,437.2", redo_txn="19,617.7", txn="0.7", block_changes="79.4",
        phys_reads="0.9", phys_writes="2.8", ias_redo="48,573,408", switches=("1", "1.00"),
    ),
    "pcambell-awrrptanalyzor__11g_awrrpt_1_36006_36007.html": dict(
        kind="awr", layout="instance", format="html", db_name="XYDB", dbid=1932768254,
        instance="xydb", inst_num=1, version="11.2.0.4.0", host="localhost.localdomain",
        rac=False, snaps=(36006, 36007), begin=datetime(2023, 12, 12, 17, 0, 31),
        end=datetime(2023, 12, 12, 18, 0, 37), elapsed="60.09", db_time="111.32",
        redo="5,215,426.4", redo_txn="204,892.4", txn="25.5", block_changes="8,256.2",
        phys_reads="71,457.6", phys_writes="595.5", ias_redo="18,805,022,864",
        switches=("42", "41.93"), io_redo="10.3",
    ),
    "pcambell-awrrptanalyzor__11g_rac_awrrpt_1_24703_24704.html": dict(
        kind="awr", layout="instance", format="html", db_name="XYDB", dbid=1882826147,
        instance="xydb1", inst_num=1, version="11.2.0.4.0", host="db1", rac=True,
        snaps=(24703, 24704), begin=datetime(2021, 2, 28, 12, 26, 45),
        end=datetime(2021, 2, 28, 13, 3, 45), elapsed="37.01", db_time="37,825.75",
        redo="86,223.3", redo_txn="9,475.8", txn="9.1", block_changes="164.4",
        phys_reads="9,487.5", phys_writes="571.6", ias_redo="191,449,928",
        switches=("1", "1.62"), io_redo="0.4",
    ),
    "pcambell-awrrptanalyzor__19c_rac_awr_xydb_1_20230217_8_9.html": dict(
        kind="awr", layout="instance", format="html", db_name="XYDB", dbid=1971498938,
        instance="xydb1", inst_num=1, version="19.0.0.0.0", host="jcpt-rac1", rac=True,
        snaps=(18346, 18347), begin=datetime(2023, 2, 17, 8, 0, 5),
        end=datetime(2023, 2, 17, 9, 0, 22), elapsed="60.28", db_time="167.36",
        redo="312,745.2", redo_txn="20,864.6", txn="15.0", block_changes="3,511.0",
        phys_reads="81.3", phys_writes="87.6", ias_redo="1,131,109,376",
        switches=("55", "54.75"), io_redo="1.6",
    ),
    "pcambell-awrrptanalyzor__19c_rac_awrrpt_1_9691_9692.html": dict(
        kind="awr", layout="instance", format="html", db_name="XYDB", dbid=1971498938,
        instance="xydb1", inst_num=1, version="19.0.0.0.0", host="jcpt-rac1", rac=True,
        snaps=(9691, 9692), begin=datetime(2022, 2, 21, 17, 0, 9),
        end=datetime(2022, 2, 21, 18, 0, 6), elapsed="59.94", db_time="94.77",
        redo="157,922.0", redo_txn="17,083.7", txn="9.2", block_changes="1,548.8",
        phys_reads="32.6", phys_writes="45.0", ias_redo="567,947,504",
        switches=("28", "28.03"), io_redo="0.6",
    ),
    "sarthi2020-AWR-reports__awr_rpt_1.html": dict(
        kind="awr", layout="instance", format="html", db_name="DB1UAT", dbid=3002120671,
        instance="DB1UAT", inst_num=1, version="11.2.0.3.0", rac=False,
        snaps=(42809, 42810), begin=datetime(2018, 10, 15, 18, 30, 16),
        end=datetime(2018, 10, 15, 19, 30, 32), elapsed="60.27", db_time="721.35",
        redo="291,450.0", redo_txn="2,027.9", txn="143.7", block_changes="1,623.6",
        phys_reads="53,593.8", phys_writes="91.1", ias_redo="1,053,974,268",
        switches=("1", "1.00"), io_redo=None,
    ),
    "sarthi2020-AWR-reports__awr_rpt_2.html": dict(
        kind="awr", layout="instance", format="html", db_name="RECEIPT", dbid=1431238624,
        instance="RECEIPT", inst_num=1, version="12.1.0.2.0", rac=False,
        snaps=(173494, 173496), begin=datetime(2018, 1, 11, 9, 30, 36),
        end=datetime(2018, 1, 11, 10, 30, 50), elapsed="60.24", db_time="229.98",
        redo="26,531.4", redo_txn="2,029.1", txn="13.1", block_changes="139.7",
        phys_reads="5,375.5", phys_writes="31.4", ias_redo="95,898,108", switches=("3", "2.99"),
    ),
    "sarthi2020-AWR-reports__awr_rpt_3.html": dict(
        kind="awr", layout="instance", format="html", db_name="RECEIPT", dbid=1431238624,
        instance="RECEIPT", snaps=(173498, 173500), begin=datetime(2018, 1, 11, 11, 30, 5),
        end=datetime(2018, 1, 11, 12, 31, 35), elapsed="61.49", db_time="5,003.12",
        redo="22,447.4", redo_txn="1,701.9", txn="13.2", block_changes="118.7",
        phys_reads="3,004.8", phys_writes="31.6", ias_redo="82,813,920", switches=("3", "2.93"),
    ),
    "sarthi2020-AWR-reports__awr_rpt_4.html": dict(
        kind="awr", layout="instance", format="html", db_name="RECEIPT", dbid=1431238624,
        instance="RECEIPT", snaps=(173496, 173498), begin=datetime(2018, 1, 11, 10, 30, 50),
        end=datetime(2018, 1, 11, 11, 30, 5), elapsed="59.25", db_time="690.40",
        redo="29,211.1", redo_txn="1,937.3", txn="15.1", block_changes="159.3",
        phys_reads="3,136.4", phys_writes="36.2", ias_redo="103,847,176", switches=("5", "5.06"),
    ),
    "therealkevinc-AWRS__awr.html": dict(
        kind="awr", layout="instance", format="html", db_name="SLOB2", dbid=3926536870,
        instance="SLOB2", inst_num=1, version="12.2.0.1.0", host="localhost.local.com",
        rac=False, snaps=(400, 401), begin=datetime(2018, 10, 11, 20, 3, 11),
        end=datetime(2018, 10, 11, 20, 25, 0), elapsed="21.82", db_time="1,368.27",
        redo="4,567.7", redo_txn="37,141.3", txn="0.1", block_changes="186.7",
        phys_reads="64,077.9", phys_writes="1.8", ias_redo="5,979,756", switches=("0", "0.00"),
    ),
    "TheYanVictor-Statspack_scan.py__statspack_example.txt": dict(
        kind="statspack", layout="statspack", format="text", db_name="IGT", dbid=1066102538,
        instance="igt", inst_num=1, version="11.2.0.4.0", host="my_server-aps-1", rac=False,
        snaps=(6693, 6723), begin=datetime(2016, 1, 31, 0, 0, 3),
        end=datetime(2016, 2, 1, 0, 0, 2), elapsed="1,439.98", db_time="10.30",
        redo="11,431.3", redo_txn="20,020.5", txn="0.6", block_changes="51.1",
        phys_reads="17.5", phys_writes="2.0", logical_reads="302.2", executes="21.2",
        ias_redo="987,650,724", wastage="23,901,100", switches=("48", "2.00"),
    ),
}  # fmt: skip

# Global RAC reports (awrgrpt): redo is the `Sum` row of "System Statistics - Per Second",
# printed in KiB/s; one-instance reports have no Sum row and use the instance's row.
GLOBAL_EXPECTED: dict[str, dict] = {
    "Azure-Oracle-Workloads-for-Azure__AWR_DBU.html": dict(
        db_name="DBU", dbid=3128649325, instances=("DBU1", "DBU2"), version="19.0.0.0.0",
        snaps=(15883, 16027), begin=datetime(2023, 2, 15, 0, 0), end=datetime(2023, 2, 21, 0, 0),
        elapsed="8,640.20", db_time="58,744.58",
        # I# 1 | 2 | Sum rows, columns Redo Size (k)/s and Txns/s
        inst_redo_kib=("1,638.71", "1,562.24"), redo_kib="3,200.95", txn="282.99",
        block_changes="14,909.00", phys_reads="83,087.93", phys_writes="1,661.72",
        ias_redo="1,699,237,790,460", io_redo="3.13",
    ),
    "therealkevinc-AWRS__awr_rac.html": dict(
        db_name="SLOB2", dbid=3926536870, instances=("SLOB2",), version="12.2.0.1.0",
        snaps=(400, 401), begin=datetime(2018, 10, 11, 20, 3), end=datetime(2018, 10, 11, 20, 25),
        elapsed="21.82", db_time="1,368.27", inst_redo_kib=("4.46",), redo_kib="4.46",
        txn="0.12", block_changes="186.71", phys_reads="64,077.91", phys_writes="1.83",
        ias_redo="5,979,756", io_redo="0.00",
    ),
}  # fmt: skip

_PRINTED_KEYS = (
    "elapsed", "db_time", "redo", "redo_txn", "txn", "block_changes", "phys_reads",
    "phys_writes", "logical_reads", "executes", "ias_redo", "wastage", "io_redo", "redo_kib",
)  # fmt: skip


def test_every_sample_is_covered() -> None:
    """A sample added to the shared folder without expectations here fails loudly."""
    if not SAMPLES.exists():
        pytest.skip(f"{SAMPLES} is absent")
    names = {p.name for p in SAMPLES.iterdir() if p.suffix in (".html", ".txt")}
    assert names == set(EXPECTED) | set(GLOBAL_EXPECTED)


@pytest.mark.parametrize("name", sorted({**EXPECTED, **GLOBAL_EXPECTED}))
def test_expected_text_is_printed_in_the_report(name: str) -> None:
    exp = {**EXPECTED, **GLOBAL_EXPECTED}[name]
    text = sample_path(name).read_text(encoding="utf-8", errors="replace")
    for key in _PRINTED_KEYS:
        if exp.get(key):
            assert exp[key] in text, (key, exp[key])
    for printed in exp.get("switches", ()) + exp.get("inst_redo_kib", ()):
        assert printed in text


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_instance_and_statspack_samples(name: str) -> None:
    exp = EXPECTED[name]
    (r,) = parse_file(sample_path(name))
    assert (r.kind, r.layout, r.format) == (exp["kind"], exp["layout"], exp["format"])
    for key in ("db_name", "dbid", "instance", "inst_num", "version", "host", "rac"):
        if key in exp:
            assert getattr(r, key) == exp[key], key
    assert (r.begin_snap, r.end_snap) == exp["snaps"]
    assert (r.begin, r.end) == (exp["begin"], exp["end"])
    assert r.elapsed_s == pytest.approx(n(exp["elapsed"]) * 60)
    assert r.db_time_s == pytest.approx(n(exp["db_time"]) * 60)
    assert r.redo_bytes_per_s == n(exp["redo"])
    assert r.redo_bytes_per_txn == n(exp["redo_txn"])
    assert r.txn_per_s == n(exp["txn"])
    assert r.block_changes_per_s == n(exp["block_changes"])
    assert r.physical_reads_per_s == n(exp["phys_reads"])
    assert r.physical_writes_per_s == n(exp["phys_writes"])
    if "logical_reads" in exp:
        assert r.logical_reads_per_s == n(exp["logical_reads"])
    if "executes" in exp:
        assert r.executes_per_s == n(exp["executes"])
    assert r.redo_size_bytes == n(exp["ias_redo"])
    if "wastage" in exp:
        assert r.redo_wastage_bytes == n(exp["wastage"])
    assert (r.log_switches, r.log_switches_per_hour) == tuple(n(s) for s in exp["switches"])
    if "io_redo" in exp:
        if exp["io_redo"] is None:  # 11.2.0.3 has no IO Profile
            assert r.io_redo_bytes_per_s is None
        else:
            assert r.io_redo_bytes_per_s == pytest.approx(n(exp["io_redo"]) * MiB)
    assert len(r.content_hash) == 64


@pytest.mark.parametrize("name", sorted(GLOBAL_EXPECTED))
def test_global_rac_samples(name: str) -> None:
    exp = GLOBAL_EXPECTED[name]
    (r,) = parse_file(sample_path(name))
    assert (r.kind, r.layout, r.format) == ("awr", "global_rac", "html")
    assert (r.db_name, r.dbid, r.version) == (exp["db_name"], exp["dbid"], exp["version"])
    assert r.instances == exp["instances"]
    assert (r.begin_snap, r.end_snap) == exp["snaps"]
    assert (r.begin, r.end) == (exp["begin"], exp["end"])
    assert r.elapsed_s == pytest.approx(n(exp["elapsed"]) * 60)
    assert r.db_time_s == pytest.approx(n(exp["db_time"]) * 60)
    assert r.redo_bytes_per_s == pytest.approx(n(exp["redo_kib"]) * 1024)
    assert [i.redo_bytes_per_s for i in r.instance_rates] == pytest.approx(
        [n(k) * 1024 for k in exp["inst_redo_kib"]]
    )
    assert [i.instance for i in r.instance_rates] == list(exp["instances"])
    assert r.txn_per_s == n(exp["txn"])
    assert r.block_changes_per_s == n(exp["block_changes"])
    assert r.physical_reads_per_s == n(exp["phys_reads"])
    assert r.physical_writes_per_s == n(exp["phys_writes"])
    assert r.redo_size_bytes == n(exp["ias_redo"])
    assert r.io_redo_bytes_per_s == pytest.approx(n(exp["io_redo"]) * MiB)


def test_global_sum_is_the_sum_of_instances() -> None:
    """DBU: inst 1 1,638.71 + inst 2 1,562.24 = Sum 3,200.95 KiB/s (research §3.6)."""
    (r,) = parse_file(sample_path("Azure-Oracle-Workloads-for-Azure__AWR_DBU.html"))
    total = sum(i.redo_bytes_per_s for i in r.instance_rates)
    assert total == pytest.approx(r.redo_bytes_per_s, abs=0.011 * 1024)


def test_text_and_html_of_the_same_report_agree() -> None:
    for stem in ("1newstar-awr2csv__awr_11204_1", "1newstar-awr2csv__awr_11204_2"):
        (t,) = parse_file(sample_path(stem + ".txt"))
        (h,) = parse_file(sample_path(stem + ".html"))
        for key in (
            "db_name", "dbid", "instance", "begin_snap", "end_snap", "begin", "end",
            "elapsed_s", "redo_bytes_per_s", "txn_per_s", "block_changes_per_s",
            "physical_reads_per_s", "physical_writes_per_s", "redo_size_bytes",
        ):  # fmt: skip
            assert getattr(t, key) == getattr(h, key), key
        assert t.content_hash != h.content_hash


def test_long_windows_are_flagged() -> None:
    (r,) = parse_file(sample_path("Azure-Oracle-Workloads-for-Azure__AWR_DBS.html"))
    assert any("hides peaks" in w for w in r.warnings)
    (r,) = parse_file(sample_path("1newstar-awr2csv__awr_11204_1.txt"))
    assert r.warnings == ()


def test_to_dict_is_json_ready() -> None:
    import json

    (r,) = parse_file(sample_path("1newstar-awr2csv__awr_11204_1.txt"))
    d = json.loads(json.dumps(r.to_dict()))
    assert d["begin"] == "2014-07-10T04:00:45"
    assert d["load_profile"]["redo_size"] == {"per_s": 477.1, "per_txn": 59441.1}
