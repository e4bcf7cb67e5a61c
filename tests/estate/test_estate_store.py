"""Estates kept in the store with their history (schema 4), and the CLI over them."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from rtoplanner.app.__main__ import main
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.estate import run_estate
from rtoplanner.core.store import Store
from rtoplanner.core.store.errors import NotFoundError
from rtoplanner.core.store.estates import (
    estate_history,
    estate_version,
    estates,
    load_stored_estate,
    save_estate,
)

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"
FIXTURES = REPO / "tests" / "store" / "data"
NAME = "Site loss – Frankfurt primary, recovery at the DR site"


def test_versions_keep_the_text_and_run_from_the_store(store):
    text = DEMO.read_text(encoding="utf-8")
    v1 = save_estate(store, text, comment="first", base_dir=DEMO.parent)
    v2 = save_estate(store, text.replace('rto = "10 h"', 'rto = "4 h"'), base_dir=DEMO.parent)
    assert (v1.version, v2.version) == (1, 2)
    assert estates(store)[0][:2] == (NAME, 2)
    assert [v.comment for v in estate_history(store, NAME)] == ["first", ""]
    assert estate_version(store, NAME, 1).text == text  # exactly as given
    old = run_estate(load_stored_estate(store, NAME, 1)).database("ERP (Exadata)")
    new = run_estate(load_stored_estate(store, NAME)).database("ERP (Exadata)")
    assert (old.rto_s, new.rto_s) == (10 * 3600, 4 * 3600)


def test_a_stored_estate_can_name_stored_scenarios(store):
    scenario = (REPO / "data" / "scenarios" / "small_gige_lto.toml").read_text()
    store.save_scenario(scenario)
    text = (
        'format = 1\nname = "Stored"\n[[database]]\n'
        'scenario = "Small ERP – restore over GigE from LTO-5"\npriority = 1\n'
    )
    save_estate(store, text)
    result = run_estate(load_stored_estate(store, "Stored"))
    assert result.databases[0].source == "store: Small ERP – restore over GigE from LTO-5"


def test_not_an_estate_or_unknown_names_are_refused(store):
    with pytest.raises(ScenarioError, match="no \\[\\[database\\]\\]"):
        save_estate(store, 'format = 1\nname = "x"\n', source="x.toml")
    with pytest.raises(NotFoundError, match="no estate named 'nope'"):
        estate_history(store, "nope")
    save_estate(store, 'name = "E"\n[[database]]\nscenario = "a"\npriority = 1\n')
    with pytest.raises(NotFoundError, match="no version 7"):
        estate_version(store, "E", 7)


def test_schema_3_file_migrates_and_gets_estates(tmp_path):
    path = tmp_path / "v3.duckdb"
    path.write_bytes(gzip.decompress((FIXTURES / "store_v3.duckdb.gz").read_bytes()))
    with Store(path) as store:
        assert store.schema_version() >= 4
        assert estates(store) == []
        save_estate(store, 'name = "E"\n[[database]]\nscenario = "a"\npriority = 1\n')
        assert estates(store)[0][0] == "E"


def test_schema_4_fixture_keeps_its_estate(tmp_path):
    path = tmp_path / "v4.duckdb"
    path.write_bytes(gzip.decompress((FIXTURES / "store_v4.duckdb.gz").read_bytes()))
    with Store(path) as store:
        assert [v.comment for v in estate_history(store, "Fixture estate")] == ["fixture estate"]


def test_cli_save_list_history_export_and_run(capsys, tmp_path):
    db = str(tmp_path / "cli.duckdb")
    assert main(["estates", "save", str(DEMO), "-m", "first", "--db", db]) == 0
    assert main(["estates", "list", "--db", db]) == 0
    assert main(["estates", "history", NAME, "--db", db]) == 0
    out = tmp_path / "back.toml"
    assert main(["estates", "export", NAME, "-o", str(out), "--db", db]) == 0
    assert out.read_text(encoding="utf-8") == DEMO.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["estate", NAME, "--no-least", "--db", db]) == 0
    assert "Deciding shared resource" in capsys.readouterr().out
    assert main(["estates", "history", "nope", "--db", db]) == 2
    assert "no estate named 'nope'" in capsys.readouterr().err
