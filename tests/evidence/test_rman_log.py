"""RMAN output logs: commands, channels, elapsed times, NLS dates, cut-off and failed logs."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtoplanner.core.importers.errors import EvidenceError
from rtoplanner.core.importers.rman_dates import DateReader, parse_banner, parse_elapsed
from rtoplanner.core.importers.rman_log import load_rman_log, parse_rman_log_text

from .conftest import EVIDENCE


def _log(name: str):
    return load_rman_log(EVIDENCE / name)


def test_timed_log_gives_each_command_its_wall_time(truth) -> None:
    _, t = truth
    log = _log("drill_prod_iso.log")
    assert (log.database, log.dbid, log.timed, log.complete) == ("PROD", 2813641092, True, True)
    assert log.session_start == datetime(2026, 10, 11, 21, 58, 40)
    assert set(log.devices.values()) == {"SBT_TAPE"} and len(log.devices) == 14
    ctl, restore, recover = log.commands
    assert [s.kind for s in ctl.steps] == ["controlfile"]
    assert restore.wall_s == (t["restore_end"] - t["restore_start"]).total_seconds()
    assert {s.kind for s in restore.steps} == {"datafile"} and len(restore.steps) == 70
    # A run over midnight: Starting at 23:07 on the 11th, Finished at 01:23 on the 12th.
    assert recover.wall_s == (t["recover_end"] - t["recover_start"]).total_seconds()
    assert recover.media_recovery_started and recover.media_recovery_s is not None
    assert log.opened_line is not None


def test_interleaved_channels_keep_their_own_steps(truth) -> None:
    """14 channels print at once; each step's elapsed time matches what that channel did."""
    d, _ = truth
    log = _log("drill_prod_iso.log")
    restore = log.commands[1]
    by_piece = {s.pieces[0]: s for s in restore.steps}
    for kind, ch, start, end, _, handle in d.schedule:
        if kind != "datafile":
            continue
        step = by_piece[handle]
        assert step.channel == ch
        assert step.elapsed_s == pytest.approx((end - start).total_seconds(), abs=1)
        assert step.tags == ("TAG20261010T220004",)


def test_archived_log_sequences_follow_the_channel_restoring_them() -> None:
    recover = _log("drill_prod_iso.log").commands[2]
    seqs = sorted(x for s in recover.steps_of("archivelog") for x in s.sequences)
    assert seqs == [(1, n) for n in range(48211, 48411)]


def test_default_nls_log_has_dates_without_times_and_channel_times() -> None:
    iso, plain = _log("drill_prod_iso.log"), _log("drill_prod_default_nls.log")
    assert not plain.timed and plain.commands[1].wall_s is None
    assert plain.commands[1].start.at == datetime(2026, 10, 11)
    assert plain.commands[2].end.at == datetime(2026, 10, 12)  # the recovery ran past midnight
    assert plain.commands[1].channel_s("datafile") == iso.commands[1].channel_s("datafile")
    # the busiest channel's elapsed times leave out start-up and gaps: never above the wall
    assert iso.commands[1].channel_s("datafile") <= iso.commands[1].wall_s


def test_german_month_names_read_as_the_iso_log() -> None:
    de, iso = _log("drill_prod_german.log"), _log("drill_prod_iso.log")
    assert [c.wall_s for c in de.commands] == [c.wall_s for c in iso.commands]
    assert "OKT-2026" in (EVIDENCE / "drill_prod_german.log").read_text()


def test_cut_off_log_keeps_the_unfinished_recovery() -> None:
    log = _log("drill_prod_truncated.log")
    assert not log.complete and log.opened_line is None
    recover = log.commands[-1]
    assert recover.verb == "recover" and not recover.finished and recover.wall_s is None
    assert recover.media_recovery_started and recover.media_recovery_s is None


def test_failed_recovery_names_the_error_and_when() -> None:
    recover = _log("drill_prod_failed.log").commands[-1]
    assert recover.failed.startswith("RMAN-03002: failure of recover command")
    assert "RMAN-06054" in recover.failed
    assert recover.failed_at.timed and recover.failed_at.at.date() == datetime(2026, 10, 12).date()


def test_a_public_format_single_channel_disk_log() -> None:
    """DD/MM/YYYY dates (the banner says Aug 12, so 12/08 is the 12th of August)."""
    log = _log("small_disk_restore.log")
    restore, recover = log.commands
    assert restore.start.at == datetime(2013, 8, 12, 16, 42, 48) and restore.wall_s == 76
    assert recover.channel_s("incremental") == 7 and recover.media_recovery_s == 3
    assert log.opened_line is not None and log.database == "ANT12"


BACKUP_LOG = """
Recovery Manager: Release 19.0.0.0.0 - Production on Sat Oct 10 22:00:01 2026

connected to target database: PROD (DBID=2813641092)

RMAN> backup incremental level 0 database plus archivelog;

Starting backup at 2026-10-10 22:00:04
allocated channel: ORA_SBT_TAPE_1
channel ORA_SBT_TAPE_1: SID=801 device type=SBT_TAPE
channel ORA_SBT_TAPE_1: starting archived log backup set
channel ORA_SBT_TAPE_1: specifying archived log(s) in backup set
input archived log thread=1 sequence=48100 RECID=99 STAMP=1181234000
channel ORA_SBT_TAPE_1: starting piece 1 at 2026-10-10 22:00:09
channel ORA_SBT_TAPE_1: finished piece 1 at 2026-10-10 22:02:10
piece handle=a1_1_1 tag=TAG20261010T220004 comment=API Version 2.0,MMS Version 8.1.1.0
channel ORA_SBT_TAPE_1: backup set complete, elapsed time: 00:02:01
Finished backup at 2026-10-10 22:02:11

Starting backup at 2026-10-10 22:02:12
using channel ORA_SBT_TAPE_1
channel ORA_SBT_TAPE_1: starting compressed incremental level 0 datafile backup set
channel ORA_SBT_TAPE_1: specifying datafile(s) in backup set
input datafile file number=00001 name=+DATAC1/PROD/DATAFILE/system.256.1181230000
channel ORA_SBT_TAPE_1: starting piece 1 at 2026-10-10 22:02:13
channel ORA_SBT_TAPE_1: finished piece 1 at 2026-10-11 00:10:40
piece handle=b1_1_1 tag=TAG20261010T220212 comment=API Version 2.0,MMS Version 8.1.1.0
channel ORA_SBT_TAPE_1: backup set complete, elapsed time: 02:08:27
Finished backup at 2026-10-11 00:10:41

Recovery Manager complete.
"""


def test_backup_runs_are_read_by_kind() -> None:
    log = parse_rman_log_text(BACKUP_LOG, "backup.log")
    arch, level0 = log.of("backup")
    assert [s.kind for s in arch.steps] == ["backup_archivelog"] and arch.wall_s == 127
    assert [s.kind for s in level0.steps] == ["backup_level0"]
    assert level0.channel_s("backup_level0") == parse_elapsed("02:08:27") == 7707


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello\nworld\n",
        "Finished restore at 2026-10-10 10:00:00\n",
        "SQL> select * from dual;\n\nD\n-\nX\n",
    ],
)
def test_not_a_log_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(EvidenceError) as e:
        parse_rman_log_text(text, "x.log")
    assert str(e.value).startswith("x.log: not an RMAN output log") and "\n" not in str(e.value)


# ------------------------------------------------------------------------------ dates


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["2026-10-12 10:00:05"], datetime(2026, 10, 12, 10, 0, 5)),
        (["2026/10/12 10:00:05"], datetime(2026, 10, 12, 10, 0, 5)),
        (["2014-04-17:12:51:43"], datetime(2014, 4, 17, 12, 51, 43)),
        (["12.10.2026 10:00:05"], datetime(2026, 10, 12, 10, 0, 5)),
        (["12-OKT-2026 10:00:05"], datetime(2026, 10, 12, 10, 0, 5)),
        (["12-oct-26"], datetime(2026, 10, 12)),
        (["12-OCT-2026 10:00:05 PM"], datetime(2026, 10, 12, 22, 0, 5)),
        (["08-14-2012:13:09:16"], datetime(2012, 8, 14, 13, 9, 16)),  # month first: 14 > 12
        (["13/04/2012 18:48:51"], datetime(2012, 4, 13, 18, 48, 51)),  # day first: 13 > 12
        (["12-févr.-2026 08:00:00"], datetime(2026, 2, 12, 8, 0)),
    ],
)
def test_date_formats_seen_in_rman_logs(texts: list[str], expected: datetime) -> None:
    t = DateReader(texts).read(texts[0])
    assert t is not None and t.at == expected


def test_ambiguous_numeric_dates_read_so_the_log_stays_in_order() -> None:
    """01/02 then 01/03 then 02/03: only month-first keeps them in order? No: both do,
    so the later pair 28/02 decides day-first; here 02/28 decides month-first."""
    texts = ["02/01/2026 23:00:00", "02/28/2026 01:00:00"]
    assert not DateReader(texts).day_first
    assert DateReader(["28/02/2026 01:00:00"]).day_first
    # both readings in order: the banner's date decides
    near = datetime(2026, 2, 1, 22, 59)
    assert not DateReader(["02/01/2026 23:00:00"], near=near).day_first
    assert DateReader(["02/01/2026 23:00:00"], near=datetime(2026, 1, 2)).day_first


def test_banner_and_elapsed() -> None:
    assert parse_banner(
        "Recovery Manager: Release 19.0.0.0.0 - Production on Sun Oct 11 21:58:40 2026"
    ) == datetime(2026, 10, 11, 21, 58, 40)
    assert parse_elapsed("27:08:43") == 27 * 3600 + 8 * 60 + 43  # a restore over a day
    assert parse_elapsed("00:00:01.5") == 1.5
    assert parse_elapsed("1:2:3") is None


@settings(max_examples=150)
@given(
    st.datetimes(min_value=datetime(1995, 1, 1), max_value=datetime(2060, 12, 31)),
    st.sampled_from(["iso", "slash", "colon", "dots", "mon4", "mon_de"]),
)
def test_every_format_reads_back_the_time_it_printed(when: datetime, style: str) -> None:
    when = when.replace(microsecond=0)
    months = ["JAN", "FEB", "MRZ", "APR", "MAI", "JUN", "JUL", "AUG", "SEP", "OKT", "NOV", "DEZ"]
    text = {
        "iso": f"{when:%Y-%m-%d %H:%M:%S}",
        "slash": f"{when:%Y/%m/%d %H:%M:%S}",
        "colon": f"{when:%Y-%m-%d:%H:%M:%S}",
        "dots": f"{when:%d.%m.%Y %H:%M:%S}",
        "mon4": f"{when.day:02d}-{when:%b}-{when.year} {when:%H:%M:%S}".upper(),
        "mon_de": f"{when.day:02d}-{months[when.month - 1]}-{when.year} {when:%H:%M:%S}",
    }[style]
    t = DateReader([text, f"{when + timedelta(days=40):%d.%m.%Y %H:%M:%S}"]).read(text)
    assert t is not None and t.timed and t.at == when


LINES = (EVIDENCE / "drill_prod_iso.log").read_text().splitlines()


@settings(max_examples=60)
@given(st.integers(0, len(LINES)), st.integers(0, len(LINES)))
def test_any_cut_of_a_log_reads_or_is_refused_in_one_line(a: int, b: int) -> None:
    """A log cut anywhere (at its start and end) is read, or refused with an EvidenceError
    / DrillError — never a traceback."""
    from rtoplanner.core.evidence.drill import DrillError, drill_from_evidence
    from rtoplanner.core.importers.restore_evidence import read_evidence_bytes

    text = "\n".join(LINES[min(a, b) : max(a, b)]).encode()
    try:
        drill = drill_from_evidence([read_evidence_bytes(text, "cut.log")])
    except (EvidenceError, DrillError) as exc:
        assert "\n" not in str(exc)
        return
    assert all(p.duration_s >= 0 for p in drill.phases)


@settings(max_examples=60)
@given(st.binary(max_size=400))
def test_garbage_is_refused_as_evidence(data: bytes) -> None:
    from rtoplanner.core.importers.errors import ReportError
    from rtoplanner.core.importers.restore_evidence import read_evidence_bytes

    try:
        read_evidence_bytes(data, "g.bin")
    except ReportError as exc:
        assert str(exc).startswith("g.bin") and "\n" not in str(exc)
