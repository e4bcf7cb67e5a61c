"""`rto-planner import` shows which file of how many it is on, on a terminal only (issue 25:
a large import was silent): one line on standard error, rewritten and cleared; a pipe gets
nothing, and standard output is the same either way."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from workload_helpers import CSV, sysstat_csv

from rtoplanner.core.cli import main
from rtoplanner.core.cli import progress as progress_module


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _files(tmp_path: Path) -> list[str]:
    folder = tmp_path / "exports"
    folder.mkdir()
    sysstat_csv(folder / "a_redo.csv", hours=4)
    (folder / "b_rman.csv").write_bytes((CSV / "rman_backup_job_details.csv").read_bytes())
    return [str(folder)]


def test_import_progress_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(progress_module, "MIN_INTERVAL_S", 0.0)
    files = _files(tmp_path)
    rc = main(["import", *files, "--db", str(tmp_path / "piped.duckdb")])
    piped_out, piped_err = capsys.readouterr()
    assert rc == 0 and piped_err == ""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    rc = main(["import", *files, "--db", str(tmp_path / "tty.duckdb")])
    out, _ = capsys.readouterr()
    assert rc == 0
    assert out.replace("tty.duckdb", "piped.duckdb") == piped_out
    shown = terminal.getvalue()
    assert "\rimport:   0 %  file 1 of 2: a_redo.csv" in shown
    assert "\rimport:  50 %  file 2 of 2: b_rman.csv" in shown
    assert shown.endswith("\r") and shown.split("\r")[-2].strip() == ""  # cleared


# ------------------------------------------------------------ within one large file (25)


def test_a_large_export_reports_progress_within_the_file(
    store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DBA_HIST_SYSSTAT export of 3 instances × 2 years of hours (52,560 intervals) says
    how far it is: reading, then rows stored chunk by chunk, rising to 1."""
    from workload_helpers import count

    from rtoplanner.core.importers.store_import import CHUNK_ROWS, import_file

    big = sysstat_csv(tmp_path / "big.csv", hours=2 * 8760, instances=3)
    seen: list[tuple[float, str]] = []
    out = import_file(store, big, progress=lambda f, m: seen.append((f, m)))
    assert out.status == "imported" and out.imported == 3 * 2 * 8760
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    storing = [m for _, m in seen if m.startswith("storing ")]
    assert len(storing) == -(-out.imported // CHUNK_ROWS) >= 3
    assert storing[1] == f"storing {CHUNK_ROWS:,} of {out.imported:,} rows"
    assert seen[1][1].startswith("reading its rows (")
    assert count(store) == out.imported


@pytest.mark.parametrize("kind", ["sysstat", "rman"])
def test_stopping_a_long_file_keeps_nothing_of_it(
    store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Stop half-way through storing (after the first chunk went in): the transaction is
    rolled back, the store holds nothing of the file, and the same file imports whole
    afterwards. Both writers (columns and row objects) are chunked."""
    from workload_helpers import count

    from rtoplanner.core.importers import store_import as si

    monkeypatch.setattr(si, "CHUNK_ROWS", 3 if kind == "rman" else 1000)
    if kind == "sysstat":
        path = sysstat_csv(tmp_path / "big.csv", hours=5000)
    else:
        path = tmp_path / "rman.csv"
        path.write_bytes((CSV / "rman_backup_job_details.csv").read_bytes())

    def stop_after_a_chunk(_fraction: float, phase: str) -> None:
        if phase.startswith("storing ") and not phase.startswith("storing 0 "):
            raise si.ImportStopped

    with pytest.raises(si.ImportStopped):
        si.import_file(store, path, progress=stop_after_a_chunk)
    assert count(store) == 0
    again = si.import_file(store, path)
    assert again.status == "imported" and count(store) == again.imported > 3


def test_the_terminal_line_moves_within_one_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(progress_module, "MIN_INTERVAL_S", 0.0)
    from rtoplanner.core.importers import store_import as si

    monkeypatch.setattr(si, "CHUNK_ROWS", 1000)
    big = sysstat_csv(tmp_path / "big.csv", hours=4000)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["import", str(big), "--db", str(tmp_path / "s.duckdb")]) == 0
    shown = terminal.getvalue()
    assert "\rimport:   0 %  file 1 of 1: big.csv — reading the file" in shown
    assert "file 1 of 1: big.csv — storing 2,000 of 4,000 rows" in shown
    assert "\rimport: 100 %  file 1 of 1: big.csv — stored 4,000 rows, committing" in shown


def test_an_export_read_row_by_row_reports_rows_read(store, tmp_path: Path) -> None:
    """A blank line inside keeps DuckDB out: the Python reader reads the 25,000 rows, and
    says how many it has read every 10,000 lines."""
    from rtoplanner.core.importers.store_import import import_file

    path = sysstat_csv(tmp_path / "blank.csv", hours=25_000)
    head, rest = path.read_text().split("\n", 1)
    path.write_text(head + "\n\n" + rest)
    seen: list[tuple[float, str]] = []
    out = import_file(store, path, progress=lambda f, m: seen.append((f, m)))
    assert out.status == "imported" and out.imported == 25_000
    messages = [m for _, m in seen]
    assert any(m.startswith("reading its rows one by one") for m in messages)
    total = 25_002  # the blank line, the header's first snapshot and 25,000 more
    for done in (10_000, 20_000):
        assert any(m.startswith(f"reading row {done:,} of {total:,}") for m in messages)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


@pytest.mark.parametrize("stop", [None, "pairing", "storing"])
def test_a_large_export_is_read_in_the_stores_duckdb_on_one_thread_then_as_before(
    store, tmp_path: Path, stop: str | None
) -> None:
    """The export's rows are computed in an in-memory database attached to the store's
    own DuckDB instance, single-threaded (cheaper in CPU), saying which step it is on;
    afterwards — imported, or stopped while DuckDB pairs the snapshots or half-way
    through storing — the store has its thread count back and no database left over."""
    from workload_helpers import count

    from rtoplanner.core.importers import store_import as si

    def setting(cur) -> tuple[str, list[str]]:
        threads = cur.execute("SELECT current_setting('threads')").fetchall()[0][0]
        names = cur.execute("SELECT database_name FROM duckdb_databases()").fetchall()
        return str(threads), sorted(n for (n,) in names)

    store.read(lambda cur: cur.execute("SET threads = 3"))
    before = store.read(setting)
    during: list[tuple[str, list[str]]] = []
    phases: list[tuple[float, str]] = []

    def progress(fraction: float, phase: str) -> None:
        phases.append((fraction, phase))
        if phase.startswith(("pairing ", "storing ")):
            during.append(store.read(setting))
        if stop and phase.startswith(stop) and not phase.startswith("storing 0 "):
            raise si.ImportStopped

    path = sysstat_csv(tmp_path / "big.csv", hours=30_000)
    if stop:
        with pytest.raises(si.ImportStopped):
            si.import_file(store, path, progress=progress)
    else:
        assert si.import_file(store, path, progress=progress).imported == 30_000
        steps = [m.split(" (")[0] for _, m in phases[1:5]]
        assert steps == [
            "reading its rows", "reading it as a DBA_HIST_SYSSTAT export",
            "pairing the snapshots of its 30,001 rows", "checking the intervals",
        ]  # fmt: skip
        fractions = [f for f, _ in phases]
        assert fractions == sorted(fractions) and fractions[-1] == 1.0
    threads, names = during[0]
    assert threads == "1" and [n for n in names if n.startswith("rto_import_")]
    assert store.read(setting) == before == ("3", before[1])
    assert count(store) == (0 if stop else 30_000)
