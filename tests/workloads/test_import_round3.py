"""Imported redo that must not silently mislead (issue 25 items 1, 2 and 8).

* 1: a global RAC AWR report stands for instance reports only over the time it covers:
  an old global report must not hide a year of DBA_HIST_SYSSTAT intervals; the shipped
  CSV fixture has a DBID of its own.
* 2: `imports summary` counts the time the reports cover, not first to last, keeps the
  "too little data" note, and a single long report has no busiest hour of its own.
* 8: `imports apply` writes the redo rate in MB/s with four significant figures.
"""

from __future__ import annotations

import csv
import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from workload_helpers import CSV, FIXTURES, SCENARIO, SYNTHETIC, sysstat_csv

from rtoplanner.core.cli import main
from rtoplanner.core.importers.apply import readable_rate
from rtoplanner.core.importers.reader import parse_file
from rtoplanner.core.importers.series import (
    ALL_INSTANCES,
    RedoInterval,
    redo_series,
)
from rtoplanner.core.scenario import load_scenario

GLOBAL_RAC = SYNTHETIC / "awrgrpt_19c_text.txt"  # ERPRAC 4455667788, 2023-05-08 13-14 h
SAMPLES = FIXTURES.parents[3] / "shared" / "awr_samples"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _iv(instance: str, begin: datetime, minutes: float, rate: float) -> RedoInterval:
    end = begin + timedelta(minutes=minutes)
    return RedoInterval("1", instance, begin, end, rate * minutes * 60, dbid=1)


# ----------------------------------------------------------------------------- item 1


def test_an_old_global_report_does_not_hide_later_instance_intervals() -> None:
    g = _iv(ALL_INSTANCES, datetime(2018, 3, 1, 10, 0), 22, 4.46 * 1024)
    later = [
        _iv(inst, datetime(2024, 5, 6, 8 + h), 60, 1e6) for h in range(7) for inst in ("1", "2")
    ]
    s = redo_series([g, *later])
    # 2024: two instances of 1 MB/s each = 2 MB/s, for 7 hours; 2018: 4.46 KiB/s, 22 min
    assert s.avg_Bps == pytest.approx((2e6 * 7 * 3600 + 4.46 * 1024 * 22 * 60) / (7 * 3600 + 1320))
    assert s.avg_Bps > 1.9e6
    assert s.peak_Bps == pytest.approx(2e6)
    assert not any("left out" in w for w in s.warnings)


def test_a_global_report_stands_for_instances_over_its_own_time_only() -> None:
    """Hourly instance intervals 08-12 h; a global report 09:00-10:00 holds both
    instances there: its rate counts in that hour, the instances' elsewhere."""
    insts = [_iv(i, datetime(2024, 5, 6, 8 + h), 60, 1e6) for h in range(4) for i in ("1", "2")]
    g = _iv(ALL_INSTANCES, datetime(2024, 5, 6, 9), 60, 5e6)
    s = redo_series([*insts, g])
    assert [h.redo_bytes_per_s for h in s.hours] == pytest.approx([2e6, 5e6, 2e6, 2e6])
    assert s.covered_s == 4 * 3600
    assert any("overlap global RAC reports" in w for w in s.warnings)


def test_imports_apply_on_global_and_instance_data_of_other_periods(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "s.duckdb")
    export = sysstat_csv(
        tmp_path / "sys.csv", hours=7, instances=2, db_name="ERPRAC", dbid=4455667788,
        start=datetime(2024, 5, 6, 8),
    )  # fmt: skip
    code, out, err = _run(capsys, "import", "--db", db, str(GLOBAL_RAC), str(export))
    assert code == 0, err
    code, out, err = _run(capsys, "imports", "summary", "--db", db, "--json")
    redo = json.loads(out)[0]["redo"]
    assert redo["sources"] == {"awr": 1, "sysstat": 14}
    # the instance data alone: 7 hours of (2 + sin + 1) + (2 + sin + 2) MB/s
    alone = redo_series(parse_instance_intervals(export)).avg_Bps
    (report,) = parse_file(GLOBAL_RAC)
    glob = report.redo_bytes_per_s
    assert redo["avg_Bps"] == pytest.approx((alone * 7 + glob) / 8)  # 7 h and 1 h
    out_toml = tmp_path / "out.toml"
    code, out, err = _run(
        capsys, "imports", "apply", "--db", db, str(SCENARIO), "--database", "ERPRAC",
        "--redo", "avg", "-o", str(out_toml),
    )  # fmt: skip
    assert code == 0, err
    rate = load_scenario(out_toml).database.redo_rate_Bps
    assert rate == pytest.approx(redo["avg_Bps"], rel=5e-4)
    assert rate > 0.9 * alone


def parse_instance_intervals(path: Path) -> list[RedoInterval]:
    from rtoplanner.core.importers.sysstat_csv import load_sysstat_csv

    return load_sysstat_csv(path)


def _sample_dbids() -> set[int]:
    files = [p for p in FIXTURES.rglob("*") if p.suffix in (".txt", ".html")]
    if SAMPLES.is_dir():
        files += [p for p in SAMPLES.iterdir() if p.suffix in (".txt", ".html")]
    dbids = set()
    for path in files:
        try:
            reports = parse_file(path)
        except Exception:  # a sample the parser refuses holds no DBID for this check
            continue
        dbids |= {r.dbid for r in reports if r.dbid is not None}
    return dbids


def test_the_shipped_sysstat_fixture_has_a_dbid_of_its_own() -> None:
    with (CSV / "dba_hist_sysstat_redo.csv").open(encoding="utf-8") as fh:
        ids = {int(row["DBID"]) for row in csv.DictReader(fh)}
    known = _sample_dbids()
    assert known, "no sample report read"
    assert not ids & known


# ----------------------------------------------------------------------------- item 2


def _two_hours_a_year_apart(path: Path) -> Path:
    lines = ["DBID,DB_NAME,INSTANCE_NUMBER,SNAP_ID,END_INTERVAL_TIME,STARTUP_TIME,REDO_SIZE"]
    for snap, when, value in (
        (1, "2023-03-01 10:00:00", 0), (2, "2023-03-01 11:00:00", 3_600_000_000),
        (9001, "2024-02-25 10:00:00", 0), (9002, "2024-02-25 11:00:00", 7_200_000_000),
    ):  # fmt: skip
        startup = "2023-01-01 00:00:00" if snap < 9000 else "2024-01-01 00:00:00"
        lines.append(f"77,SPAN,1,{snap},{when},{startup},{value}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_summary_counts_covered_time_and_keeps_the_short_data_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "s.duckdb")
    code, _, err = _run(
        capsys, "import", "--db", db, str(_two_hours_a_year_apart(tmp_path / "x.csv"))
    )
    assert code == 0, err
    code, out, err = _run(capsys, "imports", "summary", "--db", db)
    assert code == 0, err
    assert "(2 h 00 min of reports over 361 d 1 h, 1 instance)" in out
    assert "note: p95 and peak of only 2 h 00 min of reports say little" in out
    code, out, _ = _run(capsys, "imports", "summary", "--db", db, "--json")
    assert json.loads(out)[0]["redo"]["covered_s"] == 7200


def test_one_long_report_has_no_busiest_hour_of_its_own() -> None:
    """A 24 h Statspack report is one average: every hour has its rate, none is busiest,
    and none is 'usually' busiest either (they used to contradict each other)."""
    day = _iv("1", datetime(2024, 1, 8, 7, 13), 24 * 60, 1_234_567.891)
    s = redo_series([day])
    assert len(s.hours) == 25
    assert s.busiest_hour is None and s.busiest_hour_of_day is None
    two_days = redo_series([day, _iv("1", datetime(2024, 1, 9, 14), 60, 9e6)])
    assert two_days.busiest_hour == datetime(2024, 1, 9, 14)
    assert two_days.busiest_hour_of_day == 14


def test_summary_says_no_hour_stands_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two snapshots 24 h apart: one interval, one average, as a 24 h Statspack report."""
    export = tmp_path / "day.csv"
    export.write_text(
        "DBID,DB_NAME,INSTANCE_NUMBER,SNAP_ID,END_INTERVAL_TIME,STARTUP_TIME,REDO_SIZE\n"
        "88,DAY,1,1,2024-01-08 07:13:00,2024-01-01 00:00:00,1000\n"
        "88,DAY,1,2,2024-01-09 07:13:00,2024-01-01 00:00:00,106666666666\n",
        encoding="utf-8",
    )
    db = str(tmp_path / "s.duckdb")
    code, _, err = _run(capsys, "import", "--db", db, str(export))
    assert code == 0, err
    code, out, _ = _run(capsys, "imports", "summary", "--db", db)
    assert "busiest hour: none stands out" in out
    assert "usually" not in out


# ----------------------------------------------------------------------------- item 8


@pytest.mark.parametrize(
    ("rate", "text"),
    [
        (28439160193.75 / 3600, "7.9 MB/s"),
        (8931851.652222222, "8.932 MB/s"),
        (1111111111.1, "1111 MB/s"),
        (150_000, "0.15 MB/s"),
        (4.46 * 1024, "4.567 KB/s"),
        (477.1, "477.1 B/s"),
        (0.0, "0 B/s"),
    ],
)
def test_a_rate_is_written_as_a_dba_reads_it(rate: float, text: str) -> None:
    assert readable_rate(rate) == text


# ----------------------------------------------------------------------------- DBID


@pytest.mark.parametrize("dbid", ["inf", "9" * 400, "nan", "-5", "12.5", "1e9"])
@pytest.mark.parametrize("kind", ["rman", "sysstat"])
def test_a_dbid_that_is_no_database_id_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, dbid: str, kind: str
) -> None:
    if kind == "rman":
        src = (CSV / "rman_backup_job_details.csv").read_text(encoding="utf-8").splitlines()
        lines = [src[0] + ";DBID;DB_NAME"] + [f"{row};{dbid};PROD" for row in src[1:]]
    else:
        lines = [
            "DBID,DB_NAME,INSTANCE_NUMBER,SNAP_ID,END_INTERVAL_TIME,STARTUP_TIME,REDO_SIZE",
            "1234,X,1,1,2024-01-01 00:00:00,2024-01-01 00:00:00,0",
            f"{dbid},X,1,2,2024-01-01 01:00:00,2024-01-01 00:00:00,100",
        ]
    export = tmp_path / f"{kind}.csv"
    export.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "import", "--db", str(tmp_path / "s.duckdb"), str(export))
    assert code == 1, out + err
    (line,) = err.strip().splitlines()
    where = 2 if kind == "rman" else 3
    assert f"{kind}.csv:{where}: column DBID is " in line and "not a database id" in line
    assert "internal error" not in line and len(line) < 400


# ----------------------------------------------------------------------------- speed


@pytest.mark.parametrize(
    ("db", "instance", "redo"),
    [("1234", "1", 3_600_000_000.0), ('PRÖD"x', "a\\b", 1e-5), ("9", "2", 1.2345678901234567e20)],
)
def test_the_fast_interval_hash_is_the_stored_one(db: str, instance: str, redo: float) -> None:
    """Files imported before the bulk import are still found duplicates."""
    from rtoplanner.core.importers.store_import import _hash, _interval_hash

    iv = RedoInterval(db, instance, datetime(2024, 1, 1), datetime(2024, 1, 1, 1, 0, 5), redo)
    assert _interval_hash(iv) == _hash("sysstat", db, instance, iv.begin, iv.end, redo)


def test_bulk_insert_stores_what_one_insert_per_row_stored(tmp_path: Path) -> None:
    from rtoplanner.core.importers.readfile import read_input
    from rtoplanner.core.importers.store_import import rows_from_bytes
    from rtoplanner.core.store import Store
    from rtoplanner.core.store.workloads import insert_row, insert_rows

    now = datetime(2024, 6, 1, 12)
    rows = []
    for path in (sysstat_csv(tmp_path / "x.csv", hours=5, instances=2), GLOBAL_RAC,
                 CSV / "rman_backup_job_details.csv"):  # fmt: skip
        rows += rows_from_bytes(read_input(path), str(path))[1]
    columns = "* EXCLUDE (id)"
    tables = []
    for name, write in (("one", lambda con: [insert_row(con, r, "f", now) for r in rows]),
                        ("bulk", lambda con: insert_rows(con, rows, "f", now))):  # fmt: skip
        with Store(tmp_path / f"{name}.duckdb") as store:
            store.write(write)
            tables.append(
                store.read(
                    lambda cur: cur.execute(
                        f"SELECT {columns} FROM workload ORDER BY content_hash"
                    ).fetchall()
                )
            )
    assert len(tables[0]) == len(rows) == 10 + 1 + 8  # sysstat, the AWR report, RMAN jobs
    assert tables[0] == tables[1]
