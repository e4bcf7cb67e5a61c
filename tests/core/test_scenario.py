"""Scenario files: validation messages, defaults, catalog fill-in, exact round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtoplanner.core.errors import ScenarioError, ScenarioVersionError
from rtoplanner.core.scenario import (
    dump_scenario,
    load_scenario,
    load_scenario_text,
    with_values,
)

MINIMAL = """\
format = 1
name = "t"

[database]
size = "10 TB"

[[path]]
kind = "tape_drive"
count = 4
rate = "300 MB/s"

[targets]
rto = "8 h"
"""


def test_minimal_scenario_defaults():
    s = load_scenario_text(MINIMAL)
    st_ = s.path[0]
    assert st_.binds_channel is True
    assert st_.carries == "backup"
    assert st_.efficiency == 1.0 and st_.hw_compression == 1.0
    assert s.backup.channels == 1 and s.backup.channel_init_s == 0
    assert s.recovery.detect_s == 0 and s.recovery.open_s == 0
    assert s.targets.risk_margin_abs_s == pytest.approx(0.1 * 8 * 3600)
    # A redo apply default comes from the catalog's workload class, and says so.
    assert s.recovery.redo_apply_source.startswith("catalog:")


@pytest.mark.parametrize(
    ("edit", "key", "fragment"),
    [
        (('size = "10 TB"', 'size = "10 Tb"'), "database.size", "bits"),
        (('size = "10 TB"', "size = 10"), "database.size", "no unit"),
        (('rate = "300 MB/s"', 'rate = "0 MB/s"'), "path[0].rate", "greater than zero"),
        (('rate = "300 MB/s"', 'rate = "-3 MB/s"'), "path[0].rate", "negative"),
        (("count = 4", "cuont = 4"), "path[0].cuont", "did you mean 'count'"),
        (('kind = "tape_drive"', 'kind = "floppy"'), "path[0].kind", "not one of"),
        (('rto = "8 h"', 'rto = "8 parsecs"'), "targets.rto", "unknown time unit"),
        (('[targets]\nrto = "8 h"', '[targets]\nrto = "8 h"\nrpo = 5'), "targets.rpo", "unit"),
        (('size = "10 TB"', 'size = "10 TB"\nsize_x = 1'), "database.size_x", "unknown"),
    ],
)
def test_errors_name_key_and_line(edit, key, fragment):
    text = MINIMAL.replace(*edit)
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, source="plan.toml")
    err = info.value
    assert err.key == key
    assert fragment in str(err)
    assert str(err).startswith("plan.toml:")
    bad_line = next(
        i
        for i, line in enumerate(text.splitlines(), 1)
        if line.split("=")[0].strip() in key
        and line.strip()
        and not line.startswith("[")
        and key.endswith(line.split("=")[0].strip())
    )
    assert err.line == bad_line


def test_missing_tables_and_syntax_errors():
    with pytest.raises(ScenarioError, match=r"\[targets\] table is required"):
        load_scenario_text(MINIMAL.split("[targets]")[0])
    with pytest.raises(ScenarioError, match="not valid TOML") as info:
        load_scenario_text("name = \n", source="x.toml")
    assert info.value.line == 1
    no_path = MINIMAL.replace('[[path]]\nkind = "tape_drive"\ncount = 4\nrate = "300 MB/s"\n', "")
    with pytest.raises(ScenarioError, match="at least one"):
        load_scenario_text(no_path)


def test_newer_format_is_refused_with_a_clear_message():
    with pytest.raises(ScenarioVersionError, match="upgrade RTO Planner"):
        load_scenario_text(MINIMAL.replace("format = 1", "format = 2"), source="new.toml")


def test_cross_field_rules():
    with_level1 = load_scenario_text(MINIMAL + '\n[backup]\nlevel1 = "cumulative"\n')
    assert with_level1.recovery.incremental_apply_rate_Bps is None  # issue 23.9: a default
    bad_hw = MINIMAL.replace('kind = "tape_drive"', 'kind = "network"') + ""
    bad_hw = bad_hw.replace('rate = "300 MB/s"', 'rate = "300 MB/s"\nhw_compression = 2')
    with pytest.raises(ScenarioError, match="only tape drives"):
        load_scenario_text(bad_hw)
    with pytest.raises(ScenarioError, match="above 1"):
        load_scenario_text(MINIMAL.replace("count = 4", "count = 4\nefficiency = 1.5"))


def test_catalog_item_fills_a_missing_rate():
    text = MINIMAL.replace('count = 4\nrate = "300 MB/s"', 'name = "oltp"\ncount = 1')
    with pytest.raises(ScenarioError, match="no tape_drive named 'oltp'"):
        load_scenario_text(text)


def test_file_errors_name_the_file(tmp_path: Path):
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "missing.toml")
    (tmp_path / "latin1.toml").write_bytes('name = "Caf\xe9"'.encode("latin-1"))
    with pytest.raises(ScenarioError, match="not UTF-8"):
        load_scenario(tmp_path / "latin1.toml")
    with pytest.raises(ScenarioError, match="directory"):
        load_scenario(tmp_path)


def test_demo_scenarios_round_trip_exactly(demo_paths):
    assert len(demo_paths) >= 3
    for path in demo_paths:
        s = load_scenario(path)
        text = dump_scenario(s)
        again = load_scenario_text(text)
        assert again == s
        assert dump_scenario(again) == text


def test_with_values_revalidates():
    s = load_scenario_text(MINIMAL)
    s2 = with_values(s, {"path[0].count": 8, "backup.channels": 8})
    assert s2.path[0].count == 8 and s2.backup.channels == 8
    assert s.path[0].count == 4  # the original is untouched
    with pytest.raises(ScenarioError) as info:
        with_values(s, {"database.size": "lots"})
    assert info.value.key == "database.size"


quantities = st.sampled_from(["10 TB", "2.5 TiB", "1,300 GB", "512 GiB", "0.75 PB"])
rates = st.sampled_from(["140 MB/s", "10 Gb/s", "325 GB/h", "18 TiB/h", "1.6 GB/s"])


@settings(max_examples=50)
@given(
    size=quantities,
    rate=rates,
    count=st.integers(1, 64),
    name=st.text(min_size=1, max_size=200).filter(str.strip),
)
def test_load_save_load_is_identical(size, rate, count, name):
    text = MINIMAL.replace('"10 TB"', f'"{size}"').replace('"300 MB/s"', f'"{rate}"')
    text = text.replace("count = 4", f"count = {count}")
    s = load_scenario_text(text)
    s = with_values(s, {"name": name, "customer": "Café ERP — Łódź"})
    again = load_scenario_text(dump_scenario(s))
    assert again == s
