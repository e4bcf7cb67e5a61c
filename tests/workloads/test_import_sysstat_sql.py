"""DBA_HIST_SYSSTAT exports read by DuckDB (issue 25, import speed): the stored rows are
exactly the Python reader's, and anything DuckDB cannot vouch for goes the Python way,
whose one-line errors name the file, line and cell.

Each case is imported twice into real stores — once through the Python reader
(`rows_from_bytes`, the reference), once through `parse_for_store` — and every column of
every row (id order included; only `imported_at` differs) is compared.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from workload_helpers import CSV, sysstat_csv

from rtoplanner.core.importers.errors import ReportError
from rtoplanner.core.importers.store_import import (
    _write_batch,
    _write_rows,
    import_file,
    parse_for_store,
    rows_from_bytes,
)
from rtoplanner.core.importers.sysstat_sql import SysstatBatch
from rtoplanner.core.store import Store
from rtoplanner.core.store.migrations import apply_migrations

HEADER = (
    "DBID,DB_NAME,INSTANCE_NUMBER,SNAP_ID,BEGIN_INTERVAL_TIME,END_INTERVAL_TIME,"
    "STARTUP_TIME,REDO_SIZE"
)


def _stored(write, data: bytes | None = None, source: str = "", database=None) -> list[tuple]:
    """The rows `write` stores into a DuckDB database of the store's schema; with `data`,
    `write` is `_write_batch` of the rows DuckDB reads from it in that database's own
    DuckDB instance (as `import` does with its store)."""
    con = duckdb.connect(":memory:")
    try:
        apply_migrations(con, 0, app_version="test")
        if data is not None:
            _kind, batch = parse_for_store(data, source, store=_InStore(con))
            assert isinstance(batch, SysstatBatch), "DuckDB did not read this export"
            assert batch.workspace.seen_from(con)  # no copy between two databases
            write = write(batch, source, database)
        write(con)
        return con.execute("SELECT * EXCLUDE (imported_at) FROM workload ORDER BY id").fetchall()
    finally:
        con.close()


class _InStore:
    """What `parse_for_store` needs of a store: reads on cursors of its connection."""

    read_only = False

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def read(self, fn):
        cur = self.con.cursor()
        try:
            return fn(cur)
        finally:
            cur.close()


def both_ways(data: bytes, source: str = "redo.csv", database: str | None = None) -> list[tuple]:
    """The rows each path stores, asserted equal; the fast path must have been taken, in
    a DuckDB database of its own and in the store's DuckDB instance."""
    _kind, reference = rows_from_bytes(data, source)
    _kind, fast = parse_for_store(data, source)
    assert isinstance(fast, SysstatBatch), "DuckDB did not read this export"
    python = _stored(_write_rows(reference, source, database))
    duck = _stored(_write_batch(fast, source, database))
    assert duck == python
    assert _stored(_write_batch, data, source, database) == python
    return duck


def _csv(rows: list[str], header: str = HEADER, newline: str = "\n") -> bytes:
    return newline.join([header, *rows]).encode("ascii") + newline.encode()


def _row(snap: int, redo: int, *, inst: str = "1", dbid: str = "1234", hour: int | None = None,
         startup: str = "2024-01-01 00:00:00", name: str = "PROD") -> str:  # fmt: skip
    h = snap if hour is None else hour
    end = datetime(2024, 3, 1 + h // 24, h % 24)
    return f"{dbid},{name},{inst},{snap},x,{end:%Y-%m-%d %H:%M:%S},{startup},{redo}"


def test_the_fixture_and_a_generated_rac_export_store_the_same_rows(tmp_path: Path) -> None:
    rows = both_ways((CSV / "dba_hist_sysstat_redo.csv").read_bytes())
    assert len(rows) == 7  # 10 snapshots of two instances, one restart
    generated = sysstat_csv(tmp_path / "rac.csv", hours=30, instances=3)
    assert len(both_ways(generated.read_bytes(), str(generated))) == 90
    # a source that JSON escapes, and rows named after the database given
    assert both_ways(generated.read_bytes(), 'C:\\exports\\"redo" é.csv', "ERP")


def test_restarts_resets_repeats_and_odd_but_plain_spellings() -> None:
    """A restart (new STARTUP_TIME), a counter going down, a snapshot out of order, the
    same snapshot twice, time going backwards, DBID `1234.0` and empty, `VALUE` for
    REDO_SIZE, a missing DB_NAME, CRLF, a BOM, quoted cells, leading blank lines, trailing
    blank lines, a semicolon, padded cells and extra columns: the same rows."""
    rows = [
        _row(3, 300), _row(1, 100), _row(2, 250), _row(2, 250),
        _row(4, 200), _row(5, 900, startup="2024-02-01 00:00:00"), _row(6, 1000),
        _row(7, 1100, hour=3), _row(8, 1200, dbid="1234.0"), _row(9, 1300, dbid="1234.0"),
        _row(1, 5, dbid=""), _row(2, 10, dbid=""), _row(1, 7, inst="2", name=""),
        _row(2, 9, inst="2", name=""),
    ]  # fmt: skip
    plain = _csv(rows)
    both_ways(plain)
    both_ways(_csv(rows, HEADER.replace("REDO_SIZE", "VALUE")))
    both_ways(b"\xef\xbb\xbf\r\n" + _csv(rows, newline="\r\n") + b"\r\n\r\n")
    quoted = [",".join(f'"{c}"' for c in r.split(",")) for r in rows]
    both_ways(_csv(quoted, ",".join(f'"{c}"' for c in HEADER.split(","))))
    semi = [r.replace(",", " ; ") + " ; extra" for r in rows]
    both_ways(_csv(semi, HEADER.replace(",", ";").lower() + ";NOTES"))
    no_name = HEADER.replace("DB_NAME", "OTHER")
    both_ways(_csv(rows, no_name))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 6), st.integers(0, 10**13), st.sampled_from(["1", "2", ""]),
            st.sampled_from(["1234", "99", ""]), st.sampled_from(["a", "b"]),
            st.integers(0, 40),
        ),
        min_size=2, max_size=30,
    )
)  # fmt: skip
def test_any_plain_export_stores_what_the_python_reader_stores(cells) -> None:
    rows = [
        _row(snap, redo, inst=inst, dbid=dbid, startup=f"2024-01-01 00:00:0{ord(s) % 10}",
             hour=hour)
        for snap, redo, inst, dbid, s, hour in cells
    ]  # fmt: skip
    data = _csv(rows)
    try:
        rows_from_bytes(data, "redo.csv")
    except ReportError as exc:
        with pytest.raises(ReportError) as fast:  # no interval: the Python reader says so
            parse_for_store(data, "redo.csv")
        assert str(fast.value) == str(exc)
        return
    both_ways(data)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda d: d.replace(b"2024-03-01 05:00:00", b"01-MAR-2024 05:00:00"), None),
        (lambda d: d.replace(b"2024-03-01 05:00:00", b"2024-03-01T05:00:00"), None),
        (lambda d: d.replace(b"2024-03-01 05:00:00", b"2024-03-01 05:00:00.500"), None),
        (lambda d: d.replace(b",500\n", b",1.2E+3\n"), None),
        (lambda d: d.replace(b",500\n", b",abc\n"), "redo.csv:6"),
        (lambda d: d.replace(b",5,x,", b",5.x,x,"), "redo.csv:6"),
        (lambda d: d.replace(b"1234,PROD,1,5,", b"1e400,PROD,1,5,"), "redo.csv:6"),
        (lambda d: d.replace(b"\n1234,PROD,1,3,", b"\n\n1234,PROD,1,3,"), None),
        (lambda d: d.replace(b"PROD,1,2,", b'"PR\nOD",1,2,'), None),
        (lambda d: d.replace(b",PROD,1,2,", b', "PROD",1,2,'), None),
        (lambda d: d.replace(b"PROD", "PRÖD".encode()), None),
        (lambda d: d.replace(b",500\n", b",5000000000000000000000\n"), "redo.csv:6"),
    ],
)
def test_what_duckdb_cannot_vouch_for_goes_the_python_way(
    tmp_path: Path, change, named: str | None
) -> None:
    """Oracle's date format, a number in exponent form, a bad cell, a blank line inside,
    a cell over two lines, a quote after a blank, non-ASCII, an interval above the sanity
    bound: the Python reader reads the file (and names the first bad cell's line)."""
    data = change(_csv([_row(s, s * 100) for s in range(1, 8)]))
    kind_rows = None
    try:
        kind_rows = rows_from_bytes(data, "redo.csv")
    except ReportError as exc:
        assert named is not None and named in str(exc), str(exc)
        with pytest.raises(ReportError) as fast_error:
            parse_for_store(data, "redo.csv")
        assert str(fast_error.value) == str(exc)
        return
    assert named is None
    _kind, fast = parse_for_store(data, "redo.csv")
    assert not isinstance(fast, SysstatBatch)
    assert fast == kind_rows[1]


def test_import_file_takes_the_duckdb_path_and_reports_as_before(tmp_path: Path) -> None:
    path = sysstat_csv(tmp_path / "redo.csv", hours=10, instances=2)
    with Store(tmp_path / "s.duckdb") as store:
        first = import_file(store, path, database="OTHER")
        again = import_file(store, path)
    assert first.status == "imported" and first.imported == 20
    assert first.message == (
        "20 DBA_HIST_SYSSTAT intervals of PROD, 2024-03-01 00:00 → 2024-03-01 10:00"
    )
    assert again.status == "duplicate" and again.duplicates == 20
    assert again.message == f"already imported (same report as {path})" or again.message == (
        "already imported"
    )


@pytest.mark.parametrize("in_store", [False, True])
def test_a_partly_stored_export_goes_in_chunk_by_chunk_in_the_reference_order(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, in_store: bool
) -> None:
    """Rows stored before and rows repeated in the file are left out before the chunks
    are counted: chunks of 7 rows over what is new store, id for id, what the Python
    reader stores, and name the file that stored the rest."""
    from rtoplanner.core.importers import store_import as si

    monkeypatch.setattr(si, "CHUNK_ROWS", 7)
    first = sysstat_csv(tmp_path / "a.csv", hours=12, instances=2)
    second = sysstat_csv(tmp_path / "b.csv", hours=30, instances=2)  # a.csv's hours again
    data = second.read_bytes()
    again = b"".join(b"1234.0" + line[4:] for line in data.splitlines(keepends=True)[20:24])
    data += again  # three intervals of the file again, under DBID 1234.0: repeats

    def stored(parse, write) -> tuple[list[tuple], list]:
        progress: list[str] = []
        con = duckdb.connect(":memory:")
        try:
            apply_migrations(con, 0, app_version="test")
            if parse is parse_for_store and in_store:
                parse = partial(parse_for_store, store=_InStore(con))
            write(parse(first.read_bytes(), str(first))[1], str(first), None)(con)
            rows = parse(data, str(second))[1]
            result = write(rows, str(second), None, lambda _f, m: progress.append(m))(con)
            table = con.execute("SELECT * EXCLUDE (imported_at) FROM workload ORDER BY id")
            return table.fetchall(), [result, progress]
        finally:
            con.close()

    duck, (result, progress) = stored(parse_for_store, _write_batch)
    python, (reference, _) = stored(rows_from_bytes, _write_rows)
    assert duck == python and len(duck) == 60
    assert (result.imported, result.duplicates) == (reference.imported, reference.duplicates)
    assert (result.imported, result.duplicates) == (36, 27)
    assert result.duplicate_of == reference.duplicate_of == (str(first),)
    assert [m for m in progress if m.startswith("storing ")] == [
        f"storing {n} of 36 rows" for n in range(0, 36, 7)
    ]


def test_rows_out_of_order_are_computed_again_in_the_order_asked_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The interval query relies on DuckDB's window handing its rows on in order and
    checks it; were they ever out of order, the query runs again with an ORDER BY and
    stores the same rows as the Python reader (here the check always says "out")."""
    from rtoplanner.core.importers import sysstat_sql

    ran: list[bool] = []
    real = sysstat_sql._intervals_sql

    def intervals_sql(db, shape, sort=False):
        ran.append(sort)
        return real(db, shape, sort)

    monkeypatch.setattr(sysstat_sql, "_OUT_OF_ORDER", "SELECT count(*) + 1 FROM <db>.iv")
    monkeypatch.setattr(sysstat_sql, "_intervals_sql", intervals_sql)
    generated = sysstat_csv(tmp_path / "rac.csv", hours=30, instances=3)
    assert len(both_ways(generated.read_bytes(), str(generated))) == 90
    assert ran == [False, True] * 2  # each DuckDB read: checked, then sorted
