"""The [uncertainty] table: range texts, keys by name or position, defaults by
provenance, and one-line errors with the file, line and key."""

from __future__ import annotations

import pytest

from rtoplanner.core.errors import ScenarioError, UnitError
from rtoplanner.core.paths import scenarios_dir
from rtoplanner.core.scenario import dump_scenario, load_scenario, load_scenario_text, with_values
from rtoplanner.core.scenario.priors import shipped_priors
from rtoplanner.core.scenario.provenance import (
    estimate_spread,
    measured_spread,
    parse_provenance,
)
from rtoplanner.core.scenario.ranges import parse_range
from rtoplanner.core.uncertainty.inputs import range_problem, uncertain_inputs
from rtoplanner.core.units import parse_fraction, parse_rate

from .risk_helpers import BASE, scenario_with

DEMOS = sorted(scenarios_dir().glob("*.toml"))


def by_key(scenario, catalog=None):
    return {i.key: i for i in uncertain_inputs(scenario, catalog)}


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("±15%", -0.15, 0.15),
        ("+-15 %", -0.15, 0.15),
        ("+/-7.5%", -0.075, 0.075),
        ("-40%..+20%", -0.40, 0.20),
        ("-30%..+0%", -0.30, 0.0),
        ("-30%..0%", -0.30, 0.0),
        ("−10% … +5%", -0.10, 0.05),
        ("±0", 0.0, 0.0),
        ("0%", 0.0, 0.0),
    ],
)
def test_relative_ranges(text, low, high):
    r = parse_range(text, parse_rate)
    assert r.relative
    assert (r.low, r.high) == pytest.approx((low, high))
    assert r.bounds(100.0) == pytest.approx((100 * (1 + low), 100 * (1 + high)))


def test_absolute_ranges_use_the_keys_unit():
    r = parse_range("3%..9%", parse_fraction)
    assert not r.relative and (r.low, r.high) == pytest.approx((0.03, 0.09))
    r = parse_range("90 MB/s..140 MB/s", parse_rate)
    assert r.bounds(120e6) == pytest.approx((90e6, 140e6))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty range"),
        ("15%", "not a range"),
        ("-40%..20%", "mixes a relative end"),
        ("+10%..+20%", "must lie inside its range"),
        ("±120%", "100 %"),
        ("9%..3%", "swap them"),
        ("3 parsecs..9 parsecs", "3 parsecs"),
        ("±15", "'%'"),
    ],
)
def test_bad_ranges_say_what_to_write(text, fragment):
    with pytest.raises(UnitError, match=None) as exc:
        parse_range(text, parse_fraction)
    assert fragment in str(exc.value)


def test_keys_by_name_position_and_nested_tables_are_one_figure():
    quoted = scenario_with('"path.LTO-4.rate" = "±15%"')
    indexed = scenario_with('"path[0].rate" = "±15%"')
    nested = scenario_with('path.LTO-4.rate = "±15%"')
    for s in (quoted, indexed, nested):
        item = by_key(s)["path[0].rate"]
        assert (item.low, item.high) == pytest.approx((102e6, 138e6))
        assert item.origin == "uncertainty"
    # A stage name with spaces, brackets and dots.
    s = scenario_with('"path.Media server (IB DDR).rate" = "-20%..+0%"')
    assert by_key(s)["path[1].rate"].low == pytest.approx(0.8e9)


def test_the_table_survives_a_save_and_an_edit():
    s = scenario_with('"recovery.redo_apply_rate" = "-40%..+20%"\n"path.LTO-4.rate" = "±15%"')
    again = load_scenario_text(dump_scenario(s))
    assert again == s
    assert again.uncertainty == {"recovery.redo_apply_rate": "-40%..+20%",
                                 "path.LTO-4.rate": "±15%"}  # fmt: skip
    edited = with_values(s, {"uncertainty.recovery.redo_apply_rate": "±5%"})
    assert by_key(edited)["recovery.redo_apply_rate"].range_text == "±5%"
    removed = with_values(s, {"uncertainty.path.LTO-4.rate": None})
    assert "path.LTO-4.rate" not in removed.uncertainty


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.mark.parametrize(
    ("entry", "fragment"),
    [
        ('"recovery.redo_aply_rate" = "±10%"', "did you mean 'recovery.redo_apply_rate'?"),
        ('"path.LTO-7.rate" = "±1%"', "no stage named 'LTO-7' in the path (did you mean 'LTO-4'?)"),
        ('"path.LTO-4.rat" = "±10%"', "did you mean 'path.LTO-4.rate'?"),
        ('"path[5].rate" = "±10%"', "there is no path[5]"),
        ('"databse.size" = "±10%"', "did you mean 'database.size'?"),
        ('"backup.channels" = "±10%"', "is a count"),
        ('"backup.level0_every" = "±10%"', "a setting the customer chooses"),
        ('"targets.rto" = "±10%"', "a target"),
        ('"recovery.redo_volume" = "±10%"', "not set in the scenario"),
        ('"database.daily_change" = "6%..9%"', "does not contain the scenario's value 5"),
        ('"recovery.redo_apply_rate" = "-40%..20%"', "mixes a relative end"),
        ('"recovery.redo_apply_rate" = 15', "write it in quotes"),
        ('"backup.compression_ratio" = "±10%"', "RMAN compression is off"),
    ],
)
def test_errors_name_the_file_line_and_key(entry, fragment):
    text = BASE + "\n[uncertainty]\n" + '"database.size" = "±1%"\n' + entry + "\n"
    with pytest.raises(ScenarioError) as exc:
        load_scenario_text(text, source="plan.toml")
    message = str(exc.value)
    key = entry.split("=")[0].strip().strip('"')
    assert message.startswith(f"plan.toml:{line_of(text, entry)}: uncertainty.{key}: "), message
    assert fragment in message
    assert "\n" not in message


def test_same_figure_twice_is_refused():
    with pytest.raises(ScenarioError, match=r"same figure as 'path\.LTO-4\.rate'"):
        scenario_with('"path.LTO-4.rate" = "±10%"\n"path[0].rate" = "±5%"')


def test_two_stages_with_one_name_must_be_named_by_position():
    text = BASE.replace('name = "Media server (IB DDR)"', 'name = "LTO-4"')
    with pytest.raises(ScenarioError, match=r"2 stages are named 'LTO-4'.*path\[0\] or path\[1\]"):
        load_scenario_text(text + '\n[uncertainty]\n"path.LTO-4.rate" = "±10%"\n')


def test_default_ranges_follow_provenance():
    text = BASE.replace('rate = "120 MB/s"\nhw_compression = 2.0\n', "")  # LTO-4 from the catalog
    text = text.replace('redo_apply_rate = "72 MB/s"\n', "")  # the workload class's default
    text += '\n[provenance]\n"database.redo_rate" = "AWR PROD 2026-01-05, p95 of 120 snapshots"\n'
    s = load_scenario_text(text)
    items = by_key(s)
    measured = items["database.redo_rate"]
    # a measured figure's spread: the catalog's `measured` prior, fitted on the fidelity
    # corpus (how far a source's own measurement predicted its outcome)
    spread = measured_spread()
    assert (measured.origin, measured.range_text) == ("measured", spread.text)
    assert spread.p10 < 0.9 and spread.p90 > 1.1  # wider than the old ±10 % triangle
    assert measured.low == pytest.approx(5e6 * spread.p10)
    assert measured.high == pytest.approx(5e6 * spread.p90)
    assert "AWR PROD" in measured.source
    drive = items["path[0].rate"]
    prior = shipped_priors().find("tape_drive", "rate", "LTO-4")
    assert (drive.origin, drive.distribution, drive.range_text) == ("catalog", "lognormal",
                                                                    prior.text)  # fmt: skip
    assert (drive.low, drive.high) == pytest.approx((drive.value * prior.p10,
                                                     drive.value * prior.p90))  # fmt: skip
    assert drive.low < drive.value < drive.high  # two-sided: drives have beaten their rating
    assert "catalog" in s.path[0].source and drive.source in s.path[0].source
    assert "cristie.de" in drive.prior_source and "5 published points" in drive.evidence
    assert items["path[0].hw_compression"].distribution == "lognormal"
    assert items["path[0].efficiency"].is_zero  # the derate: covered by the rate's prior
    redo_apply = items["recovery.redo_apply_rate"]
    assert (redo_apply.origin, redo_apply.distribution) == ("default", "lognormal")
    assert redo_apply.high / redo_apply.low > 10  # public rates of one class span 20×
    typed = items["database.size"]
    spread = estimate_spread()  # the catalog's estimate prior, fitted on the corpus
    assert (typed.origin, typed.range_text, typed.distribution) == (
        "estimate", spread.text, "lognormal")  # fmt: skip
    assert (typed.low, typed.high) == pytest.approx((spread.p10 * typed.value,
                                                     spread.p90 * typed.value))  # fmt: skip
    assert spread.p10 < 0.8 and spread.p90 > 1.25  # wider than the ±25 % triangle's P10..P90
    # A value nobody gave (a format default) is not listed.
    assert "path[1].efficiency" not in items


def test_no_figure_is_held_at_zero_by_default():
    """DESIGN §10: typed is an estimate (±25 %), never ±0; only 'exact' pins a figure,
    and a catalog derate is carried by its rate's prior."""
    for demo in DEMOS:
        s = load_scenario(demo)
        for item in uncertain_inputs(s):
            if item.is_zero:
                assert item.default_origin in ("exact", "catalog"), (demo.name, item.key)
                assert item.default_origin == "exact" or "prior covers it" in item.source


def test_unverified_catalog_figures_get_twice_the_spread():
    from rtoplanner.core.catalog import Catalog, CatalogItem

    catalog = Catalog([CatalogItem("tape_drive", "T10K-D", "⚠ unverified recollection",
                                   rate_Bps=252e6)])  # fmt: skip
    text = BASE.replace('name = "LTO-4"', 'name = "T10K-D"').replace(
        'rate = "120 MB/s"\nhw_compression = 2.0\n', ""
    )
    s = load_scenario_text(text, catalog=catalog)
    drive = by_key(s, catalog)["path[0].rate"]
    kind = shipped_priors().find("tape_drive", "rate")
    assert (drive.origin, drive.distribution) == ("catalog", "lognormal")
    assert drive.sigma == pytest.approx(2 * kind.sigma)
    assert drive.median_factor == pytest.approx(kind.median)


def test_a_stated_provenance_decides_the_spread():
    text = BASE + (
        '\n[provenance]\n"database.size" = "exact: DBA_DATA_FILES 2026-11-20"\n'
        '"path.LTO-4.rate" = "measured ±15%: drill 3, 2026-10-12"\n'
        '"recovery.detect" = "estimate ±50%"\n'
        '"recovery.redo_apply_rate" = "default: the mixed class"\n'
        '"database.redo_rate" = "measured: AWR"\n'
        '"backup.channel_init" = "catalog"\n'
    )
    items = by_key(load_scenario_text(text))
    size = items["database.size"]
    assert (size.origin, size.is_zero, size.source, size.stated) == (
        "exact", True, "DBA_DATA_FILES 2026-11-20", True)  # fmt: skip
    drive = items["path[0].rate"]
    assert (drive.origin, drive.range_text, drive.source) == ("measured", "±15%",
                                                              "drill 3, 2026-10-12")  # fmt: skip
    assert items["recovery.detect"].range_text == "±50%"
    assert items["recovery.redo_apply_rate"].distribution == "lognormal"
    assert items["database.redo_rate"].range_text == measured_spread().text
    init = items["backup.channel_init"]  # 'catalog' on a class default: its prior
    assert (init.origin, init.distribution) == ("catalog", "lognormal")
    assert "24 channels" in init.prior_source


def test_old_provenance_texts_keep_their_meaning():
    for text in ("AWR PROD 2026-01-05 (avg)", "measured by a drill", "catalog of 2019",
                 "estimated from the vendor"):  # fmt: skip
        p = parse_provenance(text)
        assert (p.kind, p.legacy, p.source) == ("measured", True, f"imported: {text}")
    assert parse_provenance("Estimate").kind == "estimate"
    assert parse_provenance("measured:x").source == "x"


@pytest.mark.parametrize(
    ("entry", "fragment"),
    [
        ('"database.size" = "exact ±5%: x"', "takes its spread"),
        ('"database.size" = "measured ±5%: x"', "at least ±10 %"),
        ('"database.size" = "catalog"', "no catalog figure prior for 'database.size'"),
        ('"recovery.incremental_apply_rate" = "default"', "no class default prior"),
        ('"path.LTO-5.rate" = "exact"', "no stage named 'LTO-5'"),
        ('"recovery.redo_volume" = "exact"', "not set in the scenario"),
        ('"database.size" = "measured ±x%: y"', "not a range"),
    ],
)
def test_bad_stated_provenance_is_one_line(entry, fragment):
    text = BASE + "\n[provenance]\n" + entry + "\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, source="plan.toml")
    message = str(info.value)
    key = entry.split("=")[0].strip().strip('"')
    assert message.startswith(f"plan.toml:{line_of(text, entry)}: provenance.{key}: "), message
    assert fragment in message and "\n" not in message


@pytest.mark.parametrize(
    ("entry", "fragment"),
    [
        ('"backup.compression_ratio" = "0..4"', "low end 0 is out of range"),
        ('"backup.compression_ratio" = "1..101"', "high end 101 is out of range"),
        ('"path[0].efficiency" = "±20%"', "high end 108 %"),
        ('"database.daily_change" = "0%..140%"', "high end 140 %"),
        ('"recovery.open" = "1 min..30 d"', "high end 30 d"),
    ],
)
def test_range_ends_are_held_to_the_keys_bounds(entry, fragment):
    """Issue 25.6: a range past the key's own bounds is refused, not drawn into NaN."""
    text = BASE.replace("hw_compression = 2.0\n", "hw_compression = 2.0\nefficiency = 0.9\n")
    text = text.replace("[backup]\n", "[backup]\ncompression_ratio = 2\n")
    text += "\n[uncertainty]\n" + entry + "\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, source="plan.toml")
    assert fragment in str(info.value), str(info.value)
    key = entry.split("=")[0].strip().strip('"')
    s = load_scenario_text(text.replace(entry, ""))
    assert fragment in range_problem(key, entry.split("=")[1].strip().strip('"'), s)


def test_default_ranges_are_cut_at_the_keys_bounds():
    text = BASE.replace("hw_compression = 2.0\n", "hw_compression = 2.0\nefficiency = 0.9\n")
    eff = by_key(load_scenario_text(text))["path[0].efficiency"]
    low = 0.9 * estimate_spread().p10  # an estimate: its P10; its P90 is past 100 %
    assert (eff.low, eff.high, eff.ceiling) == pytest.approx((low, 1.0, 1.0))


def test_a_measured_stage_gets_the_measured_range():
    drive = 'kind = "tape_drive"\nname = "LTO-4"\ncount = 4\nrate = "120 MB/s"\n'
    drive += "hw_compression = 2.0\n"
    text = BASE.replace(drive, 'kind = "measured"\nrate = "400 MB/s"\n')
    item = by_key(load_scenario_text(text))["path[0].rate"]
    assert (item.origin, item.range_text) == ("measured", measured_spread().text)


def test_range_problem_explains_while_the_user_types():
    s = scenario_with()
    assert range_problem("recovery.redo_apply_rate", "-40%..", s)
    assert range_problem("recovery.redo_apply_rate", "-40%..+20%", s) is None
    assert "does not contain" in range_problem("database.daily_change", "6%..9%", s)


def test_ranges_follow_their_stages_through_renames_moves_and_removals():
    from rtoplanner.core.uncertainty.inputs import follow_stage_edits

    before = [{"kind": "tape_drive", "name": "LTO-4", "rate": "120 MB/s"},
              {"kind": "network", "name": "IB"}, {"kind": "disk"}]  # fmt: skip
    table = {"path.LTO-4.rate": "±15%", "path.IB.rate": "±5%", "path[2].rate": "±1%",
             "recovery.redo_apply_rate": "±9%"}  # fmt: skip
    renamed = [dict(before[0], name="LTO-4 (site B)"), before[1], before[2]]
    assert follow_stage_edits(table, before, renamed) == {
        "path.LTO-4 (site B).rate": "±15%", "path.IB.rate": "±5%", "path[2].rate": "±1%",
        "recovery.redo_apply_rate": "±9%"}  # fmt: skip
    moved = [before[1], before[0], before[2]]
    assert follow_stage_edits(table, before, moved, {0: 1, 1: 0, 2: 2}) == table
    removed = [before[1], before[2]]
    assert follow_stage_edits(table, before, removed, {0: None, 1: 0, 2: 1}) == {
        "path.IB.rate": "±5%",
        "path[1].rate": "±1%",
        "recovery.redo_apply_rate": "±9%",
    }
    # A catalog pick drops the stage's own rate: the range about that rate goes too.
    picked = [{"kind": "tape_drive", "name": "LTO-8"}, before[1], before[2]]
    assert "path.LTO-8.rate" not in follow_stage_edits(table, before, picked)


def test_a_range_the_plan_would_not_use_is_refused():
    with pytest.raises(ScenarioError, match="only tape drives have hardware compression"):
        scenario_with('"path[1].hw_compression" = "±10%"')


def test_an_imported_measurement_replaces_the_estimates_range():
    s = scenario_with('"database.daily_change" = "3%..9%"\n"path.LTO-4.rate" = "±15%"')
    prov = {"database.daily_change": "AWR PROD, block changes"}
    measured = with_values(s, {"database.daily_change": "38%"}, provenance=prov)
    assert measured.uncertainty == {"path.LTO-4.rate": "±15%"}
    item = by_key(measured)["database.daily_change"]
    assert (item.origin, item.range_text) == ("measured", measured_spread().text)
