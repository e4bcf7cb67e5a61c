"""`rto-planner drills add|list|show|delete` on a real store, and the drills table."""

from __future__ import annotations

import json
import shutil

import pytest

from rtoplanner.core.cli import main
from rtoplanner.core.store import SCHEMA_VERSION, Store
from rtoplanner.core.store.drills import drills

from .conftest import EVIDENCE, EXADATA

FULL = [
    "drill_prod_iso.log",
    "rman_status_drill.csv",
    "clock/20261012_0120_recovery.csv",
    "preview_prod.txt",
]


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _files(*names: str) -> list[str]:
    return [str(EVIDENCE / n) for n in names]


def test_add_prints_plan_vs_actual_and_stores_the_drill(store_path, capsys) -> None:
    code, out, err = _run(
        capsys, "--db", str(store_path), "drills", "add", str(EXADATA), *_files(*FULL)
    )
    assert code == 0, err
    assert "saved exadata_tape_infiniband.toml as" in out and "Drill 1 of" in out
    assert "Restore level 0        55 min 47 s   1 h 06 min  +18.8 %  wall clock" in out
    assert "Over the phases timed" in out
    code, out, _ = _run(capsys, "--db", str(store_path), "drills", "show", "1", "--json")
    doc = json.loads(out)
    lvl0 = next(p for p in doc["phases"] if p["name"] == "restore_level0")
    assert lvl0["actual_s"] == 3975.0 and lvl0["plan_s"] == pytest.approx(3347, abs=1)
    assert lvl0["error"] == pytest.approx(3975 / lvl0["plan_s"] - 1)
    assert doc["version"] == 1 and doc["drilled_at"] == "2026-10-11T21:59:10"
    assert [e["kind"] for e in doc["evidence"]] == [
        "rman_log",
        "rman_status",
        "recovery",
        "preview",
    ]


def test_second_drill_on_the_same_file_reuses_the_version_and_lists(store_path, capsys) -> None:
    db = ["--db", str(store_path)]
    assert _run(capsys, *db, "drills", "add", str(EXADATA), *_files("drill_prod_iso.log"))[0] == 0
    code, out, _ = _run(
        capsys,
        *db,
        "drills",
        "add",
        "Exadata",
        *_files("drill_prod_default_nls.log"),
        "--phase",
        "open=5min",
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["drill"] == 2 and doc["version"] == 1
    assert next(p for p in doc["phases"] if p["name"] == "open")["how"] == "typed"
    code, out, _ = _run(capsys, *db, "drills", "list")
    assert code == 0 and out.count("Exadata full rack") == 2
    with Store(store_path) as s:
        # by when they were drilled: drill 2's log starts at its banner, 21:58:40
        found = drills(s, "Exadata full rack – restore from LTO-4 over InfiniBand")
        assert [d.number for d in found] == [2, 1]


def test_same_evidence_twice_is_refused_and_nothing_is_stored(store_path, capsys) -> None:
    db = ["--db", str(store_path)]
    _run(capsys, *db, "drills", "add", str(EXADATA), *_files("drill_prod_iso.log"))
    code, _, err = _run(capsys, *db, "drills", "add", "Exadata", *_files("drill_prod_iso.log"))
    assert code == 2 and "already recorded as drill 1" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["drills", "add", "Nope", "EV:drill_prod_iso.log"], "no scenario"),
        (["drills", "add", "SC", "EV:make_evidence.py"], "not an RMAN output log"),
        (["drills", "add", "SC", "EV:preview_prod.txt"], "nothing in the evidence times a phase"),
        (["drills", "add", "SC", "EV:drill_prod_iso.log", "--phase", "opening=4min"], "--phase"),
        (["drills", "add", "SC", "EV:drill_prod_iso.log", "--phase", "open=soon"], "soon"),
        (["drills", "show", "7"], "no drill 7"),
    ],
)
def test_errors_are_one_line_and_store_nothing(store_path, capsys, argv, message) -> None:
    argv = [
        str(EXADATA) if a == "SC" else str(EVIDENCE / a[3:]) if a.startswith("EV:") else a
        for a in argv
    ]
    code, _out, err = _run(capsys, "--db", str(store_path), *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err
    with Store(store_path) as s:
        assert drills(s) == []


def test_delete_hides_a_drill(store_path, capsys) -> None:
    db = ["--db", str(store_path)]
    _run(capsys, *db, "drills", "add", str(EXADATA), *_files("drill_prod_iso.log"))
    assert _run(capsys, *db, "drills", "delete", "1")[0] == 0
    _code, out, _ = _run(capsys, *db, "drills", "list")
    assert "no drills recorded" in out


def test_schema_has_the_drill_table(store) -> None:
    assert SCHEMA_VERSION >= 5
    cols = store.read(
        lambda c: c.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = 'drill'"
        ).fetchall()
    )
    assert {"scenario_id", "scenario_version", "drill", "comparison", "evidence"} <= {
        c[0] for c in cols
    }


def test_a_drill_file_copied_elsewhere_keeps_its_evidence_kind(
    tmp_path, store_path, capsys
) -> None:
    """Files are recognised by content: a renamed log is still a log."""
    renamed = tmp_path / "monday.txt"
    shutil.copy(EVIDENCE / "drill_prod_iso.log", renamed)
    code, out, _ = _run(
        capsys, "--db", str(store_path), "drills", "add", str(EXADATA), str(renamed), "--json"
    )
    assert code == 0 and json.loads(out)["evidence"][0] == {
        "file": "monday.txt",
        "kind": "rman_log",
        "sha256": json.loads(out)["evidence"][0]["sha256"],
    }


def test_old_stores_migrate_to_an_empty_drill_history_and_v5_keeps_its_drill(tmp_path) -> None:
    import gzip

    data = EVIDENCE.parents[1] / "store" / "data"
    for version, expected in ((4, []), (5, [1])):
        path = tmp_path / f"v{version}.duckdb"
        path.write_bytes(gzip.decompress((data / f"store_v{version}.duckdb.gz").read_bytes()))
        with Store(path) as s:
            assert [d.number for d in drills(s)] == expected
