"""The least hardware for every priority-1 database to meet its RTO."""

from __future__ import annotations

from pathlib import Path

from rtoplanner.core.estate import least_hardware, load_estate, run_estate, with_shared_count
from rtoplanner.core.estate.least import tier1_view

from .estate_helpers import DRIVE, MEDIA, estate, scenario, shared_stage
from .test_estate_policy import tight_demo

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"


def test_demo_needs_exactly_the_count_found(tmp_path):
    """On the demo where no runbook is enough: the count the bisection finds meets (with
    the runbook the search is on top of) and one fewer does not."""
    est = load_estate(tight_demo(tmp_path))
    result = run_estate(est)
    assert not result.tier1_all_meet
    least = least_hardware(est, result)
    assert least.counts[0].resource == result.deciding
    drives = next(c for c in least.counts if c.resource == "LTO-8 library")
    assert drives.needed is not None and drives.needed > drives.current
    assert least.policy is not None
    on_top = est.with_policy(least.policy.best.policy)
    more = run_estate(tier1_view(with_shared_count(on_top, drives.resource, drives.needed)))
    fewer = run_estate(tier1_view(with_shared_count(on_top, drives.resource, drives.needed - 1)))
    assert more.tier1_all_meet and not fewer.tier1_all_meet


def test_nothing_to_add_when_tier_one_meets():
    a = scenario("a", path=[shared_stage(DRIVE, "LIB"), shared_stage(MEDIA, "MS")], rto="3 d")
    est = estate([(a, 1)], shared=[{**DRIVE, "name": "LIB"}, {**MEDIA, "name": "MS"}])
    assert least_hardware(est).already_met


def test_a_database_missing_alone_is_named_not_fixed_by_shared_units():
    slow = scenario("slow", path=[shared_stage(DRIVE, "LIB"), dict(MEDIA)], rto="10 min")
    est = estate([(slow, 1)], shared=[{**DRIVE, "name": "LIB"}])
    least = least_hardware(est)
    assert least.misses_alone == ("slow",) and least.counts == ()


def test_a_sentence_names_a_few_databases_and_counts_the_rest():
    from rtoplanner.core.wording import NAMES_SHOWN, name_list

    assert name_list(["a"]) == "a"
    assert name_list(["a", "b", "c"]) == "a, b and c"
    many = [f"db{i:03d}" for i in range(146)]
    text = name_list(many)
    assert text.startswith("db000, db001") and text.endswith(f"and {146 - NAMES_SHOWN} more")
    assert "db010" not in text


def test_a_search_the_cap_stopped_does_not_blame_something_else():
    """With no answer because the cap stopped the search, the sentence says so: it said
    'something other than the shared hardware decides', which nobody had shown."""
    from rtoplanner.core.estate.least import METHOD, LeastHardware
    from rtoplanner.core.estate.least_words import least_summary

    note = "the search stopped after 20 simulations (the cap)"
    stopped = LeastHardware(METHOD, False, (), (), cap_hit=True, simulations=20, notes=(note,))
    text = " ".join(least_summary(stopped))
    assert "something other than the shared hardware" not in text
    assert "dearer ones were not tried" in text
    done = LeastHardware(METHOD, False, (), (), simulations=20)
    assert "something other than the shared hardware decides" in " ".join(least_summary(done))


def test_another_drive_model_brings_its_own_cartridge_mechanics():
    """'Replace the 10 tape drives of LTO-8 library with N × LTO-9': the library then
    loads LTO-9 cartridges (the catalog's load time and capacity), and the estate file
    written says `item = "LTO-9"`. Without `item` the swapped drive had no mechanics."""
    from rtoplanner.core.catalog import shipped_catalog
    from rtoplanner.core.estate.least_candidates import shared_dimensions, with_shared_edits
    from rtoplanner.core.estate.model import dump_estate
    from rtoplanner.core.fix.prices import PriceBook
    from rtoplanner.core.toml_edit import merge_edits

    catalog = shipped_catalog()
    est = load_estate(DEMO)
    dims = shared_dimensions(est, catalog, PriceBook.from_catalog(catalog))
    library = next(d for d in dims if d.resource == "LTO-8 library")
    swap = next(o for o in library.options if o.change and o.change.item == ("tape_drive", "LTO-9"))
    lto9 = catalog.find("tape_drive", "LTO-9")
    assert swap.stage.name == "LTO-8 library" and swap.stage.load_s == lto9.load_s > 0
    assert swap.change.edits["shared[0].item"] == "LTO-9"
    assert est.resource("LTO-8 library").stage.load_s == catalog.find("tape_drive", "LTO-8").load_s

    fixed = with_shared_edits(est, swap.change.edits, catalog)  # what Apply and --fix make
    assert fixed.resource("LTO-8 library").stage.load_s == lto9.load_s
    original = DEMO.read_text(encoding="utf-8")
    text = merge_edits(original, dump_estate(est), dump_estate(fixed))
    assert 'item = "LTO-9"' in text and "# item: the catalog's LTO-8" in text  # comments kept
