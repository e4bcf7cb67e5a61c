"""V$RMAN_STATUS, V$SESSION_LONGOPS, V$RECOVERY_PROGRESS and RESTORE PREVIEW readers, the
SQL*Plus table reader under them, and the one-line refusal of everything else."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtoplanner.core.importers.errors import ReportError
from rtoplanner.core.importers.longops import load_longops
from rtoplanner.core.importers.preview import load_preview, parse_preview_text, parse_size
from rtoplanner.core.importers.restore_evidence import read_evidence, read_evidence_bytes
from rtoplanner.core.importers.rman_status import load_rman_status
from rtoplanner.core.importers.sqlplus_table import find_text_table

from .conftest import EVIDENCE

GiB = 1024**3


def test_rman_status_gives_times_and_bytes(truth) -> None:
    _, t = truth
    ops = load_rman_status(EVIDENCE / "rman_status_drill.csv")
    assert [o.operation for o in ops] == ["RMAN", "RESTORE", "RESTORE", "RECOVER"]
    big = ops[2]
    assert big.start == t["restore_start"] and big.end == t["restore_end"]
    assert big.data_bytes == 10e12 and big.completed


def test_longops_csv_and_sqlplus_text_read_the_same(truth) -> None:
    csv = load_longops(EVIDENCE / "clock" / "20261011_2230_longops.csv")[0]
    text = load_longops(EVIDENCE / "longops_sqlplus.txt")[0]
    assert csv.at == text.at == datetime(2026, 10, 11, 22, 30, 27)
    pick = lambda s: sorted((r.sid, r.opname, r.sofar, r.totalwork) for r in s.rows)  # noqa: E731
    assert pick(csv) == pick(text)
    agg = csv.of("aggregate_input")
    assert len(agg) == 14 and all(r.block_size == 8192 for r in agg)
    assert sum(r.total_bytes for r in agg) == pytest.approx(10e12, rel=1e-6)
    assert {r.kind for r in csv.rows} == {"aggregate_input", "level0"}


def test_recovery_snapshot_is_placed_in_time() -> None:
    snap = read_evidence(EVIDENCE / "clock" / "20261012_0010_recovery.csv").recovery[0]
    assert snap.at == datetime(2026, 10, 12, 0, 10, 27)
    assert snap.redo_applied_bytes == 126770 * 1024**2 and snap.active_Bps == 62500 * 1024
    assert snap.start == datetime(2026, 10, 11, 23, 32, 22) and snap.log_files == 66


RECOVERY_TEXT = """
SQL> @recovery_snapshot.sql

SNAPSHOT_TIME       START_TIME          TYPE             ITEM                 UNITS          SOFAR
------------------- ------------------- ---------------- -------------------- --------- ----------
2026-10-12 00:10:27 2026-10-11 23:32:22 Media Recovery   Log Files            Files             66
2026-10-12 00:10:27 2026-10-11 23:32:22 Media Recovery   Active Apply Rate    KB/sec         62500
2026-10-12 00:10:27 2026-10-11 23:32:22 Media Recovery   Redo Applied         Megabytes     126770
2026-10-12 00:10:27 2026-10-11 23:32:22 Media Recovery   Elapsed Time         Seconds         2285

4 rows selected.
"""


def test_recovery_snapshot_as_sqlplus_text_reads_as_the_csv() -> None:
    text = read_evidence_bytes(RECOVERY_TEXT.encode(), "r.txt").recovery[0]
    csv = read_evidence(EVIDENCE / "clock" / "20261012_0010_recovery.csv").recovery[0]
    for attr in ("at", "start", "redo_applied_bytes", "active_Bps", "log_files", "elapsed_s"):
        assert getattr(text, attr) == getattr(csv, attr)


def test_preview_counts_sets_volumes_cartridges_and_logs() -> None:
    p = load_preview(EVIDENCE / "preview_prod.txt")
    assert (len(p.of_level("0")), len(p.of_level("1")), len(p.of_level("archivelog"))) == (
        70,
        14,
        16,
    )
    # sizes print to two decimals of GiB: 10 TB within the rounding of 70 sets
    assert sum(s.size_bytes for s in p.of_level("0")) == pytest.approx(10e12, rel=1e-4)
    assert len(p.media) == 30 and p.media[0] == "A00101L4"
    assert p.logs[0] == (1, 48211) and p.logs[-1] == (1, 48410) and len(p.logs) == 200
    assert {s.tag for s in p.of_level("1")} == {"TAG20261011T020003"}
    assert p.start_scn == 15759101234 and not p.summary


def test_preview_summary_has_counts_but_no_sizes() -> None:
    p = load_preview(EVIDENCE / "preview_summary_prod.txt")
    assert p.summary and len(p.of_level("0")) == 70 and len(p.of_level("archivelog")) == 16
    assert all(s.size_bytes is None for s in p.sets)


# The layout of public PREVIEW outputs (11.2 on disk, Full sets without a level; an
# archived-log set; archived logs already on disk; a multi-piece set on tape).
PUBLIC_PREVIEW = """
Starting restore at 13.04.2012 18:51:29
using channel ORA_DISK_1

List of Backup Sets
===================

BS Key  Type LV Size       Device Type Elapsed Time Completion Time
------- ---- -- ---------- ----------- ------------ -------------------
214     Full    191.88M    DISK        00:00:40     13.04.2012 18:46:40
        BP Key: 226   Status: AVAILABLE  Compressed: YES  Tag: FULL_DATABASE_BEFORE_UPGRADE
        Piece Name: /u03/oracle_backups/fra/ORA112/backupset/o1_mf_nnndf_FULL_7rjh18jk_.bkp
    List of Datafiles in backup set 214
    File LV Type Ckp SCN    Ckp Time            Name
    ---- -- ---- ---------- ------------------- ----
    1       Full 8639822    13.04.2012 18:46:00 /u02/oradata/ora112/system01.dbf
    9       Full 8639822    13.04.2012 18:46:00 /u01/app/oracle/product/11.2/dbs/my_data04.dbf

BS Key  Type LV Size       Device Type Elapsed Time Completion Time
------- ---- -- ---------- ----------- ------------ ---------------
1234    Incr 0  1.20T      SBT_TAPE    02:10:00     11-OCT-26
  List of Backup Pieces for backup set 1234 Copy #1
  BP Key  Pc# Status      Media                   Piece Name
  ------- --- ----------- ----------------------- ----------
  5678    1   AVAILABLE   A00012L8                abc_1_1
  5679    2   AVAILABLE   A00013L8                abc_2_1
  List of Datafiles in backup set 1234
  File LV Type Ckp SCN    Ckp Time  Name
  ---- -- ---- ---------- --------- ----
  7    0  Incr 3435417    11-OCT-26 /u01/oradata/users01.dbf

BS Key  Size       Device Type Elapsed Time Completion Time
------- ---------- ----------- ------------ ---------------
5       143.22M    DISK        00:00:05     14-MAY-18
        BP Key: 5   Status: AVAILABLE  Compressed: NO  Tag: TAG20180514T065904
        Piece Name: D:\\APP\\DATABASE\\05T2ROTO_1_1
  List of Archived Logs in backup set 5
  Thrd Seq     Low SCN    Low Time  Next SCN   Next Time
  ---- ------- ---------- --------- ---------- ---------
  1    589     1945561    17-APR-14 1946270    17-APR-14

List of Archived Log Copies for database with db_unique_name ORA112
=====================================================================

Key     Thrd Seq     S Low Time
------- ---- ------- - -------------------
295     1    590     A 13.04.2012 18:45:06
        Name: /u02/oradata/ora112/archivelogs/1_242_0767676036.arc

Media recovery start SCN is 8639788
Recovery must be done beyond SCN 8639822 to clear datafile fuzziness
Finished restore at 13.04.2012 18:51:29
"""


def test_public_preview_layouts() -> None:
    p = parse_preview_text(PUBLIC_PREVIEW, "p.txt")
    full, tape, arch = p.sets
    assert (full.level, full.size_bytes, full.compressed, full.files) == (
        "0",
        191.88 * 1024**2,
        True,
        2,
    )
    assert (tape.level, tape.pieces, tape.media, tape.device) == (
        "0",
        2,
        ("A00012L8", "A00013L8"),
        "SBT_TAPE",
    )
    assert tape.size_bytes == pytest.approx(1.2 * 1024**4)
    assert (arch.level, arch.logs) == ("archivelog", ((1, 589),))
    assert p.disk_logs == ((1, 590),) and p.logs == ((1, 589), (1, 590))
    assert (p.start_scn, p.beyond_scn) == (8639788, 8639822)


def test_sizes_are_rman_binary_units() -> None:
    assert parse_size("1.64G") == 1.64 * GiB and parse_size("512K") == 512 * 1024
    assert parse_size("12") == 12 and parse_size("1,2G") is None


def test_sqlplus_table_with_pages_repeating_the_header() -> None:
    text = (
        "\nOPNAME                 SOFAR\n---------------------- -----\nRMAN: aggregate input     5\n"  # noqa: E501
        "\nOPNAME                 SOFAR\n---------------------- -----\nRMAN: full datafile re    7\n"  # noqa: E501
        "\n2 rows selected.\n"
    )
    t = find_text_table(text)
    assert t is not None and t.columns == ("OPNAME", "SOFAR")
    assert [r["OPNAME"] for _, r in t.rows] == ["RMAN: aggregate input", "RMAN: full datafile re"]
    assert [n for n, _ in t.rows] == [4, 8]


@settings(max_examples=80)
@given(
    st.lists(
        st.tuples(
            st.text("ABC: xyz", min_size=1, max_size=14).map(str.strip).filter(bool),
            st.integers(0, 10**9),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_sqlplus_table_reads_back_what_was_printed(rows: list[tuple[str, int]]) -> None:
    w = max(6, *(len(a) for a, _ in rows))
    lines = [f"{'OPNAME':{w}} {'SOFAR':>10}", f"{'-' * w} {'-' * 10}"]
    lines += [f"{a:{w}} {b:>10}" for a, b in rows]
    t = find_text_table("\n".join(lines))
    assert [(r["OPNAME"], int(r["SOFAR"])) for _, r in t.rows] == rows


# ------------------------------------------------------------------------- bad input

BAD = [
    (b"", "empty file"),
    (b"\x00\x01\x02binary", "binary file"),
    (b"%PDF-1.7 not evidence", "not restore evidence"),
    (b"a,b,c\n1,2,3\n", "not restore evidence"),
    (
        b"OPNAME,SOFAR,TOTALWORK,SNAPSHOT_TIME\nRMAN: aggregate input,x,10,2026-10-11 22:00:00\n",
        "SOFAR is 'x', not a number",
    ),
    (
        b"OPNAME,SOFAR,TOTALWORK,SNAPSHOT_TIME\nRMAN: aggregate input,-5,10,2026-10-11 22:00:00\n",
        "cannot be negative",
    ),
    (b"OPNAME,SOFAR,TOTALWORK\nRMAN: aggregate input,5,10\n", "without SNAPSHOT_TIME"),
    (
        b"OPNAME,SOFAR,TOTALWORK,SNAPSHOT_TIME\nRMAN: aggregate input,5,10,yesterday\n",
        "SNAPSHOT_TIME is 'yesterday'",
    ),
    (
        b"ROW_TYPE,OPERATION,STATUS,START_TIME,END_TIME\nCOMMAND,RESTORE,COMPLETED,"
        b"2026-10-11 22:00:00,2026-10-11 21:00:00\n",
        "END_TIME 2026-10-11 21:00:00 is before",
    ),
    (b"ITEM,UNITS,SOFAR\nRedo Applied,Megabytes,100\n", "when were they taken"),
    (
        b"START_TIME,ITEM,UNITS,SOFAR,SNAPSHOT_TIME\n2026-10-11 22:00:00,Redo Applied,Megabytes,-1,"
        b"2026-10-11 22:10:00\n",
        "Redo Applied is negative",
    ),
    (b"List of Backup Sets\n===\n\nMedia recovery start SCN is 5\n", "not RESTORE"),
]


@pytest.mark.parametrize(("data", "reason"), BAD)
def test_bad_evidence_is_refused_in_one_line_naming_the_file(data: bytes, reason: str) -> None:
    with pytest.raises(ReportError) as e:
        read_evidence_bytes(data, "drill/evidence.csv")
    msg = str(e.value)
    assert msg.startswith("drill/evidence.csv") and reason in msg and "\n" not in msg


def test_bad_value_names_its_line() -> None:
    data = (
        b"OPNAME,SOFAR,TOTALWORK,SNAPSHOT_TIME\nRMAN: aggregate input,5,10,2026-10-11 22:00:00\n"
        b"RMAN: aggregate input,5,ten,2026-10-11 22:00:00\n"
    )
    with pytest.raises(ReportError, match=r"^x\.csv:3: TOTALWORK is 'ten'"):
        read_evidence_bytes(data, "x.csv")


def test_missing_file_and_directory(tmp_path) -> None:
    with pytest.raises(ReportError, match="no such file"):
        read_evidence(tmp_path / "none.log")
    with pytest.raises(ReportError):
        read_evidence(tmp_path)
