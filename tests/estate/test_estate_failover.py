"""A database with a Data Guard standby fails over after the site loss (its plan's failover
route: declare, then `recovery.failover`), reads no backup and uses nothing shared —
unless the estate says `route = "restore"` (the standby is lost too)."""

from __future__ import annotations

import pytest

from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.estate import run_estate
from rtoplanner.core.estate.model import dump_estate, load_estate_text
from rtoplanner.core.plan import compute_plan

from .estate_helpers import DRIVE, estate, scenario, shared_stage

LIB = {**DRIVE, "name": "LIB", "count": 4}
STANDBY = {"backup": {"standby": "async", "transport_lag": "30 s"},
           "recovery": {"failover": "20 min"}}  # fmt: skip


def tape(name: str, **kw):
    return scenario(name, size="4 TB", path=[shared_stage(DRIVE, "LIB")], **kw)


def test_a_database_with_a_standby_fails_over_and_frees_the_library():
    guarded = tape("guarded", detect="10 min", extra=STANDBY)
    other = tape("other", rto="24 h")
    both = run_estate(estate([(guarded, 1), (other, 1)], [LIB]))
    alone = run_estate(estate([(other, 1)], [LIB]))

    g = both.database("guarded")
    assert [p.name for p in g.phases] == ["detect", "failover"]
    assert g.open_s == pytest.approx(10 * 60 + 20 * 60)
    assert g.open_s == pytest.approx(compute_plan(guarded).routes[1].total_s)  # the plan's route
    assert g.waits_s == {} or max(g.waits_s.values()) == 0
    # the other database has the library to itself: exactly as if it were alone
    assert both.database("other").open_s == pytest.approx(alone.database("other").open_s)


def test_route_restore_recovers_it_through_the_library_as_if_the_standby_was_lost():
    guarded = tape("guarded", extra=STANDBY)
    other = tape("other", rto="24 h")
    est = estate([(guarded, 1), (other, 1)], [LIB], guarded={"route": "restore"})
    result = run_estate(est)
    g = result.database("guarded")
    assert "restore_level0" in [p.name for p in g.phases]
    assert g.open_s == pytest.approx(g.alone_s, rel=0.5)  # restored, hours not minutes
    assert g.open_s > 3600
    assert 'route = "restore"' in dump_estate(est)


def test_route_failover_without_a_standby_names_the_key():
    plain = tape("plain")
    with pytest.raises(ScenarioError) as err:
        estate([(plain, 1)], [LIB], plain={"route": "failover"})
    assert err.value.key == "database[0].route"
    assert "no standby" in str(err.value) and 'route = "restore"' in str(err.value)


def test_a_misspelt_route_is_refused_with_the_choices():
    guarded = tape("guarded", extra=STANDBY)
    with pytest.raises(ScenarioError) as err:
        estate([(guarded, 1)], [LIB], guarded={"route": "fail over"})
    assert err.value.key == "database[0].route"
    assert "failover" in str(err.value) and "restore" in str(err.value)


def test_route_survives_a_save_and_reload(tmp_path):
    guarded = tape("guarded", extra=STANDBY)
    est = estate([(guarded, 1)], [LIB], guarded={"route": "failover"})
    text = dump_estate(est)
    assert 'route = "failover"' in text
    again = load_estate_text(text, resolve={"guarded": guarded}.__getitem__)
    assert again.databases[0].route == "failover"
